"""Cheat-sheet charts as plain data: rows of cells, every number computed from the rules data.

Nothing here knows HTML or Markdown, nor any game. :func:`chart_from_model` turns a
``charts:`` entry (a formula over one or two inputs) into a :class:`Chart` whose cells
carry display text, the exact chance behind it and a *tone* (how good the odds are)
that templates turn into bold, shading or hatching, so a chart reads the same printed
in grey. Probabilities stay exact ``Fraction``s until they are printed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction

import icepool

from ...model import computed
from ...model.calculate import calculator
from ...model.charts import axis_values, chart_cells, chart_formula, chart_show
from ...model.formula import Expression
from ...model.quantity import Quantity, number_text
from ...model.ruleset import Ruleset
from ..present import chance_text  # sheets print chances the way every output does

GOOD = Fraction(2, 3)  # a 3+ or better on a D6
POOR = Fraction(1, 3)  # a 5+ or worse


@dataclass(frozen=True)
class Cell:
    text: str  # "4+", "no effect", "1.5"
    chance: str = ""  # "50%"; empty when the text is itself the number
    tone: str = "even"  # good | even | poor | none | plain
    probability: Fraction | None = None
    marked: bool = False  # the cell where both stats are equal, to find one's place
    given: tuple[tuple[str, object], ...] = ()  # the formula's inputs it was computed for, by id

    @property
    def words(self) -> bool:
        """Whether the cell prints words (`Glancing blow`, `no effect`) rather than a number (`4+`, `1½`, `3"`): a
        chart's numbers grow with its cells where the page leaves room (`jobs.row_fill`), its words keep their size and
        wrap inside their cell, so no border runs through a word too wide for its column."""
        return any(character.isalpha() for character in self.text)


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Chart:
    title: str
    row_head: str  # what the row labels are: "Attacker WS"
    column_head: str  # what the column labels are: "Defender WS"
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = ()  # Markdown lines printed under the chart
    column_notes: tuple[str, ...] = field(default_factory=tuple)  # a second header line per column
    id: str = ""  # the `charts:` entry it was made from
    unit: str = ""  # what a number in a cell counts (`hits`), when the formula says
    better: str = "higher"  # which chances are the good ones, in bold: `lower` for a chance of a harm (`better:`)
    # the size (pt) its words (`Cell.words`) print at where its layout's own is too large for its columns; 0: its
    # layout's own (a sheet sets it: `jobs.words_pt`)
    words_pt: float = 0.0

    def cell(self, row: str, column: str) -> Cell:
        return next(r for r in self.rows if r.label == row).cells[self.columns.index(column)]


def _words(chance: Fraction) -> str:
    return f"{chance.numerator} in {chance.denominator}"


# What bold (good) and italic (poor) chances are, in words, where higher chances are the better and where lower are
TONE_WORDS = {
    ("good", "higher"): f"{_words(GOOD)} or better",
    ("poor", "higher"): f"{_words(POOR)} or worse",
    ("good", "lower"): f"{_words(POOR)} or less (lower is better)",
    ("poor", "lower"): f"{_words(GOOD)} or more (lower is better)",
}


def tone_words(tone_: str, betters) -> str:
    """What a tone's cells are, for charts whose better chances are ``betters`` (`higher`, `lower` or both)."""
    if set(betters) == {"higher", "lower"}:
        higher, lower = TONE_WORDS[(tone_, "higher")], TONE_WORDS[(tone_, "lower")].removesuffix(" (lower is better)")
        return f"{higher}; {lower} where lower is better"
    return TONE_WORDS[(tone_, next(iter(betters), "higher"))]


@dataclass(frozen=True)
class LegendUses:
    """What a sheet's legend explains: only the tones and marks its charts print, and, for bold and italic, whether
    its charts count higher chances or lower ones the better (`Chart.better`)."""

    tones: frozenset[str]
    marked: bool
    betters: frozenset[str] = frozenset({"higher"})

    def __bool__(self) -> bool:
        return bool(self.tones - {"plain"}) or self.marked

    @property
    def good(self) -> str:
        return tone_words("good", self.betters)

    @property
    def poor(self) -> str:
        return tone_words("poor", self.betters)

    @property
    def even(self) -> str:
        """What plain cells are: "between" the bold and the italic entries where the legend shows both, else the
        range itself (a legend without its bold entry said "plain: between", with nothing to be between)."""
        if {"good", "poor"} <= self.tones:
            return "between"
        return f"between {_words(POOR)} and {_words(GOOD)}"


