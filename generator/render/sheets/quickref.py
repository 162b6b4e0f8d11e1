"""A ruleset's quick reference as plain data: turn sequence, core rules, roll tables with odds, key numbers.

What goes on it is the author's choice, written in the data as each entry's ``quick_reference:``
mark (``true``, ``false``, or ``{summary: ...}`` to print a short summary instead of the full
text). Phases, roll tables, profile matrices and spells go on unless marked ``false``; rules,
values, lookups and charts only when marked. Marked rules follow the turn sequence, chapter by
chapter, each chapter's marked roll tables after its rules.

Player-visible material only: entries with ``audience: gm`` never enter. A roll table
whose ranges the source leaves out keeps its rows with the roll (and chance) as a gap;
a points value the source leaves out is a gap too. The ruleset's values, lookups and
charts marked ``quick_reference: true`` (its own and those of the base it extends) follow:
the values in one block citing each source section once, then each lookup and chart; a house
rule's value shows the original.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from fractions import Fraction

from ...model.base import Markdown, NotGiven, QuickMark
from ...model.entries import ValueCell
from ...model.points import points_text
from ...model.ruleset import Ruleset
from ..present import (
    capitalized,
    cites_a_source,
    defined_in,
    hero_kind,
    key_text,
    profile_text,
    range_text,
    source_title,
    visible_to,
)
from ..prose import _ROLE, role_as_text, value_text
from ..worked import for_readers, house_hidden
from .charts import Chart, chance_text, chart_from_model

GAP = None  # a value the source does not give: templates print a blank box


def visible(entry) -> bool:
    """Whether the quick reference, a players' sheet, may print the entry."""
    return visible_to(entry, "player")


_RANGE = re.compile(r"(?<=\d)-(?=\d)")


def ranged(text: str) -> str:
    """Roll ranges with an en dash, as every output prints them: `1–2`, never `1-2`."""
    return _RANGE.sub("\u2013", text)


def given(value, suffix: str = "") -> str | None:
    """Display text for a value, or GAP when the source leaves it out."""
    if isinstance(value, NotGiven) or value is None:
        return GAP
    if isinstance(value, Fraction):  # points: 1½, never 3/2
        value = points_text(value)
    return f"{value}{suffix}"


def cite(entry, ruleset: Ruleset) -> str:
    """`Title § Section`, the way every sheet names where a thing comes from: the source text by its title (an
    overlay's is its base's, as every citation names it); an entry citing nothing, by the ruleset's title (nothing
    at all in a game with no source text)."""
    source = getattr(entry, "source", None)
    if source is None:
        return _uncited(ruleset)
    title = source_title(defined_in(ruleset, entry), source.file)
    return f"{title} § {source.section.rstrip('.')}" if source.section else title


def _uncited(ruleset: Ruleset) -> str:
    """What a block citing no section names: the ruleset, where it encodes a source text; else nothing."""
    return source_title(ruleset) if cites_a_source(ruleset) else ""


@dataclass(frozen=True)
class PhaseLine:
    title: str
    summary: Markdown


@dataclass(frozen=True)
class Sequence:
    name: str
    phases: tuple[PhaseLine, ...]

    @property
    def self_numbered(self) -> bool:
        """Titles that carry their own step numbers ("4 Rally") are not numbered again."""
        return any(phase.title[:1].isdigit() for phase in self.phases)


@dataclass(frozen=True)
class TableLine:
    roll: str | None  # GAP when the source does not give the range
    result: str
    chance: str | None
    detail: str = ""  # the spell a result names: its range and duration
    effect: Markdown = Markdown("")  # ... and what it does


@dataclass(frozen=True)
class RuleLine:
    title: str
    text: Markdown  # the summary written for the sheet, else the rule's body (its examples print as their sentences)


@dataclass(frozen=True)
class RuleGroup:
    title: str  # the chapter's
    rules: tuple[RuleLine, ...]
    source: str


@dataclass(frozen=True)
class QuickTable:
    title: str
    dice: str
    lines: tuple[TableLine, ...]
    note: Markdown
    ranges_given: bool
    source: str


@dataclass(frozen=True)
class KeyLine:
    label: str
    value: str | None  # GAP prints as a box to fill in
    detail: Markdown = Markdown("")


MOST_COLUMNS = 6  # of a chart on the quick reference, side by side in half a page: ten chances run into each other


