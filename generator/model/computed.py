"""Entries that make a ruleset's numbers executable: values, formulas, charts and sheets.

A *value* is a number the rules state, named, typed and cited. A *formula* is an
expression over declared inputs, values, tables and dice. A *chart* is a formula
over two inputs, printed with exact odds. A *sheet* is a printable page of charts
and values. All of them are data in ``rules_src/<ruleset>/``; nothing here knows a game.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, Literal

from . import reads
from .base import Markdown, Named, NotGiven, QuickMark, coverage_field, item_loc, quick_field, spec, value_loc
from .dice import RollRange
from .entries import Entry, ForAudience, Located
from .formula import Expression, FormulaError
from .quantity import Quantity
from .text import range_words


def plain(setting):
    """What a written setting computes with: a quantity's exact value, or true and false as they are."""
    return setting if isinstance(setting, bool) or setting is None else setting.value


@dataclass(frozen=True)
class EarlierHouseValue:
    """What an overlay below this one made a value (an overlay of an overlay): that overlay's title and value."""

    ruleset: str
    value: Quantity | NotGiven


@dataclass(frozen=True, kw_only=True)
class Value(ForAudience):
    """A number a rule states: a distance, a modifier, a target, a count of turns, a dice roll.

    Prose prints it with the `value` role, formulas and mechanics compute with it, so
    the text, the sheets and the mechanics cannot disagree.
    """

    SHORTHAND: ClassVar[str] = "value"

    value: Quantity | NotGiven = spec(
        'The value as the rules write it: `2`, `1½`, `3/2`, `6"`, `3 hexes`, `4+`, `2D6`, '
        "`2 minutes`; `not given` if the text leaves it out.",
        example='6"',
    )
    type: Literal["", "number", "distance", "target", "dice", "count", "text"] = spec(
        "The kind of value, when the way it is written does not say it.", ""
    )
    label: str = spec(
        "What the value is, in a few words, for the reference and the quick reference.",
        "",
        example="Crawl distance when Dazed",
    )
    quick_reference: bool | QuickMark = quick_field("value")
    # set by an overlay: the value as the text gives it, before any house rule changed it
    original: Quantity | None | NotGiven = field(default=None, metadata={"internal": True})
    # set by an overlay of an overlay: the house values of the overlays below it, the nearest the text first
    earlier: tuple[EarlierHouseValue, ...] = field(default=(), metadata={"internal": True})
    house_note: Markdown = spec("In an overlay: why the house rule changes the value.", Markdown(""))
    coverage: str = coverage_field()

    @property
    def magnitude(self):
        return None if isinstance(self.value, NotGiven) else self.value.value

    @property
    def is_house_rule(self) -> bool:
        return self.original is not None


@dataclass(frozen=True, kw_only=True)
class Input(Entry):
    """An input of a formula: what it means and which values it takes."""

    SHORTHAND: ClassVar[str] = "label"
    KEY: ClassVar[str] = "name"

    label: str = spec("What the input is, as a heading: `Strength`, `Defender's WS`.", example="Strength")
    type: Literal["int", "number", "bool", "text", "distance"] = spec("The kind of value it takes.", "int")
    unit: Literal["", "inches", "feet", "yards", "cm", "mm", "hexes", "squares"] = spec(
        "For a `distance` input: the unit a bare number given to it is read in; the formula's `unit:` by default. "
        "A distance given in another length is converted exactly; one in another measure (hexes for inches) is "
        "refused.",
        "",
        example="inches",
    )
    min: int | None = spec("The lowest value it takes.", None)
    max: int | None = spec("The highest value it takes.", None)
    choices: tuple[str, ...] = spec("For a text input: the values it takes.", ())
    default: Quantity | bool | None = spec("The value it has when a caller leaves it out.", None)
    optional: bool = spec("The input may be left out or given as None (no such thing: no enemy in the way).", False)


@dataclass(frozen=True, kw_only=True)
class Binding(Entry):
    """A named step of a formula (``let:``), evaluated in the order written."""

    SHORTHAND: ClassVar[str] = "expr"
    KEY: ClassVar[str] = "name"

    expr: Expression = spec("The expression this name stands for.", example="strength - toughness")


ResultKind = Literal["number", "target", "chance", "bool", "text", "roll", "distance"]
RESULT_HELP = "What the result is: a `target` prints as 4+, a `chance` as a percentage, `None` as impossible."


