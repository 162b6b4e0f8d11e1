"""Checks of values, formulas, lookups, charts and sheets: names resolve, every cell computes.

A formula whose inputs are all bounded is evaluated for every combination of them
(up to :data:`EXHAUSTIVE` combinations, as many as an odds calculator answers; a formula whose inputs combine in
more is warned of), so a formula that fails for some input is reported at ``check`` time, not when a sheet is
printed.
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import icepool

from ..diagnostics import Code, Diagnostic, Location, Severity, did_you_mean
from ..model.base import item_loc, value_loc
from ..model.calculate import calculator
from ..model.charts import axis_values, chart_cells, read_as_values
from ..model.computed import Chart, Formula, Input, Lookup
from ..model.formula import (
    CONSTANTS,
    FUNCTIONS,
    Expression,
    FormulaDividesByZero,
    FormulaError,
    FormulaTooLarge,
    FormulaUnitMismatch,
    budget,
)
from ..model.ruleset import Ruleset
from ..model.text import range_words
from ..model.units import SIZES, Distance, measure
from .links import prose_loc
from .memo import Reach, formula_names, remembered, words
from .references import ref_hint
from .tables import MAX_TABLE_SPAN, _spans

EXHAUSTIVE = 2000  # combinations of inputs a formula is tried with: as many as a calculator answers
MAX_LOOKUP_COVERING = 100 * MAX_TABLE_SPAN  # numbers a lookup's rows cover between them (disjoint rows: its span)
MAX_CHART_CELLS = 400  # cells of one chart
_OUT_OF_MEMORY = "ran out of memory"


class TooLarge(str):
    """A check's failure message that is a refusal of something too large (``too-large``), not a fault of the
    formula: a str, so that it is stored, compared and printed as the message it is."""


class MixedMeasures(str):
    """A check's failure message that is a formula mixing measures (``unit-mismatch``)."""


_TAGS = {TooLarge: "too-large", MixedMeasures: "unit-mismatch"}  # how a kept failure remembers its kind


def _code(message: str) -> Code:
    if isinstance(message, TooLarge):
        return Code.TOO_LARGE
    return Code.UNIT_MISMATCH if isinstance(message, MixedMeasures) else Code.BAD_FORMULA


def _tagged(message: str, tag: str):
    return next((kind for kind, name in _TAGS.items() if name == tag), str)(message)


def _known_names(ruleset: Ruleset) -> set[str]:
    return (
        {v.id for v in ruleset.reachable("values")}
        | {f.id for f in ruleset.reachable("formulas")}
        | {t.id for t in ruleset.reachable("tables")}
        | {l.id for l in ruleset.reachable("lookups")}
        | set(FUNCTIONS)
        | set(CONSTANTS)
    )


def input_values(spec: Input) -> list | None:
    """Every value an input takes, or None when it is unbounded or too many."""
    if spec.optional:
        values = input_values(
            Input(id=spec.id, label=spec.label, type=spec.type, min=spec.min, max=spec.max, choices=spec.choices)
        )
        return None if values is None else [None] + values
    if spec.type == "bool":
        return [False, True]
    if spec.type == "text":
        return list(spec.choices) or None
    if spec.min is None or spec.max is None or spec.max - spec.min >= EXHAUSTIVE:
        return None
    return list(range(spec.min, spec.max + 1))


def check_formulas(ruleset: Ruleset):
    known = _known_names(ruleset)
    calc = calculator(ruleset)
    reach = _lazy_reach(ruleset)
    for formula in ruleset.formulas:
        names = known | {i.id for i in formula.inputs}
        bad = False
        for binding in formula.let:
            for name in sorted(binding.expr.names | binding.expr.calls):
                if name not in names:
                    bad = True
                    if ruleset.is_unloaded(name):
                        continue  # an entry with errors of its own, told there
                    yield Diagnostic(
                        Code.BAD_FORMULA,
                        f"`{name}` in `let: {binding.id}` of `{formula.id}` is not an input, "
                        "a value, an earlier `let` name, a formula, a table or a function",
                        _name_loc(binding, binding.expr.text, name),
                        _unknown_hint(ruleset, name, names, name in binding.expr.calls),
                    )
            names.add(binding.id)
        for view in formula.views():
            for name in sorted(view.expr.names | view.expr.calls):
                if name not in names:
                    bad = True
                    if ruleset.is_unloaded(name):
                        continue  # an entry with errors of its own, told there
                    yield Diagnostic(
                        Code.BAD_FORMULA,
                        f"`{name}` in `{view.id}` is not an input, a value, a `let` name, "
                        "a formula, a table or a function",
                        _name_loc(view, view.expr.text, name),
                        _unknown_hint(ruleset, name, names, name in view.expr.calls),
                    )
        several = list(_several_problems(formula))
        yield from several
        bad = bad or bool(several)
        if not bad:
            yield from _untried(formula)
            yield from _try_every_input(formula, calc, reach)
            yield from _target_past_its_die(formula, calc)
        yield from _die_problems(formula)


