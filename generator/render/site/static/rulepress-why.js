/* Rulepress "Why this number?": under a calculator's answer or a chart picker's cell, the tests the rules decided
   for the values picked, the values they read (each with its label and source) and where the rules give it. The
   words were written when the site was built (generator/render/why.py); this only lays them out. */
(function () {
  "use strict";
  function el(name, attrs, text) {
    var node = document.createElement(name);
    for (var key in attrs || {}) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function source(cited) {  // where the source text gives it: title and section, and the words quoted
    return el("span", { "class": "rp-calc-source" }, cited.source + (cited.quote ? ": \u201c" + cited.quote + "\u201d" : ""));
  }
  window.rulepressWhy = function (data, at, open) {
    var reasons = data.why[at], box = el("details", { "class": "rp-calc-why" });
    if (open) box.setAttribute("open", "");
    box.appendChild(el("summary", {}, "Why this number?"));
    if (reasons.because.length) {
      var list = box.appendChild(el("ul", { "class": "rp-calc-because" }));
      reasons.because.forEach(function (text) { list.appendChild(el("li", {}, text)); });
    }
    if (reasons.values.length) {
      var values = box.appendChild(el("dl", { "class": "rp-calc-values" }));
      reasons.values.forEach(function (index) {
        var value = data.values[index];
        values.appendChild(el("dt", {}, value.value));
        var said = values.appendChild(el("dd", {}, value.label));
        if (value.source) {
          said.appendChild(document.createTextNode(" "));
          said.appendChild(source(value));
        }
      });
    }
    var where = box.appendChild(el("p", { "class": "rp-calc-where" }, data.where));
    if (data.cited && data.cited.source) {
      where.appendChild(document.createTextNode(" \u00b7 "));
      where.appendChild(source(data.cited));
    }
    return box;
  };
})();
