// The replay viewer: step forward and back without reloading the page. Each step is an
// HTML fragment the server renders (autoescaped); links still work without JavaScript.
"use strict";

(function () {
  const root = document.getElementById("replay");
  if (!root) return;
  let busy = false;

  function current() {
    const step = root.querySelector(".step");
    return step ? {step: Number(step.dataset.step), steps: Number(step.dataset.steps)} : null;
  }

  async function go(step) {
    const now = current();
    if (busy || !now) return;
    step = Math.max(0, Math.min(step, now.steps - 1));
    if (step === now.step) return;
    busy = true;
    try {
      const query = "?seat=" + encodeURIComponent(root.dataset.seat) + "&step=" + step;
      const response = await fetch(root.dataset.url + query);
      if (!response.ok) return;
      root.innerHTML = await response.text();
      history.replaceState(null, "", query);
    } finally {
      busy = false;
    }
  }

  root.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-step]");
    if (!link) return;
    event.preventDefault();
    go(Number(link.dataset.step));
  });

  document.addEventListener("keydown", (event) => {
    const now = current();
    if (!now || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = {ArrowRight: now.step + 1, ArrowLeft: now.step - 1, Home: 0, End: now.steps - 1}[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  });
})();