_QUOTED = r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'|\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\""  # a text in an expression


def _name_loc(owner, text: str, name: str) -> Location:
    """Where an expression (``owner``'s `expr:`, ``text``) first reads ``name``: its quoted texts and the letters of
    its dice (the D6 of 2D6) passed over; where the expression is written when its text does not map to the file's."""
    found = re.compile(rf"{_QUOTED}|(?<![\w.])({re.escape(name)})(?!\w)")
    first = next((match.start(1) for match in found.finditer(text) if match[1]), None)
    return value_loc(owner, "expr") if first is None else prose_loc(owner, "expr", text, first)


def _unknown_hint(ruleset: Ruleset, name: str, names: set, called: bool) -> str | None:
    """What to say of a name a formula reads and nothing defines: that a function of the ruleset's mechanics.py it
    calls cannot be called from a formula (it was refused as "not a function" alone), else a near name, else that
    formulas cannot call mechanics."""
    if not called:
        return did_you_mean(name, names)
    below = ruleset
    while below is not None and name not in below.mechanics_defines:
        below = below.base
    if below is not None:
        whose = "this ruleset's mechanics.py" if below is ruleset else f"the mechanics.py of `{below.id}`, its base"
        return (
            f"`{name}` is a function of {whose}, and formulas cannot call mechanics (worked examples can): write "
            "what it works out in the formula, with `let:` names, tables, lookups and dice"
        )
    return did_you_mean(name, names) or (
        "call the formulas, tables, lookups and functions listed in the format reference: formulas cannot call a "
        "function of mechanics.py"
    )


def _several_problems(formula: Formula):
    """A formula with several results declares each result's kind with the result (not beside `results:`), and
    has no input named `result`, which is how a caller names the one it wants."""
    if not formula.results:
        return
    for field in ("result", "die", "unit"):
        if field in formula.locs:
            yield Diagnostic(
                Code.BAD_FORMULA,
                f"`{formula.id}` has several results; its `{field}:` belongs with each of them",
                value_loc(formula, field),
                f"write `{field}:` inside each entry of `results:`",
            )
    for spec in formula.inputs:
        if spec.id == "result":
            yield Diagnostic(
                Code.BAD_FORMULA,
                f"`{formula.id}` has several results and an input named `result`, "
                "the name callers use to choose a result",
                spec.loc,
                "give the input another name",
            )


def _target_past_its_die(formula: Formula, calc):
    """A target result that no `die:` gives its die, which reaches past the D6 it is then rolled on: in a game of
    D10s, the D10 left out makes every chance printed of it a D6's."""
    for owner in formula.results or (formula,):
        if owner.result != "target" or "die" in owner.locs:
            continue
        ranges = [input_values(i) for i in formula.inputs]
        if any(r is None for r in ranges) or _product(ranges) > EXHAUSTIVE:
            continue
        faces = Expression.parse(owner.die).evaluate({}).max_outcome()
        chosen = {"result": owner.id} if formula.results else {}
        highest, where = None, {}
        with budget():
            for combination in itertools.product(*ranges):
                inputs = dict(zip((i.id for i in formula.inputs), combination))
                try:
                    target = calc.evaluate(formula, **inputs, **chosen)
                except (FormulaError, MemoryError):
                    return  # told as the formula's failure
                if isinstance(target, int) and not isinstance(target, bool) and (highest is None or target > highest):
                    highest, where = target, inputs
        if highest is not None and highest > faces:
            what = f"the result `{owner.id}` of `{formula.id}`" if formula.results else f"`{formula.id}`"
            yield Diagnostic(
                Code.TARGET_DIE,
                f"{what} gives {highest}+ for {_shown(where)}, past the {owner.die} it is rolled on, as no `die:` "
                "says which die that is",
                value_loc(owner, "result"),
                severity=Severity.WARNING,
            )


