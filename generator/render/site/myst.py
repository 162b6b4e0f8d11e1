"""Model entries written as MyST Markdown, for the site's directives to parse.

Plain text from data (names, results, labels) is escaped, so it can never become
markup or HTML; Markdown fields are the author's prose and pass through (raw HTML
in them is turned back into text by the extension's transform).
"""

from __future__ import annotations

import dataclasses
import re

from ...mechanics import armies
from ...model.base import NotGiven
from ...model.canonical import canonical
from ...model.dice import percent
from ...model.entries import (
    ArmyLimit,
    ArmyList,
    Cost,
    Hero,
    Item,
    Keyword,
    Phase,
    ProfileMatrix,
    RollTable,
    Rule,
    Spell,
    Term,
    ValueCell,
    VictoryPoints,
    split_keyword,
)
from ...model.points import points_noun
from ...model.ruleset import GAME_MASTER, Ruleset
from ...model.text import anchor, range_words
from ..calculators import computed_key, fixed_answers
from ..markdown import chart_md, esc, gap, pipe_table, role_text
from ..present import (
    AUTHORS,
    HIDDEN_REFERENCE,
    SEES_EVERYTHING,
    bounds_text,
    column_head,
    entry_source_text,
    for_audience,
    gm_only,
    hidden_tasks_hint,
    key_text,
    keywords_label,
    limit_bounds_words,
    limit_words,
    list_separator,
    paid_text,
    points_text,
    profile_text,
    range_text,
    roll_text,
    rule_charts,
    see_also,
    shown,
    table_odds,
    visible_to,
)
from ..sheets.charts import chart_from_model
from ..why import chart_reasons
from ..worked import for_readers, house_hidden

ENTRY_LINES = 1_000_000  # an entry's text is numbered from ENTRY_LINES * n, n its place on the page


def code(text) -> str:
    """Plain text as inline code: fenced by more backticks than it holds, so it can never end the code early."""
    text = " ".join(str(text).split())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") or longest else text
    return f"{fence}{padded}{fence}"


def code_block(text: str, language: str = "text") -> str:
    """Plain text as a fenced block: fenced by more backticks than any run in it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def admonition(title: str, css_class: str, body: str) -> str:
    """An admonition whose colon fence is longer than any line of colons in its body."""
    longest = max((len(run) for run in re.findall(r"(?m)^\s*(:+)", body)), default=0)
    fence = ":" * max(3, longest + 1)
    return f"{fence}{{admonition}} {title}\n:class: {css_class}\n{body}\n{fence}"


label = anchor  # an entry's place on the site: model/text.py, where `check` reads it too


def cell(value) -> str:
    """A table cell: the value, or the gap mark."""
    return gap() if isinstance(value, NotGiven) else esc(shown(value))


def prose(text: str, ruleset: Ruleset | None = None) -> str:
    """Author prose for readers: each worked example's sentence marked checked, its code in a closed
    "How this is checked" box (the ``verified-example`` directive); on an overlay's pages, an example its
    house values change says both results instead."""
    house = ruleset.house_results if ruleset is not None else ()
    return for_readers(
        str(text).strip(),
        " {checked}`✓`",
        keep_code="verified-example",
        house=house,
        escape=esc,
        hidden=house_hidden(ruleset),
        language=ruleset.language if ruleset is not None else "en",
        game_master=ruleset.game_master() if ruleset is not None else GAME_MASTER,
    )


def inline_prose(text) -> str:
    """Author prose in a table cell: roles kept (so they render), on one line, pipes escaped."""
    return " ".join(str(text or "").split()).replace("|", "\\|")


def source_line(entry, ruleset: Ruleset) -> str:
    text = entry_source_text(entry, ruleset)
    quote = getattr(getattr(entry, "source", None), "quote", "")
    if not text:
        return ""
    shown_quote = f" — “{esc(quote)}”" if quote else ""
    return f"\n\n{{source}}`{role_text(text)}`{shown_quote}\n"


def rule_md(rule: Rule, ruleset: Ruleset, audience: str) -> str:
    parts = [prose(rule.body, ruleset)] + [
        chart_grid_md(ruleset.get("charts", id), ruleset, heading=True) for id in rule_charts(ruleset, rule, audience)
    ]
    parts.append(see_also_md(ruleset, rule, audience))
    if rule.gm_note and audience in SEES_EVERYTHING:
        parts.append(
            admonition(
                f"{ruleset.game_master(start=True, possessive=True)} note", "gm-note", prose(rule.gm_note, ruleset)
            )
        )
    return "\n\n".join(p for p in parts if p) + source_line(rule, ruleset)


def see_also_md(ruleset: Ruleset, entry, audience: str) -> str:
    """The sentence "See also: ..." with a role to each entry ``entry``'s see_also names (``present.see_also``: each
    once, none of the game-master's for players), or nothing."""
    found = see_also(ruleset, entry, audience)
    if not found:
        return ""
    separator = list_separator(text for _section, _id, text in found)
    return "See also: " + separator.join(ref_role(section, id, text) for section, id, text in found) + "."


