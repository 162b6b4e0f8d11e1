/* A table wider than the screen moves sideways in its box (furo's .table-wrapper): a box that overflows takes the
   focus, so the keyboard can scroll it with the arrow keys, and it is named as a region after its table. Only boxes
   that scroll now: the others are no stop for Tab. Looked at again when the window changes size. */
(function () {
  "use strict";
  function name(box) {
    var table = box.querySelector("table"), caption = table && table.querySelector("caption");
    var section = box.closest("section"), heading = section && section.querySelector("h1, h2, h3, h4");
    var text = (caption || heading || {}).textContent || "";
    return (text.replace(/[¶#]\s*$/, "").trim() || "Table") + " (wider than the screen: use the arrow keys)";
  }
  function mark() {
    document.querySelectorAll("article .table-wrapper").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", name(box));
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  }
  function init() {
    mark();
    window.addEventListener("resize", mark);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
