"""What a handout booklet prints, as plain dicts: the model in play order, per audience.

Pure functions from a :class:`Ruleset` to the context the templates fill in. The
placement is the site's (``generator/render/site/pages.py``): chapters in order, and
in each chapter profiles, rules, tables with their spells, keywords, heroes, items,
costs, limits, armies, victory points; entries without a chapter in sections after
the chapters; then the glossary. Every number comes from the model or the mechanics.

Game-master-only material (``audience: gm`` entries, hidden victory points, rules'
``gm_note``) is left out of player contexts entirely, so no template can print it.
"""

from __future__ import annotations

import math

from ...mechanics import armies
from ...model.base import NotGiven
from ...model.entries import ValueCell, split_keyword
from ...model.entries import visible_to as visible  # the model's audience rule, the name cards and jobs use
from ...model.points import points_words
from ...model.ruleset import Ruleset
from ...model.text import initial, range_words, sort_key
from ..order import CHAPTER_ORDER, SECTION_PAGES, section_page_title  # a booklet reads in the site's order
from ..present import (
    GAP_KEY_PRINT,
    NOT_GIVEN_TEXT,
    bounds_text,
    capitalized,
    chapter_phases,
    cites_a_source,
    column_head,
    count_label,
    entry_source_text,
    entry_title,
    for_audience,
    gm_only,
    hero_kind,
    hidden_tasks_hint,
    inherited_from,
    key_text,
    keywords_label,
    limit_bounds_words,
    limit_words,
    paid_text,
    points_text,
    profile_text,
    range_text,
    roll_text,
    rule_charts,
    see_also,
    shown,
    source_title,
    step_text,
)
from ..present import (
    exact_chance_text as chance_text,
)
from ..prose import HIDDEN_REFERENCE, Prose, anchor, count_examples, value_html, value_text
from ..sheets.charts import chart_from_model
from ..tracks import tracks

AUDIENCES = ("player", "gm")

PAGES_NOT_PRINTED = ("formulas",)  # the authors' reference: on the site, not in a players' booklet
UNCHAPTERED = {"rules": "More rules", "tables": "More tables", "profiles": "More profiles"}
GAP_CELL = "not given"
# characters of HTML (about six lines): a rule this short is kept whole on one page, with its notes and source; a
# longer one may break across pages (a third of a page kept whole leaves, on average, a sixth of every page blank)
SHORT_BLOCK = 600
SHORT_KINDS = ("rules", "glossary", "keywords", "spells", "heroes", "items")  # prose entries; tables break between rows


def named(entry, audience: str) -> str:
    """An entry's name, or a neutral mark where a player output names a game-master-only entry."""
    return entry_title(entry) if visible(entry, audience) else HIDDEN_REFERENCE


# -- small values -------------------------------------------------------------------------------
def cell(value, none: str = "—") -> dict:
    """A value for a table cell or a fact: text, or a gap mark the template boxes."""
    if isinstance(value, NotGiven):
        return {"text": GAP_CELL, "gap": True}
    return {"text": shown(value, none), "gap": False}


def fact(label: str, value: dict, href: str = "", after: str = "") -> dict:
    """A labelled value printed in an entry's facts (a spell's range, a hero's cost)."""
    return {"label": label, "value": value, "href": href, "after": after}


def source_mark(entry, ruleset: Ruleset) -> dict | None:
    text = entry_source_text(entry, ruleset)
    if not text:
        return None
    return {"text": f"Source: {text}", "quote": entry.source.quote}


def _chapter_of(ruleset: Ruleset, section: str, entry) -> str:
    chapter = getattr(entry, "chapter", "")
    if not chapter and section == "spells" and entry.table:
        chapter = next((t.chapter for t in ruleset.tables if t.id == entry.table), "")
    return chapter


def _link(ruleset: Ruleset, section: str, id: str, printed: frozenset[str], audience: str) -> dict | None:
    """A cross-reference to an entry: its title, and its anchor if the booklet prints it."""
    try:
        entry = ruleset.get(section, id)
    except KeyError:
        return None
    if not visible(entry, audience):
        return None
    target = anchor(section, id)
    return {"title": entry_title(entry), "href": "#" + target if target in printed else ""}


def _see_also(ruleset: Ruleset, entry, printed, audience) -> list[dict]:
    """The entries ``entry``'s see_also names (``present.see_also``), each linked if the booklet prints it."""
    return [
        {"title": text, "href": "#" + anchor(section, id) if anchor(section, id) in printed else ""}
        for section, id, text in see_also(ruleset, entry, audience)
    ]


