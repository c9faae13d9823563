// The replay viewer: play, pause, speeds, a slider and keys, without reloading the page.
// Each step is an HTML fragment the server renders (autoescaped); links still work
// without JavaScript.
//
// Every control moves a target step; one loop fetches until the step shown is the
// target. A press while a step is loading moves the target on, and the next fetch goes
// straight to it: ten quick presses of → end ten steps on, never fewer (a press is never
// dropped), and holding a key runs as fast as the server answers.
"use strict";

(function () {
  const root = document.getElementById("replay");
  if (!root) return;
  const frame = root.querySelector(".frame");
  const player = root.querySelector(".player");
  const playButton = root.querySelector("button.play");
  const speedSelect = root.querySelector("select.speed");
  const scrubber = root.querySelector("input.scrubber");
  const STEP_MS = 1000;  // one step a second at 1×

  let target = null;
  let loading = false;
  let playing = false;
  let timer = null;

  function shown() {
    const step = frame.querySelector(".step");
    return step ? {step: Number(step.dataset.step), steps: Number(step.dataset.steps)} : null;
  }

  function clamp(step) {
    const now = shown();
    return Math.max(0, Math.min(step, now.steps - 1));
  }

  function moveTo(step) {
    if (!shown()) return;
    target = clamp(step);
    pump();
  }

  function moveBy(delta) {
    const now = shown();
    if (!now) return;
    moveTo((target === null ? now.step : target) + delta);
  }

  async function pump() {
    if (loading) return;
    loading = true;
    try {
      while (target !== null && target !== shown().step) {
        const want = target;
        const query = "?seat=" + encodeURIComponent(root.dataset.seat) + "&step=" + want;
        let response;
        try {
          response = await fetch(root.dataset.url + query);
        } catch (error) {
          response = null;
        }
        if (response && response.status === 429) {  // the read limit: wait, then go on
          const wait = Number(response.headers.get("Retry-After")) || 1;
          await new Promise((done) => setTimeout(done, wait * 1000));
          continue;
        }
        if (!response || !response.ok) {  // the step is not to be had: stay where we are
          target = shown().step;
          setPlaying(false);
          break;
        }
        frame.innerHTML = await response.text();
        history.replaceState(null, "", query);
      }
    } finally {
      loading = false;
    }
    settled();
  }

  // The step shown is the target: show where we are, and play on if playing.
  function settled() {
    const now = shown();
    if (!now) return;
    if (scrubber) scrubber.value = String(now.step);
    for (const link of document.querySelectorAll("a.view-link")) {
      const url = new URL(link.href);
      url.searchParams.set("step", String(now.step));
      link.href = url.toString();
    }
    root.dataset.settled = String(now.step);
    if (playing && now.step >= now.steps - 1) setPlaying(false);
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    timer = null;
    if (!playing || loading) return;
    const speed = Number(speedSelect ? speedSelect.value : 1) || 1;
    timer = setTimeout(() => moveBy(1), STEP_MS / speed);
  }

  function setPlaying(on) {
    playing = on;
    if (playButton) {
      playButton.textContent = on ? "❚❚ pause" : "▶ play";
      playButton.setAttribute("aria-pressed", String(on));
    }
    if (!on) {
      clearTimeout(timer);
      timer = null;
    }
  }

  function toggle() {
    const now = shown();
    if (!now) return;
    if (playing) {
      setPlaying(false);
      return;
    }
    setPlaying(true);
    if (now.step >= now.steps - 1) moveTo(0);  // from the end: play again from the start
    else schedule();
  }

  if (player) {
    player.hidden = false;
    playButton.addEventListener("click", toggle);
    speedSelect.addEventListener("change", schedule);
    scrubber.addEventListener("input", () => moveTo(Number(scrubber.value)));
  }

  root.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-step]");
    if (!link) return;
    event.preventDefault();
    moveTo(Number(link.dataset.step));
  });

  // Keys act unless a control that uses them has the focus (its own Space, its arrows).
  const OWN_KEYS = "input, select, textarea, button, summary, a[href]";
  document.addEventListener("keydown", (event) => {
    if (!shown() || event.altKey || event.ctrlKey || event.metaKey) return;
    const inControl = event.target instanceof Element && event.target.closest(OWN_KEYS);
    if (event.key === " " && !inControl) {
      event.preventDefault();
      toggle();
      return;
    }
    if (inControl && event.target.matches("input, select, textarea")) return;
    const moves = {ArrowRight: 1, ArrowLeft: -1};
    if (event.key in moves) {
      event.preventDefault();
      moveBy(moves[event.key]);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      moveTo(event.key === "Home" ? 0 : shown().steps - 1);
    }
  });

  const first = shown();
  if (first) {
    target = first.step;
    root.dataset.settled = String(first.step);
  }
})();