_ROLE_OF_SECTION = {"rules": "rule", "tables": "table", "spells": "spell", "profiles": "profile", "glossary": "term"}


def ref_role(section: str, id: str, title: str = "") -> str:
    """A cross-reference role to entry ``id`` of ``section``, optionally with its own text."""
    role = _ROLE_OF_SECTION.get(section, "entry")
    target = id if role != "entry" else f"{section}.{id}"
    return f"{{{role}}}`{role_text(title)} <{target}>`" if title else f"{{{role}}}`{target}`"


def table_md(table: RollTable, ruleset: Ruleset, audience: str = "player") -> str:
    odds = table_odds(table)
    with_effects = any(r.effect for r in table.rows)
    header = (
        [esc(column_head(table.dice.text, [row.roll for row in table.rows]))]
        + ["Result"]
        + (["Effect"] if with_effects else [])
        + (["Chance"] if odds else [])
    )
    rows = []
    for index, row in enumerate(table.rows):
        ids = ruleset.ids()
        hidden = audience not in SEES_EVERYTHING and any(
            gm_only(e) for _s, e in ruleset.all_entries() if e.id == row.ref
        )
        result = (
            esc(HIDDEN_REFERENCE)
            if row.ref and hidden
            else ref_role(ids[row.ref], row.ref, row.result)
            if row.ref in ids
            else esc(row.result)
        )
        roll = gap() if isinstance(row.roll, NotGiven) else esc(roll_text(row))
        line = [roll, result] + ([inline_prose(row.effect)] if with_effects else []) + ([odds[index]] if odds else [])
        rows.append(line)
    parts = [pipe_table(header, rows)]
    if table.clamp is not None:
        parts.append(f"Totals beyond the table read as its nearest end ({esc(range_words(table.clamp))}).")
    if table.dice.stats:
        parts.append(f"The chance of each row depends on {esc(', '.join(table.dice.stats))}.")
    if not table.ranges_given:
        parts.append(
            ":::{admonition} Gap in the source\n:class: source-gap\nThe source gives the results of this table "
            "but not the rolls that lead to them; they are left blank rather than guessed.\n:::"
        )
    if table.note:
        parts.append(prose(table.note, ruleset))
    return "\n\n".join(parts) + source_line(table, ruleset)


def profile_md(matrix: ProfileMatrix, ruleset: Ruleset, audience: str = "player") -> str:
    shown_rows = for_audience(matrix.rows, audience)
    computed = {c.id: [ruleset.cell(matrix, row, c.id) for row in shown_rows] for c in matrix.columns}
    moves = ["Move"] if matrix.has_movement else []
    header = (
        [esc(matrix.row_label)]
        + [esc(column_head(c.label, computed[c.id])) for c in matrix.columns]
        + moves
        + [esc(column_head(keywords_label(ruleset), [row.keywords for row in shown_rows]))]
    )
    rows = []
    for row in shown_rows:
        keywords = gap() if isinstance(row.keywords, NotGiven) else keywords_md(row.keywords, ruleset, audience)
        cells = [_profile_cell(c, row.values.get(c.id)) for c in matrix.columns]
        if moves:
            cells.append(f"{{value}}`{matrix.movement_of(row)}`" if matrix.movement_of(row) else "—")
        rows.append([f"**{esc(row.name)}**"] + cells + [keywords])
    parts = [pipe_table(header, rows)]
    key = [f"**{esc(c.label)}**: {esc(c.help)}" for c in matrix.columns if c.help]
    if key:
        parts.append("\n".join(f"- {k}" for k in key))
    notes = [f"- **{esc(r.name)}**: {inline_prose(r.note)}" for r in shown_rows if r.note]
    if notes:
        parts.append("\n".join(notes))
    if matrix.note:
        parts.append(prose(matrix.note, ruleset))
    return "\n\n".join(parts) + source_line(matrix, ruleset)