def _die_problems(formula: Formula):
    """The `die:` a target is rolled on is an expression the outputs evaluate: it must compute, within the caps."""
    for owner in formula.results or (formula,):
        if not owner.die:
            continue
        try:
            die = Expression.parse(owner.die)
            named = sorted(die.names | die.calls)
            if not named:
                die.evaluate({})
        except FormulaError as error:
            code = Code.TOO_LARGE if isinstance(error, FormulaTooLarge) else Code.BAD_FORMULA
            yield Diagnostic(
                code,
                f"the `die:` of `{formula.id}` does not compute: {error}",
                value_loc(owner, "die"),
                None if code is Code.TOO_LARGE else "write a die such as D6 or D10",
            )
            continue
        if named:  # the outputs roll it as written: no input, value or formula has a value there
            yield Diagnostic(
                Code.BAD_FORMULA,
                f"the `die:` of `{formula.id}` names {', '.join(f'`{name}`' for name in named)}: a die is rolled as "
                "written, without inputs, values or formulas",
                value_loc(owner, "die"),
                "write the die itself, such as D6 or 2D6; a modifier belongs in `expr:`",
            )


def _lazy_reach(ruleset: Ruleset):
    """The ruleset's ``memo.Reach``, made on first use (only a check that remembers needs it)."""
    made = []

    def reach() -> Reach:
        if not made:
            made.append(Reach(ruleset))
        return made[0]

    return reach


def _try_every_input(formula: Formula, calc, reach=None):
    """The formula's first failure over every combination of its inputs, located; remembered by what it reads."""
    reach = reach or _lazy_reach(calc.ruleset)
    failure = remembered(
        "formulas",
        lambda: reach().key("formula", formula, formula_names(formula)),
        lambda: first_failure(formula, calc),
        _dump_failure,
        _load_failure,
    )
    if failure is not None:
        field, message, hint = failure
        yield Diagnostic(_code(message), message, _failure_loc(formula, field), hint)


def _untried(formula: Formula):
    """A formula whose bounded inputs combine in more ways than `check` tries: saying so, as the README promises
    that bounded inputs are tried, every one."""
    numbers = [i for i in formula.inputs if i.type not in ("bool", "text")]
    if not formula.inputs or any(i.min is None or i.max is None for i in numbers):
        return  # an input with no bound: the formula is never tried, which its inputs say
    if any(i.type == "text" and not i.choices for i in formula.inputs):
        return
    ways = math.prod(_ways(i) for i in formula.inputs)
    if ways > EXHAUSTIVE:
        ends = tried_values(formula)
        tried = (
            f"tries each input's ends alone (its two lowest and two highest values: {_product(ends):,} combinations)"
            if ends is not None
            else "tries none of them"
        )
        yield Diagnostic(
            Code.UNTRIED_INPUTS,
            f"the inputs of `{formula.id}` combine in {ways:,} ways; `check` tries at most {EXHAUSTIVE:,}, so it "
            + tried,
            value_loc(formula, "inputs"),
            severity=Severity.WARNING,
        )


def _ways(spec: Input) -> int:
    """How many values an input takes (its bounds given)."""
    if spec.type == "bool":
        count = 2
    elif spec.type == "text":
        count = len(spec.choices)
    else:
        count = max(0, spec.max - spec.min + 1)
    return count + 1 if spec.optional else count


def _failure_loc(formula: Formula, field: str):
    """Where a failure is: the formula's `expr` or `result`, the `let:` step (``let.<id>``) that failed, or the
    `expr` or `result` of one of its results (``results.<id>.expr``)."""
    for binding in formula.let:
        if field == f"let.{binding.id}":
            return value_loc(binding, "expr")
    for outcome in formula.results:
        for part in ("expr", "result"):
            if field == f"results.{outcome.id}.{part}":
                return value_loc(outcome, part)
    return value_loc(formula, field if field in ("expr", "result") else "expr")


def _field_of(formula: Formula, error: FormulaError) -> str:
    binding = getattr(error, "binding", None)
    if binding is not None and any(b is binding for b in formula.let):
        return f"let.{binding.id}"
    if binding is not None and any(o is binding for o in formula.results):
        return f"results.{binding.id}.expr"
    return "expr"


def _dump_failure(failure):
    if failure is None:
        return ["none"]
    return list(failure) + [name for kind, name in _TAGS.items() if isinstance(failure[1], kind)]


def _load_failure(stored):
    if not isinstance(stored, list):
        raise ValueError("not a formula's failure")
    if stored == ["none"]:
        return None
    if len(stored) not in (3, 4) or stored[3:] not in ([], *([name] for name in _TAGS.values())):
        raise ValueError("not a formula's failure")
    field, message, hint = stored[:3]
    if (
        not isinstance(field, str)
        or not (field in ("expr", "result") or field.startswith(("let.", "results.")))
        or not isinstance(message, str)
        or not isinstance(hint, (str, type(None)))
    ):
        raise ValueError("not a formula's failure")
    return field, _tagged(message, stored[3]) if stored[3:] else message, hint


