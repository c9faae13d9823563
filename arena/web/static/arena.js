// The arena's pages: the ladder's chart and matrix fetched after its leaderboard, and
// the live leaderboard (Server-Sent Events). The charts are SVG drawn by the server
// (arena/web/chart.py): no chart script. The static export needs no script at all.
"use strict";

// A ladder's chart and matrix come in a request of their own, after the leaderboard.
async function loadCharts() {
  const holder = document.querySelector(".charts[data-src]");
  if (!holder) return;
  const answer = await fetch(holder.dataset.src);
  if (!answer.ok) {
    holder.textContent = "The rating history and the head-to-head could not be loaded.";
    return;
  }
  holder.innerHTML = await answer.text();  // rendered and escaped by the server
  holder.dataset.loaded = String(Number(holder.dataset.loaded || 0) + 1);
}

// The first page of a leaderboard follows the ladder: on each "matches" event naming
// it, the rows are fetched again (rendered and escaped by the server) and swapped in.
function followLadder() {
  const live = document.querySelector("[data-live]");
  const table = document.querySelector("table.leaderboard");
  if (!live || !table || !window.EventSource) return;
  const ladder = table.dataset.ladder;
  // The newest match this page shows: the server says at once if the ladder has moved.
  const since = "?ladder=" + encodeURIComponent(ladder) + "&head=" + encodeURIComponent(live.dataset.head || "");
  const events = new EventSource("/events" + since);
  let updates = 0;
  events.onopen = () => { live.dataset.live = "on"; };
  events.onerror = () => { live.dataset.live = "off"; };
  events.addEventListener("matches", async (message) => {
    if (!JSON.parse(message.data).ladders.includes(ladder)) return;
    const answer = await fetch("/ladder/rows?ladder=" + encodeURIComponent(ladder));
    if (!answer.ok) return;
    table.tBodies[0].innerHTML = await answer.text();
    updates += 1;
    live.dataset.updates = String(updates);
    if (updates % 5 === 0) loadCharts();  // the chart moves slowly: now and then
  });
}

// A table.sortable sorts the rows it shows by a column whose header has data-sort
// (number: by each cell's data-value; text: by its text), each click flipping the way.
// The list's own order and paging stay the server's (newest or oldest first).
function sortableTables() {
  for (const table of document.querySelectorAll("table.sortable")) {
    table.querySelectorAll("th[data-sort]").forEach((th) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.append(...th.childNodes);
      th.append(button);
      button.addEventListener("click", () => {
        const up = th.getAttribute("aria-sort") !== "ascending";
        table.querySelectorAll("th[aria-sort]").forEach((other) => other.removeAttribute("aria-sort"));
        th.setAttribute("aria-sort", up ? "ascending" : "descending");
        const index = Array.from(th.parentNode.children).indexOf(th);
        const key = (row) => {
          const cell = row.children[index];
          return th.dataset.sort === "number" ? Number(cell.dataset.value) : cell.textContent.trim();
        };
        const body = table.tBodies[0];
        const rows = Array.from(body.rows);
        rows.sort((a, b) => {
          const x = key(a), y = key(b);
          const order = x < y ? -1 : x > y ? 1 : 0;
          return up ? order : -order;
        });
        body.append(...rows);
      });
    });
  }
}

// A live match's board (rendered and escaped by the server) is fetched again about once
// a second until the server says the match is over.
function followMatch() {
  const holder = document.querySelector(".live-holder[data-src]");
  if (!holder) return;
  const every = Number(holder.dataset.refreshMs) || 1000;
  const again = async () => {
    const answer = await fetch(holder.dataset.src).catch(() => null);
    if (answer && answer.ok) {
      holder.innerHTML = await answer.text();
      holder.dataset.updates = String(Number(holder.dataset.updates || 0) + 1);
    }
    const board = holder.querySelector(".live-board");
    if (!board || board.dataset.over !== "1") setTimeout(again, every);
  };
  setTimeout(again, every);
}

// A page waiting for others (a lobby table filling up, a person's table while the others
// play) loads itself again after a moment: a script, not <meta http-equiv="refresh">,
// which moves the page under a screen reader's feet (WCAG 2.2.1, axe: meta-refresh).
function reloadWhenDue() {
  const due = document.querySelector("[data-reload-ms]");
  if (!due) return;
  setTimeout(() => location.replace(due.dataset.reloadUrl || location.href), Number(due.dataset.reloadMs));
}

document.addEventListener("DOMContentLoaded", () => {
  reloadWhenDue();
  loadCharts();
  followLadder();
  sortableTables();
  followMatch();
});