def keywords_md(keywords: tuple, ruleset: Ruleset, audience: str) -> str:
    """A troop's keywords as written (`SHOOTS 3`), each declared one this audience sees a link to its
    definition: the ruleset's own keyword page, or the base's for a keyword it inherits (the `{entry}` role
    links there); a keyword declared nowhere, hidden from the audience or with a `|` (which would split the
    table's cell) prints as plain text."""
    if not keywords:
        return esc(shown(keywords))
    declared = {k.name.casefold(): k for k in ruleset.reachable("keywords")}
    shown_keywords = []
    for written in keywords:
        keyword = declared.get(split_keyword(str(written))[0].casefold())
        if keyword is None or "|" in str(written) or not visible_to(keyword, audience):
            shown_keywords.append(esc(written))
        else:
            shown_keywords.append(ref_role("keywords", keyword.id, str(written)))
    return ", ".join(shown_keywords)


def _profile_cell(column, written) -> str:
    """A profile cell: one naming a value is that value's role, printed (and a house rule marked) as in prose; a
    number as its column's type prints it (`4+`)."""
    if isinstance(written, ValueCell):
        return f"{{value}}`{written.value}`"
    return gap() if isinstance(written, NotGiven) else esc(profile_text(column, written))


def spell_md(spell: Spell, ruleset: Ruleset, audience: str = "player") -> str:
    facts = []
    roll = ruleset.spell_roll(spell) if spell.table else None
    if roll is not None and not visible_to(ruleset.table(spell.table), audience):
        facts.append(("Table", esc(HIDDEN_REFERENCE)))
    elif roll is not None:
        table = ruleset.table(spell.table)
        chance = "" if (p := ruleset.spell_chance(spell)) is None else f" ({esc(percent(p))})"
        facts.append(
            ("Table", f"{{table}}`{role_text(table.title)} <{table.id}>`, roll {esc(range_text(roll))}{chance}")
        )
    if spell.range is not None:
        facts.append(
            ("Range", gap() if isinstance(spell.range, NotGiven) else f"{esc(spell.range)} {esc(spell.range_unit)}")
        )
    if spell.casting_value is not None:
        facts.append(("Casting value", cell(spell.casting_value)))
    if spell.target:
        facts.append(("Target", esc(spell.target)))
    if spell.duration:
        facts.append(("Duration", esc(spell.duration)))
    lines = [f"- **{name}:** {value}" for name, value in facts]
    return "\n".join(lines) + "\n\n" + prose(spell.effect, ruleset) + source_line(spell, ruleset)


def term_md(term: Term, ruleset: Ruleset, audience: str = "player") -> str:
    parts = [prose(term.definition, ruleset)]
    if term.aliases:
        parts.append("Also written: " + ", ".join(f"*{esc(a)}*" for a in term.aliases) + ".")
    parts.append(see_also_md(ruleset, term, audience))
    return "\n\n".join(p for p in parts if p) + source_line(term, ruleset)


def keyword_md(keyword: Keyword, ruleset: Ruleset) -> str:
    params = " ".join(p.upper() for p in keyword.params)
    usage = f"Written {code(keyword.name + (' ' + params if params else ''))}. " if params else ""
    return f"*{esc(keyword.kind)}.* {usage}{prose(keyword.definition, ruleset)}" + source_line(keyword, ruleset)


def hero_md(hero: Hero, ruleset: Ruleset) -> str:
    cost = (
        f"- **Cost:** {cell(hero.points)} {points_noun(hero.points)} on top of the unit\n"
        if hero.points is not None
        else ""
    )
    return f"- **Level:** {esc(hero.level)}\n{cost}\n{prose(hero.ability, ruleset)}" + source_line(hero, ruleset)


def item_md(item: Item, ruleset: Ruleset) -> str:
    facts = f"- **Kind:** {esc(item.kind)}\n"
    if item.points is not None:
        facts += f"- **Points:** {cell(item.points)}\n"
    if item.keywords:
        facts += f"- **Keywords:** {esc(shown(item.keywords))}\n"
    return facts + "\n" + prose(item.rules, ruleset) + source_line(item, ruleset)