def edge_values(spec: Input) -> list | None:
    """An input's ends: its two lowest and two highest values (a yes-or-no both, a text every choice), tried where
    its values combine with the others' in more ways than `check` tries: where a table's edge is, an edge bug is
    (one attacker against thirty defenders looks up a column that is not there). None for an unbounded input."""
    if spec.type in ("bool", "text") or spec.min is None or spec.max is None:
        values = input_values(spec)
    else:
        ends = sorted({spec.min, min(spec.min + 1, spec.max), max(spec.max - 1, spec.min), spec.max})
        values = ([None] if spec.optional else []) + ends
    return values


def tried_values(formula: Formula) -> list | None:
    """The values of each input `check` tries the formula with: every combination up to EXHAUSTIVE, else each
    input's ends (``edge_values``); None when even those are too many, or an input is unbounded."""
    ranges = [input_values(i) for i in formula.inputs]
    if not any(r is None for r in ranges) and _product(ranges) <= EXHAUSTIVE:
        return ranges
    ends = [edge_values(i) for i in formula.inputs]
    if any(r is None for r in ends) or _product(ends) > EXHAUSTIVE:
        return None
    return ends


def first_failure(formula: Formula, calc) -> tuple[str, str, str | None] | None:
    """(the field at fault, message, hint) for the first combination of inputs the formula fails for or
    gives a result of another kind than it declares, of those `check` tries (``tried_values``); None when every one
    computes (or none is tried)."""
    ranges = tried_values(formula)
    if ranges is None:
        return None
    with budget():  # every combination together: the whole check is bounded, not each try
        return _first_failure(formula, calc, ranges)


def _first_failure(formula: Formula, calc, ranges):
    for combination in itertools.product(*ranges):
        inputs = dict(zip((i.id for i in formula.inputs), combination))
        try:
            result = calc.evaluate(formula, **inputs)
        except FormulaTooLarge as error:
            return (
                _field_of(formula, error),
                TooLarge(f"`{formula.id}` is too large to check for {_shown(inputs)}: {error}"),
                None,
            )
        except FormulaUnitMismatch as error:
            return (
                _field_of(formula, error),
                MixedMeasures(f"`{formula.id}` fails for {_shown(inputs)}: {error}"),
                "measure both in one unit: lengths convert to each other, hexes and squares to nothing",
            )
        except FormulaError as error:
            return _field_of(formula, error), f"`{formula.id}` fails for {_shown(inputs)}: {error}", _guard(error)
        except MemoryError:
            return "expr", TooLarge(f"`{formula.id}` {_OUT_OF_MEMORY} for {_shown(inputs)}"), None
        for field, view, value in _each_result(formula, result):
            problem = result_problem(view, value)
            if problem:
                what = f"the result `{field.split('.')[1]}` of `{view.id}`" if formula.results else f"`{view.id}`"
                return (
                    field,
                    f"{what} gives {problem} for {_shown(inputs)}",
                    "declare `result:` as what the expression gives",
                )
    return None


def _guard(error: FormulaError) -> str | None:
    """The hint for a formula that fails on some of its inputs' values (its names are right: those fail on all)."""
    if isinstance(error, FormulaDividesByZero):
        return "guard the division (`a / b if b != 0 else ...`), or narrow the input's `min:` and `max:`"
    return None


def _each_result(formula: Formula, result):
    """(the field a wrong kind is reported at, the formula of that one result, its value) for each result."""
    if not formula.results:
        return [("result", formula, result)]
    return [(f"results.{o.id}.result", formula.view(o.id), result[o.id]) for o in formula.results]


def result_problem(formula: Formula, result) -> str:
    """Why a result does not fit the formula's declared `result`, or ''."""
    kind = formula.result
    if kind == "target" and not (result is None or (isinstance(result, int) and not isinstance(result, bool))):
        return f"{result!r}, not a target roll (a whole number, or None when it cannot succeed)"
    if kind == "chance" and not (
        isinstance(result, (int, Fraction)) and not isinstance(result, bool) and 0 <= result <= 1
    ):
        return f"{result!r}, not a chance from 0 to 1"
    if kind == "bool" and not isinstance(result, bool):
        return f"{result!r}, not true or false"
    if kind == "roll" and not isinstance(result, icepool.Die):
        return f"{result!r}, not a roll"
    if kind in ("number", "distance") and (isinstance(result, (bool, icepool.Die, str))):
        return f"{'a roll' if isinstance(result, icepool.Die) else repr(result)}, not a number"
    return ""


def _product(ranges) -> int:
    total = 1
    for values in ranges:
        total *= len(values)
    return total


def _shown(inputs: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in inputs.items()) or "no inputs"