def legend_uses(charts) -> LegendUses:
    cells = [cell for chart in charts for row in chart.rows for cell in row.cells]
    betters = frozenset(
        chart.better for chart in charts if any(c.tone in ("good", "poor") for row in chart.rows for c in row.cells)
    )
    return LegendUses(frozenset(cell.tone for cell in cells), any(cell.marked for cell in cells), betters)


def tone(probability: Fraction, better: str = "higher") -> str:
    """How good a chance is, in the ranges the sheet legend names: a high chance is good, a low one poor, or the
    other way round for a chart whose lower chances are the better (a chance of a harm)."""
    if probability >= GOOD:
        return "good" if better == "higher" else "poor"
    if probability <= POOR:
        return "poor" if better == "higher" else "good"
    return "even"


def chance_cell(
    text: str, probability: Fraction, marked: bool = False, impossible: str = "", better: str = "higher"
) -> Cell:
    """A cell of a chance: ``impossible``'s word, hatched, for a chance of 0 where it is given (a roll that cannot
    succeed), else the chance in its tone."""
    if probability == 0 and impossible:
        return Cell(impossible, "0%", "none", probability, marked)
    return Cell(text, chance_text(probability), tone(probability, better), probability, marked)


def decimal_text(value: Fraction, digits: int = 2) -> str:
    """An exact value rounded for people: 5/6 is 0.83, 3/2 is 1.5, 2 is 2."""
    text = f"{float(round(Fraction(value), digits)):.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def exact_number_text(value) -> str:
    """A number result: exact when it is whole or a simple fraction (1½, 7/8), else rounded to 2 places."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        return str(value)
    value = Fraction(value)
    denominator = value.denominator
    while denominator % 2 == 0:
        denominator //= 2
    while denominator % 5 == 0:
        denominator //= 5
    if value.denominator <= 8 or denominator == 1:  # a terminating fraction, or one people read (⅓, 7/8)
        return number_text(value)
    return decimal_text(value)


def _shown(value) -> str:
    """An axis value as a heading: 4, 1½, a word."""
    if isinstance(value, Quantity):
        return str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return number_text(value) if isinstance(value, (int, Fraction)) else str(value)


def target_chance(die: icepool.Die, target: int | None) -> Fraction:
    """P(die >= target); an impossible target (None) has no chance."""
    if target is None:
        return Fraction(0)
    return Fraction(die.probability(">=", target))


def _die(formula: computed.Formula) -> icepool.Die:
    die = Expression.parse(formula.die or "D6").evaluate({})
    return die if isinstance(die, icepool.Die) else icepool.d(6)


def _note(ruleset: Ruleset, axis: computed.Axis, value) -> str:
    """An axis value's second heading line, computed: `4+ (50%) a die`."""
    note = ruleset.formula(axis.note_formula)
    result = calculator(ruleset).evaluate(note, **{note.inputs[0].id: value})
    if result is None:
        return "impossible"
    if note.result == "target":
        text = f"{result}+ ({chance_text(target_chance(_die(note), result))})"
    elif note.result == "chance":
        text = chance_text(Fraction(result))
    else:
        text = _shown(result)
    return f"{text} {axis.note_suffix}".strip()


