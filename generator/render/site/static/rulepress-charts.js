/* Rulepress chart pickers: pick your value and theirs, read the target and the odds.
   The data is the chart's own cells, embedded beside each picker as JSON; nothing is fetched. */
(function () {
  "use strict";
  function show(form) {
    var data = JSON.parse(form.querySelector("script.chart-picker-data").textContent);
    var row = form.querySelector("select[name=row]").selectedIndex;
    var column = form.querySelector("select[name=column]").selectedIndex;
    var cell = data.cells[row][column];
    var out = form.querySelector("output.chart-picker-result");
    out.textContent = "";
    var target = document.createElement("strong");
    target.className = "chart-picker-target";
    target.textContent = cell[0];
    out.appendChild(target);
    if (cell[1]) {
      var odds = document.createElement("span");
      odds.className = "chart-picker-odds";
      odds.textContent = cell[1];
      out.appendChild(document.createTextNode(" "));
      out.appendChild(odds);
    }
  }
  function init() {
    var forms = document.querySelectorAll("form.chart-picker");
    for (var i = 0; i < forms.length; i++) {
      (function (form) {
        form.addEventListener("change", function () { show(form); });
        form.addEventListener("submit", function (event) { event.preventDefault(); });
        show(form);
      })(forms[i]);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