def check_lookups(ruleset: Ruleset):
    for lookup in ruleset.lookups:
        yield from lookup_coverage(lookup)


def lookup_coverage(lookup: Lookup) -> list[Diagnostic]:
    found, covered, words = [], {}, set()
    numbers = [row for row in lookup.rows if row.when is not None]
    for row in lookup.rows:
        if (row.when is None) == (not row.match):
            found.append(
                Diagnostic(
                    Code.BAD_VALUE,
                    f"each row of `{lookup.id}` has either `when:` (a number or range) or `match:` (a word)",
                    row.loc,
                )
            )
        if row.match:
            if row.match.casefold() in words:
                found.append(
                    Diagnostic(
                        Code.TABLE_OVERLAP, f"`{lookup.id}` answers `{row.match}` twice", value_loc(row, "match")
                    )
                )
            words.add(row.match.casefold())
    if not numbers:
        return found
    ends = [v for row in numbers for v in (row.when.low, row.when.high) if v is not None]
    if lookup.over is not None:
        ends += [v for v in (lookup.over.low, lookup.over.high) if v is not None]
    if ends and max(ends) - min(ends) > MAX_TABLE_SPAN:
        return found + [
            Diagnostic(
                Code.TOO_LARGE,
                f"the rows of `{lookup.id}` span {min(ends):,} to {max(ends):,}; a "
                f"lookup may span at most {MAX_TABLE_SPAN:,} numbers",
                value_loc(lookup, "over" if lookup.over is not None else "rows"),
                "write open-ended rows such as `6+` and `1-` for the far ends",
            )
        ]
    window = range(min(ends) - 1, max(ends) + 2) if ends else range(0)
    covering = sum(len(_part_of(window, row.when)) for row in numbers)
    if covering > MAX_LOOKUP_COVERING:  # rows that cover the window over and over again: each costs its span
        return found + [
            Diagnostic(
                Code.TOO_LARGE,
                f"the rows of `{lookup.id}` cover {covering:,} numbers between them; at most {MAX_LOOKUP_COVERING:,}",
                value_loc(lookup, "rows"),
                "make the row ranges disjoint",
            )
        ]
    span = [n for n in window if lookup.over is None or n in lookup.over]
    for row in numbers:
        mine = [n for n in _part_of(window, row.when) if lookup.over is None or n in lookup.over]
        again = [n for n in mine if n in covered]
        if again:
            found.append(
                Diagnostic(
                    Code.TABLE_OVERLAP,
                    f"row `{range_words(row.when)}` of `{lookup.id}` covers {_spans(again)} again",
                    value_loc(row, "when"),
                )
            )
        for n in mine:
            covered.setdefault(n, row)
    if lookup.over is not None:
        missing = [n for n in span if n not in covered]
        if missing:
            found.append(
                Diagnostic(
                    Code.TABLE_GAP,
                    f"`{lookup.id}` has no row for {_spans(missing)} of {range_words(lookup.over)}",
                    value_loc(lookup, "rows"),
                )
            )
    return found


def _part_of(window: range, when) -> range:
    """The numbers of ``window`` a row's range covers, found from its ends (a row costs what it covers)."""
    low = window.start if when.low is None else max(when.low, window.start)
    high = window.stop - 1 if when.high is None else min(when.high, window.stop - 1)
    return range(low, high + 1)


def check_charts(ruleset: Ruleset):
    calc = calculator(ruleset)
    reach = _lazy_reach(ruleset)
    formulas = {f.id: f for f in ruleset.reachable("formulas")}
    for chart in ruleset.charts:
        yield from chart_problems(ruleset, chart, calc, reach)
        yield from _note_formula_problems(chart, formulas)


def _note_formula_problems(chart: Chart, formulas: dict):
    """An axis's `note_formula` prints one result per value: a formula of several results cannot say which."""
    for name, axis in (("rows", chart.rows), ("columns", chart.columns)):
        note = formulas.get(axis.note_formula) if axis is not None and axis.note_formula else None
        if note is not None and note.results:
            yield Diagnostic(
                Code.BAD_CHART,
                f"the {name} of `{chart.id}` take their notes from `{note.id}`, which has several results",
                value_loc(axis, "note_formula"),
                "name a formula of one result",
            )


def _axis_ok(chart: Chart, axis, calc, found: list, name: str, formula: Formula | None = None) -> bool:
    """Axis values written as expressions must compute; the problem goes into ``found``."""
    try:
        axis_values(chart, axis, calc.scope, formula)
    except FormulaError as error:
        found.append(
            Diagnostic(
                Code.BAD_CHART,
                f"a value of the {name} of `{chart.id}` does not compute: {error}",
                value_loc(axis, "values"),
            )
        )
        return False
    return True


