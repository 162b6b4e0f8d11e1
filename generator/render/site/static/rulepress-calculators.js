/* Rulepress odds calculators: pick each input, read the answer the rules give for it.
   Every answer was worked out when the site was built and sits beside its calculator as JSON; this script only
   shows the one picked (as generator/render/site/calculator.py writes the first), and fetches nothing. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg", BAR = 34, TALL = 60, ROW = 16, WIDE = 120, LETTER = 5.6;
  function el(name, attrs, text, ns) {
    var node = ns ? document.createElementNS(SVG, name) : document.createElement(name);
    for (var key in attrs || {}) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function fraction(exact) {
    var parts = exact.split("/");
    return parts.length === 2 ? Number(parts[0]) / Number(parts[1]) : Number(parts[0]);
  }
  function round(value) { return Math.round(value * 10) / 10; }
  // results in words (no running totals) lie one under the other, their words before their bars, as calculator.py
  function wordBars(rows) {
    var top = Math.max.apply(null, rows.map(function (r) { return fraction(r.exactly.exact); })) || 1;
    var words = round(Math.max.apply(null, rows.map(function (r) { return r.result.length; })) * LETTER + 6);
    var wide = round(words + WIDE + 40);
    var svg = el("svg", { "class": "rp-calc-bars rp-calc-word-bars", viewBox: "0 0 " + wide + " " + ROW * rows.length,
      width: Math.round(wide * 1.4), role: "img", "aria-label": "The chance of each result" }, undefined, true);
    rows.forEach(function (row, index) {
      var width = round(fraction(row.exactly.exact) / top * WIDE), y = index * ROW, g = el("g", {}, undefined, true);
      g.appendChild(el("title", {}, row.result + ": " + row.exactly.percent, true));
      g.appendChild(el("text", { "class": "rp-calc-bar-word", x: words - 6, y: y + 11 }, row.result, true));
      g.appendChild(el("rect", { x: words, y: y + 3, width: width, height: ROW - 6 }, undefined, true));
      g.appendChild(el("text", { "class": "rp-calc-bar-chance", x: round(words + width + 3), y: y + 11 },
        row.exactly.percent, true));
      svg.appendChild(g);
    });
    return svg;
  }
  function bars(rows) {
    if (!("at_least" in rows[0])) return wordBars(rows);
    var top = Math.max.apply(null, rows.map(function (r) { return fraction(r.exactly.exact); })) || 1;
    var svg = el("svg", { "class": "rp-calc-bars", viewBox: "0 0 " + BAR * rows.length + " " + (TALL + 32),
      role: "img", "aria-label": "The chance of each result" }, undefined, true);
    rows.forEach(function (row, index) {
      var height = Math.round(fraction(row.exactly.exact) / top * TALL * 10) / 10;
      var x = index * BAR, middle = x + BAR / 2, g = el("g", {}, undefined, true);
      g.appendChild(el("title", {}, row.result + ": " + row.exactly.percent, true));
      g.appendChild(el("rect", { x: x + 5, y: TALL + 14 - height, width: BAR - 10, height: height }, undefined, true));
      g.appendChild(el("text", { "class": "rp-calc-bar-chance", x: middle, y: TALL + 11 - height },
        row.exactly.percent, true));
      g.appendChild(el("text", { x: middle, y: TALL + 28 }, row.result, true));
      svg.appendChild(g);
    });
    return svg;
  }
  function roll(part) {
    var box = document.createDocumentFragment();
    if (part.text) box.appendChild(el("p", { "class": "rp-calc-mean" }, part.text));
    box.appendChild(bars(part.rows));
    var table = el("table", { "class": "rp-calc-odds" }), head = el("tr");
    // results in words have no order to count along: the chance of exactly each, alone
    var kinds = ["exactly", "at_least", "at_most"].filter(function (k) { return k in part.rows[0]; });
    var heads = { exactly: "Exactly", at_least: "At least", at_most: "At most" };
    head.appendChild(el("th", { scope: "col" }, "Result"));
    kinds.forEach(function (k) { head.appendChild(el("th", { scope: "col" }, heads[k])); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    part.rows.forEach(function (r) {
      var line = body.appendChild(el("tr"));
      line.appendChild(el("th", { scope: "row" }, r.result));
      kinds.forEach(function (k) {
        var cell = line.appendChild(el("td", {}, r[k].percent));
        if (r[k].exact !== "0" && r[k].exact !== "1") {
          cell.appendChild(document.createTextNode(" "));
          cell.appendChild(el("span", { "class": "rp-calc-exact" }, r[k].exact));
        }
      });
    });
    box.appendChild(el("div", { "class": "table-wrapper" })).appendChild(table);
    return box;
  }
  function show(form) {
    var data = JSON.parse(form.querySelector("script.rp-calc-data").textContent);
    var selects = form.querySelectorAll(".rp-calc-inputs select"), at = 0;
    for (var i = 0; i < selects.length; i++) at = at * data.inputs[i].options.length + selects[i].selectedIndex;
    var out = form.querySelector("output.rp-calc-answer"), before = out.querySelector("details.rp-calc-why");
    var open = !!(before && before.open);
    out.textContent = "";
    data.answers[at].forEach(function (part, index) {
      var label = data.results[index], holder = el(part.roll ? "div" : "p", { "class": "rp-calc-part" });
      if (label) holder.appendChild(el("span", { "class": "rp-calc-label" }, label + ":")).after(" ");
      if (part.roll) {
        holder.appendChild(roll(part.roll));
      } else {
        holder.appendChild(el("strong", { "class": "rp-calc-text" }, part.text));
        if (part.exact) {
          holder.appendChild(document.createTextNode(" "));
          holder.appendChild(el("span", { "class": "rp-calc-exact" }, "(exactly " + part.exact + ")"));
        }
        if (part.chance) {
          holder.appendChild(document.createTextNode(" "));
          holder.appendChild(el("span", { "class": "rp-calc-chance" }, part.chance.percent));
          holder.appendChild(document.createTextNode(" "));
          holder.appendChild(el("span", { "class": "rp-calc-exact" }, "(exactly " + part.chance.exact + ")"));
        }
      }
      out.appendChild(holder);
    });
    out.appendChild(window.rulepressWhy(data, at, open));
  }
  function init() {
    var forms = document.querySelectorAll("form.rp-calculator");
    for (var i = 0; i < forms.length; i++) {
      (function (form) {
        form.addEventListener("change", function () { show(form); });
        form.addEventListener("submit", function (event) { event.preventDefault(); });
      })(forms[i]);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
