"""A ruleset's quick reference as plain data: turn sequence, roll tables with odds, key numbers.

Player-visible material only: entries with ``audience: gm`` never enter. A roll table
whose ranges the source leaves out keeps its rows with the roll (and chance) as a gap;
a points value the source leaves out is a gap too. Numbers that are not data but rules
(a 2-minute timer, the 2D6 casting roll) come from the mechanics modules, each with the
rule that states it, and only when that rule is in the ruleset and visible to players.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from ..mechanics import bad_moon_rising, city_of_the_damned, fantasy, shellendrak
from ..model.base import Markdown, NotGiven
from ..model.dice import target_probability
from ..model.points import points_text
from ..model.ruleset import Ruleset
from .sheets_charts import Cell, Chart, Row, chance_cell, chance_text

GAP = None  # a value the source does not give: templates print a blank box


def visible(entry) -> bool:
    return getattr(entry, "audience", "player") != "gm" and not getattr(entry, "gm_only", False)


def given(value, suffix: str = "") -> str | None:
    """Display text for a value, or GAP when the source leaves it out."""
    if isinstance(value, NotGiven) or value is None:
        return GAP
    if isinstance(value, Fraction):  # points: 1½, never 3/2
        value = points_text(value)
    return f"{value}{suffix}"


def cite(entry, ruleset: Ruleset) -> str:
    """`Title § Section`, the way every sheet names where a thing comes from."""
    source = getattr(entry, "source", None)
    if source is None or not source.section:
        return ruleset.title
    return f"{ruleset.title} § {source.section.rstrip('.')}"


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
        """Titles that carry their own step numbers ("2 Results") are not numbered again."""
        return any(phase.title[:1].isdigit() for phase in self.phases)


@dataclass(frozen=True)
class TableLine:
    roll: str | None  # GAP when the source does not give the range
    result: str
    chance: str | None
    detail: str = ""  # the spell a result names: its range and duration


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


@dataclass(frozen=True)
class KeyGroup:
    title: str
    lines: tuple[KeyLine, ...] = ()
    charts: tuple[Chart, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class Matrix:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str | None, ...]], ...]
    note: Markdown
    source: str


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

    @property
    def has_gaps(self) -> bool:
        values = [v for t in self.tables for line in t.lines for v in (line.roll, line.chance)]
        values += [v for m in self.matrices for _name, row in m.rows for v in row]
        values += [line.value for k in self.keys for line in k.lines]
        return any(v is GAP for v in values)

    @property
    def blocks(self) -> tuple[tuple[str, object], ...]:
        """The printed blocks in reading order: ("sequence", Sequence), ("table", QuickTable)..."""
        return (tuple(("sequence", s) for s in self.sequences) + tuple(("table", t) for t in self.tables)
                + tuple(("matrix", m) for m in self.matrices) + tuple(("keys", k) for k in self.keys))

    @property
    def longest_column(self) -> int:
        """Estimated lines of the longer column, to pick a denser layout when the page is full."""
        return max(sum(block_lines(kind, block) for kind, block in column) for column in self.columns())

    def columns(self) -> tuple[tuple[tuple[str, object], ...], tuple[tuple[str, object], ...]]:
        """The blocks split in two columns of about equal length, reading order kept.

        Done here rather than by CSS columns, whose balancing makes WeasyPrint lay the
        page out many times over.
        """
        blocks = self.blocks
        lines = [block_lines(kind, block) for kind, block in blocks]
        total, running, cut = sum(lines), 0, len(blocks)
        for index, count in enumerate(lines):
            if running + count / 2 > total / 2:
                cut = index
                break
            running += count
        return blocks[:cut], blocks[cut:]


COLUMN_CHARACTERS = 48  # characters of 8 pt text on one line of a half-page column


def _text_lines(text: str, width: int = COLUMN_CHARACTERS) -> int:
    return -(-len(" ".join(str(text).split())) // width) if text else 0


def block_lines(kind: str, block) -> int:
    """Estimated printed lines of one block (a heading counts two)."""
    if kind == "sequence":
        return 2 + sum(1 + _text_lines(p.summary, 56) for p in block.phases)
    if kind == "table":
        return 4 + sum(max(1, _text_lines(f"{line.result} {line.detail}", 34)) for line in block.lines) + _text_lines(block.note)
    if kind == "matrix":
        return 3 + _text_lines(block.title) + len(block.rows) + _text_lines(block.note)
    return (2 + sum(1 + _text_lines(line.label, 34) - 1 + _text_lines(line.detail, 56) for line in block.lines)
            + sum(2 + len(chart.rows) * 2 for chart in block.charts) + 1)


# -- from the model ------------------------------------------------------------------------------
def sequences(ruleset: Ruleset) -> tuple[Sequence, ...]:
    names = list(dict.fromkeys(p.sequence for p in ruleset.phases if visible(p)))
    return tuple(Sequence(name, tuple(PhaseLine(p.title, p.summary) for p in ruleset.phases
                                      if visible(p) and p.sequence == name)) for name in names)


def spell_detail(spell) -> str:
    """Range, casting value and duration of a spell, in one short line."""
    parts = []
    if spell.range is not None:
        parts.append("range " + (given(spell.range, f" {spell.range_unit}") or "not given"))
    if spell.casting_value is not None:
        parts.append("cast on " + (given(spell.casting_value, "+") or "not given"))
    if spell.duration:
        parts.append(spell.duration.lower())
    return "; ".join(parts)


def _spells_by_id(ruleset: Ruleset) -> dict[str, object]:
    return {spell.id: spell for spell in ruleset.spells if visible(spell)}


def quick_table(table, ruleset: Ruleset) -> QuickTable:
    spells = _spells_by_id(ruleset)
    detail = lambda row: spell_detail(spells[row.ref]) if row.ref in spells else ""  # noqa: E731
    if table.ranges_given and not table.dice.stats:
        lines = tuple(TableLine(str(row.roll), row.result, chance_text(chance), detail(row)) for row, chance in table.odds())
    else:  # ranges not given, or odds that depend on stats: the chance cannot be one number
        lines = tuple(TableLine(given(row.roll), row.result, GAP if not table.ranges_given else "varies", detail(row))
                      for row in table.rows)
    return QuickTable(table.title, str(table.dice), lines, table.note, table.ranges_given, cite(table, ruleset))


def matrices(ruleset: Ruleset) -> tuple[Matrix, ...]:
    found = []
    for matrix in filter(visible, ruleset.profiles):
        rows = tuple((row.name, tuple(given(row[c.id]) for c in matrix.columns)) for row in matrix.rows if visible(row))
        found.append(Matrix(matrix.title, tuple(c.label for c in matrix.columns), rows, matrix.note, cite(matrix, ruleset)))
    return tuple(found)


def points_group(ruleset: Ruleset) -> KeyGroup | None:
    lines = [KeyLine(cost.name, given(cost.points, " pts")) for cost in ruleset.costs]
    lines += [KeyLine(f"{hero.name} ({hero.level} level hero)", given(hero.points, " pts"), hero.ability)
              for hero in ruleset.heroes if visible(hero)]
    lines += [KeyLine(item.name, given(item.points, " pts"), item.rules) for item in ruleset.items
              if visible(item) and item.points is not None]
    return KeyGroup("Points", tuple(lines)) if lines else None


def limits_group(ruleset: Ruleset) -> KeyGroup | None:
    lines = tuple(KeyLine(limit.title, "") for limit in ruleset.army_limits)
    return KeyGroup("Army limits", lines) if lines else None


def spells_group(ruleset: Ruleset) -> KeyGroup | None:
    """Spells no visible roll table names (those are listed with their table's rows)."""
    on_tables = {row.ref for table in ruleset.tables if visible(table) for row in table.rows}
    lines = tuple(KeyLine(spell.name, "", Markdown(spell_detail(spell))) for spell in filter(visible, ruleset.spells)
                  if spell.id not in on_tables)
    return KeyGroup("Spells", lines) if lines else None


# -- rules numbers from the mechanics, per ruleset ------------------------------------------------
def one_row_chart(head: str, columns, values: Callable[[object], Cell], label: str = "", notes=()) -> Chart:
    columns = tuple(columns)
    return Chart("", "", head, tuple(map(str, columns)), (Row(label, tuple(values(c) for c in columns)),),
                 column_notes=tuple(notes))


def _chance(probability: Fraction) -> Cell:
    return chance_cell("", probability, impossible="never")


def _ordo_ineptus() -> list[tuple[str, KeyGroup]]:
    return [
        ("timing_of_turns", KeyGroup("Turn timer", (
            KeyLine("Time for the recovery and movement phases", f"{shellendrak.PLAYER_TIMER_MINUTES} minutes"),))),
        ("magic", KeyGroup("Casting a spell: its difficulty or more on 2D6", charts=(
            *(one_row_chart("Difficulty", difficulties, lambda d: _chance(shellendrak.casting_chance(d)), "cast")
              for difficulties in (range(3, 8), range(8, 13))),
            Chart("", "Caster level", "", ("1", "2", "3", "4"), (
                Row("spells known", tuple(Cell(str(shellendrak.spells_known(lv)), tone="plain") for lv in range(1, 5))),
                Row("cast per turn", tuple(Cell(str(shellendrak.spells_per_turn(lv)), tone="plain") for lv in range(1, 5))),
            )),
        ))),
        ("searching_rooms", KeyGroup("Searching a room: any 5 or 6", charts=(
            one_row_chart("Dice rolled", range(1, 7), lambda n: _chance(shellendrak.search_success_chance(n)),
                          "success"),))),
        ("initiative_tests", KeyGroup("Initiative test: roll lower than I on a D6", charts=(
            one_row_chart("Initiative", range(1, 8), lambda i: _chance(shellendrak.initiative_test_chance(i)),
                          "pass"),))),
        ("critical_hits", KeyGroup("Critical hits", (
            KeyLine("A 6 to wound is a critical hit", chance_text(fantasy.target_chance(6))),))),
        ("campaign_reward", KeyGroup("Winning", (
            KeyLine("Most victory points: permanent Forsaken Vale victory points", str(shellendrak.CAMPAIGN_BONUS_VP)),))),
    ]


def _city_of_the_damned() -> list[tuple[str, KeyGroup]]:
    return [
        ("knocked_down_effects", KeyGroup("Knocked Down", (
            KeyLine("Recovery roll (Simultaneous System): stand up on a 4+",
                    chance_text(city_of_the_damned.cotd_recovery_chance())),
            KeyLine("After standing up on 4+ (Simultaneous System): natural 6s to hit (the text is ambiguous)",
                    chance_text(city_of_the_damned.cotd_knocked_down_to_hit_chance())),
        ))),
        ("critical_hits_rule", KeyGroup("Chance of a Critical Hit per attack, by the roll needed to hit", charts=(
            one_row_chart("To hit on", (f"{n}+" for n in range(2, 7)),
                          lambda n: _chance(city_of_the_damned.cotd_critical_chance(int(n.rstrip("+")))), "critical",
                          notes=(f"hits {chance_text(target_probability(n))}" for n in range(2, 7))),))),
    ]


def _bad_moon_rising() -> list[tuple[str, KeyGroup]]:
    directions = ("forward", "wheel forward", "sideways", "backwards", "wheel backwards")
    return [
        ("wedge_formation", KeyGroup("Archery wedge: models in complete ranks", charts=(
            one_row_chart("Ranks", range(1, 8), lambda r: Cell(str(bad_moon_rising.wedge_models(r)), tone="plain"),
                          "models"),))),
        ("wedge_movement", KeyGroup("Wedge movement: inches used per inch moved", charts=(
            one_row_chart("Direction", directions,
                          lambda d: Cell(f"×{bad_moon_rising.wedge_move_cost(1, d)}", tone="plain"), "cost"),))),
    ]


# Ruleset id -> (id of the rule that states the number, group); missing or gm-only rules are skipped.
MECHANIC_NUMBERS: dict[str, Callable[[], list[tuple[str, KeyGroup]]]] = {
    "ordo_ineptus": _ordo_ineptus,
    "city_of_the_damned_combat": _city_of_the_damned,
    "bad_moon_rising": _bad_moon_rising,
}


def mechanic_groups(ruleset: Ruleset) -> tuple[KeyGroup, ...]:
    groups = []
    for rule_id, group in MECHANIC_NUMBERS.get(ruleset.id, lambda: [])():
        try:
            rule = ruleset.rule(rule_id)
        except KeyError:
            continue
        if visible(rule):
            groups.append(KeyGroup(group.title, group.lines, group.charts, cite(rule, ruleset)))
    return tuple(groups)


def quick_reference(ruleset: Ruleset) -> QuickReference:
    tables = tuple(quick_table(t, ruleset) for t in ruleset.tables if visible(t))
    keys = tuple(g for g in (points_group(ruleset), limits_group(ruleset), spells_group(ruleset)) if g)
    return QuickReference(ruleset.id, ruleset.title, ruleset.meta.subtitle, ruleset.meta.needs, sequences(ruleset),
                          tables, matrices(ruleset), keys + mechanic_groups(ruleset))