def _repeated(values) -> str | None:
    """The first value an axis lists a second time, as the author wrote it."""
    seen = set()
    for value in values:
        if value in seen:
            return str(value)
        seen.add(value)
    return None


def chart_problems(ruleset: Ruleset, chart: Chart, calc, reach=None) -> list[Diagnostic]:
    found = []
    formulas = {f.id: f for f in ruleset.reachable("formulas")}
    for field in ("formula", "chance"):
        id = getattr(chart, field)
        if id and id not in formulas:
            found.append(
                Diagnostic(
                    Code.UNKNOWN_REF,
                    f"chart `{chart.id}` names formula `{id}`, which is not in `formulas:`",
                    value_loc(chart, field),
                    did_you_mean(id, formulas),
                )
            )
    if found:
        return found
    formula, problem = _charted(chart, formulas[chart.formula])
    if problem is not None:
        return [problem]
    if chart.chance and formulas[chart.chance].results:
        return [
            Diagnostic(
                Code.BAD_CHART,
                f"the `chance:` of `{chart.id}` names `{chart.chance}`, which has several results",
                value_loc(chart, "chance"),
                "name a formula of one result, giving a chance",
            )
        ]
    inputs = {i.id: i for i in formula.inputs}
    axes = (
        (("rows", chart.rows), ("columns", chart.columns)) if chart.rows is not None else (("columns", chart.columns),)
    )
    for name, axis in axes:
        if axis.input not in inputs:
            found.append(
                Diagnostic(
                    Code.BAD_CHART,
                    f"the {name} of `{chart.id}` vary `{axis.input}`, which is not an input of `{formula.id}`",
                    value_loc(axis, "input"),
                    did_you_mean(axis.input, inputs),
                )
            )
        elif _axis_too_long(chart, axis, found, name):
            continue
        elif not _axis_ok(chart, axis, calc, found, name, formula):
            continue
        elif not axis_values(chart, axis, calc.scope, formula):
            found.append(
                Diagnostic(Code.BAD_CHART, f"the {name} of `{chart.id}` need `values:` or a closed `range:`", axis.loc)
            )
        if axis.labels and len(axis.labels) != len(axis_values(chart, axis)):
            found.append(
                Diagnostic(
                    Code.BAD_CHART,
                    f"the {name} of `{chart.id}` have {len(axis.labels)} labels for "
                    f"{len(axis_values(chart, axis))} values",
                    value_loc(axis, "labels"),
                )
            )
        repeated = _repeated(axis.values)
        if repeated is not None:
            found.append(
                Diagnostic(
                    Code.BAD_CHART,
                    f"the {name} of `{chart.id}` list {repeated} twice",
                    value_loc(axis, "values"),
                    "list each value once: a repeated value is usually a typo for one the chart now leaves out",
                )
            )
    found += _axis_measures(chart, axes, inputs, formula, calc)
    for setting in chart.fixed:
        if setting.id not in inputs:
            found.append(
                Diagnostic(
                    Code.BAD_CHART,
                    f"`{chart.id}` fixes `{setting.id}`, which is not an input of `{formula.id}`",
                    setting.loc,
                    did_you_mean(setting.id, inputs),
                )
            )
    if found:
        return found
    varied = {axis.input for _name, axis in axes} | {s.id for s in chart.fixed}
    for spec in formula.inputs:
        if spec.id not in varied and spec.default is None and not spec.optional:
            found.append(
                Diagnostic(
                    Code.BAD_CHART,
                    f"`{chart.id}` leaves input `{spec.id}` of `{formula.id}` open",
                    chart.loc,
                    f"add `fixed: {{{spec.id}: ...}}`",
                )
            )
    if found:
        return found
    cells = len(axis_values(chart, chart.columns)) * (len(axis_values(chart, chart.rows)) if chart.rows else 1)
    if cells > MAX_CHART_CELLS:
        return [
            Diagnostic(
                Code.TOO_LARGE,
                f"`{chart.id}` has {cells:,} cells; a chart has at most {MAX_CHART_CELLS:,}",
                (chart.rows or chart.columns).loc,
                "split it into charts of fewer rows or columns",
            )
        ]
    if any(_names_unknown(f, ruleset) for f in (formula, formulas.get(chart.chance)) if f is not None):
        return found  # a misspelt name, told at the formula: every cell would fail for it
    reach = reach or _lazy_reach(ruleset)
    failure = remembered(
        "charts",
        lambda: reach().key("chart", chart, words(chart)),
        lambda: cell_failure(chart, formula, formulas.get(chart.chance), calc),
        _dump_message,
        _load_message,
    )
    if failure is not None:
        code = Code.TOO_LARGE if isinstance(failure, TooLarge) else Code.BAD_CHART
        hint = None if code is Code.TOO_LARGE else "make the formula compute there, or leave that value off the chart"
        found.append(Diagnostic(code, failure, value_loc(chart, "formula"), hint))
    return found