# -- placement ----------------------------------------------------------------------------------
def placement(ruleset: Ruleset, audience: str) -> list[dict]:
    """The booklet's parts in print order, each with groups of (section, entries)."""
    placed: set = set()
    parts = []
    for number, chapter in enumerate(for_audience(ruleset.chapters, audience), 1):
        parts.append(
            {
                "kind": "chapter",
                "key": chapter.id,
                "label": f"Chapter {number}",
                "number": str(number),
                "title": chapter.title,
                "intro": chapter.intro,
                "groups": _chapter_groups(ruleset, chapter.id, audience, placed),
            }
        )
    after = []
    for key in SECTION_PAGES:
        title = section_page_title(ruleset, key)
        if key in PAGES_NOT_PRINTED:
            continue
        sections = ("costs", "army_limits", "armies") if key == "army" else (key,)
        groups = []
        for section in sections:
            # charts: the ruleset's own and those of the base it extends, which it plays by (`extends:`)
            every = ruleset.reachable(section) if section == "charts" else ruleset.section(section)
            here = [e for e in every if (section, e.id) not in placed]
            entries = tuple(e for e in here if visible(e, audience))
            if entries or (here and section == "victory_points"):  # hidden ones: the block says some are
                groups.append((section, entries))
                placed.update((section, e.id) for e in entries)
        if groups:
            after.append({"kind": "section", "key": key, "title": title, "intro": "", "groups": groups})
    for section, title in UNCHAPTERED.items():
        entries = tuple(
            e
            for e in ruleset.section(section)
            if (section, e.id) not in placed and not e.chapter and visible(e, audience)
        )
        if entries:
            after.append(
                {
                    "kind": "section",
                    "key": f"more_{section}",
                    "title": title,
                    "intro": "",
                    "groups": [(section, entries)],
                }
            )
            placed.update((section, e.id) for e in entries)
    terms = tuple(sorted((t for t in ruleset.glossary if visible(t, audience)), key=lambda t: (sort_key(t.term), t.id)))
    if terms:
        after.append(
            {"kind": "glossary", "key": "glossary", "title": "Glossary", "intro": "", "groups": [("glossary", terms)]}
        )
    if any(section == "tables" for part in parts + after for section, _entries in part["groups"]):
        after.append({"kind": "roll-tables", "key": "roll_tables", "title": "Roll tables", "intro": "", "groups": []})
    after.append({"kind": "index", "key": "index", "title": "Index", "intro": "", "groups": []})
    for letter, part in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", after):
        part.update(label=f"Appendix {letter}", number=letter)
    return parts + after


def _chapter_groups(ruleset: Ruleset, chapter: str, audience: str, placed: set) -> list[tuple[str, tuple]]:
    groups = []
    for section in CHAPTER_ORDER:
        if section in PAGES_NOT_PRINTED:
            continue
        here = [
            e
            for e in ruleset.section(section)
            if _chapter_of(ruleset, section, e) == chapter and (section, e.id) not in placed
        ]
        entries = [e for e in here if visible(e, audience)]
        if here and section == "victory_points":  # hidden from this reader: its block says some are
            groups.append((section, tuple(entries)))
            placed.update((section, e.id) for e in here)
            continue
        if not entries:
            continue
        if section != "tables":
            groups.append((section, tuple(entries)))
            placed.update((section, e.id) for e in entries)
            continue
        for table in entries:
            groups.append(("tables", (table,)))
            placed.add(("tables", table.id))
            spells = tuple(
                s
                for s in ruleset.spells
                if s.table == table.id
                and _chapter_of(ruleset, "spells", s) == chapter
                and visible(s, audience)
                and ("spells", s.id) not in placed
            )
            if spells:
                groups.append(("spells", spells))
                placed.update(("spells", s.id) for s in spells)
    return groups


def printed_anchors(parts: list[dict]) -> frozenset[str]:
    anchors = {anchor("part", part["key"]) for part in parts}
    for part in parts:
        for section, entries in part["groups"]:
            anchors.update(anchor(section, e.id) for e in entries)
    return frozenset(anchors)