def costs_md(costs: list[Cost], ruleset: Ruleset, audience: str = "player") -> str:
    rows = [[esc(c.name), cell(c.points), esc(paid_text(c, ruleset, audience))] for c in costs]
    return pipe_table(["Bought", "Points", "Paid"], rows)


def limits_md(limits: list[ArmyLimit], ruleset: Ruleset, audience: str = "player") -> str:
    """Army limits as players read them, what is counted and what is allowed in words; the authors' site shows
    the expressions as written."""
    if audience == AUTHORS:
        rows = [[esc(l.title), code(l.count), bounds_text(l.at_least, l.at_most, show=code)] for l in limits]
    else:
        rows = [[esc(l.title), esc(limit_words(l.count, ruleset)), esc(limit_bounds_words(l, ruleset))] for l in limits]
    return pipe_table(["Limit", "Counted", "Allowed"], rows)


def army_md(army: ArmyList, ruleset: Ruleset, audience: str = "player") -> str:
    matrix = ruleset.profile(army.matrix)

    def named(entry) -> str:  # check refuses a player army naming gm material; never print it anyway
        return HIDDEN_REFERENCE if not visible_to(entry, audience) else getattr(entry, "name", entry.id)

    if armies.by_head_count(army):
        return _head_count_army_md(army, ruleset, named)
    rows = []
    for unit in army.units:
        cost = armies.line_cost(ruleset, army, unit)
        extras = [named(ruleset.get("costs", u)) for u in unit.upgrades] + [
            named(ruleset.get("heroes", h)) for h in unit.heroes
        ]
        name = named(matrix.row(unit.troop)) + (f" ({', '.join(extras)})" if extras else "")
        rows.append([f"{unit.count}x", esc(name), cell(cost.each), cell(cost.total)])
    for extra in army.extras:
        cost = ruleset.get("costs", extra)
        rows.append(["", esc(cost.name), cell(cost.points), cell(cost.points)])
    total = points_text(armies.army_points(ruleset, army))
    agreed = (
        ""
        if army.agreed_points is None
        else f" of {gap() if isinstance(army.agreed_points, NotGiven) else points_text(army.agreed_points)}"
    )
    rows.append(["", "**Total**", "", f"**{total}**{agreed}"])
    parts = [pipe_table(["", "Unit", "Each", "Points"], rows)]
    if army.agreed_models is not None:
        agreed_models = gap() if isinstance(army.agreed_models, NotGiven) else army.agreed_models
        parts.append(f"Models: **{armies.army_models(ruleset, army)}** of {agreed_models} agreed.")
    return _army_after(parts, army, ruleset)


def _head_count_army_md(army: ArmyList, ruleset: Ruleset, named) -> str:
    """A list balanced by head-count: each line's models and the total against the agreed models, no points."""
    matrix = ruleset.profile(army.matrix)
    rows = []
    for unit in army.units:
        heroes = [named(ruleset.get("heroes", h)) for h in unit.heroes]
        name = named(matrix.row(unit.troop)) + (f" ({', '.join(heroes)})" if heroes else "")
        rows.append([f"{unit.count}x", esc(name), cell(armies.line_models(ruleset, army, unit))])
    counts = armies.army_counts(ruleset, army)
    fielded = [
        f"{name.replace('_', ' ').capitalize()}: **{counts[name]}**"
        for name in (armies.UNITS, *armies.row_counts(ruleset))
        if counts.get(name) or name == armies.UNITS
    ]
    agreed_models = gap() if isinstance(army.agreed_models, NotGiven) else army.agreed_models
    total = f"Models: **{armies.army_models(ruleset, army)}** of {agreed_models} agreed."
    return _army_after([pipe_table(["", "Unit", "Models"], rows), f"{total} {'; '.join(fielded)}."], army, ruleset)


def _army_after(parts: list[str], army: ArmyList, ruleset: Ruleset) -> str:
    """The limits, note and source every army list ends with."""
    limits = [
        f"- {'✔' if r.holds else '✘'} {esc(r.limit.title)}: {points_text(r.count)} of "
        f"{bounds_text(r.at_least, r.at_most, show=points_text)}"
        for r in armies.check_limits(ruleset, army)
    ]
    if limits:
        parts.append("Army limits this list keeps (✔) or breaks (✘):\n\n" + "\n".join(limits))
    if army.note:
        parts.append(prose(army.note, ruleset))
    return "\n\n".join(parts) + source_line(army, ruleset)