@dataclass(frozen=True, kw_only=True)
class Outcome(Entry):
    """One named result of a formula with several (``results:``), computed from the formula's inputs after its
    shared ``let:`` steps; typed and checked like the result of a formula with one."""

    SHORTHAND: ClassVar[str] = "expr"
    KEY: ClassVar[str] = "name"

    label: str = spec("What this result is, as a heading.", "", example="Killed")
    expr: Expression = spec(
        "The expression of this result: the formula's inputs and `let:` names are in scope.",
        example="min(defenders, casualties)",
    )
    result: ResultKind = spec(RESULT_HELP, "number")
    die: str = spec("For a `target` result: the die it is rolled on.", "D6")
    unit: str = spec("For a `number` or `distance` result: its unit (inches, hexes).", "")


@dataclass(frozen=True, kw_only=True)
class Formula(ForAudience):
    """A rule as an expression over declared inputs, values, tables and dice, with exact odds."""

    one_only: ClassVar[tuple[tuple[str, ...], ...]] = (("expr", "results"),)

    title: str = spec("What the formula computes.", example="The to-wound roll")
    inputs: tuple[Input, ...] = spec("Its inputs, keyed by name, each with a label and a range.", ())
    let: tuple[Binding, ...] = spec("Named steps, keyed by name, evaluated in order before `expr` (or `results`).", ())
    expr: Expression | None = spec(
        "The expression: arithmetic (`/` is exact), comparisons, `and`/`or`/`not`, "
        "`a if c else b`, `min`, `max`, `floor`, `ceil`, `clamp`, dice (`D6`, `2D6`; each one written is a roll of "
        "its own), `count(n, D6 > x)`, `highest(n, D6)`, `lowest(n, D6)`, `keep_highest(2, 3, D6)` (3D6 keep the "
        "highest 2, added), `keep_lowest`, `explode(D6, 2)`, `reroll(D6, 4, 1)`, `total(n, die)`, `each(D6, "
        "formula, ...)` (one roll through a formula), `where(c, a, b)`, `chance(...)`, `mean(...)`, other formulas "
        "and tables by id. A formula has `expr` or `results`.",
        None,
        example="None if toughness - strength >= 4 else clamp(4 - strength + toughness, 2, 6)",
    )
    results: tuple[Outcome, ...] = spec(
        "Instead of `expr`: several named results of the same inputs and `let:` steps, keyed by name, each with its "
        '`expr` and `result` kind (`killed: {expr: ..., result: number}`). Called `brawl(4, 2, result="killed")` '
        "for one of them; in a worked example `brawl(4, 2)` gives them all, as `brawl(4, 2).killed`.",
        (),
        example="{killed: {expr: min(defenders, hits)}, survivors: {expr: defenders - min(defenders, hits)}}",
    )
    result: ResultKind = spec(RESULT_HELP + " With `results:`, each result declares its own.", "number")
    die: str = spec("For a `target` result: the die it is rolled on.", "D6")
    unit: str = spec(
        "For a `number` or `distance` result: its unit (inches, feet, yards, cm, mm, hexes, squares). A "
        "`distance` result is given in it: a bare number is read in it, another length converted exactly, "
        "another measure refused.",
        "",
    )
    description: Markdown = spec("What the formula means, for the reference.", Markdown(""))
    chapter: str = spec("The chapter (id) where it is printed.", "")
    calculator: bool = spec(
        "Whether the site gives it an odds calculator: `false` for a step other formulas call, which players need "
        "no calculator of (an exploding die's level, a die kept so far).",
        True,
    )
    coverage: str = coverage_field()

    def outcome(self, name: str) -> Outcome:
        """The named result of a formula with several; a `FormulaError` naming those it has, else."""
        for outcome in self.results:
            if outcome.id == name:
                return outcome
        if not self.results:
            raise FormulaError(f"{self.id} has one result; call it without `result=`")
        raise FormulaError(f"{self.id} has no result {name!r}; its results are {', '.join(o.id for o in self.results)}")

    def view(self, name: str) -> Formula:
        """One result of a formula with several, as a formula of one result: the same inputs and `let:` steps,
        that result's expression and kind, located where that result is written (charts and checks use it)."""
        outcome = self.outcome(name)
        locs = {
            **self.locs,
            "expr": outcome.locs.get("expr", outcome.loc),
            "result": outcome.locs.get("result", outcome.loc),
        }
        return dataclasses.replace(
            self,
            expr=outcome.expr,
            result=outcome.result,
            die=outcome.die,
            unit=outcome.unit,
            results=(),
            title=f"{self.title}: {outcome.label or outcome.id.replace('_', ' ')}",
            locs=MappingProxyType(locs),
        )

    def views(self) -> tuple[Formula, ...]:
        """Each result as a formula of one result (the formula itself when it has one)."""
        return tuple(self.view(o.id) for o in self.results) if self.results else (self,)

    def names(self) -> tuple[Named, ...]:
        return tuple(
            Named(name, value_loc(self, "expr"), ("values", "formulas", "tables", "lookups"))
            for name in sorted(computes_with(self))
        )