def _names_unknown(formula: Formula, ruleset: Ruleset) -> bool:
    """Whether the formula names something that is no input, value, `let` step, formula, table or function."""
    if not isinstance(formula, Formula):
        return False  # a stand-in (tests), named by what it computes
    known = _known_names(ruleset) | {i.id for i in formula.inputs} | {b.id for b in formula.let}
    expressions = [b.expr for b in formula.let] + [view.expr for view in formula.views()]
    return any((expr.names | expr.calls) - known for expr in expressions)


def _axis_measures(chart: Chart, axes, inputs: dict, formula: Formula, calc) -> list[Diagnostic]:
    """An axis whose distances are of two measures, or of another than its input's unit, is refused where its values
    are written: its cells would compare hexes with inches."""
    found = []
    for name, axis in axes:
        spec = inputs.get(axis.input)
        if spec is None or not axis.values:
            continue
        try:
            distances = [v for v in axis_values(chart, axis, calc.scope, formula) if isinstance(v, Distance)]
        except FormulaError:
            continue  # reported as not computing
        unit = spec.unit or (formula.unit if formula.unit in SIZES else "")
        measures = {measure(d.unit) for d in distances} | ({measure(unit)} if unit and distances else set())
        if len(measures) > 1:
            shown = ", ".join(str(d) for d in distances)
            found.append(
                Diagnostic(
                    Code.UNIT_MISMATCH,
                    f"the {name} of `{chart.id}` mix measures: {shown}"
                    + (f" for `{axis.input}`, in {unit}" if unit else ""),
                    value_loc(axis, "values"),
                )
            )
    return found


def _charted(chart: Chart, formula: Formula) -> tuple[Formula, Diagnostic | None]:
    """The formula of one result a chart's cells show: its formula, or the result its `result:` names of one
    with several; with a located problem when those do not fit."""
    if not formula.results and not chart.result:
        return formula, None
    if not formula.results:
        return formula, Diagnostic(
            Code.BAD_CHART,
            f"`{chart.id}` names result `{chart.result}` of `{formula.id}`, which has one result",
            value_loc(chart, "result"),
            "leave `result:` out",
        )
    names = [o.id for o in formula.results]
    if not chart.result:
        return formula, Diagnostic(
            Code.BAD_CHART,
            f"`{chart.id}` charts `{formula.id}`, which has several results ({', '.join(names)})",
            value_loc(chart, "formula"),
            f"add `result: {names[0]}`",
        )
    if chart.result not in names:
        return formula, Diagnostic(
            Code.BAD_CHART,
            f"`{chart.id}` names result `{chart.result}`, which `{formula.id}` "
            f"does not have; its results are {', '.join(names)}",
            value_loc(chart, "result"),
            did_you_mean(chart.result, names),
        )
    return formula.view(chart.result), None


def _axis_too_long(chart: Chart, axis, found: list, name: str) -> bool:
    """A `range:` of more values than a chart may have cells is refused before its values are listed."""
    if axis.range is None or axis.range.low is None or axis.range.high is None:
        return False
    length = axis.range.high - axis.range.low + 1
    if length <= MAX_CHART_CELLS:
        return False
    found.append(
        Diagnostic(
            Code.TOO_LARGE,
            f"the {name} of `{chart.id}` take {length:,} values; a chart has at most {MAX_CHART_CELLS:,} cells",
            value_loc(axis, "range"),
            "chart a narrower range, or split the chart",
        )
    )
    return True


def _dump_message(message):
    return [message, "too-large"] if isinstance(message, TooLarge) else [message]


def _load_message(stored):
    if not isinstance(stored, list) or len(stored) not in (1, 2) or stored[1:] not in ([], ["too-large"]):
        raise ValueError("not a chart's failure")
    message = stored[0]
    if not isinstance(message, (str, type(None))) or (stored[1:] and message is None):
        raise ValueError("not a chart's failure")
    return TooLarge(message) if stored[1:] else message