def victory_md(entries: list[VictoryPoints], ruleset: Ruleset, audience: str) -> str:
    """The victory points ``audience`` sees, as a table; where some are hidden from them, a line saying so."""
    rows = []
    for vp in entries:
        if not visible_to(vp, audience):
            continue
        name = esc(vp.name) + (" *(hidden task)*" if vp.hidden else "")
        rows.append([esc(vp.kind), name, cell(vp.points), inline_prose(vp.condition) or "—"])
    table = pipe_table(["Kind", "Scores for", "Victory points", "When"], rows) if rows else ""
    hint = esc(hidden_tasks_hint(ruleset)) if any(not visible_to(vp, audience) for vp in entries) else ""
    return "\n\n".join(part for part in (table, hint) if part)


def phases_md(phases: list[Phase], only: str = "") -> str:
    """The turn sequence(s), each step numbered; with ``only``, that one phase, numbered as its step."""
    sequences: dict[str, list[Phase]] = {}
    for phase in phases:
        sequences.setdefault(phase.sequence, []).append(phase)
    parts = []
    for sequence, steps in sequences.items():
        numbered = [(n, p) for n, p in enumerate(steps, 1) if not only or p.id == only]
        if not numbered:
            continue
        if len(sequences) > 1:
            parts.append(f"**{esc(sequence.capitalize())}**")
        parts.append("\n".join(f"{n}. **{esc(p.title)}** — {' '.join(p.summary.split())}" for n, p in numbered))
    return "\n\n".join(parts)


# -- values, formulas, lookups and charts -------------------------------------------------------------------
def value_cite(value) -> str:
    source = getattr(value, "source", None)
    if source is None:
        return ""
    section = esc(source.section) if source.section else ""
    quote = f" — “{esc(source.quote)}”" if getattr(source, "quote", "") else ""
    return section + quote


def values_md(values: list, ruleset: Ruleset) -> str:
    """The values as a table: what each is, the value (house rules marked, with the original), where it is stated."""
    if not values:
        return ""
    rows = [[esc(v.label or v.id.replace("_", " ")), f"{{value}}`{v.id}`", value_cite(v) or "—"] for v in values]
    if not any(value_cite(v) for v in values):  # none says where it is stated: no column of dashes
        rows = [row[:2] for row in rows]
    parts = [pipe_table(["Number", "Value", "Source"][: len(rows[0])], rows)]
    notes = [
        f"- **{esc(v.label or v.id)}**: {esc(' '.join(str(v.house_note).split()))}"
        for v in values
        if v.is_house_rule and v.house_note
    ]
    if notes:
        parts.append("Why the house rules change them:\n\n" + "\n".join(notes))
    return "\n\n".join(parts)


def value_md(value, ruleset: Ruleset) -> str:
    return values_md([value], ruleset)


def _input_range(spec) -> str:
    if spec.type == "bool":
        return "yes or no"
    if spec.choices:
        return ", ".join(spec.choices)
    if spec.min is not None and spec.max is not None:
        return f"{spec.min} to {spec.max}"
    if spec.min is not None:
        return f"{spec.min} or more"
    if spec.max is not None:
        return f"up to {spec.max}"
    return {"number": "any number", "distance": "any distance", "text": "any text"}.get(spec.type, "any whole number")


_RESULTS = {
    "number": "a number",
    "target": "the roll needed (4+)",
    "chance": "a chance",
    "bool": "yes or no",
    "text": "a result in words",
    "roll": "a roll",
    "distance": "a distance",
}