# -- blocks: one per entry, or one per group for the sections printed as a single table ------------
class _Blocks:
    def __init__(self, ruleset: Ruleset, audience: str, printed: frozenset[str]):
        self.ruleset, self.audience, self.printed = ruleset, audience, printed
        self.prose = Prose(ruleset, audience, printed)

    def group(self, section: str, entries: tuple) -> list[dict]:
        if section in ("costs", "army_limits", "victory_points", "values"):
            return [getattr(self, section)(entries)]
        return [self.entry(section, e) for e in entries]

    def entry(self, section: str, entry) -> dict:
        block = getattr(self, section)(entry)
        block.update(
            kind=section,
            anchor=anchor(section, entry.id),
            title=block.get("title", entry_title(entry)),
            gm=gm_only(entry),
            source=source_mark(entry, self.ruleset),
            inherited=inherited_from(self.ruleset, entry),  # a base's chart the ruleset plays by: said so
        )
        # a rule that prints charts may break between them (each grid stays whole), or it would leave a page near empty
        block["short"] = (
            section in SHORT_KINDS
            and not block.get("charts")
            and sum(len(str(block.get(key) or "")) for key in ("body", "gm_note")) < SHORT_BLOCK
        )
        return block

    def rules(self, rule) -> dict:
        note = self.prose.html(rule.gm_note) if rule.gm_note and self.audience == "gm" else ""
        return {
            "body": self.prose.html(rule.body),
            "gm_note": note,
            "charts": [
                chart_from_model(self.ruleset, self.ruleset.get("charts", id))
                for id in rule_charts(self.ruleset, rule, self.audience)
            ],
            "see_also": _see_also(self.ruleset, rule, self.printed, self.audience),
        }

    def tables(self, table) -> dict:
        odds = {}
        if table.ranges_given and not table.dice.stats:
            odds = {i: chance_text(p) for i, (_row, p) in enumerate(table.odds())}
        rows = []
        ids = self.ruleset.ids()
        for index, row in enumerate(table.rows):
            target = self.ruleset.get(ids[row.ref], row.ref) if row.ref in ids else None
            link = _link(self.ruleset, ids[row.ref], row.ref, self.printed, self.audience) if target else None
            result = row.result if target is None or visible(target, self.audience) else HIDDEN_REFERENCE
            rows.append(
                {
                    "roll": {"text": GAP_CELL, "gap": True}
                    if isinstance(row.roll, NotGiven)
                    else {"text": roll_text(row), "gap": False},
                    "result": result,
                    "href": link["href"] if link else "",
                    "effect": self.prose.inline(row.effect),
                    "chance": odds.get(index, ""),
                }
            )
        notes = []
        if table.clamp is not None:
            notes.append(f"Totals beyond the table read as its nearest end ({range_words(table.clamp)}).")
        if table.dice.stats:
            notes.append(f"The chance of each row depends on {', '.join(table.dice.stats)}.")
        return {
            "dice": column_head(table.dice.text, [row.roll for row in table.rows]),
            "rows": rows,
            "has_effect": any(r.effect for r in table.rows),
            "has_chance": bool(odds),
            "notes": notes,
            "ranges_gap": not table.ranges_given,
            "note": self.prose.html(table.note),
        }

    def profiles(self, matrix) -> dict:
        rows = []
        shown_rows = [row for row in matrix.rows if visible(row, self.audience)]
        for row in shown_rows:
            keywords = (
                cell(row.keywords)
                if isinstance(row.keywords, NotGiven)
                else {"text": shown(row.keywords), "gap": False}
            )
            cells = [profile_cell(self.ruleset, matrix, row, c) for c in matrix.columns]
            if matrix.has_movement:
                cells.append(move_cell(self.ruleset, matrix, row))
            rows.append(
                {
                    "name": row.name,
                    "cells": cells,
                    "keywords": keywords,
                    "note": self.prose.inline(row.note),
                    "gm": gm_only(row),
                }
            )
        heads = [column_head(c.label, [self.ruleset.cell(matrix, r, c.id) for r in shown_rows]) for c in matrix.columns]
        return {
            "row_label": matrix.row_label,
            "columns": heads + ([MOVE_LABEL] if matrix.has_movement else []),
            "rows": rows,
            "keywords_label": column_head(keywords_label(self.ruleset), [r.keywords for r in shown_rows]),
            "key": [{"label": c.label, "help": c.help} for c in matrix.columns if c.help],
            "has_gaps": any(c["gap"] for r in rows for c in [*r["cells"], r["keywords"]]),
            "note": self.prose.html(matrix.note),
        }

    def spells(self, spell) -> dict:
        return {
            "facts": spell_facts(self.ruleset, spell, self.audience, self.printed),
            "body": self.prose.html(spell.effect),
        }

    def glossary(self, term) -> dict:
        return {
            "title": term.term,
            "body": self.prose.html(term.definition),
            "aliases": list(term.aliases),
            "see_also": _see_also(self.ruleset, term, self.printed, self.audience),
        }

    def keywords(self, keyword) -> dict:
        usage = f"{keyword.name} {' '.join(p.upper() for p in keyword.params)}" if keyword.params else ""
        return {
            "facts": [fact("Kind", cell(keyword.kind))] + ([fact("Written", cell(usage))] if usage else []),
            "body": self.prose.html(keyword.definition),
            "index_kind": keyword.kind,  # the index calls it what the ruleset calls it (`kind: drill`)
        }

    def heroes(self, hero) -> dict:
        cost = [fact("Cost", cell(hero.points), after="points on top of the unit")] if hero.points is not None else []
        return {"facts": [fact("Level", cell(hero.level)), *cost], "body": self.prose.html(hero.ability)}

    def items(self, item) -> dict:
        facts = [fact("Kind", cell(item.kind))]
        if item.points is not None:
            facts.append(fact("Points", cell(item.points)))
        if item.keywords:
            facts.append(fact("Keywords", cell(item.keywords)))
        return {"facts": facts, "body": self.prose.html(item.rules)}

    def armies(self, army) -> dict:
        return {"roster": roster_lines(self.ruleset, army, self.audience), "note": self.prose.html(army.note)}

    def costs(self, costs) -> dict:
        rows = [
            {
                "anchor": anchor("costs", c.id),
                "name": c.name,
                "points": cell(c.points),
                "paid": paid_text(c, self.ruleset, self.audience),
            }
            for c in costs
        ]
        return {"kind": "costs", "title": "Costs", "rows": rows, "gm": False, "sources": _sources(costs, self.ruleset)}

    def army_limits(self, limits) -> dict:
        rows = [
            {
                "anchor": anchor("army_limits", l.id),
                "title": l.title,
                "count": limit_words(l.count, self.ruleset),
                "allowed": limit_bounds_words(l, self.ruleset),
            }
            for l in limits
        ]
        return {
            "kind": "army_limits",
            "title": "Army limits",
            "rows": rows,
            "gm": False,
            "sources": _sources(limits, self.ruleset),
        }

    def victory_points(self, entries) -> dict:
        rows = [
            {
                "anchor": anchor("victory_points", v.id),
                "kind": v.kind,
                "name": v.name,
                "hidden": v.hidden,
                "points": cell(v.points),
                "condition": self.prose.inline(v.condition),
                "gm": v.gm_only,
            }
            for v in entries
        ]
        hint = self.audience != "gm" and any(v.gm_only for v in self.ruleset.victory_points)
        return {
            "kind": "victory_points",
            "title": "Victory points",
            "rows": rows,
            "gm": False,
            "hint": hidden_tasks_hint(self.ruleset) if hint else "",
            "sources": _sources(entries, self.ruleset),
        }

    def values(self, values) -> dict:
        rows = [
            {
                "anchor": anchor("values", v.id),
                "label": v.label or v.id.replace("_", " "),
                "value": value_html(self.ruleset, v.id),
                "house": v.is_house_rule,
            }
            for v in values
        ]
        title = "House rules and numbers" if any(v.is_house_rule for v in values) else "Numbers"
        return {"kind": "values", "title": title, "rows": rows, "gm": False, "sources": _sources(values, self.ruleset)}

    def lookups(self, lookup) -> dict:
        with_values = any(row.value is not None for row in lookup.rows)
        rows = [
            {
                "key": key_text(row),
                "result": row.result,
                "value": str(row.value) if row.value is not None else "",
                "effect": self.prose.inline(row.effect),
            }
            for row in lookup.rows
        ]
        return {
            "key": lookup.key,
            "rows": rows,
            "has_value": with_values,
            "has_effect": any(r.effect for r in lookup.rows),
            "note": self.prose.html(lookup.note),
        }

    def charts(self, chart) -> dict:
        shown = chart_from_model(self.ruleset, chart)
        return {"chart": shown, "note": self.prose.html(chart.note)}


