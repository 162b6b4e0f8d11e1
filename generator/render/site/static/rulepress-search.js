// Rulepress search box: Pagefind's index of this site (_pagefind/, built with the site, served by it).
// Results appear as you type, scoped to the ruleset being read, with "All rulesets" one click away.
// Each result shows its type (rule, table, term, spell, sheet...): the part of its heading id before "--".
// Pagefind has no synonyms, so each spelling variant (armor/armour, and the glossaries' aliases) is searched too.
const VARIANTS = window.RULEPRESS_VARIANTS || {};
const ROOT = new URL(document.documentElement.dataset.content_root || "./", document.baseURI);
const SHOWN_PAGES = 8;
const PER_PAGE = 3;
let loading = null;

function pagefind() {
  if (!loading) {
    loading = import(new URL("_pagefind/pagefind.js", ROOT).href).then(async (pf) => {
      await pf.options({ baseUrl: ROOT.pathname, excerptLength: 22 });
      pf.init();
      return pf;
    });
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
  const parts = html.split(/(<mark>|<\/mark>)/);
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

class SearchBox {
  constructor(box) {
    this.box = box;
    this.input = box.querySelector(".rp-search-input");
    this.panel = box.querySelector(".rp-search-panel");
    this.status = box.querySelector(".rp-search-status");
    this.list = box.querySelector(".rp-search-results");
    this.ruleset = box.dataset.ruleset || "";
    this.scoped = Boolean(this.ruleset);
    this.asked = 0;
    this.input.addEventListener("input", () => this.search());
    this.input.addEventListener("focus", () => { pagefind().catch(() => {}); if (this.input.value.trim()) this.open(); });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.close();
      if (event.key === "Enter") {
        const first = this.list.querySelector("a");
        if (first) { event.preventDefault(); first.click(); }
      }
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
    document.addEventListener("click", (event) => { if (!box.contains(event.target)) this.close(); });
  }

  open() { this.panel.hidden = false; }
  close() { this.panel.hidden = true; }

  async search() {
    const query = this.input.value.trim();
    const asked = ++this.asked;
    if (!query) { this.close(); this.list.replaceChildren(); return; }
    this.open();
    let pf;
    try {
      pf = await pagefind();
    } catch (error) {
      this.status.textContent = "Search needs the site served over http (rulepress serve).";
      return;
    }
    const filters = this.scoped ? { ruleset: this.ruleset } : {};
    const found = await Promise.all(spellings(query).map((q) => pf.search(q, { filters })));
    if (asked !== this.asked) return;  // a newer search is on its way
    const best = new Map();
    for (const search of found) {
      for (const result of (search && search.results) || []) {
        const seen = best.get(result.id);
        if (!seen || seen.score < result.score) best.set(result.id, result);
      }
    }
    const results = [...best.values()].sort((a, b) => b.score - a.score);
    const pages = await Promise.all(results.slice(0, SHOWN_PAGES).map((r) => r.data()));
    if (asked !== this.asked) return;
    this.show(query, pages, results.length);
  }

  show(query, pages, total) {
    const where = this.scoped ? this.box.dataset.short : "all rulesets";
    this.status.textContent = total
      ? `${total} page${total === 1 ? "" : "s"} found in ${where}`
      : `Nothing found for “${query}” in ${where}.`;
    const items = [];
    for (const data of pages) {
      const ruleset = (data.filters.ruleset || [""])[0];
      const subs = [...data.sub_results].sort((a, b) => score(b) - score(a)).slice(0, PER_PAGE);
      for (const sub of subs) {
        const item = element("li", "rp-result");
        const link = element("a", "rp-result-link");
        link.href = sub.url;
        const head = element("span", "rp-result-head");
        head.append(element("span", "rp-result-type", typeOf(sub, data)), element("span", "rp-result-title", sub.title));
        link.append(head);
        const page = data.meta.title || "";
        link.append(element("span", "rp-result-where", [ruleset, page.split(" · ")[0]].filter(Boolean).join(" · ")));
        link.append(excerpt(sub.excerpt || data.excerpt));
        item.dataset.ruleset = ruleset;
        item.append(link);
        items.push(item);
      }
    }
    this.list.replaceChildren(...items);
  }
}

for (const box of document.querySelectorAll(".rp-search")) new SearchBox(box);
