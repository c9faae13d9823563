// The arena's pages: rating charts (plotly.js, shipped by the plotly Python package)
// and the live leaderboard (Server-Sent Events). The static export inlines this file.
"use strict";

const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
  "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

function bandColour(hex) {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},0.15)`;
}

// plotly reads a few HTML-like tags and entities in names (<b>, <a href>, &lt;): escape
// them so a name is always drawn as the text it is.
function plainText(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// One line per bot (its mu after each match, meta "bot") and its band mu ± 3σ drawn
// under it (meta "band", not in the legend). Names reach plotly as data, never as HTML.
function ratingChart(element, data) {
  const traces = [];
  Object.entries(data.series).forEach(([bot, s], i) => {
    const colour = PALETTE[i % PALETTE.length];
    traces.push({
      x: s.x.concat(s.x.slice().reverse()),
      y: s.high.concat(s.low.slice().reverse()),
      fill: "toself", fillcolor: bandColour(colour), line: {width: 0},
      hoverinfo: "skip", showlegend: false, legendgroup: String(i), meta: "band",
      type: "scatter", mode: "lines",
    });
    traces.push({
      x: s.x, y: s.mu, name: plainText(bot), legendgroup: String(i), meta: "bot",
      line: {color: colour, width: 2}, type: "scatter", mode: "lines",
      hovertemplate: "after %{x} rated matches<br>mu %{y:.2f}<extra>%{fullData.name}</extra>",
    });
  });
  if (!traces.length) {
    element.textContent = "No rated matches yet.";
    return;
  }
  window.Plotly.newPlot(element, traces, {
    margin: {t: 10, r: 10, b: 40, l: 50}, height: 400,
    xaxis: {title: {text: "rated matches"}}, yaxis: {title: {text: "rating (mu)"}},
    legend: {orientation: "h", y: -0.2}, hovermode: "closest",
  }, {displaylogo: false, responsive: true});
}

function drawCharts() {
  document.querySelectorAll(".chart").forEach((element) => {
    const source = document.getElementById(element.id + "-data");
    if (source && window.Plotly) ratingChart(element, JSON.parse(source.textContent));
  });
}

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
  drawCharts();
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

document.addEventListener("DOMContentLoaded", () => {
  drawCharts();
  loadCharts();
  followLadder();
});