def _sources(entries, ruleset: Ruleset) -> list[dict]:
    return [{"name": entry_title(e), **mark} for e in entries if (mark := source_mark(e, ruleset))]


def spell_facts(ruleset: Ruleset, spell, audience: str, printed: frozenset[str] = frozenset()) -> list[dict]:
    facts = []
    if spell.table and (roll := ruleset.spell_roll(spell)) is not None:
        table = ruleset.table(spell.table)
        chance = "" if (p := ruleset.spell_chance(spell)) is None else ", " + chance_text(p)
        link = _link(ruleset, "tables", table.id, printed, audience)
        facts.append(
            fact(
                "Table",
                {
                    "text": f"{named(table, audience)} ({table.dice.text}), roll {range_text(roll)}{chance}",
                    "gap": False,
                },
                href=link["href"] if link else "",
            )
        )
    if spell.range is not None:
        value = cell(spell.range)
        if not value["gap"]:
            value["text"] = f"{spell.range} {spell.range_unit}"
        facts.append(fact("Range", value))
    if spell.casting_value is not None:
        facts.append(fact("Casting value", cell(spell.casting_value)))
    for label, text in (("Target", spell.target), ("Duration", spell.duration)):
        if text:
            facts.append(fact(label, cell(text)))
    return facts


# -- army limits in words -----------------------------------------------------------------------
# -- what a unit does in play: movement and the things its player tracks ---------------------------
BLANK_ROSTER_LINES = 10  # write-in lines on a blank A4 roster: what fits one page with its build-by reference
ROSTER_LINE_MM = 8.0  # the height a write-in line takes, with its padding: a shorter page has fewer
A4_HEIGHT_MM = 297.0