def formula_md(formula, ruleset: Ruleset, audience: str = "player") -> str:
    """A formula for players: what it decides, what it depends on in the game's words, what it gives and the
    charts that show it. For authors also each input's name and the range `check` tries, and the expression."""
    if audience != AUTHORS:
        return _formula_for_players(formula, ruleset, audience)
    parts = []
    if formula.description:
        parts.append(prose(formula.description, ruleset))
    if formula.inputs:
        parts.append(
            "**Inputs:**\n\n"
            + "\n".join(
                f"- {code(spec.id)} — {esc(spec.label)}: {esc(_input_range(spec))}"
                + (f" (default {esc(spec.default)})" if spec.default is not None else "")
                for spec in formula.inputs
            )
        )
    answers = fixed_answers(ruleset, formula) or [None] * len(formula.views())
    if formula.results:
        parts.append(
            "**Gives:**\n\n"
            + "\n".join(
                f"- {code(o.id)} — {esc(o.label or o.id.replace('_', ' '))}: {_gives(o, answer)} "
                "(" + code(f'{formula.id}(..., result="{o.id}")') + ")"
                for o, answer in zip(formula.results, answers)
            )
        )
    else:
        parts.append(f"**Gives:** {_gives(formula, answers[0])}")
    steps = "".join(f"{binding.id} = {binding.expr.text}\n" for binding in formula.let)
    ends = (
        [(formula.id, formula.expr)]
        if not formula.results
        else [(f"{formula.id}.{o.id}", o.expr) for o in formula.results]
    )
    expression = steps + "\n".join(f"{name} = {expr.text}" for name, expr in ends)
    parts.append(admonition("How this is computed", "formula-expression", code_block(expression)))
    return "\n\n".join(parts) + source_line(formula, ruleset)


def _formula_for_players(formula, ruleset: Ruleset, audience: str) -> str:
    parts = [prose(formula.description, ruleset)] if formula.description else []
    if formula.inputs:
        inputs = [esc(_input_words(spec)) for spec in formula.inputs]
        parts.append(f"**Depends on:** {list_separator(inputs).join(inputs)}.")
    answers = fixed_answers(ruleset, formula) or [None] * len(formula.views())  # no inputs: its one answer
    if formula.results:
        parts.append(
            "**Gives:**\n\n"
            + "\n".join(
                f"- {esc(o.label or o.id.replace('_', ' '))}: {_gives(o, answer)}"
                for o, answer in zip(formula.results, answers)
            )
        )
    else:
        parts.append(f"**Gives:** {_gives(formula, answers[0])}.")
    charts = [
        f"{{chart}}`{c.id}`"
        for c in ruleset.section("charts")
        if formula.id in (c.formula, c.chance) and visible_to(c, audience)
    ]
    if charts:
        parts.append(f"**Shown in:** {', '.join(charts)}.")
    return "\n\n".join(parts) + source_line(formula, ruleset)


def _input_words(spec) -> str:
    """An input as players read it: its label, and its values where they are words (never a range `check` tries)."""
    if spec.type == "bool":
        return f"{spec.label} (yes or no)"
    if spec.choices:
        return f"{spec.label} ({', '.join(choice.replace('_', ' ') for choice in spec.choices)})"
    return spec.label


def _gives(result, answer: str | None = None) -> str:
    """What a formula (or one of its several results) gives, in words: `the roll needed (4+) on a D10`; with
    ``answer``, the one it always gives (it has no inputs): `a chance, always 1/3 (33.3%)`."""
    words = _RESULTS.get(result.result, result.result)
    if result.result == "target" and result.die and result.die != "D6":
        words += f" on a {result.die}"
    always = f", always {esc(answer)}" if answer is not None else ""
    return esc(words) + (f" in {esc(result.unit)}" if result.unit else "") + always


def lookup_md(lookup, ruleset: Ruleset) -> str:
    """A lookup as a table: key, result (and the number it stands for, when it has one); no odds, no dice."""
    with_values = any(row.value is not None for row in lookup.rows)
    with_effects = any(row.effect for row in lookup.rows)
    header = (
        [esc(lookup.key or "Key"), "Result"] + (["Value"] if with_values else []) + (["Effect"] if with_effects else [])
    )
    rows = [
        [esc(key_text(row)), esc(row.result)]
        + ([esc(row.value) if row.value is not None else "—"] if with_values else [])
        + ([inline_prose(row.effect)] if with_effects else [])
        for row in lookup.rows
    ]
    parts = [pipe_table(header, rows)]
    if lookup.note:
        parts.append(prose(lookup.note, ruleset))
    return "\n\n".join(parts) + source_line(lookup, ruleset)


_GRIDS: dict[tuple, str] = {}  # chart_grid_md by what it is computed from: a save of a rule's wording keeps them
GRIDS_KEPT = 1024
# The class of a chart's grid, wherever the site prints it (its own entry, a rule): its rows are headed by their labels
# (charts.RowHeadings).
CHART_GRID = "chart-grid"