def column_parts(chart: Chart) -> tuple[range, ...]:
    """The columns a chart prints in on the quick reference: all at once, or in parts of equal width one above the
    other (ten columns as two of five), each part with the chart's row labels."""
    count = len(chart.columns)
    parts = -(-count // MOST_COLUMNS)
    sizes = [count // parts + (part < count % parts) for part in range(parts)]  # the first parts take what is over
    starts = [sum(sizes[:part]) for part in range(parts)]
    return tuple(range(start, start + size) for start, size in zip(starts, sizes))


@dataclass(frozen=True)
class KeyGroup:
    title: str
    lines: tuple[KeyLine, ...] = ()
    charts: tuple[Chart, ...] = ()
    source: str = ""

    @property
    def parts(self) -> tuple[tuple[range, ...], ...]:
        """For each chart, the columns of each part it prints in (`column_parts`)."""
        return tuple(column_parts(chart) for chart in self.charts)


@dataclass(frozen=True)
class Matrix:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str | None, ...]], ...]
    note: Markdown
    source: str
    row_label: str = "Troop type"  # what a row is (a terrain chart's: Terrain)


@dataclass(frozen=True)
class QuickReference:
    ruleset: str
    title: str
    subtitle: str
    needs: tuple[str, ...]
    sequences: tuple[Sequence, ...]
    tables: tuple[QuickTable, ...]
    matrices: tuple[Matrix, ...]
    keys: tuple[KeyGroup, ...]
    chapters: tuple[tuple[RuleGroup | None, tuple[QuickTable, ...]], ...] = ()  # marked rules and tables by chapter

    @property
    def has_gaps(self) -> bool:
        values = [v for t in self.tables for line in t.lines for v in (line.roll, line.chance)]
        values += [v for m in self.matrices for _name, row in m.rows for v in row]
        values += [line.value for k in self.keys for line in k.lines]
        return any(v is GAP for v in values)

    @property
    def blocks(self) -> tuple[tuple[str, object], ...]:
        """The printed blocks in reading order: ("sequence", Sequence), ("table", QuickTable)..."""
        placed = [
            block
            for group, tables in self.chapters
            for block in ((("rules", group),) if group else ()) + tuple(("table", t) for t in tables)
        ]
        in_chapters = {id(t) for _group, tables in self.chapters for t in tables}
        return (
            tuple(("sequence", s) for s in self.sequences)
            + tuple(placed)
            + tuple(("table", t) for t in self.tables if id(t) not in in_chapters)
            + tuple(("matrix", m) for m in self.matrices)
            + tuple(("keys", k) for k in self.keys)
        )

    def estimated_lines(self) -> int:
        """Estimated printed lines of 8 pt text in a half-page column, every block together."""
        return sum(block_lines(kind, block) for kind, block in self.blocks)


COLUMN_CHARACTERS = 48  # characters of 8 pt text on one line of a half-page column


