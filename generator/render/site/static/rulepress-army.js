/* Rulepress army builder: pick units, heroes and upgrades; read the points, the models and every army limit.
   The counts are the sums `rulepress check` makes (generator/mechanics/armies.py army_counts), and each limit is
   the expression `check` evaluates, handed over as its syntax tree and worked out here with exact fractions
   (BigInt numerator and denominator). The list is kept in the page's address and in this browser's storage;
   nothing is fetched. */
(function () {
  "use strict";

  // -- exact fractions ------------------------------------------------------------------------------------
  function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) { var t = a % b; a = b; b = t; } return a || 1n; }
  function frac(n, d) {
    d = d === undefined ? 1n : d;
    if (d === 0n) throw new Error("division by zero");
    if (d < 0n) { n = -n; d = -d; }
    var g = gcd(n, d);
    return { n: n / g, d: d / g };
  }
  function parse(text) {
    var parts = String(text).split("/");
    return frac(BigInt(parts[0]), parts.length > 1 ? BigInt(parts[1]) : 1n);
  }
  var ZERO = frac(0n);
  function add(a, b) { return frac(a.n * b.d + b.n * a.d, a.d * b.d); }
  function sub(a, b) { return frac(a.n * b.d - b.n * a.d, a.d * b.d); }
  function mul(a, b) { return frac(a.n * b.n, a.d * b.d); }
  function div(a, b) { return frac(a.n * b.d, a.d * b.n); }
  function floordiv(a, b) {
    var q = div(a, b), whole = q.n / q.d;
    if (q.n % q.d !== 0n && q.n < 0n) whole -= 1n;  // BigInt division truncates; // rounds down
    return frac(whole);
  }
  function cmp(a, b) { var x = a.n * b.d, y = b.n * a.d; return x < y ? -1 : x > y ? 1 : 0; }
  function exact(a) { return a.d === 1n ? String(a.n) : a.n + "/" + a.d; }
  var GLYPHS = { "1/2": "½", "1/3": "⅓", "2/3": "⅔", "1/4": "¼", "3/4": "¾" };
  function shown(a) {
    if (a === null) return "—";
    if (a.d === 1n) return String(a.n).replace("-", "\u2212");
    var sign = a.n < 0n ? "\u2212" : "", n = a.n < 0n ? -a.n : a.n, whole = n / a.d, rest = (n % a.d) + "/" + a.d;
    return sign + (whole ? String(whole) : "") + (GLYPHS[rest] || (whole ? " " : "") + rest);
  }
  // a number of points in words: "1 point", any other number "points" (0, ½, 1½)
  function pointsWords(a) { return shown(a) + (a !== null && a.n === 1n && a.d === 1n ? " point" : " points"); }

  // -- what `check` counts --------------------------------------------------------------------------------
  function byId(items) { var found = {}; items.forEach(function (i) { found[i.id] = i; }); return found; }
  function levelName(level) { return level.toLowerCase().replace(/[^0-9a-z]+/g, "_").replace(/^_+|_+$/g, ""); }

  function lineEach(data, unit) {
    // a line's points for one unit, or null when the matrix does not give its troop's (then the line counts nothing)
    var troop = byId(data.troops)[unit.troop];
    if (!troop || troop.points === null) return null;
    var each = parse(troop.points), costs = byId(data.upgrades), heroes = byId(data.heroes);
    (unit.upgrades || []).forEach(function (id) { if (costs[id] && costs[id].points !== null) each = add(each, parse(costs[id].points)); });
    (unit.heroes || []).forEach(function (id) { if (heroes[id] && heroes[id].points !== null) each = add(each, parse(heroes[id].points)); });
    return each;
  }

  function lineModels(data, unit) {
    var troop = byId(data.troops)[unit.troop];
    if (troop && troop.models !== null) return frac(BigInt(troop.models * unit.count));
    return unit.models ? frac(BigInt(unit.models)) : null;
  }

  function points(data, list) {
    var total = ZERO, extras = byId(data.extras);
    list.units.forEach(function (unit) {
      var each = lineEach(data, unit);
      if (each !== null) total = add(total, mul(each, frac(BigInt(unit.count))));
    });
    (list.extras || []).forEach(function (id) { if (extras[id] && extras[id].points !== null) total = add(total, parse(extras[id].points)); });
    return total;
  }

  function counts(data, list) {
    var found = {}, troops = byId(data.troops), heroes = byId(data.heroes), types = {}, troopPoints = ZERO;
    data.counts.forEach(function (name) { found[name] = ZERO; });
    function more(name, by) { found[name] = add(found[name] || ZERO, frac(BigInt(by))); }
    data.levels.forEach(function (level) { types[level.level] = {}; });
    list.units.forEach(function (unit) {
      var troop = troops[unit.troop];
      more(troop.counts_as || "units", unit.count);
      more(unit.troop, unit.count);
      if (troop.points !== null) troopPoints = add(troopPoints, mul(parse(troop.points), frac(BigInt(unit.count))));
      if (troop.points !== null && troop.counts_as && troop.counts_as !== "units" && data.by_points) {
        var kind = troop.counts_as + "_points";  // points spent on the lines of a kind: mechanics.armies.kind_points
        found[kind] = add(found[kind] || ZERO, mul(lineEach(data, unit), frac(BigInt(unit.count))));
      }
      (unit.upgrades || []).forEach(function (id) { more(id, unit.count); });
      (unit.heroes || []).forEach(function (id) {
        more(id, unit.count);
        more("heroes", unit.count);
        var level = heroes[id].level;
        types[level] = types[level] || {};
        types[level][id] = (types[level][id] || 0) + unit.count;
      });
    });
    Object.keys(types).forEach(function (level) {
      var name = levelName(level), values = Object.keys(types[level]).map(function (id) { return types[level][id]; });
      found[name + "_heroes"] = frac(BigInt(values.reduce(function (a, b) { return a + b; }, 0)));
      found["most_of_one_" + name + "_hero"] = frac(BigInt(values.length ? Math.max.apply(null, values) : 0));
    });
    (list.extras || []).forEach(function (id) { more(id, 1); });
    if (data.by_points) {
      found.troop_points = troopPoints;
      found.points = points(data, list);
      found.agreed_points = list.agreed_points ? parse(list.agreed_points) : ZERO;  // the game's size: 0 until agreed
    }
    var models = ZERO;
    list.units.forEach(function (unit) { var m = lineModels(data, unit); if (m !== null) models = add(models, m); });
    found.models = models;
    return found;
  }

  function evaluate(tree, found) {
    if (tree === null) return null;
    if (tree[0] === "number") return parse(tree[1]);
    if (tree[0] === "count") return found[tree[1]] || ZERO;
    var left = evaluate(tree[1], found), right = evaluate(tree[2], found);
    return { "+": add, "-": sub, "*": mul, "/": div, "//": floordiv }[tree[0]](left, right);
  }

  var DIVIDES_BY_ZERO = "divides by zero: a count it divides by is 0 in this list";
  // a limit's numbers as the page and the roster print them, or why it cannot be worked out for this list
  function limitNumbers(r, bound) { return r.fails || shown(parse(r.count)) + " of " + bound.join(" and "); }
  function verdicts(data, list) {
    var found = counts(data, list);
    return {
      points: data.by_points ? exact(found.points) : null,
      models: exact(found.models),
      counts: Object.keys(found).reduce(function (o, k) { o[k] = exact(found[k]); return o; }, {}),
      limits: data.limits.map(function (limit) {
        try {
          var count = evaluate(limit.count, found), most = evaluate(limit.at_most, found), least = evaluate(limit.at_least, found);
        } catch (e) {  // a count it divides by is 0 in this list: check refuses the list for it, and so does the page
          var fails = e.message === "division by zero" ? DIVIDES_BY_ZERO : "cannot be worked out for this list";
          return { id: limit.id, count: null, at_most: null, at_least: null, holds: false, fails: fails };
        }
        var tooMany = most !== null && cmp(count, most) > 0, tooFew = least !== null && cmp(count, least) < 0;
        return { id: limit.id, count: exact(count), at_most: most && exact(most), at_least: least && exact(least),
                 holds: !(tooMany || tooFew) };
      }),
    };
  }

  // -- the page -------------------------------------------------------------------------------------------
  function el(name, attrs, children) {
    var node = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), attrs[key]);
      else if (attrs[key] !== false && attrs[key] !== null && attrs[key] !== undefined) node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child); });
    return node;
  }

  // a unit's card in the build's card sheet PDF, opened at its page
  function card(data, entry) {
    var cards = data.cards, page = cards && cards.pages[entry.card];
    return page ? el("a", { "class": "rp-army-card", href: cards.href + "#page=" + page, text: "card",
      "aria-label": entry.name + ": card (PDF, page " + page + ")" }) : null;
  }

  function encode(list) { return btoa(unescape(encodeURIComponent(JSON.stringify(list)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""); }
  function decode(text) {
    text = text.replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(decodeURIComponent(escape(atob(text + "===".slice((text.length + 3) % 4)))));
  }

  // an upgrade may be bought for this troop type: it names none, or names this one (`troops:`)
  function fits(cost, troop) { return !cost.troops || !cost.troops.length || cost.troops.indexOf(troop) >= 0; }

  // agreed points as check reads them: a whole number or an exact fraction (500, 499½, 499.5, 999/2), more than 0
  // and (given `largest`, the engine's MAX_MAGNITUDE) at most `largest`: check refuses a larger one (too-large);
  // kept as digits or digits/digits, which the YAML export writes and check reads exactly. Anything else: none.
  function agreed(text, largest) {
    var t = String(text === null || text === undefined ? "" : text).trim(), m;
    var glyphs = { "½": [1, 2], "¼": [1, 4], "¾": [3, 4], "⅓": [1, 3], "⅔": [2, 3] };
    if ((m = /^(\d*)\s*([½¼¾⅓⅔])$/.exec(t))) t = (Number(m[1] || 0) * glyphs[m[2]][1] + glyphs[m[2]][0]) + "/" + glyphs[m[2]][1];
    else if ((m = /^(\d+)\s+(\d+)\/(\d+)$/.exec(t))) t = (Number(m[1]) * Number(m[3]) + Number(m[2])) + "/" + m[3];
    else if ((m = /^(\d+)[.,](\d{1,6})$/.exec(t))) t = String(Number(m[1] + m[2])) + "/" + Math.pow(10, m[2].length);
    if (!/^\d+(\/\d+)?$/.test(t) || !/[1-9]/.test(t.split("/")[0]) || /\/0+$/.test(t)) return null;
    var f = parse(t);
    if (largest && f.n > BigInt(largest) * f.d) return null;
    return String(f.n) + (f.d === 1n ? "" : "/" + f.d);
  }
  // agreed models as check reads them: a whole number from 1 to `largest`; anything else: none
  function agreedModels(text, largest) {
    var t = String(text === null || text === undefined ? "" : text).trim();
    if (!/^\d{1,30}$/.test(t) || !/[1-9]/.test(t) || (largest && BigInt(t) > BigInt(largest))) return null;
    return parseInt(t, 10);
  }
  // a size typed that is a number, but more than check takes
  function tooLarge(data, text) {
    return data.by_points ? agreed(text) !== null && agreed(text, data.largest) === null
      : agreedModels(text) !== null && agreedModels(text, data.largest) === null;
  }
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function arr(value) { return Array.isArray(value) ? value : []; }
  function most(data) { return data.line_most || 100; }  // the most units one line holds (check: count from 1 to 100)

  function valid(data, list) {
    // a list from an address or from storage is the player's own: keep only what this ruleset has
    var troops = byId(data.troops), heroes = byId(data.heroes), upgrades = byId(data.upgrades), extras = byId(data.extras);
    list = list && typeof list === "object" ? list : {};
    var units = arr(list.units).filter(function (u) { return u && troops[u.troop]; }).map(function (u) {
      var count = Math.max(1, Math.min(most(data), parseInt(u.count, 10) || 1));
      var models = troops[u.troop].models === null && parseInt(u.models, 10) > 0 ? Math.min(10000, parseInt(u.models, 10)) : null;
      return { troop: u.troop, count: count, models: models,
               heroes: arr(u.heroes).filter(function (h) { return heroes[h]; }),
               upgrades: arr(u.upgrades).filter(function (c, at, all) { return upgrades[c] && fits(upgrades[c], u.troop) && all.indexOf(c) === at; }) };
    });
    return { title: String(list.title || "My army").slice(0, 80), units: units,
             extras: arr(list.extras).filter(function (c) { return extras[c]; }),  // bought again: limits count it
             agreed_points: agreed(list.agreed_points, data.largest),
             agreed_models: agreedModels(list.agreed_models, data.largest) };
  }

  // an id of ASCII letters, as check reads ids: "Ma bande d'élite" is ma_bande_d_elite, not ma_bande_d_lite
  function ascii(text) {
    return text.replace(/[œŒ]/g, "oe").replace(/[æÆ]/g, "ae").replace(/ß/g, "ss").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  }
  // what valid() left out or changed of a list from a link, in a player's words: the list shown is not the one sent
  function changes(data, raw, kept) {
    var troops = byId(data.troops), heroes = byId(data.heroes), upgrades = byId(data.upgrades), extras = byId(data.extras);
    var said = [], at = 0;
    function name(found, id) { return found[id] ? found[id].name : String(id); }
    function given(value) { return value !== undefined && value !== null && value !== ""; }
    raw = raw && typeof raw === "object" ? raw : {};
    if (typeof raw.title === "string" && raw.title.length > kept.title.length)
      said.push("the title is cut to its first " + kept.title.length + " characters");
    arr(raw.units).forEach(function (u) {
      if (!u || !troops[u.troop]) { said.push("“" + (u && u.troop) + "” is no troop of this army: left out"); return; }
      var k = kept.units[at++], troop = name(troops, u.troop), each = troops[u.troop].models;
      // a line without a count is one unit, as check reads it
      if (given(u.count) && String(k.count) !== String(u.count))
        said.push(troop + ": " + u.count + " is not a number of units from 1 to " + most(data) + ", so " + k.count);
      if (given(u.models) && each === null && String(k.models) !== String(u.models))
        said.push(troop + ": " + u.models + " is not a number of models from 1 to 10,000, so " + (k.models === null ? "none" : k.models));
      else if (given(u.models) && each !== null && String(each * k.count) !== String(u.models))
        said.push(troop + ": the rules give " + k.count + "× " + troop + " " + each * k.count + " models, not " + u.models);
      arr(u.heroes).forEach(function (h) { if (!heroes[h]) said.push(troop + ": “" + h + "” is no hero of this army: left out"); });
      arr(u.upgrades).forEach(function (c, i, all) {
        if (!upgrades[c]) said.push(troop + ": “" + c + "” is no upgrade of this army: left out");
        else if (!fits(upgrades[c], u.troop)) said.push(troop + ": " + name(upgrades, c) + " is not for this troop: left out");
        else if (all.indexOf(c) !== i) said.push(troop + ": " + name(upgrades, c) + " was bought twice: bought once");
      });
    });
    arr(raw.extras).forEach(function (c) { if (!extras[c]) said.push("“" + c + "” is nothing this army buys: left out"); });
    [["agreed_points", "points"], ["agreed_models", "models"]].forEach(function (field) {
      var written = raw[field[0]];
      if (!given(written) || kept[field[0]] !== null) return;
      var number = field[1] === "points" ? agreed(written) !== null : agreedModels(written) !== null;  // only too large
      said.push("“" + written + "” is not a number of agreed " + field[1]
        + (number ? " check takes (at most " + thousands(data.largest) + ")" : "") + ": left out");
    });
    return said;
  }

  // why `check` refuses this list (besides its points, models and limits, shown beside the totals), in a player's
  // words, as check says it: no agreed size (missing-field), a line whose points the text does not give in a list
  // of agreed points (points-not-given), a line whose models nobody gives in a list of agreed models (missing-field)
  function refusals(data, list) {
    var troops = byId(data.troops), said = [], unknown = [];
    if (!list.agreed_points && !list.agreed_models)
      said.push(data.by_points ? "no points are agreed (type the agreed points)" : "no models are agreed (type the agreed models)");
    if (list.agreed_points) unpricedNames(data, list).forEach(function (name) {
      said.push("the text gives no points for " + name + ", so the list cannot be costed (take troop types whose points it gives)");
    });
    if (list.agreed_models) list.units.forEach(function (unit) {
      var name = troops[unit.troop].name;
      if (lineModels(data, unit) === null && unknown.indexOf(name) < 0) unknown.push(name);
    });
    unknown.forEach(function (name) { said.push("the models of " + name + " are not known (type the line's models)"); });
    return said;
  }

  // as check's ids (source/ids.id_like): a capital inside a word starts the next (ClubGT Alice: club_gt_alice)
  function words(text) { return String(text).replace(/([a-z0-9])(?=[A-Z])|([A-Z])(?=[A-Z][a-z])/g, "$1$2_"); }
  function slug(text) { return (ascii(words(text)).toLowerCase().replace(/[^0-9a-z]+/g, "_").replace(/^_+|_+$/g, "") || "my_army").replace(/^(\d)/, "army_$1"); }

  function yaml(data, list) {
    function q(text) { return JSON.stringify(String(text)); }  // a JSON string is a YAML string
    // a list check refuses says why at its top: the file claims nothing it does not have
    var out = refusals(data, list).map(function (why) { return "# check refuses this list: " + why; });
    out = out.concat(["armies:", "  " + slug(list.title) + ":", "    title: " + q(list.title), "    matrix: " + data.matrix.id]);
    if (list.agreed_points) out.push("    agreed_points: " + list.agreed_points);  // digits, or digits/digits: as check reads an exact fraction
    if (list.agreed_models) out.push("    agreed_models: " + list.agreed_models);
    out.push("    units:");
    if (!list.units.length) out[out.length - 1] = "    units: []";
    // each line's points and the total, as this page costs them: checked again later (after an errata), the list
    // is told which line now costs other points, not only that it spends more
    var costed = data.by_points;
    list.units.forEach(function (u) {
      var parts = ["troop: " + u.troop, "count: " + u.count], each = data.by_points ? lineEach(data, u) : null;
      if (u.models) parts.push("models: " + u.models);
      if (u.heroes.length) parts.push("heroes: [" + u.heroes.join(", ") + "]");
      if (u.upgrades.length) parts.push("upgrades: [" + u.upgrades.join(", ") + "]");
      if (each !== null) parts.push("points: " + exact(mul(each, frac(BigInt(u.count)))));
      else costed = false;
      out.push("      - {" + parts.join(", ") + "}");
    });
    if (list.extras.length) out.push("    extras: [" + list.extras.join(", ") + "]");
    var extras = byId(data.extras);
    costed = costed && (list.extras || []).every(function (id) { return extras[id] && extras[id].points !== null; });
    if (costed) out.push("    total: " + exact(points(data, list)));
    return out.join("\n") + "\n";
  }

  function Builder(root, data) {
    this.root = root;
    this.data = data;
    this.key = "rulepress-army-lists:" + data.ruleset;
    this.notice = [];
    this.says = null;   // said once, by the live region, at the next drawing: "agreed" (its why) or words
    this.titleNote = null;  // why the list is saved under another title than the one typed: until the next change
    this.deleted = null;  // the saved list just deleted (its name, list and place), to bring back: until the next change
    var start = this.fromAddress(), last = this.saved()[this.lastName()];
    // the title the list shown is saved under in this browser (null: not saved yet, as a link's or the rules' list)
    this.savedAs = start ? this.sameAsSaved(start) : last ? this.lastName() : null;
    this.list = start || (last ? valid(data, last) : null) || valid(data, data.samples[0] || { title: "My army", units: [] });
    if (!start && !last) this.savedAs = this.sameAsSaved(this.list);
    // what the menus hold until their button is pressed: a troop type, a list to open, a hero for each line
    this.choice = { unit: data.troops.length ? data.troops[0].id : "", open: "", heroes: {} };
    this.wrong = null;  // agreed points (or models) typed that are no size: shown in their box, with why
    this.wrongModels = {};  // a line's models typed that are no whole number, by line: in its box, with why
    // the one live region: made once and never drawn again, so each change of its words is announced
    this.said = el("p", { "class": "rp-army-said visually-hidden", role: "status", "aria-live": "polite", "aria-atomic": "true" });
    this.watchPresses();
    this.watchAddress();
    this.render();
  }
  // the list in the page's address, if it holds one; a link that holds none that can be read is said so
  Builder.prototype.fromAddress = function () {
    var found = /[#&]list=([A-Za-z0-9_-]*)/.exec(location.hash), opened = null;
    if (!found) return null;
    try { opened = this.opened(decode(found[1])); } catch (e) { opened = null; }
    if (!opened) {
      this.notice = ["the link holds no list that can be read: none of it is shown"];
      this.says = "This link's list could not be read.";
    }
    return opened;
  };
  // A list's link opened in a tab already on this page changes only the address: the page shows that list (kept once
  // it is changed, as any list). The page's own changes replace the address and fire no such event.
  Builder.prototype.watchAddress = function () {
    var self = this;
    window.addEventListener("hashchange", function () {
      var opened = self.fromAddress();
      if (opened) { self.list = opened; self.savedAs = self.sameAsSaved(opened); self.wrong = null; self.wrongModels = {}; }
      self.render();
    });
  };
  // a list from a link: what it keeps, with what it had to change said above it (and once by the live region) until
  // the list is changed
  Builder.prototype.opened = function (raw) {
    var kept = valid(this.data, raw);
    this.notice = changes(this.data, raw, kept);
    this.titleNote = null; this.deleted = null;
    if (this.notice.length) this.says = "This link's list did not fit these rules, so it was changed: " + this.notice.join("; ") + ".";
    return kept;
  };
  // the title of the saved list that is this very list (a reload's own link, a sample kept unchanged), else null: a
  // list that only shares a saved list's title is another list, never written over it
  Builder.prototype.sameAsSaved = function (list) {
    var saved = this.saved();
    return has(saved, list.title) && JSON.stringify(valid(this.data, saved[list.title])) === JSON.stringify(list) ? list.title : null;
  };
  Builder.prototype.saved = function () {
    try {
      var all = JSON.parse(localStorage.getItem(this.key) || "{}");
      return typeof all === "object" && all && !Array.isArray(all) ? all : {};
    } catch (e) { return {}; }
  };
  Builder.prototype.lastName = function () { try { return localStorage.getItem(this.key + ":last") || ""; } catch (e) { return ""; } };
  Builder.prototype.store = function (all, last) {
    try {
      localStorage.setItem(this.key, JSON.stringify(all));
      if (last === null) localStorage.removeItem(this.key + ":last"); else localStorage.setItem(this.key + ":last", last);
    } catch (e) { /* storage off: the address still holds the list */ }
  };
  // a title no other saved list has: "GT list (2)", "GT list (3)"... within the 80 characters a title has
  function unique(all, title, mine) {
    var base = title.replace(/ \(\d+\)$/, ""), name;
    for (var n = 2; ; n++) {
      name = base.slice(0, 80 - (" (" + n + ")").length) + " (" + n + ")";
      if (!has(all, name) || name === mine) return name;
    }
  }
  // The list is saved under its title, in place of what it was saved as (a renamed list leaves no list of its old
  // title); a title another saved list has is never written over: this one gets a title of its own, said so.
  Builder.prototype.keep = function () {
    this.notice = [];  // the list is the player's own now: what its link had is no longer what is shown
    this.titleNote = null; this.deleted = null;
    var all = this.saved(), was = this.savedAs, title = this.list.title, kept = {}, placed = false, list = this.list;
    if (title !== was && has(all, title)) {
      var typed = title;
      title = list.title = unique(all, title, was);
      this.titleNote = "“" + typed + "” is the title of another saved list, so this one is saved as “" + title + "”.";
      this.says = this.titleNote;
    }
    Object.keys(all).forEach(function (name) {
      if (name === was || name === title) { if (!placed) kept[title] = list; placed = true; }
      else kept[name] = all[name];
    });
    if (!placed) kept[title] = list;
    this.savedAs = title;
    this.store(kept, title);
    history.replaceState(null, "", "#list=" + encode(this.list));
  };
  // a list shown as it is, not saved until it is changed (the rules' own, or the one left once the last is deleted)
  Builder.prototype.show = function (list) {
    this.list = list;
    this.savedAs = this.sameAsSaved(list);
    this.notice = []; this.titleNote = null; this.wrong = null; this.wrongModels = {};
    history.replaceState(null, "", "#list=" + encode(list));
  };
  // Delete: the saved list shown leaves this browser; the saved list after it in the menu is shown (else the one
  // before, else the rules' own list), and a note beside the menu offers it back until the next change
  Builder.prototype.drop = function () {
    var all = this.saved(), name = this.savedAs, names = Object.keys(all), at = names.indexOf(name);
    if (at < 0) return;
    var gone = all[name], next = at + 1 < names.length ? names[at + 1] : at > 0 ? names[at - 1] : null;
    delete all[name];
    if (next !== null) {
      this.show(valid(this.data, all[next]));
      this.savedAs = next;
    } else {
      this.show(valid(this.data, this.data.samples[0] || { title: "My army", units: [] }));
    }
    this.store(all, this.savedAs);
    this.deleted = { name: name, list: gone, at: at };
    this.says = "“" + name + "” is deleted; “" + this.list.title + "” is open.";
  };
  // Undo: the list deleted is saved again where it was, and shown
  Builder.prototype.undo = function () {
    var back = this.deleted, all = this.saved(), names = Object.keys(all), kept = {};
    if (!back) return;
    var name = has(all, back.name) ? unique(all, back.name, null) : back.name, list = valid(this.data, back.list);
    list.title = name;
    names.splice(Math.min(back.at, names.length), 0, name);
    names.forEach(function (n) { kept[n] = n === name ? list : all[n]; });
    this.store(kept, name);
    this.show(list);
    this.savedAs = name;
    this.deleted = null;
    this.says = "“" + name + "” is back.";
  };
  // `then`: the controls to move the focus to, first found first, when the one pressed is gone once drawn again;
  // `first`: where the focus goes whether or not the control pressed is still there (a line removed: the list's
  // next line, never its Remove, which a second Enter would press)
  Builder.prototype.change = function (how, then, first) {
    how(this.list); this.keep(); this.then = then || null; this.first = first || null; this.render();
  };
  // A box typed in changes as the reader leaves it, most often by pressing another control: the page is drawn again
  // once that press is over (its click handled), so the control they went to is still there and keeps the focus.
  Builder.prototype.typed = function (how) {
    how(this.list);
    this.keep();
    this.later();
  };
  Builder.prototype.later = function () {
    var self = this;
    if (this.pressing) this.pending = true;
    else setTimeout(function () { self.render(); }, 0);
  };
  Builder.prototype.watchPresses = function () {
    var self = this;
    function released() {
      self.pressing = false;
      if (self.pending) { self.pending = false; setTimeout(function () { self.render(); }, 0); }
    }
    document.addEventListener("pointerdown", function () { self.pressing = true; }, true);
    document.addEventListener("change", function (e) { self.committed = e.target; }, true);  // its drawing not typing
    document.addEventListener("pointerup", released, true);
    document.addEventListener("pointercancel", released, true);
  };

  // the control holding this key, if drawn: each control has one (`data-focus`), the same for the same control
  // each time the page is drawn, so the focus stays where it was
  function keyed(root, key) {
    var all = root.querySelectorAll("[data-focus]");
    for (var i = 0; i < all.length; i++) if (all[i].getAttribute("data-focus") === key) return all[i];
    return null;
  }

  Builder.prototype.render = function () {
    var self = this, data = this.data, list = this.list, v = verdicts(data, list);
    var troops = byId(data.troops), heroes = byId(data.heroes), upgrades = byId(data.upgrades);
    var root = this.root, active = document.activeElement;
    var focused = active && active !== root && root.contains(active) ? active.getAttribute("data-focus") : null;
    // a box being typed in as the page is drawn again (on a slow phone, drawing late after the box before it was
    // left): what it holds and where its caret is go to the box drawn anew, or the keys typed so far are lost
    var typing = focused && active.tagName === "INPUT" && active.type === "text" && !active.readOnly && active !== this.committed
      ? { value: active.value, start: active.selectionStart, end: active.selectionEnd } : null;
    this.committed = null;
    var then = this.then || [], first = this.first;
    this.then = null; this.first = null;
    // a menu's button says what it adds or opens (the button as drawn when the menu changes, if drawn again since)
    function named(key, name) { var button = keyed(root, key); if (button) button.setAttribute("aria-label", name); }
    // everything is drawn again but the live region, which stays first
    Array.prototype.slice.call(root.childNodes).forEach(function (node) { if (node !== self.said) root.removeChild(node); });
    if (this.said.parentNode !== root) root.insertBefore(this.said, root.firstChild);
    if (this.notice.length) {
      root.appendChild(el("div", { "class": "rp-army-notice", role: "status" }, [
        el("p", { text: "This link's list did not fit these rules, so it was changed:" }),
        el("ul", {}, this.notice.map(function (text) { return el("li", { text: text }); }))]));
    }
    root.appendChild(el("h2", { "class": "rp-army-heading", text: "The list" }));

    // which list: its name, the saved ones, the text's own samples; a list is opened by its button, never by moving
    // through the menu (each arrow key there changes the menu's choice)
    var saved = Object.keys(this.saved());
    var lists = [{ value: "", text: "Open a list…" }]
      .concat(saved.map(function (name) { return { value: "s:" + name, text: name }; }))
      .concat(data.samples.map(function (s, i) { return { value: "x:" + i, text: s.title + " (from the rules)" }; }));
    if (!lists.some(function (o) { return o.value === self.choice.open; })) this.choice.open = "";
    function openName(value) {
      var found = lists.filter(function (o) { return o.value === value; })[0];
      return value && found ? "Open " + found.text : "Open the chosen list";
    }
    var openButton = el("button", { type: "button", "data-focus": "open-button", text: "Open", "aria-label": openName(this.choice.open),
      onclick: function () {
        var pick = self.choice.open;
        if (!pick) { keyed(root, "open").focus(); return; }
        var kind = pick.slice(0, 2), name = pick.slice(2);
        if (kind === "s:") {
          self.show(valid(data, self.saved()[name]));
          self.savedAs = name;
          self.keep();
        } else {
          self.show(valid(data, data.samples[parseInt(name, 10)]));  // the rules' own: saved once it is changed
        }
        self.deleted = null;
        self.render();
      } });
    var open = el("select", { id: "rp-army-open", "data-focus": "open", "aria-label": "List to open", onchange: function (e) {
      self.choice.open = e.target.value;
      named("open-button", openName(e.target.value));
    } }, lists.map(function (o) { return el("option", { value: o.value, text: o.text, selected: o.value === self.choice.open ? "selected" : null }); }));
    var stored = this.saved(), isSaved = this.savedAs !== null && has(stored, this.savedAs);
    root.appendChild(el("div", { "class": "rp-army-lists" }, [
      el("label", { "for": "rp-army-title" }, ["List ", el("input", { id: "rp-army-title", "data-focus": "title", value: list.title, maxlength: "80",
        "aria-describedby": this.titleNote ? "rp-army-title-why" : null,
        onchange: function (e) { self.typed(function (l) { l.title = e.target.value.trim() || "My army"; }); } })]),
      el("span", {}, [open, " ", openButton]),
      el("button", { type: "button", "data-focus": "new", text: "New list", onclick: function () {
        var n = saved.length + 1;
        while (has(self.saved(), "Army " + n)) n++;  // a title no saved list has
        self.show(valid(data, { title: "Army " + n, units: [] }));
        self.keep();
        self.render();
      } }),
      // the saved list shown leaves this browser; the focus goes to the list menu, where a second Enter deletes nothing
      isSaved ? el("button", { type: "button", "data-focus": "delete", text: "Delete", "aria-label": "Delete the saved list “" + this.savedAs + "”",
        onclick: function () { self.drop(); self.first = ["open"]; self.render(); } }) : null,
    ]));
    if (this.titleNote) root.appendChild(el("p", { id: "rp-army-title-why", "class": "rp-army-notice rp-army-title-why", text: this.titleNote }));
    if (this.deleted) {
      root.appendChild(el("p", { "class": "rp-army-notice rp-army-deleted" }, ["“" + this.deleted.name + "” is deleted. ",
        el("button", { type: "button", "data-focus": "undo", text: "Undo", "aria-label": "Undo: bring back “" + this.deleted.name + "”",
          onclick: function () { self.undo(); self.first = ["open"]; self.render(); } })]));
    }
    // the game's size: what is typed that is no size stays in the box, said wrong beside it, and the list keeps its own
    var size = data.by_points ? "points" : "models";
    function why() {
      var kept = data.by_points ? (list.agreed_points ? shown(parse(list.agreed_points)) : null) : list.agreed_models;
      var large = self.wrong !== null && tooLarge(data, self.wrong);  // check refuses more (too-large)
      return (large ? "Agreed " + size + " must be at most " + thousands(data.largest) + ", the largest number check takes"
        : data.by_points ? "Agreed points must be a number above 0, such as 500 or 499½" : "Agreed models must be a whole number above 0")
        + (kept ? ": the list keeps " + kept + "." : ": none are agreed.");
    }
    var wrong = this.wrong !== null;
    root.appendChild(el("label", { "class": "rp-army-agreed", "for": "rp-army-agreed" }, ["Agreed " + size + " ",
      el("input", { id: "rp-army-agreed", "data-focus": "agreed", inputmode: data.by_points ? "decimal" : "numeric", size: "5",
        value: wrong ? this.wrong : data.by_points ? (list.agreed_points ? shown(parse(list.agreed_points)) : "") : (list.agreed_models || ""),
        "aria-invalid": wrong ? "true" : null, "aria-describedby": wrong ? "rp-army-agreed-why" : null,
        onchange: function (e) {
          var text = e.target.value, kept = data.by_points ? agreed(text, data.largest) : agreedModels(text, data.largest);
          if (text.trim() && kept === null) { self.wrong = text; self.says = "agreed"; self.later(); return; }
          self.wrong = null;
          self.typed(function (l) { if (data.by_points) l.agreed_points = kept; else l.agreed_models = kept; });
        } })]));
    if (wrong) root.appendChild(el("p", { id: "rp-army-agreed-why", "class": "rp-army-over rp-army-agreed-why", text: why() }));

    // the lines; a line taken away takes its hero menu's choice, and the lines after it keep theirs
    function dropped(index) {
      function shifted(byLine) {
        var kept = {};
        Object.keys(byLine).forEach(function (at) { if (+at !== index) kept[+at > index ? +at - 1 : +at] = byLine[at]; });
        return kept;
      }
      self.choice.heroes = shifted(self.choice.heroes);
      self.wrongModels = shifted(self.wrongModels);
    }
    function modelsWhy(index) {
      var kept = list.units[index] && list.units[index].models;
      return "Models in " + lineName(index) + " must be a whole number from 1 to 10,000"
        + (kept ? ": the line keeps " + kept + "." : ": the line has none yet.");
    }
    // two lines of one troop type: each line's controls say which line they are of ("One more Xs, line 3")
    function lineName(index) {
      var troop = troops[list.units[index].troop], same = list.units.filter(function (u) { return u.troop === list.units[index].troop; });
      return troop.name + (same.length > 1 ? ", line " + (index + 1) : "");
    }
    var rows = list.units.map(function (unit, index) {
      var troop = troops[unit.troop], each = lineEach(data, unit), chosen = self.choice.heroes[index], thisLine = lineName(index);
      var wrongModels = Object.prototype.hasOwnProperty.call(self.wrongModels, index) ? self.wrongModels[index] : null;
      if (!heroes[chosen]) chosen = data.heroes.length ? data.heroes[0].id : "";
      function heroName(id) { return "Add " + heroes[id].name + " to " + thisLine; }
      var heroAdd = data.heroes.length ? el("button", { type: "button", "data-focus": "hero-add:" + index, text: "Add", "aria-label": heroName(chosen),
        onclick: function () {
          var id = self.choice.heroes[index] && heroes[self.choice.heroes[index]] ? self.choice.heroes[index] : chosen;
          self.change(function (l) { l.units[index].heroes.push(id); });
        } }) : null;
      var heroPick = data.heroes.length ? el("span", { "class": "rp-army-hero-pick" }, [
        el("label", { "for": "rp-army-hero-" + index, text: "Hero " }),
        el("select", { id: "rp-army-hero-" + index, "data-focus": "hero:" + index, "aria-label": "Hero to add to " + thisLine, onchange: function (e) {
          self.choice.heroes[index] = e.target.value;
          named("hero-add:" + index, heroName(e.target.value));
        } }, data.heroes.map(function (h) {
          return el("option", { value: h.id, selected: h.id === chosen ? "selected" : null,
            text: h.name + (h.points !== null && data.by_points ? " (" + shown(parse(h.points)) + (unit.count > 1 ? " each" : "") + ")" : "") });
        })), " ", heroAdd]) : null;
      // a line holds at most `most` units (check's count from 1 to 100): + says so there, and beside the line
      var full = unit.count >= most(data), fullWhy = most(data) + " is the most one line holds: add another line of " + troop.name + " for more.";
      // a line taken away: the focus goes to the next line itself (a second Enter presses nothing), else the unit menu
      function removed() {
        self.says = thisLine + " removed.";
        self.change(function (l) { l.units.splice(index, 1); dropped(index); }, ["add"], ["line:" + index]);
      }
      return el("li", { "class": "rp-army-line", "data-focus": "line:" + index, tabindex: "-1" }, [
        el("div", { "class": "rp-army-line-head" }, [
          el("button", { type: "button", "data-focus": "fewer:" + index, "aria-label": "One fewer " + thisLine, text: "−", onclick: function () {
            // the last one taken away takes its line
            if (list.units[index].count > 1) self.change(function (l) { l.units[index].count -= 1; }); else removed();
          } }),
          el("strong", { "class": "rp-army-count", text: unit.count + "×" }),
          el("button", { type: "button", "data-focus": "more:" + index, "aria-label": "One more " + thisLine, text: "+",
            "aria-describedby": full ? "rp-army-full-" + index : null, onclick: function () {
              if (list.units[index].count >= most(data)) { self.says = fullWhy; self.render(); return; }
              self.change(function (l) { l.units[index].count += 1; });
            } }),
          troop.rules ? el("a", { "class": "rp-army-name", "data-focus": "name:" + index, href: troop.rules, text: troop.name })
            : el("span", { "class": "rp-army-name", text: troop.name }),
          (function (link) { if (link) link.setAttribute("data-focus", "card:" + index); return link; })(card(data, troop)),
          data.by_points ? el("span", { "class": "rp-army-points", text: each === null ? "points not given" : shown(mul(each, frac(BigInt(unit.count)))) + " pts" }) : null,
          troop.models === null && !data.by_points ? el("label", { "class": "rp-army-line-models", "for": "rp-army-models-" + index }, [
            el("input", { id: "rp-army-models-" + index, "data-focus": "models:" + index, inputmode: "numeric", size: "3",
              value: wrongModels !== null ? wrongModels : unit.models || "", "aria-label": "Models in " + thisLine,
              "aria-invalid": wrongModels !== null ? "true" : null, "aria-describedby": wrongModels !== null ? "rp-army-models-why-" + index : null,
              onchange: function (e) {
                // what is no whole number from 1 to 10,000 stays in the box, said wrong; the line keeps its own
                var text = e.target.value, m = /^\s*\d+\s*$/.test(text) ? parseInt(text, 10) : NaN;
                if (text.trim() && !(m > 0 && m <= 10000)) { self.wrongModels[index] = text; self.says = modelsWhy(index); self.later(); return; }
                delete self.wrongModels[index];
                self.typed(function (l) { l.units[index].models = text.trim() ? m : null; });
              } }),
            " models"]) : null,
          el("button", { type: "button", "class": "rp-army-remove", "data-focus": "remove:" + index, "aria-label": "Remove " + thisLine, text: "Remove",
            onclick: removed }),
        ]),
        full ? el("p", { id: "rp-army-full-" + index, "class": "rp-army-over rp-army-agreed-why", text: fullWhy }) : null,
        wrongModels !== null ? el("p", { id: "rp-army-models-why-" + index, "class": "rp-army-over rp-army-agreed-why", text: modelsWhy(index) }) : null,
        el("div", { "class": "rp-army-line-more" }, unit.heroes.map(function (id, h) {
          return el("button", { type: "button", "class": "rp-army-chip", "data-focus": "hero-chip:" + index + ":" + h,
            "aria-label": "Remove " + heroes[id].name + " from " + thisLine, text: (unit.count > 1 ? "each with " : "with ") + heroes[id].name + " ✕",
            onclick: function () {
              // then the hero after it, the one before, or the line's menu of heroes
              self.change(function (l) { l.units[index].heroes.splice(h, 1); }, ["hero-chip:" + index + ":" + (h - 1), "hero:" + index]);
            } });
        }).concat(data.upgrades.filter(function (c) { return fits(c, unit.troop); }).map(function (c) {
          var on = unit.upgrades.indexOf(c.id) >= 0, ident = "rp-army-" + index + "-" + c.id;
          var price = c.points !== null && data.by_points ? " (" + shown(parse(c.points)) + (unit.count > 1 ? " each" : "") + ")" : unit.count > 1 ? " (each)" : "";
          return el("label", { "class": "rp-army-upgrade", "for": ident }, [el("input", { type: "checkbox", id: ident, "data-focus": "upgrade:" + index + ":" + c.id,
            checked: on ? "checked" : null, "aria-label": c.name + " for " + thisLine + price,
            onchange: function (e) { self.change(function (l) {
              var ups = l.units[index].upgrades, at = ups.indexOf(c.id);
              if (e.target.checked && at < 0) ups.push(c.id); else if (!e.target.checked && at >= 0) ups.splice(at, 1);
            }); } }), " " + c.name + price]);
        })).concat([heroPick])),
      ]);
    });
    root.appendChild(el("ol", { "class": "rp-army-units" }, rows));
    // a unit is added by the button beside the menu: moving through the menu (arrow keys, typing) only chooses
    if (!troops[this.choice.unit]) this.choice.unit = data.troops.length ? data.troops[0].id : "";
    var addButton = el("button", { type: "button", id: "rp-army-add-unit", "data-focus": "add-unit", text: "Add",
      "aria-label": this.choice.unit ? "Add " + troops[this.choice.unit].name : "Add the chosen unit", onclick: function () {
        var id = self.choice.unit;
        if (troops[id]) self.change(function (l) { l.units.push({ troop: id, count: 1, heroes: [], upgrades: [] }); });
      } });
    var addUnit = el("select", { id: "rp-army-add", "data-focus": "add", onchange: function (e) {
      self.choice.unit = e.target.value;
      named("add-unit", "Add " + troops[e.target.value].name);
    } }, data.troops.map(function (t) {
      return el("option", { value: t.id, selected: t.id === self.choice.unit ? "selected" : null,
        text: t.name + (data.by_points ? " (" + (t.points === null ? "points not given" : shown(parse(t.points)) + " pts") + ")" : "") });
    }));
    root.appendChild(el("p", { "class": "rp-army-add" }, [el("label", { "for": "rp-army-add", text: "Unit to add " }), addUnit, " ", addButton]));
    if (data.extras.length) {
      root.appendChild(el("fieldset", { "class": "rp-army-extras" }, [el("legend", { text: "Bought once for the force" })].concat(data.extras.map(function (c) {
        var ident = "rp-army-extra-" + c.id;
        return el("label", { "for": ident }, [el("input", { type: "checkbox", id: ident, "data-focus": "extra:" + c.id, checked: list.extras.indexOf(c.id) >= 0 ? "checked" : null,
          onchange: function (e) { self.change(function (l) {
            var at = l.extras.indexOf(c.id);
            if (e.target.checked && at < 0) l.extras.push(c.id); else if (!e.target.checked && at >= 0) l.extras.splice(at, 1);
          }); } }), " " + c.name + (c.points !== null && data.by_points ? " (" + shown(parse(c.points)) + ")" : "")]);
      }))));
    }

    // the totals and every limit, in its own words
    root.appendChild(el("h2", { "class": "rp-army-heading", text: data.limits.length ? "Totals and army limits" : "Totals" }));
    var totals = [];
    if (data.by_points) {
      var spent = parse(v.points);
      totals.push(el("strong", { "class": "rp-army-total", text: list.agreed_points ? shown(spent) + " of " + pointsWords(parse(list.agreed_points)) : pointsWords(spent) }));
      if (list.agreed_points && cmp(spent, parse(list.agreed_points)) > 0) totals.push(el("span", { "class": "rp-army-over", text: " — " + shown(sub(spent, parse(list.agreed_points))) + " over" }));
      var unpriced = unpricedNames(data, list);
      if (unpriced.length) totals.push(el("span", { "class": "rp-army-unpriced", text: " (not counting " + unpriced.join(", ") + ": the text gives no points)" }));
    }
    var units = parse(v.counts.units || "0"), hasModels = !data.by_points || data.troops.some(function (t) { return t.models !== null; });
    totals.push(el("span", { "class": "rp-army-units-count", text: (data.by_points ? " · " : "") + shown(units) + (units.n === 1n && units.d === 1n ? " unit" : " units") }));
    fielded(data, v).forEach(function (c) { totals.push(el("span", { "class": "rp-army-own-count", text: " · " + c.label.toLowerCase() + ": " + shown(c.count) })); });
    if (hasModels) totals.push(el("span", { "class": "rp-army-models", text: " · " + shown(parse(v.models)) + " models" + (list.agreed_models ? " of " + list.agreed_models : "") }));
    if (list.agreed_models && cmp(parse(v.models), frac(BigInt(list.agreed_models))) > 0) totals.push(el("span", { "class": "rp-army-over", text: " — " + shown(sub(parse(v.models), frac(BigInt(list.agreed_models)))) + " over" }));
    root.appendChild(el("p", { "class": "rp-army-totals" }, totals));
    // a list check refuses is said so beside its totals, with why, as check says it: never shown as one that passes
    var refused = refusals(data, list), refusedWords = refused.length ? "Check refuses this list: " + refused.join("; ") + "." : "";
    if (refused.length) root.appendChild(el("p", { "class": "rp-army-over rp-army-refused" }, [el("span", { "aria-hidden": "true", text: "✘ " }), refusedWords]));
    root.appendChild(el("ul", { "class": "rp-army-limits" }, data.limits.map(function (limit, i) {
      var r = v.limits[i], bound = [];
      if (r.at_least !== null) bound.push("at least " + shown(parse(r.at_least)));
      if (r.at_most !== null) bound.push("at most " + shown(parse(r.at_most)));
      return el("li", { "class": r.holds ? "holds" : "broken", "data-limit": limit.id }, [
        el("span", { "class": "rp-army-verdict" }, [el("span", { "aria-hidden": "true", text: r.holds ? "✔" : "✘" }),
          el("span", { "class": "visually-hidden", text: r.holds ? "kept:" : "broken:" })]), " ",
        el("span", { "class": "rp-army-limit-title", text: limit.title }), " ",
        el("span", { "class": "rp-army-limit-numbers", text: limitNumbers(r, bound) }),
      ]);
    })));
    // what the live region says: the totals and the limits broken, or once, why the size typed was not taken
    var broken = data.limits.filter(function (limit, i) { return !v.limits[i].holds; }).map(function (limit) { return limit.title; });
    var words = totals.map(function (node) { return node.textContent; }).join("").trim()
      + (refused.length ? ". " + refusedWords.slice(0, -1) : "") + (broken.length ? ". Breaks: " + broken.join("; ") : "");
    if (this.says) words = (this.says === "agreed" ? why() : this.says) + " " + words;
    this.says = null;
    if (this.said.textContent !== words) this.said.textContent = words;

    // keep it: the link, the YAML `rulepress` takes, print
    root.appendChild(el("h2", { "class": "rp-army-heading", text: "Save, share and print" }));
    var out = el("textarea", { "class": "rp-army-yaml", "data-focus": "yaml", readonly: "readonly", rows: "8", "aria-label": "The list as YAML" });
    out.value = yaml(data, list);
    // a page served over plain http has no clipboard to write to: the link is then shown, selected, to copy by hand
    var told = el("span", { "class": "rp-army-copied", role: "status" });
    function byHand() {
      var link = el("input", { type: "text", readonly: "readonly", "data-focus": "link", value: location.href, "aria-label": "The list's link" });
      told.textContent = "Copy this link: ";
      told.appendChild(link);
      link.select();
    }
    root.appendChild(el("div", { "class": "rp-army-keep" }, [
      el("button", { type: "button", "data-focus": "copy", text: "Copy link", onclick: function () {
        if (!navigator.clipboard) return byHand();
        navigator.clipboard.writeText(location.href).then(function () { told.textContent = "Link copied"; }, byHand);
      } }),
      told,
      el("button", { type: "button", "data-focus": "print", text: "Print", onclick: function () { window.print(); } }),
      el("details", { open: self.showYaml ? "open" : null, ontoggle: function (e) { self.showYaml = e.target.open; } }, [el("summary", { "data-focus": "yaml-open", text: "As YAML for rulepress" }), out]),
    ]));
    root.appendChild(roster(data, list, v));
    // the focus back where it was, or (that control gone) on the neighbour its press named
    var back = null, keys = first ? first.concat(then) : focused ? [focused].concat(then) : [];
    keys.some(function (key) { return (back = keyed(root, key)); });
    if (back) back.focus();
    if (back && typing && back.getAttribute("data-focus") === focused) keepTyping(back, typing);
  };

  // the box drawn anew holds what was typed in the one it replaces; typed so far, not yet taken, it is taken as the
  // box is left, as if typed in it (a value set by the page is not taken by the browser on its own)
  function keepTyping(box, typing) {
    if (box.value !== typing.value) {
      var taken = false;
      box.value = typing.value;
      box.addEventListener("change", function () { taken = true; }, { once: true });
      box.addEventListener("blur", function () { if (!taken) box.dispatchEvent(new Event("change")); }, { once: true });
    }
    box.setSelectionRange(typing.start, typing.end);
  }

  // -- the roster it prints: the PDF roster's layout, tracking boxes included ----------------------------
  function marks(track) {
    var box = function () { return el("span", { "class": "rp-roster-box" }); }, out = [], i, j;
    if (track.turns) {
      for (i = 0; i < track.turns; i++) {
        var turn = el("span", { "class": "rp-roster-turn" });
        for (j = 0; j < Math.max(1, track.boxes); j++) turn.appendChild(box());
        out.push(turn);
      }
    } else if (track.boxes) {
      for (i = 0; i < track.boxes; i++) out.push(box());
    } else {
      var tally = el("span", { "class": "rp-roster-tally" });
      for (i = 0; i < track.tally; i++) tally.appendChild(box());
      out.push(tally);
    }
    return out;
  }
  function trackHead(track) {
    var head = [track.label];
    if (track.turns) {
      var numbers = el("span", { "class": "rp-roster-turns" });
      for (var n = 1; n <= track.turns; n++) numbers.appendChild(el("span", { text: String(n) }));
      head.push(el("span", { "class": "rp-roster-per", text: "turn" }), numbers);
    } else if (track.per) {
      head.push(el("span", { "class": "rp-roster-per", text: track.per }));
    }
    return el("th", { "class": "rp-roster-track" }, head);
  }
  function written(text) { return text === null ? el("span", { "class": "rp-roster-gap", title: "not given in the source" }) : text; }

  // the troop types of the list's lines whose points the text does not give: their lines add nothing to the total
  function unpricedNames(data, list) {
    var troops = byId(data.troops), names = [];
    list.units.forEach(function (unit) {
      if (lineEach(data, unit) === null && names.indexOf(troops[unit.troop].name) < 0) names.push(troops[unit.troop].name);
    });
    return names;
  }

  // the ruleset's own counts the list fields (`counts_as: war_machines`), as its printed roster heads them
  function fielded(data, v) {
    return (data.own_counts || []).map(function (c) { return { label: c.label, count: parse(v.counts[c.name] || "0") }; })
      .filter(function (c) { return c.count.n !== 0n; });
  }

  function roster(data, list, v) {
    var troops = byId(data.troops), heroes = byId(data.heroes), costs = byId(data.upgrades), extras = byId(data.extras);
    var head = [el("th", { text: "No." }), el("th", { text: "Unit" })]
      .concat(data.columns.map(function (c) { return el("th", { text: c }); }))
      .concat(data.moves ? [el("th", { text: "Move" })] : []).concat([el("th", { text: "Special rules" })])
      .concat(data.by_points ? [el("th", { text: "Each" }), el("th", { text: "Points" })] : [el("th", { text: "Models" })])
      .concat(data.tracks.map(trackHead));
    var lines = list.units.map(function (unit) {
      var troop = troops[unit.troop], each = lineEach(data, unit), models = lineModels(data, unit);
      var name = [el("strong", { text: troop.name })];
      unit.heroes.forEach(function (id) { name.push(el("div", { "class": "rp-roster-addition", text: "+ " + heroes[id].name })); });
      unit.upgrades.forEach(function (id) { name.push(el("div", { "class": "rp-roster-addition", text: "+ " + costs[id].name })); });
      var cells = [el("td", { "class": "rp-roster-count", text: unit.count + "×" }), el("td", {}, name)]
        .concat(troop.stats.map(function (s) { return el("td", {}, [written(s)]); }))
        .concat(data.moves ? [el("td", { text: troop.move })] : []).concat([el("td", {}, [written(troop.keywords)])])
        .concat(data.by_points ? [el("td", { text: each === null ? "—" : shown(each) }), el("td", { text: each === null ? "—" : shown(mul(each, frac(BigInt(unit.count)))) })]
                               : [el("td", { text: models === null ? "—" : shown(models) })])
        .concat(data.tracks.map(function (track) {
          var cell = el("td", { "class": "rp-roster-track" });
          for (var i = 0; i < unit.count; i++) cell.appendChild(el("div", { "class": "rp-roster-unit-marks" }, marks(track)));
          return cell;
        }));
      return el("tr", {}, cells);
    });
    list.extras.forEach(function (id) {
      lines.push(el("tr", {}, [el("td", { "class": "rp-roster-count", text: "1×" }),
        el("td", { colspan: String(data.columns.length + (data.moves ? 3 : 2)) }, [extras[id].name + " (bought once for the force)"]),
        el("td", { text: extras[id].points === null ? "—" : shown(parse(extras[id].points)) }),
        el("td", { text: extras[id].points === null ? "—" : shown(parse(extras[id].points)) })]));
    });
    var totals = [];
    if (data.by_points) {
      totals.push(el("tr", {}, [el("th", { text: "Total" }), el("td", { text: pointsWords(parse(v.points)) })]));
      var unpriced = unpricedNames(data, list);
      if (unpriced.length) totals.push(el("tr", {}, [el("th", { text: "Not counted" }), el("td", { text: unpriced.join(", ") + " (the text gives no points)" })]));
      if (list.agreed_points) {
        var left = sub(parse(list.agreed_points), parse(v.points)), over = cmp(parse(v.points), parse(list.agreed_points)) > 0;
        totals.push(el("tr", {}, [el("th", { text: "Agreed" }), el("td", { text: pointsWords(parse(list.agreed_points)) })]));
        totals.push(el("tr", over ? { "class": "broken" } : {}, [el("th", { text: over ? "Over by" : "Left unspent" }),
          el("td", { text: pointsWords(over ? sub(parse(v.points), parse(list.agreed_points)) : left) })]));
      }
    } else {
      totals.push(el("tr", {}, [el("th", { text: "Models" }), el("td", { text: shown(parse(v.models)) + (list.agreed_models ? " of " + list.agreed_models + " agreed" : "") })]));
    }
    var refused = refusals(data, list);  // printed too: a roster check refuses is never one that passes
    if (refused.length) totals.push(el("tr", { "class": "broken" }, [el("th", { text: "Check refuses it" }), el("td", { text: refused.join("; ") })]));
    var limits = data.limits.map(function (limit, i) {
      var r = v.limits[i], bound = [];
      if (r.at_least !== null) bound.push("at least " + shown(parse(r.at_least)));
      if (r.at_most !== null) bound.push("at most " + shown(parse(r.at_most)));
      return el("tr", { "class": r.holds ? "holds" : "broken" }, [el("td", { text: r.holds ? "✔" : "✘" }),
        el("td", {}, [limit.title, el("div", { "class": "rp-roster-counted", text: "Counts " + limit.counted + "; " + limit.bounds + "." })]),
        el("td", { text: r.fails || shown(parse(r.count)) }), el("td", { text: bound.join(" and ") })]);
    });
    return el("section", { "class": "rp-army-print" }, [
      el("p", { "class": "rp-roster-ruleset", text: data.title + " · army roster" }),
      el("h1", { text: list.title }),
      el("table", { "class": "rp-roster-fields" }, [el("tr", {}, [
        el("td", { text: "Player:" }),
        data.by_points ? el("td", { text: "Agreed points: " + (list.agreed_points ? shown(parse(list.agreed_points)) : "") }) : el("td", { text: "Agreed models: " + (list.agreed_models || "") }),
        el("td", { text: "Units: " + shown(parse(v.counts.units || "0")) }),
      ].concat(fielded(data, v).map(function (c) { return el("td", { text: c.label + ": " + shown(c.count) }); })).concat([
        el("td", { text: "Units from: " + data.matrix.title }),
      ]))]),
      el("table", { "class": "rp-roster-table" }, [el("thead", {}, [el("tr", {}, head)]), el("tbody", {}, lines)]),
      el("table", { "class": "rp-roster-totals" }, totals),
      data.limits.length ? el("h2", { text: "Army limits" }) : null,
      data.limits.length ? el("table", { "class": "rp-roster-limits" }, [el("thead", {}, [el("tr", {}, [el("th"), el("th", { text: "Limit" }), el("th", { text: "This list" }), el("th", { text: "Allowed" })])]), el("tbody", {}, limits)]) : null,
    ]);
  }

  window.rulepressArmy = { verdicts: verdicts, yaml: yaml, encode: encode, decode: decode, valid: valid, agreed: agreed,
                           changes: changes, refusals: refusals,
                           pointsWords: function (text) { return pointsWords(parse(text)); } };
  function init() {
    var roots = document.querySelectorAll(".rp-army-builder");
    for (var i = 0; i < roots.length; i++) {
      var data = JSON.parse(roots[i].querySelector("script.rp-army-data").textContent);
      var holder = roots[i].querySelector(".rp-army-app");
      roots[i].builder = new Builder(holder, data);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