def _chart_grid_table(grid: str) -> str:
    """``markdown.chart_md``'s grid (without title or notes: its picker, if any, its pipe table and the key of its
    bold cells, none with an empty line) with the table in a ``{table}`` directive that gives it the class
    ``CHART_GRID``. No line of a pipe table starts with backticks: the fence ends where the table does."""
    return "\n\n".join(
        f"```{{table}}\n:class: {CHART_GRID}\n\n{part}\n```" if part.startswith("|") else part
        for part in grid.split("\n\n")
    )


def chart_grid_md(chart, ruleset: Ruleset, heading: bool = False) -> str:
    """A chart's grid with the exact odds of every cell, computed by the ruleset that defines it (with its title
    when ``heading``: a chart printed inside a rule)."""
    key = (computed_key(ruleset), canonical(chart), heading)
    if key not in _GRIDS:
        shown = chart_from_model(ruleset, chart)
        # the heading and notes are the entry's; the picker says why each cell is what it is
        grid = _chart_grid_table(
            chart_md(dataclasses.replace(shown, title="", notes=()), reasons=chart_reasons(ruleset, chart, shown))
        )
        _GRIDS[key] = f"**{esc(shown.title)}**\n\n{grid}" if heading else grid
        while len(_GRIDS) > GRIDS_KEPT:
            del _GRIDS[next(iter(_GRIDS))]
    return _GRIDS[key]


def chart_entry_md(chart, ruleset: Ruleset) -> str:
    """A chart as a grid with the exact odds of every cell, computed by the ruleset that defines it."""
    parts = [chart_grid_md(chart, ruleset)]
    if chart.note:
        parts.append(prose(chart.note, ruleset))
    return "\n\n".join(parts) + source_line(chart, ruleset)


# Sections shown as one table (or list) of entries: the whole section, a chapter's part of it, or one entry.
LIST_WRITERS = {
    "costs": lambda es, ruleset, audience, only: costs_md(es, ruleset, audience),
    "army_limits": lambda es, ruleset, audience, only: limits_md(es, ruleset, audience),
    "values": lambda es, ruleset, audience, only: values_md(for_audience(es, audience), ruleset),
    "victory_points": lambda es, ruleset, audience, only: victory_md(es, ruleset, audience),
    "phases": lambda es, ruleset, audience, only: phases_md(for_audience(es, audience), only),
}
# Sections shown one entry at a time: the directive names the entry.
ENTRY_WRITERS = {
    "rules": lambda e, ruleset, audience: rule_md(e, ruleset, audience),
    "tables": lambda e, ruleset, audience: table_md(e, ruleset, audience),
    "profiles": lambda e, ruleset, audience: profile_md(e, ruleset, audience),
    "spells": lambda e, ruleset, audience: spell_md(e, ruleset, audience),
    "glossary": lambda e, ruleset, audience: term_md(e, ruleset, audience),
    "keywords": lambda e, ruleset, audience: keyword_md(e, ruleset),
    "heroes": lambda e, ruleset, audience: hero_md(e, ruleset),
    "items": lambda e, ruleset, audience: item_md(e, ruleset),
    "armies": lambda e, ruleset, audience: army_md(e, ruleset, audience),
    "values": lambda e, ruleset, audience: value_md(e, ruleset),
    "formulas": lambda e, ruleset, audience: formula_md(e, ruleset, audience),
    "lookups": lambda e, ruleset, audience: lookup_md(e, ruleset),
    "charts": lambda e, ruleset, audience: chart_entry_md(e, ruleset),
}
SHOWN_SECTIONS = tuple(dict.fromkeys([*ENTRY_WRITERS, *LIST_WRITERS]))  # what the `rulepress` directive can show


def render_entry(ruleset, section: str, entry, audience: str, chapter: str | None = None) -> str:
    """MyST for one entry, or for a whole section (optionally one chapter's part; `-` means no chapter).
    A KeyError for a section this cannot show (one of ``ENTRY_WRITERS`` without an entry)."""
    if entry is not None and section in ENTRY_WRITERS:
        return ENTRY_WRITERS[section](entry, ruleset, audience)
    if section not in LIST_WRITERS:
        raise KeyError(section)
    if entry is not None and section != "phases":  # (a phase alone is numbered as its step: the list is the turn's)
        entries = [entry]
    else:
        entries = [
            e
            for e in ruleset.section(section)
            if entry is not None or chapter is None or getattr(e, "chapter", "") == ("" if chapter == "-" else chapter)
        ]
    return LIST_WRITERS[section](entries, ruleset, audience, entry.id if entry is not None else "")