def formula_names(formula) -> set[str]:
    """Every name a formula's expressions use (called or not): what it can reach in its ruleset's scope."""
    names = set()
    for expression in _expressions(formula):
        names |= expression.names | expression.calls
    return names


def _expressions(formula) -> list:
    """A formula's `let:` steps, its `expr` and the expressions of its several `results`, whichever it has."""
    found = [b.expr for b in formula.let] + [getattr(formula, "expr", None)]
    return [e for e in found + [o.expr for o in getattr(formula, "results", ())] if e is not None]


def computes_with(formula) -> set[str]:
    """Values, formulas, tables and lookups a formula computes with (not its own inputs and steps)."""
    own = {i.id for i in formula.inputs} | {b.id for b in formula.let}
    return formula_names(formula) - own


@dataclass(frozen=True, kw_only=True)
class Axis(Located):
    """One side of a chart: which input it varies and over which values."""

    input: str = spec("The formula input this side varies.", example="strength")
    label: str = spec("The heading of this side; the input's label by default.", "")
    values: tuple[Quantity | bool, ...] = spec(
        "The values, in print order (a list); or use `range`. A word naming the ruleset's values is computed "
        '(`cover + moving`), but for a text input one of its `choices` is that choice, as written (`"2"` too).',
        (),
    )
    range: RollRange | None = spec("The values as a range, `1-10`.", None, example="1-10")
    labels: tuple[str, ...] = spec("A heading for each value, when the value alone does not say it.", ())
    notes: tuple[str, ...] = spec("A second heading line for each value.", ())
    note_formula: str = spec(
        "Id of a formula of this input whose result is each value's second heading line "
        "(a target prints with its chance: `4+ (50%)`), so the line follows the data.",
        "",
    )
    note_suffix: str = spec("Words after each computed heading line.", "", example="a die")


@dataclass(frozen=True, kw_only=True)
class Setting(Entry):
    """An input of a chart's formula held at one value (``fixed:``), written under the input's name."""

    SHORTHAND: ClassVar[str] = "value"
    KEY: ClassVar[str] = "input"

    value: Quantity | bool = spec("The value the input is held at.", example="3")


@dataclass(frozen=True, kw_only=True)
class Chart(ForAudience):
    """A formula over two inputs, printed as a grid with the exact odds of every cell."""

    title: str = spec("The chart's heading.", example="Hit chance")
    formula: str = spec("Id of the formula each cell shows.", example="wound_roll")
    result: str = spec("For a formula with several `results:`: the one each cell shows.", "", example="killed")
    columns: Axis = spec(
        "The input across the top; a chart of one input writes it here and prints as one row (`rows:` goes with "
        "`columns:`, never alone)."
    )
    rows: Axis | None = spec(
        "The input down the side, with `columns:`; without it the chart is one row (a formula of one input).", None
    )
    row_label: str = spec("For a one-row chart: the label of its row.", "", example="success")
    fixed: tuple[Setting, ...] = spec("Other inputs held at one value, keyed by input name.", ())
    chance: str = spec("Id of a formula giving each cell's chance, when it is not that of rolling the target.", "")
    impossible: str = spec(
        "What a cell says when the roll cannot succeed: a target the formula gives as `None`, or one no roll of its "
        "die reaches. A chance of 0 that a formula of a `chance` (or of true or false) gives prints 0%, unless the "
        "chart writes this word.",
        "no effect",
        example="no save",
    )
    better: Literal["higher", "lower"] = spec(
        "Which chances are the good ones, printed in bold (and the poor ones in italics): `higher` (a hit, a save) "
        "or `lower` (a chance of a harm: of dying, of routing).",
        "higher",
    )
    show: Literal["target", "chance", "number"] | None = spec(
        "`target`: the roll needed and its chance; `chance`: the chance alone; `number`: the result. Left out: as "
        "the formula's result is (`target` for a target, `chance` for a chance or a true or false, else `number`).",
        None,
    )
    mark_diagonal: bool = spec("Mark the cells where the row and column values are equal.", False)
    digits: int | None = spec(
        "For `show: number`: print each number rounded to this many places (an average, say) rather than exact.",
        None,
        example="2",
    )
    note: Markdown = spec("Prose printed under the chart.", Markdown(""))
    chapter: str = spec("The chapter (id) where it is printed.", "")
    quick_reference: bool | QuickMark = quick_field("chart")
    coverage: str = coverage_field()

    def names(self) -> tuple[Named, ...]:
        """Its formulas, then for each side the formula of its second heading line and the values its values name."""
        named = [
            Named(id, value_loc(self, field), ("formulas",))
            for field, id in (("formula", self.formula), ("chance", self.chance))
            if id
        ]
        for axis in (self.columns, self.rows):
            if axis is not None and axis.note_formula:
                named.append(Named(axis.note_formula, value_loc(axis, "note_formula"), ("formulas",)))
            for value in axis.values if axis is not None else ():
                text = value if isinstance(value, (str, bool)) else getattr(value, "value", value)
                if isinstance(text, str):
                    named += [
                        Named(name, value_loc(axis, "values"), ("values",))
                        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
                    ]
        return tuple(named)