def roster_on(context: dict, paper) -> dict:
    """A roster's context for ``paper``: each blank roster with as many write-in lines as keep it on one page
    with its reference (US Letter is 17.6 mm shorter than A4: two lines fewer)."""
    fewer = math.ceil(max(0.0, A4_HEIGHT_MM - paper.height) / ROSTER_LINE_MM)
    lines = list(range(1, BLANK_ROSTER_LINES - fewer + 1))
    return {**context, "blanks": [{**blank, "lines": lines} for blank in context["blanks"]]}


def movement(ruleset: Ruleset, matrix, row) -> dict | None:
    """How far ``row`` moves, from the value the data names (None when it names none)."""
    id = matrix.movement_of(row)
    if not id:
        return None
    stated = ruleset.value(id).value
    if isinstance(stated, NotGiven):
        return {"text": GAP_CELL, "gap": True, "number": "", "unit": "", "house": False}
    number, _, unit = str(stated).partition(" ")
    house = ruleset.value(id).is_house_rule
    return {"text": value_text(ruleset, id), "gap": False, "number": number, "unit": unit, "house": house}


def has_movement(matrix) -> bool:
    return matrix.has_movement


MOVE_LABEL = "Move"


def profile_cell(ruleset: Ruleset, matrix, row, column) -> dict:
    """A profile cell for print: a cell naming a value prints that value (a house rule marked, with the original)."""
    written = row.values.get(column.id)
    if not isinstance(written, ValueCell):
        return cell(written) if isinstance(written, NotGiven) else {"text": profile_text(column, written), "gap": False}
    value = ruleset.value(written.value)
    if isinstance(value.value, NotGiven):
        return {"text": GAP_CELL, "gap": True}
    return {"text": value_html(ruleset, value.id), "gap": False, "house": value.is_house_rule}


def move_cell(ruleset: Ruleset, matrix, row) -> dict:
    """The Move cell of a matrix's row: the value it names, printed as every value is; a dash where it names none."""
    id = matrix.movement_of(row)
    if not id:
        return cell(None)
    if isinstance(ruleset.value(id).value, NotGiven):
        return {"text": GAP_CELL, "gap": True}
    return {"text": value_html(ruleset, id), "gap": False, "house": ruleset.value(id).is_house_rule}


def movement_key(ruleset: Ruleset, matrix, audience: str) -> str:
    """``Move: 2 hexes; Outriders on ponies 3 hexes``: the default and each row that differs, from the data."""
    if not has_movement(matrix):
        return ""
    parts = [f"{value_text(ruleset, matrix.movement)}" if matrix.movement else ""]
    for row in matrix.rows:
        if row.movement and row.movement != matrix.movement and visible(row, audience):
            parts.append(f"{row.name} {value_text(ruleset, row.movement)}")
    return "; ".join(p for p in parts if p)


def blank_roster(ruleset: Ruleset, matrix, audience: str) -> dict:
    """A roster to fill in: the matrix's columns, movement, tracking boxes, and the costs and limits to build by."""
    points = armies.points_column(matrix)
    rows = [row for row in matrix.rows if visible(row, audience)]
    troops = [
        {
            "name": row.name,
            "points": profile_cell(ruleset, matrix, row, points) if points else None,
            "models": cell(row.values.get(armies.models_column(matrix).id)) if armies.models_column(matrix) else None,
            "move": movement(ruleset, matrix, row),
        }
        for row in rows
    ]
    costs = [
        {
            "name": c.name,
            "points": cell(c.points),
            "paid": paid_text(c, ruleset, audience),
        }
        for c in ruleset.costs
    ]
    levels: dict[str, list] = {}
    for hero in ruleset.heroes:
        if visible(hero, audience):
            levels.setdefault(str(hero.level), []).append(
                {"name": hero.name, "points": cell(hero.points) if hero.points is not None else None}
            )
    limits = [
        {"title": l.title, "allowed": limit_bounds_words(l, ruleset), "counted": limit_words(l.count, ruleset)}
        for l in ruleset.army_limits
    ]
    models = armies.models_column(matrix)
    head_count = points is None and (
        models is not None or any(a.agreed_models is not None for a in ruleset.armies if a.matrix == matrix.id)
    )
    return {
        "title": "Blank army roster",
        "matrix": named(matrix, audience),
        "head_count": head_count,
        "carried": ruleset.meta.carried_spells,
        "bought_label": ", ".join(
            [keywords_label(ruleset)]
            + (["heroes"] if ruleset.heroes else [])
            + ([ruleset.meta.carried_spells] if ruleset.spells and ruleset.meta.carried_spells else [])
        ),
        "models_label": models.label if models else "",
        "stat_labels": [c.label for c in matrix.columns if c is not points],
        "points_label": points.label if points else "",
        "movement": has_movement(matrix),
        "movement_key": movement_key(ruleset, matrix, audience),
        "tracks": tracks(ruleset, matrix),
        "lines": list(range(1, BLANK_ROSTER_LINES + 1)),
        "troops": troops,
        "costs": costs,
        "heroes": [{"level": level, "heroes": found} for level, found in levels.items()],
        "limits": limits,
        "has_models": armies.models_column(matrix) is not None,
    }


