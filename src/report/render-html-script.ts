/**
 * The page's only script (allowed by its hash in the page's Content-Security-Policy): the case
 * filter, the heatmap toggle, expanding a case row, and #case=<id> links; the drill-down itself
 * is built by DRILL_SCRIPT. Every string from the data is inserted with textContent — never as markup.
 */
import { DRILL_SCRIPT } from "./render-html-script-drill.js";

const CONTROLS_SCRIPT = String.raw`
var heatToggle = document.getElementById("heat-errors-only");
var heatAll = document.getElementById("heat-all");
var heatHot = document.getElementById("heat-hot");
if (heatToggle && heatAll && heatHot) heatToggle.addEventListener("change", function () {
  heatAll.hidden = heatToggle.checked;
  heatHot.hidden = !heatToggle.checked;
});

var table = document.getElementById("case-table");
if (!table) return;
var rows = Array.prototype.slice.call(table.querySelectorAll("tr.case-row"));
var search = document.getElementById("case-search");
var stage = document.getElementById("case-stage");
var count = document.getElementById("case-count");
var columns = table.querySelector("thead tr").children.length;

function drillOf(row) {
  var next = row.nextElementSibling;
  return next && next.classList.contains("drill") ? next : null;
}

function toggle(row, open) {
  var button = row.querySelector("button.expand");
  var index = Number(row.getAttribute("data-index"));
  if (!button || !data || !data.cases[index]) return;
  var drill = drillOf(row);
  if (open && !drill) {
    drill = el("tr", "drill");
    var cell = add(drill, el("td"));
    cell.colSpan = columns;
    add(cell, buildDrill(data.cases[index]));
    row.parentNode.insertBefore(drill, row.nextSibling);
  }
  if (drill) drill.hidden = !open;
  button.setAttribute("aria-expanded", open ? "true" : "false");
  button.textContent = open ? "▾" : "▸";
}

function matches(row, query, wanted) {
  if (query && row.getAttribute("data-search").indexOf(query) < 0) return false;
  var st = row.getAttribute("data-stage");
  if (wanted === "all") return true;
  if (wanted === "failing") return st !== "passed" && st !== "errored";
  if (wanted === "violated") return row.getAttribute("data-violated") === "1";
  if (wanted === "unstable") return row.getAttribute("data-unstable") === "1";
  return st === wanted;
}

function applyFilter() {
  var query = search.value.trim().toLowerCase();
  var shown = 0;
  rows.forEach(function (row) {
    var ok = matches(row, query, stage.value);
    row.hidden = !ok;
    if (ok) shown++;
    var drill = drillOf(row);
    if (drill) drill.hidden = !ok || row.querySelector("button.expand").getAttribute("aria-expanded") !== "true";
  });
  count.textContent = shown + " of " + rows.length + " cases";
}

table.addEventListener("click", function (event) {
  var button = event.target.closest ? event.target.closest("button.expand") : null;
  if (button) toggle(button.closest("tr"), button.getAttribute("aria-expanded") !== "true");
});
search.addEventListener("input", applyFilter);
stage.addEventListener("change", applyFilter);

function openFromHash() {
  var match = /^#case=(.*)$/.exec(location.hash);
  if (!match) return;
  var id = decodeURIComponent(match[1]);
  var row = rows.filter(function (r) { return r.getAttribute("data-case-id") === id; })[0];
  if (!row) return;
  search.value = "";
  stage.value = "all";
  applyFilter();
  toggle(row, true);
  row.scrollIntoView();
}
window.addEventListener("hashchange", openFromHash);
applyFilter();
openFromHash();
`;

export const HTML_SCRIPT = `(function () {${DRILL_SCRIPT}${CONTROLS_SCRIPT}})();
`;
