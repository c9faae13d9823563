// A person's table (play.html): the clock counts down from the server's figures, and
// ticked cards show which choice they make before it is sent. The server decides: the
// clock is the page's view of it, and the ticked cards are checked again there.
"use strict";

function minutes(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// Time for this decision first, then the time bank (as the seat draws on them).
function runClock() {
  const clock = document.querySelector(".clock[data-running]");
  if (!clock) return;
  const left = Number(clock.dataset.leftMs), bank = Number(clock.dataset.bankMs);
  const shownLeft = clock.querySelector(".clock-left"), shownBank = clock.querySelector(".clock-bank");
  const started = Date.now();
  const tick = () => {
    const spent = Date.now() - started;
    shownLeft.textContent = minutes(left - spent);
    shownBank.textContent = minutes(spent > left ? bank - (spent - left) : bank);
    clock.classList.toggle("in-bank", spent > left);
  };
  tick();
  setInterval(tick, 250);
}

function counted(names) {
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  return counts;
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const ca = counted(a), cb = counted(b);
  for (const [name, n] of ca) if (cb.get(name) !== n) return false;
  return true;
}

// Which choice the ticked cards make (or what is missing); the button waits until then.
function previewPicks() {
  const picks = document.querySelector("fieldset.picks");
  if (!picks) return;
  const sets = JSON.parse(picks.dataset.sets), labels = JSON.parse(picks.dataset.labels);
  const repeats = Number(picks.dataset.repeats);
  const submit = picks.querySelector(".pick-submit"), preview = picks.querySelector(".pick-preview");
  const update = () => {
    const ticked = [...picks.querySelectorAll("input[name=card]:checked")].map((box) => box.value);
    let words = "", ok = false;
    const one = (name) => labels[sets.findIndex((cards) => cards.length === 1 && cards[0] === name)];
    if (repeats === 0) {  // any number, then the choice of no cards ends the run
      ok = ticked.length > 0;
      words = ok ? ticked.map(one).join("; ") + "; then " + labels[sets.findIndex((cards) => !cards.length)] : "";
    } else if (repeats > 1) {
      ok = ticked.length === repeats;
      words = ok ? ticked.map(one).join("; ") : ticked.length + " of " + repeats + " ticked";
    } else {
      const index = sets.findIndex((cards) => cards.length && sameCards(cards, ticked));
      ok = index >= 0;
      words = ok ? labels[index] : ticked.length ? "no choice takes exactly these cards" : "";
    }
    preview.textContent = words;
    submit.disabled = !ok;
  };
  picks.addEventListener("change", update);
  update();
}

runClock();
previewPicks();