# -- army rosters -------------------------------------------------------------------------------
def roster_lines(ruleset: Ruleset, army, audience: str) -> dict:
    """An army list's lines, each with its cost from the mechanics, the total and the limits."""
    matrix = ruleset.profile(army.matrix)
    points = armies.points_column(matrix)
    stat_columns = [c for c in matrix.columns if c is not points]
    lines = []
    costed = not armies.by_head_count(army)  # a list balanced by head-count prints models, never points
    has_models = not costed or armies.models_column(matrix) is not None  # as the army builder's totals
    for unit in army.units:
        row = matrix.row(unit.troop)
        cost = armies.line_cost(ruleset, army, unit)
        keywords = (
            cell(row.keywords) if isinstance(row.keywords, NotGiven) else {"text": shown(row.keywords), "gap": False}
        )
        lines.append(
            {
                "count": unit.count,
                "name": named(row, audience),
                "troop_points": cell(cost.troop_points),
                "stats": [profile_cell(ruleset, matrix, row, c) for c in stat_columns],
                "keywords": keywords,
                "upgrades": [_bought(ruleset.get("costs", u), audience) for u in unit.upgrades],
                "heroes": [
                    _bought(ruleset.get("heroes", h), audience, hero_kind(ruleset.get("heroes", h)))
                    for h in unit.heroes
                ],
                "spells": [named(ruleset.get("spells", s), audience) for s in unit.spells],
                "each": cell(cost.each),
                "total": cell(cost.total),
                "move": movement(ruleset, matrix, row),
                "models": cell(armies.line_models(ruleset, army, unit)) if has_models else {"text": "", "gap": False},
            }
        )
    extras = [{"count": 1, **_bought(ruleset.get("costs", c), audience)} for c in army.extras]
    limits = [
        {
            "title": r.limit.title,
            "count": points_text(r.count),
            "holds": r.holds,
            "allowed": bounds_text(r.at_least, r.at_most, show=points_text),
            "counted": limit_words(r.limit.count, ruleset),
            "bounds": limit_bounds_words(r.limit, ruleset),
        }
        for r in armies.check_limits(ruleset, army)
    ]
    total = armies.army_points(ruleset, army)
    agreed = army.agreed_points
    models = armies.army_models(ruleset, army)
    stated = agreed is not None and not isinstance(agreed, NotGiven)
    agreed_models = army.agreed_models
    return {
        "title": army.title,
        "matrix": named(matrix, audience),
        "total": points_text(total),
        "costed": costed,
        "carried": ruleset.meta.carried_spells,
        "carried_label": capitalized(ruleset.meta.carried_spells),
        "counted": counted(ruleset, army),
        "left_models": agreed_models - models
        if agreed_models is not None and not isinstance(agreed_models, NotGiven)
        else None,
        "agreed": (GAP_CELL if isinstance(agreed, NotGiven) else points_text(agreed)) if agreed is not None else None,
        "left": points_text(agreed - total) if stated else None,
        # the totals in words: "1 point", "3 points"
        "total_words": points_words(total),
        "agreed_words": points_words(agreed) if stated else None,
        "left_words": points_words(agreed - total) if stated else None,
        "models": models,
        "has_models": has_models,
        "agreed_models": GAP_CELL if isinstance(agreed_models, NotGiven) else agreed_models,
        "stat_labels": [
            column_head(c.label, [ruleset.cell(matrix, matrix.row(u.troop), c.id) for u in army.units])
            for c in stat_columns
        ],
        "keywords_label": column_head(keywords_label(ruleset), [matrix.row(u.troop).keywords for u in army.units]),
        "gap_key": GAP_KEY_PRINT,
        "has_gaps": any(
            v["gap"]
            for line in lines
            for v in [
                *line["stats"],
                line["keywords"],
                line["models"],
                *((line["troop_points"], line["each"], line["total"]) if costed else ()),
            ]
        ),
        "movement": has_movement(matrix),
        "tracks": tracks(ruleset, matrix),
        "lines": lines,
        "extras": extras,
        "limits": limits,
        "units": armies.army_counts(ruleset, army)[armies.UNITS],
    }


