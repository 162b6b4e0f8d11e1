// Rulepress search box: Pagefind's index of this site (_pagefind/, built with the site, served by it).
// Results appear as you type, scoped to the ruleset being read, with "All rulesets" one click away.
// Every section that matches is a result, each with its type (rule, table, term, spell, sheet...): the part of its
// heading id before "--". Results are ranked by the tier of their type (window.RULEPRESS_TYPES, from search.py:
// rules, terms, tables and spells before the pages that gather them, numbers and formulas last), then titles that are
// the words searched for, then Pagefind's own score. A type filter narrows them; "More results" shows the rest.
// Arrow keys move through the results, Enter opens one, Escape closes the box (a second Escape empties it).
// Pagefind has no synonyms, so each spelling variant (armor/armour, and the glossaries' aliases) is searched too.
// A classic script, not a module: on a page opened from a file it still runs, to say that search needs the site
// served and to offer the pages whose titles match instead.
(function () {
  "use strict";

  const VARIANTS = window.RULEPRESS_VARIANTS || {};
  const TYPES = window.RULEPRESS_TYPES || [];
  const TIER = new Map(TYPES.map((t) => [t.type, t.tier]));
  const LABEL = new Map(TYPES.map((t) => [t.type, t.label]));
  const LAST_TIER = Math.max(0, ...TYPES.map((t) => t.tier)) + 1;  // a type the list does not know
  const ROOT = new URL(document.documentElement.dataset.content_root || "./", document.baseURI);
  const SERVED = location.protocol === "http:" || location.protocol === "https:";
  const STEP = 10;  // results shown at first, and added by each "More results"
  let loading = null;

  function pagefind() {
    if (!SERVED) return Promise.reject(new Error("opened from a file"));
    if (!loading) {
      loading = import(new URL("_pagefind/pagefind.js", ROOT).href).then(async (pf) => {
        await pf.options({ baseUrl: ROOT.pathname, excerptLength: 22 });
        pf.init();
        return pf;
      });
      loading.catch(() => { loading = null; });  // a later search tries again
    }
    return loading;
  }

  // Every spelling of the query: "armor save" -> ["armor save", "armour save"].
  function spellings(query) {
    let found = [[]];
    for (const word of query.trim().split(/\s+/)) {
      const other = VARIANTS[word.toLowerCase()];
      const options = other ? [word, other] : [word];
      found = found.flatMap((start) => options.map((w) => [...start, w])).slice(0, 8);
    }
    return found.map((words) => words.join(" "));
  }

  function typeOf(sub, data) {
    const id = (sub.anchor && sub.anchor.id) || "";
    const cut = id.indexOf("--");
    const type = cut > 0 ? id.slice(0, cut) : (data.meta.type || "page");
    return type.replace(/-/g, " ");
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Pagefind's excerpts are text with <mark> around the matches; keep only those marks.
  function excerpt(html) {
    const node = element("p", "rp-result-excerpt");
    const parts = (html || "").split(/(<mark>|<\/mark>)/);
    let marked = false;
    for (const part of parts) {
      if (part === "<mark>") marked = true;
      else if (part === "</mark>") marked = false;
      else if (part) {
        const decode = document.createElement("textarea");  // entities to text; keeps the spaces
        decode.innerHTML = part;
        const text = decode.value;
        node.append(marked ? element("mark", "", text) : document.createTextNode(text));
      }
    }
    return node;
  }

  function score(sub) {
    return (sub.weighted_locations || []).reduce((sum, l) => sum + l.balanced_score, 0);
  }

  function words(text) {
    return text.toLowerCase().split(/\s+/).filter(Boolean);
  }

  // 2: the title is one of the spellings searched for; 1: it holds all their words; 0: otherwise.
  function titleMatch(title, asked) {
    const held = words(title || "");
    const whole = held.join(" ");
    let found = 0;
    for (const query of asked) {
      const wanted = words(query);
      if (wanted.join(" ") === whole) return 2;
      if (wanted.every((w) => held.some((h) => h.startsWith(w)))) found = 1;
    }
    return found;
  }

  function ranked(a, b) {
    return a.tier - b.tier || b.match - a.match || b.score - a.score || a.page - b.page || a.order - b.order;
  }

  class SearchBox {
    constructor(box) {
      this.box = box;
      this.input = box.querySelector(".rp-search-input");
      this.panel = box.querySelector(".rp-search-panel");
      this.status = box.querySelector(".rp-search-status");
      this.list = box.querySelector(".rp-search-results");
      this.types = box.querySelector(".rp-search-types");
      this.more = box.querySelector(".rp-search-more");
      this.offline = box.querySelector(".rp-search-offline");
      this.matches = box.querySelector(".rp-search-matches");
      this.scope = box.querySelector(".rp-search-scope");
      this.ruleset = box.dataset.ruleset || "";
      this.scoped = Boolean(this.ruleset);
      this.asked = 0;
      this.found = [];  // every result of the last search, ranked
      this.type = "";  // the type filter: "" for every type
      this.shown = STEP;
      this.query = "";
      // The box opens a panel of results, which it says it controls and whether it is open: a combobox (a search
      // field may not say it is expanded), whose panel is a dialog named for what it holds.
      this.input.setAttribute("role", "combobox");
      this.input.setAttribute("aria-haspopup", "dialog");
      this.panel.setAttribute("role", "dialog");
      this.panel.setAttribute("aria-label", "Search results");
      this.input.addEventListener("input", () => this.search());
      this.input.addEventListener("focus", () => {
        if (!SERVED) { this.open(); this.fallback(this.input.value.trim()); return; }
        pagefind().catch(() => {});
        if (this.input.value.trim()) this.open();
      });
      this.input.addEventListener("keydown", (event) => this.keyInBox(event));
      this.panel.addEventListener("keydown", (event) => this.keyInPanel(event));
      this.more.addEventListener("click", () => this.showMore());
      this.types.addEventListener("click", (event) => {
        const button = event.target.closest("button[data-type]");
        if (!button) return;
        this.type = button.dataset.type;
        this.shown = STEP;
        this.render();
      });
      const here = box.querySelector(".rp-scope-here");
      const all = box.querySelector(".rp-scope-all");
      for (const [button, scoped] of [[here, true], [all, false]]) {
        if (!button) continue;
        button.addEventListener("click", () => {
          this.scoped = scoped;
          here.setAttribute("aria-pressed", String(scoped));
          all.setAttribute("aria-pressed", String(!scoped));
          this.search();
          this.input.focus();
        });
      }
      // A click elsewhere closes the box; the path, not the target, tells: a type button clicked is replaced at once.
      document.addEventListener("click", (event) => { if (!event.composedPath().includes(box)) this.close(); });
    }

    open() {
      this.panel.hidden = false;
      this.input.setAttribute("aria-expanded", "true");
    }

    close() {
      this.panel.hidden = true;
      this.input.setAttribute("aria-expanded", "false");
    }

    // What the arrow keys move through: the results shown, then "More results"; or the links offered instead.
    stops() {
      const links = this.offline.hidden
        ? [...this.list.querySelectorAll(".rp-result-link")]
        : [...this.offline.querySelectorAll("a")];
      return this.more.hidden ? links : [...links, this.more];
    }

    keyInBox(event) {
      if (event.key === "ArrowDown") {
        const first = this.stops()[0];
        if (first && !this.panel.hidden) {
          event.preventDefault();
          first.focus();
        }
      } else if (event.key === "Escape") {
        event.preventDefault();  // a search field's own Escape would empty it at once
        if (!this.panel.hidden) {
          this.close();
        } else if (this.input.value) {
          this.input.value = "";
          this.search();
        }
      } else if (event.key === "Enter") {
        const first = this.panel.hidden ? null : this.stops()[0];
        if (first && first !== this.more) {
          event.preventDefault();
          first.click();
        }
      }
    }

    keyInPanel(event) {
      const stops = this.stops();
      const at = stops.indexOf(document.activeElement);
      if (event.key === "Escape") {
        event.preventDefault();
        this.close();
        this.input.focus();
      } else if (at < 0) {
        return;  // on the scope or type buttons: their keys are their own
      } else if (event.key === "ArrowDown") {
        event.preventDefault();
        stops[Math.min(at + 1, stops.length - 1)].focus();
      } else if (event.key === "ArrowUp") {
        event.preventDefault();
        (at === 0 ? this.input : stops[at - 1]).focus();
      } else if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        stops[event.key === "Home" ? 0 : stops.length - 1].focus();
      } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        this.input.focus();  // typing goes on in the box
      }
    }

    async search() {
      const query = this.input.value.trim();
      const asked = ++this.asked;
      this.query = query;
      if (!query) {
        this.found = [];
        this.status.textContent = "";
        this.list.replaceChildren();
        this.types.hidden = true;
        this.more.hidden = true;
        if (SERVED) this.close();
        else this.fallback("");
        return;
      }
      this.open();
      if (!SERVED) { this.fallback(query); return; }
      this.status.textContent = "Looking up…";
      let pf;
      try {
        pf = await pagefind();
      } catch (error) {
        if (asked === this.asked) this.fallback(query, "The search index of this site could not be loaded.");
        return;
      }
      const filters = this.scoped ? { ruleset: this.ruleset } : {};
      const asSpelled = spellings(query);
      const searches = await Promise.all(asSpelled.map((q) => pf.search(q, { filters })));
      if (asked !== this.asked) return;  // a newer search is on its way
      const pages = searches
        .flatMap((s) => (s && s.results) || [])
        .sort((a, b) => b.score - a.score);
      const data = await Promise.all(pages.map((r) => r.data()));
      if (asked !== this.asked) return;
      // Every section that matches, once: a page found by two spellings gives each section's best score.
      const best = new Map();
      data.forEach((page, rank) => {
        page.sub_results.forEach((sub, order) => {
          const type = typeOf(sub, page);
          const found = {
            sub, page: rank, order, type, data: page,
            tier: TIER.has(type) ? TIER.get(type) : LAST_TIER,
            match: titleMatch(sub.title, asSpelled),
            score: score(sub),
          };
          const seen = best.get(sub.url);
          if (!seen || seen.score < found.score) best.set(sub.url, found);
        });
      });
      this.found = [...best.values()].sort(ranked);
      this.shown = STEP;
      this.render();
    }

    render(focusFrom = -1) {
      this.offline.hidden = true;
      if (this.scope) this.scope.hidden = false;
      const counts = new Map();
      for (const found of this.found) counts.set(found.type, (counts.get(found.type) || 0) + 1);
      if (this.type && !counts.has(this.type)) this.type = "";
      this.renderTypes(counts);
      const where = this.scoped ? this.box.dataset.short : "all rulesets";
      const shown = this.type ? this.found.filter((f) => f.type === this.type) : this.found;
      const only = this.type ? ` (${LABEL.get(this.type) || this.type} only)` : "";
      this.status.textContent = shown.length
        ? `${shown.length} result${shown.length === 1 ? "" : "s"} found in ${where}${only}`
        : `Nothing found for “${this.query}” in ${where}.`;
      this.list.replaceChildren(...shown.slice(0, this.shown).map((found) => this.item(found)));
      const left = shown.length - this.shown;
      this.more.hidden = left <= 0;
      this.more.textContent = `More results (${left} more)`;
      if (focusFrom >= 0) {
        const links = this.list.querySelectorAll(".rp-result-link");
        if (links[focusFrom]) links[focusFrom].focus();
      }
    }

    renderTypes(counts) {
      const known = TYPES.map((t) => t.type).filter((t) => counts.has(t));
      const types = [...known, ...[...counts.keys()].filter((t) => !TIER.has(t)).sort()];
      this.types.hidden = types.length < 2;
      const chip = (type, label, count) => {
        const button = element("button", "rp-type");
        button.type = "button";
        button.dataset.type = type;
        button.setAttribute("aria-pressed", String(this.type === type));
        // read as "Rules, 7 results", never "Rules7"
        button.setAttribute("aria-label", `${label}, ${count} result${count === 1 ? "" : "s"}`);
        button.append(element("span", "rp-type-label", label), " ", element("span", "rp-type-count", String(count)));
        return button;
      };
      this.types.replaceChildren(
        chip("", "All", this.found.length),
        ...types.map((t) => chip(t, LABEL.get(t) || t, counts.get(t))),
      );
    }

    item(found) {
      const { sub, data, type } = found;
      const ruleset = (data.filters.ruleset || [""])[0];
      const item = element("li", "rp-result");
      const link = element("a", "rp-result-link");
      link.href = sub.url;
      const head = element("span", "rp-result-head");
      head.append(element("span", "rp-result-type", type), element("span", "rp-result-title", sub.title));
      link.append(head);
      const page = data.meta.title || "";
      link.append(element("span", "rp-result-where", [ruleset, page.split(" · ")[0]].filter(Boolean).join(" · ")));
      link.append(excerpt(sub.excerpt || data.excerpt));
      item.dataset.ruleset = ruleset;
      item.dataset.type = type;
      item.append(link);
      return item;
    }

    showMore() {
      const from = this.shown;
      this.shown += STEP;
      this.render(from);
    }

    // No index to search (a page opened from a file, or an index that did not load): say so, and offer the pages
    // and sections of the site's navigation whose titles hold the words, and the ruleset's own contents and glossary.
    fallback(query, why) {
      this.found = [];
      this.list.replaceChildren();
      this.types.hidden = true;
      this.more.hidden = true;
      this.status.textContent = why || "";
      this.offline.hidden = false;
      if (this.scope) this.scope.hidden = true;  // nothing to scope
      if (why) this.offline.querySelector(".rp-search-offline-note").hidden = true;
      const wanted = spellings(query).map(words);
      const seen = new Set();
      const items = [];
      if (query) {
        for (const link of document.querySelectorAll(".sidebar-tree a.reference, .toc-tree a.reference")) {
          const title = link.textContent.trim();
          const held = words(title);
          const href = link.getAttribute("href");
          if (!title || seen.has(href)) continue;
          if (!wanted.some((w) => w.every((word) => held.some((h) => h.startsWith(word))))) continue;
          seen.add(href);
          const item = element("li");
          const copy = element("a", "", title);
          copy.href = href;
          item.append(copy);
          items.push(item);
        }
        if (!items.length) items.push(element("li", "rp-search-none", `No page or section title holds “${query}”.`));
      }
      this.matches.replaceChildren(...items);
    }
  }

  for (const box of document.querySelectorAll(".rp-search")) new SearchBox(box);
})();