@dataclass(frozen=True, kw_only=True)
class Sheet(ForAudience):
    """A one-page cheat sheet of charts and roll tables (A4 and US Letter), also a page of the site."""

    title: str = spec("The sheet's heading.", example="Hit chart")
    charts: tuple[str, ...] = spec("Ids of the charts on it, in order (a base ruleset's too).", ())
    tables: tuple[str, ...] = spec(
        "Ids of the roll tables on it, in order (a base ruleset's too), after its charts: each row with its roll and "
        "its chance, as the quick reference prints them, in type as large as the page takes (a sheet has charts, "
        "tables or both). A table stays on the quick reference too unless marked `quick_reference: false`.",
        (),
        example="[encounters, loot]",
    )
    layout: Literal["grid", "stack", "wide"] = spec(
        "`grid` one big chart, `stack` charts one under another, `wide` a landscape-wide chart.", "grid"
    )
    notes: tuple[Markdown, ...] = spec(
        "Lines printed under the charts and tables; values printed by the `value` role.", ()
    )
    cites: tuple[str, ...] = spec("Ids of the rules whose sources the sheet names.", ())

    def names(self) -> tuple[Named, ...]:
        return (
            tuple(Named(id, item_loc(self, "charts", index), ("charts",)) for index, id in enumerate(self.charts))
            + tuple(Named(id, item_loc(self, "tables", index), ("tables",)) for index, id in enumerate(self.tables))
            + tuple(Named(id, item_loc(self, "cites", index), ("rules",)) for index, id in enumerate(self.cites))
        )


@dataclass(frozen=True, kw_only=True)
class LookupRow(Located):
    """One row of a lookup: the number, range or key it answers, and its result."""

    when: RollRange | None = spec("The number or range this row covers (`3`, `1-2`, `6+`, `1-`).", None, example="3-4")
    match: str = spec("For a lookup keyed by a word or condition: the key this row answers.", "", example="sideways")
    result: str = spec("The result, as printed.", example="Taken prisoner")
    value: Quantity | None = spec("A number the result stands for, for formulas and mechanics.", None)
    effect: Markdown = spec("The result's full effect, if longer than `result`.", Markdown(""))
    coverage: str = coverage_field()

    @property
    def key_text(self) -> str:
        return self.match or (range_words(self.when) if self.when is not None else "")


@dataclass(frozen=True, kw_only=True)
class Lookup(ForAudience):
    """A table read without dice: keyed by a count, a derived number or a condition."""

    title: str = spec("The table's heading.", example="Column movement")
    key: str = spec("What the table is read by, as its first column heading.", example="Direction")
    over: RollRange | None = spec(
        "For a numeric key: every number it can take (`1-10`, `0+`), each covered once.", None
    )
    rows: tuple[LookupRow, ...] = spec(
        "The rows, each with `when` (a number or range) or `match` (a word), and `result`."
    )
    chapter: str = spec("The chapter (id) where the table is printed.", "")
    note: Markdown = spec("Prose printed under the table.", Markdown(""))
    quick_reference: bool | QuickMark = quick_field("lookup")
    coverage: str = coverage_field()

    def row(self, key) -> LookupRow:
        """The row for a number or a word."""
        for row in self.rows:
            if (
                isinstance(key, str)
                and row.match
                and row.match.casefold() == key.strip().casefold()
                or not isinstance(key, (str, bool))
                and row.when is not None
                and key in row.when
            ):
                reads.entry(self)
                reads.entry(row)
                return row
        raise LookupError(f"{self.title} has no row for {key!r}")

    def read(self, key):
        """The row's value if it has one, else its result."""
        row = self.row(key)
        return row.value.value if row.value is not None else row.result