def counted(ruleset: Ruleset, army) -> list[dict]:
    """What the list fields, as the ruleset counts it: its units, then each count of the ruleset's own that its rows
    declare (`counts_as: guns`), by the count's name:
    ``[{"label": "Units", "count": 3}, {"label": "Guns", "count": 1}]``."""
    counts = armies.army_counts(ruleset, army)
    names = [armies.UNITS, *(name for name in armies.row_counts(ruleset) if counts.get(name))]
    return [{"label": count_label(name), "count": counts[name]} for name in names]


def _bought(entry, audience: str, what: str = "") -> dict:
    points = getattr(entry, "points", None)
    return {"name": named(entry, audience), "points": cell(points) if points is not None else None, "what": what}


def roster_glossary(ruleset: Ruleset, army, prose: Prose) -> dict:
    """The special rules, heroes, spells and upgrades an army list uses, with what they do."""
    matrix = ruleset.profile(army.matrix)
    keywords, unknown, heroes, spells, upgrades = [], [], [], [], []
    for unit in army.units:
        row = matrix.row(unit.troop)
        if isinstance(row.keywords, NotGiven):
            unknown.append(row.name)
        else:
            keywords += [k for written in row.keywords if (k := keyword_named(ruleset, written))]
        heroes += [ruleset.get("heroes", h) for h in unit.heroes]
        spells += [ruleset.get("spells", s) for s in unit.spells]
        upgrades += [ruleset.get("costs", c) for c in unit.upgrades]
    upgrades += [ruleset.get("costs", c) for c in army.extras]
    entries = []
    for kind, found, text in (
        ("Special rule", keywords, lambda k: k.definition),
        ("Hero", heroes, lambda h: h.ability),
        ("Spell", spells, lambda s: s.effect),
        ("Bought", upgrades, lambda c: ""),
    ):
        for entry in _unique(e for e in found if visible(e, prose.audience)):
            facts = spell_facts(ruleset, entry, prose.audience) if kind == "Spell" else []
            entries.append(
                {
                    "kind": kind,
                    "title": entry_title(entry),
                    "body": prose.html(text(entry)),
                    "points": cell(entry.points, "")
                    if kind in ("Hero", "Bought") and entry.points is not None
                    else None,
                    "facts": facts,
                    "source": source_mark(entry, ruleset),
                    "inherited": inherited_from(ruleset, entry),
                }
            )
    return {"entries": entries, "unknown_keywords": list(dict.fromkeys(unknown)), "gap_text": NOT_GIVEN_TEXT}


def _unique(entries: list) -> list:
    seen, kept = set(), []
    for entry in entries:
        if entry.id not in seen:
            seen.add(entry.id)
            kept.append(entry)
    return kept


def keyword_named(ruleset: Ruleset, written: str):
    """The keyword entry a profile's ``LONG SHOT 3`` names, if declared."""
    name = split_keyword(written)[0].casefold()
    return next((k for k in ruleset.reachable("keywords") if k.name.casefold() == name), None)


# -- contexts for the templates -----------------------------------------------------------------
def handout_context(ruleset: Ruleset, audience: str) -> dict:
    """Everything the handout template prints for one ruleset and audience."""
    if audience not in AUDIENCES:
        raise ValueError(f"audience must be one of {AUDIENCES}, not {audience!r}")
    parts = placement(ruleset, audience)
    printed = printed_anchors(parts)
    blocks = _Blocks(ruleset, audience, printed)
    prose = blocks.prose
    for part in parts:
        part["anchor"] = anchor("part", part["key"])
        part["intro"] = prose.html(part["intro"])
        part["phases"] = [  # a chapter's phases, by their step in the turn
            {"step": step_text(n, p), "title": p.title, "summary": prose.inline(p.summary), "gm": gm_only(p)}
            for n, p in (chapter_phases(ruleset, part["key"], audience) if part["kind"] == "chapter" else ())
        ]
        part["blocks"] = [b for section, entries in part.pop("groups") for b in blocks.group(section, entries)]
    meta = ruleset.meta
    phases = [
        {"sequence": p.sequence, "title": p.title, "summary": prose.inline(p.summary), "gm": gm_only(p)}
        for p in ruleset.phases
        if visible(p, audience)
    ]
    sequences: dict[str, list] = {}
    for phase in phases:
        sequences.setdefault(phase["sequence"], []).append(phase)
    context = {
        "audience": audience,
        "ruleset_id": ruleset.id,
        "title": meta.title,
        "subtitle": meta.subtitle,
        "overlay": meta.overlay,
        "author": meta.author,
        "summary": prose.html(meta.summary),
        "needs": list(meta.needs),
        "sequences": [{"name": name, "phases": steps} for name, steps in sequences.items()],
        "source_title": source_title(ruleset) if meta.source or meta.overlay else "",
        "cites_a_source": cites_a_source(ruleset),  # a game with no source text prints no key to its citations
        "parts": parts,
        "gap_text": NOT_GIVEN_TEXT,
    }
    context["has_gaps"] = prints_a_gap(parts)  # the key to the empty box is printed where one is
    context["examples"] = count_examples(context["summary"], *_all_html(parts))
    context["roll_tables"] = roll_table_digest(parts)
    context["index"] = booklet_index(parts)
    context["description"] = _description(ruleset, audience)
    return context


