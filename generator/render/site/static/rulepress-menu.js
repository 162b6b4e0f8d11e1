/* furo's menu (☰) and contents buttons, for the keyboard. On a narrow screen furo folds the navigation and the page's
   contents into drawers, opened by a <label> of a hidden checkbox: a label takes no focus, so a keyboard could not
   open them. The icon in each label becomes a button that Tab reaches (a label may not be given a button's role;
   a click on its icon still reaches the label). Enter or Space opens and closes its drawer; it says which drawer it
   controls and whether that is open; opened, the focus goes into the drawer, which covers the page. Escape closes an
   open drawer and puts the focus back on its button. rulepress.css hides the closed drawers from Tab. */
(function () {
  "use strict";
  var DRAWERS = [
    { box: "__navigation", drawer: ".sidebar-drawer", id: "rp-navigation-drawer", name: "Menu",
      buttons: "label.nav-overlay-icon" },
    { box: "__toc", drawer: ".toc-drawer", id: "rp-contents-drawer", name: "Contents on this page",
      buttons: "label.toc-overlay-icon" },
  ];
  var FOCUSABLE = "a[href], button, input, select, textarea, [tabindex='0']";
  function shown(element) {
    return element.getClientRects().length > 0;
  }
  function init() {
    DRAWERS.forEach(function (found) {
      var box = document.getElementById(found.box), drawer = document.querySelector(found.drawer);
      if (!box) return;
      if (drawer && !drawer.id) drawer.id = found.id;
      var buttons = Array.prototype.filter.call(document.querySelectorAll(found.buttons), function (label) {
        return label.htmlFor === found.box && label.querySelector(".icon");
      }).map(function (label) { return label.querySelector(".icon"); });
      function say() {
        buttons.forEach(function (button) { button.setAttribute("aria-expanded", String(box.checked)); });
      }
      buttons.forEach(function (button) {
        button.setAttribute("role", "button");
        button.setAttribute("tabindex", "0");
        button.setAttribute("aria-label", found.name);
        if (drawer) button.setAttribute("aria-controls", drawer.id);
        button.addEventListener("keydown", function (event) {
          if (event.key !== "Enter" && event.key !== " ") return;
          event.preventDefault();  // Space would scroll the page
          box.click();  // as a click on the label: the box toggles and says it changed
          if (!box.checked || !drawer) return;
          var links = drawer.querySelectorAll(FOCUSABLE);
          for (var i = 0; i < links.length && !drawer.contains(document.activeElement); i++) {
            if (shown(links[i])) links[i].focus();  // the first shown: furo hides the page's own title in its contents
          }
        });
      });
      box.addEventListener("change", say);
      say();
      document.addEventListener("keydown", function (event) {
        if (event.key !== "Escape" || !box.checked) return;
        box.click();
        var back = buttons.filter(shown)[0];
        if (back) back.focus();
      });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