def cell_failure(chart: Chart, formula: Formula, chance: Formula | None, calc) -> str | None:
    """Why some cell of the chart does not compute (its formula's or its chance's), or None."""
    cell_inputs = {}
    try:
        with budget():  # every cell together
            for cell_inputs in chart_cells(chart, calc.scope, formula):
                calc.evaluate(formula, **cell_inputs)
                if chance is not None:
                    calc.evaluate(chance, **cell_inputs)
    except FormulaTooLarge as error:
        return TooLarge(f"`{chart.id}` is too large to compute for {_shown(cell_inputs)}: {error}")
    except FormulaError as error:
        read = _read_as_values(chart, formula, calc, cell_inputs)
        return f"`{chart.id}` cannot compute its cell for {_shown(cell_inputs)}: {error}{read}"
    except MemoryError:
        return TooLarge(f"`{chart.id}` {_OUT_OF_MEMORY} for {_shown(cell_inputs)}")
    return None


def _read_as_values(chart: Chart, formula: Formula, calc, cell: dict) -> str:
    """What a failing cell's axis words read as the ruleset's values were (a word naming a value is that value):
    `suit=13` alone left its author puzzled where the axis says `hearts`."""
    notes = []
    for name, axis in (("rows", chart.rows), ("columns", chart.columns)):
        if axis is None or axis.input not in cell:
            continue
        for word, value in read_as_values(axis, calc.scope, formula):
            if _same(cell[axis.input], value):
                what = f"the value `{word}`" if word.isidentifier() else "values"
                notes.append(f"`{word}` of the {name} is read as {what}, {value}")
    return f" ({'; '.join(notes)})" if notes else ""


def _same(given, value) -> bool:
    """Whether a cell's input is the value an axis word computed (a roll is only ever itself)."""
    if isinstance(given, (bool, int, Fraction, str, Distance)) and type(given) is type(value):
        return bool(given == value)
    return given is value


def check_sheets(ruleset: Ruleset):
    listed = {section: {e.id for e in ruleset.reachable(section)} for section in ("charts", "tables")}
    rules = {r.id for r in ruleset.rules}
    for sheet in ruleset.sheets:
        if not sheet.charts and not sheet.tables:
            yield Diagnostic(
                Code.MISSING_FIELD,
                f"sheet `{sheet.id}` lists no charts and no roll tables: it would print an empty page",
                sheet.loc,
                "list what it prints: its charts in `charts: [...]`, its roll tables in `tables: [...]`, or both",
            )
        for section, kind in (("charts", "chart"), ("tables", "roll table")):
            for index, id in enumerate(getattr(sheet, section)):
                if id not in listed[section] and not ruleset.is_unloaded(id, section):
                    yield Diagnostic(
                        Code.UNKNOWN_REF,
                        f"sheet `{sheet.id}` lists {kind} `{id}`, which is not in `{section}:`",
                        item_loc(sheet, section, index),
                        _sheet_ref_hint(ruleset, id, listed, section),
                    )
        for index, id in enumerate(sheet.cites):
            if id not in rules and not ruleset.is_unloaded(id, "rules"):
                yield Diagnostic(
                    Code.UNKNOWN_REF,
                    f"sheet `{sheet.id}` cites rule `{id}`, which is not in `rules:`",
                    item_loc(sheet, "cites", index),
                    ref_hint(ruleset, id, rules, "rules"),
                )


def _sheet_ref_hint(ruleset: Ruleset, id: str, listed: dict, section: str) -> str | None:
    """A chart listed among a sheet's tables, or a table among its charts, is told the list it goes in."""
    other = "tables" if section == "charts" else "charts"
    if id in listed[other] and id not in listed[section]:
        kind = "a roll table" if other == "tables" else "a chart"
        return f"`{id}` is {kind}: list it in the sheet's `{other}:`"
    return ref_hint(ruleset, id, listed[section], section)


def check_name_clashes(ruleset: Ruleset):
    """Values, formulas, tables and lookups share one name space in formulas."""
    seen = {}
    for section in ("values", "formulas", "tables", "lookups"):
        for entry in ruleset.section(section):
            if entry.id in seen and seen[entry.id] != section:
                yield Diagnostic(
                    Code.DUPLICATE_ID,
                    f"`{entry.id}` names both a {seen[entry.id][:-1]} and a "
                    f"{section[:-1]}; formulas could not tell them apart",
                    entry.loc,
                )
            seen.setdefault(entry.id, section)
            if entry.id in FUNCTIONS or entry.id in CONSTANTS:
                what = "the name of a formula function" if entry.id in FUNCTIONS else "a word of the formula language"
                yield Diagnostic(
                    Code.RESERVED_NAME,
                    f"`{entry.id}` is {what}",
                    entry.loc,
                    f"choose another id for the {section[:-1]}: formulas could not tell it from the "
                    + ("function" if entry.id in FUNCTIONS else "word"),
                )