def _axis_heads(
    chart: computed.Chart, axis: computed.Axis, formula: computed.Formula, scope, ruleset: Ruleset
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    values = axis_values(chart, axis, scope, formula)
    written = axis.values or values  # a value as written (4+, 6") heads its column; a computed one its result
    labels = (
        tuple(axis.labels)
        if axis.labels
        else tuple(
            str(w) if isinstance(w, Quantity) and w.kind != "text" else _shown(v) for w, v in zip(written, values)
        )
    )
    spec = next((i for i in formula.inputs if i.id == axis.input), None)
    head = axis.label or (spec.label if spec is not None else axis.input)
    if axis.note_formula:
        return head, labels, tuple(_note(ruleset, axis, value) for value in values)
    return head, labels, tuple(axis.notes)


def chart_from_model(ruleset: Ruleset, chart: computed.Chart) -> Chart:
    """A ``charts:`` entry with every cell computed by the ruleset that defines the chart."""
    owner = ruleset.owner_of("charts", chart.id)
    calc = calculator(owner)
    formula = chart_formula(owner, chart)  # a formula of several results: the one the chart shows
    show = chart_show(chart, formula)
    chance_formula = owner.formula(chart.chance) if chart.chance else None
    die = _die(formula)
    column_head, columns, column_notes = _axis_heads(chart, chart.columns, formula, calc.scope, owner)
    if chart.rows is not None:
        row_head, row_labels, row_notes = _axis_heads(chart, chart.rows, formula, calc.scope, owner)
        row_values = axis_values(chart, chart.rows, calc.scope, formula)
    else:
        row_head, row_labels, row_notes, row_values = "", (chart.row_label,), (), [None]
    cells = list(chart_cells(chart, calc.scope, formula))
    width = len(columns)
    column_values = axis_values(chart, chart.columns, calc.scope, formula)
    rows = []
    for index, label in enumerate(row_labels):
        line = []
        for column, inputs in enumerate(cells[index * width : (index + 1) * width]):
            marked = chart.mark_diagonal and chart.rows is not None and row_values[index] == column_values[column]
            cell = _cell(chart, show, formula, chance_formula, calc, die, inputs, marked)
            line.append(dataclasses.replace(cell, given=tuple(inputs.items())))
        if row_notes and index < len(row_notes) and row_notes[index]:
            label = f"{label}: {row_notes[index]}"  # `1: 2+ (83.3%) a die`, never brackets in brackets
        rows.append(Row(label, tuple(line)))
    notes = (str(chart.note),) if chart.note else ()
    unit = formula.unit if show == "number" else ""
    return Chart(
        chart.title, row_head, column_head, columns, tuple(rows), notes, column_notes, chart.id, unit, chart.better
    )


def _zero_word(chart, formula, chance_formula) -> str:
    """What a cell of a chance of 0 prints: the chart's `impossible:` word where the chance is that of rolling a
    target (the roll cannot succeed) or the chart writes the word; else nothing, and it prints 0% (a formula of a
    chance, or of true or false, whose value is 0 states a chance, as a `None` states an impossible cell)."""
    if chance_formula is None and formula.result in ("chance", "bool") and "impossible" not in chart.locs:
        return ""
    return chart.impossible


def _cell(chart, show: str, formula, chance_formula, calc, die, inputs: dict, marked: bool) -> Cell:
    result = calc.evaluate(formula, **inputs)
    if show == "number":
        if result is None:
            return Cell(chart.impossible, "", "none", None, marked)
        text = (
            chance_text(Fraction(result))
            if formula.result == "chance"
            else decimal_text(result, chart.digits)
            if chart.digits is not None and not isinstance(result, bool)
            else exact_number_text(result)
        )
        return Cell(text, "", "plain", result if isinstance(result, (int, Fraction)) else None, marked)
    chance = calc.evaluate(chance_formula, **inputs) if chance_formula is not None else None
    if result is None or (chance_formula is not None and chance is None):  # impossible, as the formula says
        return Cell(chart.impossible, "0%", "none", Fraction(0), marked)
    if chance_formula is not None:
        probability = Fraction(chance)
    elif formula.result == "chance":
        probability = Fraction(result)
    elif formula.result == "bool":
        probability = Fraction(int(bool(result)))
    else:
        probability = target_chance(die, result)
    zero = _zero_word(chart, formula, chance_formula)
    if show == "chance":
        return chance_cell("", probability, marked, impossible=zero, better=chart.better)
    text = f"{result}+" if formula.result == "target" else _shown(result)
    return chance_cell(text, probability, marked, impossible=zero, better=chart.better)


def charts_of(ruleset: Ruleset, ids) -> tuple[Chart, ...]:
    return tuple(chart_from_model(ruleset, ruleset.chart(id)) for id in ids)