def _text_lines(text: str, width: int = COLUMN_CHARACTERS) -> int:
    return -(-len(" ".join(str(text).split())) // width) if text else 0


def block_lines(kind: str, block) -> int:
    """Estimated printed lines of one block (a heading counts two)."""
    if kind == "sequence":
        return 2 + sum(1 + _text_lines(p.summary, 56) for p in block.phases)
    if kind == "rules":
        return 2 + sum(1 + _text_lines(without_examples(rule.text)) for rule in block.rules)
    if kind == "table":
        return (
            4
            + sum(max(1, _text_lines(f"{line.result} {line.detail} {line.effect}", 34)) for line in block.lines)
            + _text_lines(block.note)
        )
    if kind == "matrix":
        return 3 + _text_lines(block.title) + len(block.rows) + _text_lines(block.note)
    return (
        2
        + sum(max(1, _text_lines(line.label, 40)) + _text_lines(line.detail, 50) for line in block.lines)
        + sum(len(column_parts(chart)) * (2 + len(chart.rows) * 2) for chart in block.charts)
        + 1
    )


# -- from the model ------------------------------------------------------------------------------
def marked(entry) -> bool:
    """On the quick reference: a player entry whose mark (or its kind's default) says so."""
    return visible(entry) and bool(getattr(entry, "quick_reference", False))


def summary(entry, full: str = "") -> Markdown:
    """The summary the mark gives for the sheet, else the entry's own text."""
    mark = getattr(entry, "quick_reference", False)
    return Markdown(mark.summary) if isinstance(mark, QuickMark) and mark.summary else Markdown(full)


def sheet_title(entry, full: str) -> str:
    mark = getattr(entry, "quick_reference", False)
    return mark.title if isinstance(mark, QuickMark) and mark.title else full


_EXAMPLE = re.compile(r"(?ms)^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[ \t]*$\n?")


def without_examples(text: str) -> Markdown:
    """Prose without its worked examples (fenced blocks): a sheet prints the rule, never the check."""
    return Markdown(re.sub(r"\n{3,}", "\n\n", _EXAMPLE.sub("", text)).strip())


def sequences(ruleset: Ruleset) -> tuple[Sequence, ...]:
    names = list(dict.fromkeys(p.sequence for p in ruleset.phases if marked(p)))
    return tuple(
        Sequence(
            name,
            tuple(
                PhaseLine(sheet_title(p, p.title), summary(p, p.summary))
                for p in ruleset.phases
                if marked(p) and p.sequence == name
            ),
        )
        for name in names
    )


def chapter_groups(
    ruleset: Ruleset, tables: dict[str, QuickTable]
) -> tuple[tuple[RuleGroup | None, tuple[QuickTable, ...]], ...]:
    """The marked rules of each chapter, in chapter order, each chapter's marked tables after them."""
    found = []
    for chapter in ruleset.chapters:
        rules = [rule for rule in ruleset.rules if rule.chapter == chapter.id and marked(rule)]
        group = None
        if rules:
            lines = tuple(RuleLine(sheet_title(rule, rule.title), summary(rule, rule.body)) for rule in rules)
            sections = list(dict.fromkeys(_section_of(rule) for rule in rules if _section_of(rule)))
            group = RuleGroup(
                chapter.title,
                lines,
                f"{source_title(ruleset)} § " + "; § ".join(sections) if sections else _uncited(ruleset),
            )
        own = tuple(tables[t.id] for t in ruleset.tables if t.id in tables and t.chapter == chapter.id)
        if group or own:
            found.append((group, own))
    return tuple(found)


def spell_detail(spell) -> str:
    """Range, casting value and duration of a spell, in one short line."""
    parts = []
    if spell.range is not None:
        parts.append("range " + (given(spell.range, f" {spell.range_unit}") or "not given"))
    if spell.casting_value is not None:
        parts.append("cast on " + (given(spell.casting_value, "+") or "not given"))
    if spell.duration:
        # labelled, as cards and booklets label it: bare after a range, "not given (...)" read as the range's; the
        # author's words as written (a German noun, Eine Runde, keeps its capital)
        parts.append(f"duration: {spell.duration}")
    return "; ".join(parts)


def _spells_by_id(ruleset: Ruleset) -> dict[str, object]:
    return {spell.id: spell for spell in ruleset.spells if visible(spell)}


def spell_effect(spell) -> Markdown:
    """What a spell does, as the sheet prints it: the mark's summary, else its effect."""
    return summary(spell, spell.effect) if marked(spell) else Markdown("")


def quick_table(table, ruleset: Ruleset) -> QuickTable:
    spells = _spells_by_id(ruleset)
    detail = lambda row: spell_detail(spells[row.ref]) if row.ref in spells and marked(spells[row.ref]) else ""  # noqa: E731
    effect = lambda row: spell_effect(spells[row.ref]) if row.ref in spells else Markdown("")  # noqa: E731
    if table.ranges_given and not table.dice.stats:
        lines = tuple(
            TableLine(range_text(row.roll), row.result, chance_text(chance), detail(row), effect(row))
            for row, chance in table.odds()
        )
    else:  # ranges not given, or odds that depend on stats: the chance cannot be one number
        lines = tuple(
            TableLine(
                GAP if isinstance(row.roll, NotGiven) else range_text(row.roll),
                row.result,
                GAP if not table.ranges_given else "varies",
                detail(row),
                effect(row),
            )
            for row in table.rows
        )
    return QuickTable(
        sheet_title(table, table.title),
        str(table.dice),
        lines,
        summary(table, table.note),
        table.ranges_given,
        cite(table, ruleset),
    )


def matrices(ruleset: Ruleset) -> tuple[Matrix, ...]:
    found = []
    for matrix in filter(marked, ruleset.profiles):
        moves = ("Move",) if matrix.has_movement else ()
        rows = tuple(
            (
                row.name,
                tuple(_cell_text(ruleset, row, c) for c in matrix.columns) + _move_text(ruleset, matrix, row, moves),
            )
            for row in matrix.rows
            if visible(row)
        )
        # the note's first paragraph only: a quick reference points at the rules, the booklet prints them whole
        note = summary(matrix, matrix.note.strip().split("\n\n")[0])
        found.append(
            Matrix(
                sheet_title(matrix, matrix.title),
                tuple(c.label for c in matrix.columns) + moves,
                rows,
                note,
                cite(matrix, ruleset),
                matrix.row_label,
            )
        )
    return tuple(found)


def _cell_text(ruleset: Ruleset, row, column) -> str | None:
    """A cell as the quick reference prints it; one naming a value prints the value (a house rule with its original)."""
    written = row[column.id]
    if not isinstance(written, ValueCell):
        return GAP if isinstance(written, NotGiven) or written is None else profile_text(column, written)
    return GAP if isinstance(ruleset.value(written.value).value, NotGiven) else value_text(ruleset, written.value)


def _move_text(ruleset: Ruleset, matrix, row, moves: tuple) -> tuple:
    """The row's Move cell, when the matrix has that column: the value it names, a dash where it names none."""
    if not moves:
        return ()
    id = matrix.movement_of(row)
    if not id:
        return ("—",)
    return (GAP if isinstance(ruleset.value(id).value, NotGiven) else value_text(ruleset, id),)


def points_group(ruleset: Ruleset) -> KeyGroup | None:
    lines = [KeyLine(cost.name, given(cost.points, " pts")) for cost in ruleset.costs if marked(cost)]
    lines += [
        KeyLine(f"{hero.name} ({hero_kind(hero)})", given(hero.points, " pts"), hero.ability)
        for hero in ruleset.heroes
        if marked(hero) and hero.points is not None
    ]
    lines += [
        KeyLine(item.name, given(item.points, " pts"), item.rules)
        for item in ruleset.items
        if marked(item) and item.points is not None
    ]
    return KeyGroup("Points", tuple(lines)) if lines else None


def heroes_group(ruleset: Ruleset) -> KeyGroup | None:
    """Heroes that cost nothing (a ruleset balanced by head-count): their abilities, with no points list."""
    lines = tuple(
        KeyLine(f"{hero.name} ({hero_kind(hero)})", "", hero.ability)
        for hero in ruleset.heroes
        if marked(hero) and hero.points is None
    )
    return KeyGroup("Heroes", lines) if lines else None


def limits_group(ruleset: Ruleset) -> KeyGroup | None:
    lines = tuple(KeyLine(limit.title, "") for limit in ruleset.army_limits if marked(limit))
    return KeyGroup("Army limits", lines) if lines else None


def _spell_line(detail: str, effect: Markdown) -> Markdown:
    """A spell's range, casting value and duration, then what it does: two sentences where its effect is written as
    a sentence (`Range 6 inches; cast on 8+. Its effect.`), else one (`range 6 inches; its effect`)."""
    if detail and effect[:1].isupper():
        return Markdown(f"{capitalized(detail.rstrip('.'))}. {effect}")
    return Markdown("; ".join(filter(None, (detail, effect))))


def spells_group(ruleset: Ruleset) -> KeyGroup | None:
    """Spells no visible roll table names (those are listed with their table's rows)."""
    on_tables = {row.ref for table in ruleset.tables if marked(table) for row in table.rows}
    lines = tuple(
        KeyLine(spell.name, "", _spell_line(spell_detail(spell), spell_effect(spell)))
        for spell in filter(marked, ruleset.spells)
        if spell.id not in on_tables
    )
    return KeyGroup("Spells", lines) if lines else None


# -- values, lookups and charts marked `quick_reference: true` -------------------------------------
def _quick(ruleset: Ruleset, entry, section: str) -> bool:
    """Marked for the quick reference, or a value a house rule changes: an overlay's quick reference shows every
    house rule, but for one its overlay marks `quick_reference: false` (still marked where a printed rule names it)."""
    if marked(entry):
        return True
    return section == "values" and entry.is_house_rule and "quick_reference" not in entry.locs


def _section_of(entry) -> str:
    source = getattr(entry, "source", None)
    return source.section.rstrip(".") if source is not None and source.section else ""


def value_groups(ruleset: Ruleset) -> tuple[KeyGroup, ...]:
    """Quick-reference values in one block, in data order, citing each source section once."""
    values = [v for v in ruleset.reachable("values") if visible(v) and _quick(ruleset, v, "values")]
    if not values:
        return ()
    lines = tuple(
        KeyLine(
            sheet_title(value, value.label or value.id.replace("_", " ").capitalize()),
            None if isinstance(value.value, NotGiven) else value_text(ruleset, value.id),
            summary(value),
        )
        for value in values
    )
    cited: dict[str, dict[str, None]] = {}  # each section under the title of the text it is in: a base's, its own
    for value in values:
        if _section_of(value):
            cited.setdefault(source_title(defined_in(ruleset, value)), {})[_section_of(value)] = None
    source = "; ".join(f"{title} § " + "; § ".join(sections) for title, sections in cited.items())
    return (KeyGroup("Key numbers", lines, source=source or _uncited(ruleset)),)


def lookup_groups(ruleset: Ruleset) -> tuple[KeyGroup, ...]:
    found = []
    for lookup in ruleset.reachable("lookups"):
        if visible(lookup) and _quick(ruleset, lookup, "lookups"):
            # a result is prose that wraps under its key, not a number set to the right
            lines = tuple(
                KeyLine(f"{lookup.key}: {key_text(row)}" if lookup.key else key_text(row), "", Markdown(row.result))
                for row in lookup.rows
            )
            found.append(
                KeyGroup(
                    sheet_title(lookup, lookup.title),
                    lines,
                    source=cite(lookup, ruleset.owner_of("lookups", lookup.id)),
                )
            )
    return tuple(found)


def chart_groups(ruleset: Ruleset) -> tuple[KeyGroup, ...]:
    found = []
    for chart in ruleset.reachable("charts"):
        if visible(chart) and _quick(ruleset, chart, "charts"):
            shown = chart_from_model(ruleset, chart)
            read = [
                for_readers(
                    note,
                    "",
                    house=ruleset.house_results,
                    escape=_no_roles,
                    hidden=house_hidden(ruleset),
                    language=ruleset.language,
                    game_master=ruleset.game_master(),
                )
                for note in shown.notes
            ]
            notes = tuple(_ROLE.sub(lambda m: role_as_text(m, ruleset), note) for note in read)
            if summary(chart):
                notes = (_ROLE.sub(lambda m: role_as_text(m, ruleset), summary(chart)),)
            shown = dataclasses.replace(shown, title="", notes=notes, unit="")
            found.append(
                KeyGroup(
                    sheet_title(chart, chart.title),
                    charts=(shown,),
                    source=cite(chart, ruleset.owner_of("charts", chart.id)),
                )
            )
    return tuple(found)


def data_groups(ruleset: Ruleset) -> tuple[KeyGroup, ...]:
    return value_groups(ruleset) + lookup_groups(ruleset) + chart_groups(ruleset)


def quick_reference(ruleset: Ruleset) -> QuickReference:
    by_id = {t.id: quick_table(t, ruleset) for t in ruleset.tables if marked(t)}
    keys = tuple(
        g for g in (points_group(ruleset), heroes_group(ruleset), limits_group(ruleset), spells_group(ruleset)) if g
    )
    return QuickReference(
        ruleset.id,
        ruleset.title,
        ruleset.meta.subtitle,
        ruleset.meta.needs,
        sequences(ruleset),
        tuple(by_id.values()),
        matrices(ruleset),
        keys + data_groups(ruleset),
        chapter_groups(ruleset, by_id),
    )


def _no_roles(phrase: str) -> str:
    """A house result in a note, where roles are read next: nothing in it can be taken for one."""
    return phrase.replace("`", "'").replace("{", "(").replace("}", ")")


# -- what the author put on it, for a sheet that does not fit its page ------------------------------
def marked_entries(ruleset: Ruleset) -> tuple[str, ...]:
    """Every entry the quick reference prints, as `section id`, in the order the sheet prints them: what the
    author marked for it (or left on by its kind's default), so a sheet too long for its page names them."""
    found = [("phases", p.id) for p in ruleset.phases if marked(p)]
    found += [("rules", r.id) for r in ruleset.rules if marked(r)]
    found += [
        (section, e.id)
        for section in ("tables", "profiles", "costs", "heroes", "army_limits", "spells")
        for e in getattr(ruleset, section)
        if marked(e)
    ]
    found += [
        ("items", i.id) for i in ruleset.items if marked(i) and i.points is not None
    ]  # heroes: above, with or without points
    found += [
        (section, e.id)
        for section in ("values", "lookups", "charts")
        for e in ruleset.reachable(section)
        if visible(e) and _quick(ruleset, e, section)
    ]
    return tuple(f"{section} `{id}`" for section, id in found)