def prints_a_gap(data) -> bool:
    """Whether any value in ``data`` (the dicts and lists the templates get) prints as a gap: an empty box."""
    if isinstance(data, dict):
        return data.get("gap") is True or any(prints_a_gap(value) for value in data.values())
    if isinstance(data, list | tuple):
        return any(prints_a_gap(value) for value in data)
    return False


def _description(ruleset: Ruleset, audience: str) -> str:
    meta = ruleset.meta
    what = (
        f"{ruleset.game_master(start=True, possessive=True)} copy of the rules booklet"
        if audience == "gm"
        else "Rules booklet"
    )
    return f"{what} of {meta.title}" + (f": {meta.subtitle}" if meta.subtitle else "")


def roll_table_digest(parts: list[dict]) -> list[dict]:
    """Every roll table the booklet prints, in print order: its dice and results, and where the full table is."""
    return [
        {
            "title": b["title"],
            "anchor": b["anchor"],
            "dice": b["dice"],
            "gm": b["gm"],
            "ranges_gap": b["ranges_gap"],
            "rows": [{"roll": r["roll"], "result": r["result"]} for r in b["rows"]],
        }
        for part in parts
        for b in part["blocks"]
        if b["kind"] == "tables"
    ]


INDEX_KINDS = {
    "rules": "",
    "tables": "table",
    "profiles": "profiles",
    "spells": "spell",
    "glossary": "term",
    "keywords": "special rule",
    "heroes": "hero",
    "items": "item",
    "armies": "army list",
    "lookups": "table",
    "charts": "chart",
}


def booklet_index(parts: list[dict]) -> list[dict]:
    """The index at the back: every printed rule, table, chart, term and spell (and each term's other
    spellings), alphabetically, grouped by first letter; the template adds the page numbers."""
    entries = {}
    for part in parts:
        for b in part["blocks"]:
            if b["kind"] not in INDEX_KINDS or not b.get("anchor"):
                continue
            names = [b["title"]] + [f"{alias} (see {b['title']})" for alias in b.get("aliases", ())]
            kind = b.get("index_kind") or INDEX_KINDS[b["kind"]]
            for name in names:  # "Rout Table", not "Rout Table table": a kind the name already says is left out
                said = kind and name.casefold().split(" (see ")[0].endswith(kind.split()[-1])
                entries.setdefault(
                    (sort_key(name), b["anchor"]),
                    {"name": name, "anchor": b["anchor"], "kind": "" if said else kind, "gm": b["gm"]},
                )
    letters: dict[str, list] = {}
    for key in sorted(entries):
        entry = entries[key]
        letters.setdefault(initial(entry["name"]), []).append(entry)
    return [{"letter": letter, "entries": found} for letter, found in letters.items()]


def _all_html(parts: list[dict]):
    for part in parts:
        yield part["intro"]
        for block in part["blocks"]:
            for key in ("body", "gm_note", "note"):
                if block.get(key):
                    yield block[key]


def roster_context(ruleset: Ruleset, audience: str, lists: tuple | None = None) -> dict:
    """A blank roster per profile matrix, then every army list of the ruleset the audience may see, as roster sheets;
    given ``lists`` (a player's own, from `rulepress list`), those lists' sheets alone."""
    prose = Prose(ruleset, audience)
    blanks = [blank_roster(ruleset, m, audience) for m in ruleset.profiles if visible(m, audience) and m.pieces]
    rosters = []
    for army in ruleset.armies if lists is None else lists:
        if lists is None and not visible(army, audience):
            continue
        rosters.append(
            {
                **roster_lines(ruleset, army, audience),
                "note": prose.html(army.note),
                "gm": gm_only(army),
                "glossary": roster_glossary(ruleset, army, prose),
                "source": source_mark(army, ruleset),
            }
        )
    return {
        "audience": audience,
        "ruleset_id": ruleset.id,
        "ruleset_title": ruleset.title,
        "rosters": rosters,
        "blanks": blanks if lists is None else [],
        "gap_text": NOT_GIVEN_TEXT,
    }
