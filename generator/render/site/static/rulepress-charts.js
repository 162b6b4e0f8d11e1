/* Rulepress chart pickers: pick your value and theirs, read the target and the odds, and why.
   The data is the chart's own cells, embedded beside each picker as JSON; nothing is fetched. */
(function () {
  "use strict";
  function grid(form) {
    // the chart's grid follows its picker (in the table wrapper Sphinx puts around it)
    var next = form.nextElementSibling;
    return next ? (next.matches("table") ? next : next.querySelector("table.rulepress-charts")) : null;
  }
  function mark(form, row, column, reveal) {
    var table = grid(form);
    if (!table) return;
    var old = table.querySelectorAll(".chart-picked");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("chart-picked");
    var line = table.tBodies[0] && table.tBodies[0].rows[row];
    var cell = line && line.cells[column + 1];  // the first cell of a line is its row heading
    if (!cell) return;
    cell.classList.add("chart-picked");
    line.cells[0].classList.add("chart-picked");
    var head = table.tHead && table.tHead.rows[0] && table.tHead.rows[0].cells[column + 1];
    if (head) head.classList.add("chart-picked");
    if (reveal) cell.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  function show(form, reveal) {
    var data = JSON.parse(form.querySelector("script.chart-picker-data").textContent);
    var row = form.querySelector("select[name=row]").selectedIndex;
    var column = form.querySelector("select[name=column]").selectedIndex;
    mark(form, row, column, reveal);
    var cell = data.cells[row][column];
    var out = form.querySelector("output.chart-picker-result"), before = out.querySelector("details.rp-calc-why");
    var open = !!(before && before.open);
    out.textContent = "";
    var target = document.createElement("strong");
    target.className = "chart-picker-target";
    // a number the formula gives a unit to says it: `0.83 hits`, `1 hit`
    var units = data.units || [];
    target.textContent = units.length && /\d$/.test(cell[0]) ? cell[0] + " " + units[cell[0] === "1" ? 0 : 1] : cell[0];
    out.appendChild(target);
    if (cell[1]) {
      var odds = document.createElement("span");
      odds.className = "chart-picker-odds";
      odds.textContent = cell[1];
      out.appendChild(document.createTextNode(" "));
      out.appendChild(odds);
    }
    if (data.why) out.appendChild(window.rulepressWhy(data, row * data.columns.length + column, open));
  }
  function init() {
    var forms = document.querySelectorAll("form.chart-picker");
    for (var i = 0; i < forms.length; i++) {
      (function (form) {
        form.addEventListener("change", function () { show(form, true); });
        form.addEventListener("submit", function (event) { event.preventDefault(); });
        show(form, false);
      })(forms[i]);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
