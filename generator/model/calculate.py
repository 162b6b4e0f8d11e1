"""Evaluate a ruleset's formulas: the scope they see and the callables examples use.

A formula sees its inputs, its ``let`` names, every value of its ruleset (and of the
bases it extends) by id, the functions of the expression language, other formulas,
roll tables and lookups by id. Results are exact.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from types import SimpleNamespace

import icepool

from ..diagnostics import did_you_mean
from . import reads
from .base import NotGiven, NotGivenError
from .computed import Formula, Input, Lookup, plain
from .entries import RollTable
from .formula import (
    CALL_STEPS,
    FormulaError,
    FormulaUnitMismatch,
    Path,
    Results,
    _is_roll,
    mapped,
    path_of,
    spend,
    within_budget,
)
from .quantity import Quantity
from .ruleset import Ruleset
from .units import SIZES, Distance, UnitMismatch

_CALCULATORS: dict[int, tuple[Ruleset, Calculator]] = {}


def calculator(ruleset: Ruleset) -> Calculator:
    """The one calculator of a ruleset value (rulesets are immutable, so it never goes stale)."""
    known = _CALCULATORS.get(id(ruleset))
    if known is None or known[0] is not ruleset:
        known = (ruleset, Calculator(ruleset))
        _CALCULATORS[id(ruleset)] = known
    return known[1]


NotGivenValue = NotGivenError  # the error a formula or example meets using a value the text leaves out


class Values(SimpleNamespace):
    """A ruleset's values by id; a name it lacks says so."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        close = did_you_mean(name, vars(self))
        raise AttributeError(f"the ruleset has no value `{name}`" + (f"; {close}" if close else ""))

    def __getattribute__(self, name: str):
        if not name.startswith("_"):
            reads.value(name)  # measured for `rulepress coverage` (a no-op unless a run records)
        return super().__getattribute__(name)


class Calculator:
    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.scope: dict[str, object] = {}
        for value in reversed(ruleset.reachable("values")):
            self.scope[value.id] = (
                NotGiven(value.value.note, what=value.id)
                if isinstance(value.value, NotGiven)
                else _computable(value.value)
            )
        for table in ruleset.reachable("tables"):
            self.scope[table.id] = _table_reader(table)
        for lookup in ruleset.reachable("lookups"):
            self.scope[lookup.id] = _lookup_reader(lookup)
        for formula in ruleset.reachable("formulas"):
            self.scope[formula.id] = self.function(formula)

    def values(self) -> Values:
        """Every value by id, as ``values.move``, for examples and mechanics (dice as dice expressions)."""
        return Values(
            **{
                v.id: v.value.value if isinstance(v.value, Quantity) else self.scope[v.id]
                for v in self.ruleset.reachable("values")
            }
        )

    def function(self, formula: Formula) -> Callable:
        def call(*args, **kwargs):
            return self.evaluate(formula, *args, **kwargs)

        call.__name__ = formula.id
        call.__qualname__ = formula.id
        call.__doc__ = formula.title
        call.__signature__ = _signature(formula)
        return call

    def evaluate(self, formula: Formula, *args, **kwargs):
        """The formula's exact result for these inputs (positional in declared order, or by name). A formula with
        several results gives the one named by ``result=``, or all of them as ``Results``."""
        wanted = kwargs.pop("result", None) if formula.results else None
        outcomes = formula.results if wanted is None else (formula.outcome(wanted),)
        names = [i.id for i in formula.inputs]
        if len(args) > len(names):
            raise FormulaError(f"{formula.id} takes {len(names)} inputs ({', '.join(names)}), not {len(args)}")
        given = dict(zip(names, args))
        for name, value in kwargs.items():
            if name not in names:
                raise FormulaError(f"{formula.id} has no input `{name}`; its inputs are {', '.join(names) or 'none'}")
            if name in given:
                raise FormulaError(f"{formula.id} got `{name}` twice")
            given[name] = value
        reads.entry(formula)
        scope = reads.scope(self.scope)
        for spec in formula.inputs:
            scope[spec.id] = _input(formula, spec, given)
        with within_budget():  # its `let` steps and its expression draw on one budget
            spend(CALL_STEPS)
            for binding in formula.let:
                try:
                    scope[binding.id] = binding.expr.evaluate(scope)
                except FormulaError as error:
                    error.binding = binding  # where it failed, for a check to point at (the outermost formula's)
                    raise
            if not formula.results:
                return _as_declared(formula, formula.expr.evaluate(scope))
            found = {}
            for outcome in outcomes:
                try:
                    found[outcome.id] = _as_declared(outcome, outcome.expr.evaluate(scope))
                except FormulaError as error:
                    error.binding = outcome  # the outermost formula's result, as for `let:`
                    raise
            return found[wanted] if wanted is not None else Results(formula.id, found)

    def path(self, formula: Formula, **given) -> tuple[dict, Path]:
        """How the formula reaches its result(s) for these inputs (by name): the scope it read (inputs, values,
        its `let` names) and the way its expressions went, a `let` it read followed first."""
        scope = reads.scope(self.scope)
        for spec in formula.inputs:
            scope[spec.id] = _input(formula, spec, given)
        with within_budget():
            for binding in formula.let:
                scope[binding.id] = binding.expr.evaluate(scope)
        ways = [path_of(o.expr, scope) for o in formula.results] if formula.results else [path_of(formula.expr, scope)]
        names = dict.fromkeys(name for way in ways for name in way.names)
        for binding in reversed(formula.let):  # a `let` read on the way is part of the way, before what reads it
            if binding.id in names:
                way = path_of(binding.expr, scope)
                ways.insert(0, way)
                names = dict.fromkeys([*way.names, *names])
        decisions = tuple(d for way in ways for d in way.decisions)
        return scope, Path(decisions, tuple(names), tuple(c for way in ways for c in way.calls))


def _as_declared(formula, result):
    """A `distance` result in the formula's declared unit: a number is read in it, another length converted to it
    exactly; a distance of another measure (hexes for inches) is refused."""
    if formula.result != "distance" or formula.unit not in SIZES:
        return result
    if isinstance(result, tuple):
        return tuple(_as_declared(formula, item) for item in result)
    return _in_unit(result, formula.unit, f"the result of {formula.id}")


def _in_unit(value, unit: str, what: str):
    """``value`` as a distance in ``unit``: a bare number is read in it; None and anything else pass as they are."""
    if isinstance(value, Distance):
        try:
            return value.to(unit)
        except UnitMismatch:
            raise FormulaUnitMismatch(
                f"{what} is {value}, but it is declared in {unit}: {value.unit} and {unit} "
                "are different measures, which no rule converts"
            ) from None
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return Distance(value, unit)
    return value


def _computable(quantity: Quantity):
    """What a formula computes with: dice without stats as a roll, anything else as its exact value."""
    if quantity.kind == "dice" and not quantity.value.stats:
        return quantity.value.die()
    return quantity.value


def _input(formula: Formula, spec: Input, given: dict):
    if spec.optional and given.get(spec.id) is None:
        return None
    if spec.id not in given:
        if spec.default is None:
            raise FormulaError(f"{formula.id} needs the input `{spec.id}` ({spec.label})")
        default = plain(spec.default)
        return bool(default) if spec.type == "bool" else default  # `default: 0` is false, passed on as false
    value = given[spec.id]
    if _is_roll(value):
        return value
    if spec.type == "bool":
        if not isinstance(value, bool):
            raise FormulaError(f"`{spec.id}` of {formula.id} is true or false, not {value!r}")
        return value
    if spec.type == "text":
        if not isinstance(value, str) or (spec.choices and value not in spec.choices):
            raise FormulaError(
                f"`{spec.id}` of {formula.id} is one of {', '.join(spec.choices)}, not {value!r}"
                if spec.choices and isinstance(value, str)
                else f"`{spec.id}` of {formula.id} is a text, one of {', '.join(map(repr, spec.choices))}, "
                f"not {_not_text(value)}"
                if spec.choices
                else f"`{spec.id}` of {formula.id} is a text, not {_not_text(value)}"
            )
        return value
    if spec.type == "distance":
        unit = spec.unit or (formula.unit if formula.unit in SIZES else "")
        if isinstance(value, Distance) or unit:
            return _bounded(formula, spec, _in_unit(value, unit, f"`{spec.id}` of {formula.id}") if unit else value)
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise FormulaError(f"`{spec.id}` of {formula.id} is a number, not {value!r}")
    if spec.type == "int" and Fraction(value).denominator != 1:
        raise FormulaError(f"`{spec.id}` of {formula.id} is a whole number, not {value}")
    return _bounded(formula, spec, value)


def _not_text(value) -> str:
    """What a text input was given instead, by its kind: "the number 2" beside the choice '2' says why it is not it."""
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return f"the number {value}"
    return repr(value)


def _bounded(formula: Formula, spec: Input, value):
    """``value`` within the input's bounds (a distance's in its own unit), else a FormulaError saying them."""
    if not isinstance(value, (int, Fraction, Distance)) or isinstance(value, bool):
        raise FormulaError(f"`{spec.id}` of {formula.id} is a distance, not {value!r}")
    if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
        bounds = (
            f"from {spec.min} to {spec.max}"
            if spec.min is not None and spec.max is not None
            else (f"at least {spec.min}" if spec.min is not None else f"at most {spec.max}")
        )
        raise FormulaError(f"`{spec.id}` of {formula.id} runs {bounds}, not {value}")
    return value


def row_value(row):
    """What a table's or lookup's row gives a formula: its value's number where it has one, else its result."""
    value = getattr(row, "value", None)
    if isinstance(value, Quantity):
        return value.value
    return value if value is not None else row.result


def _table_reader(table: RollTable) -> Callable:
    def read(total):
        if isinstance(total, icepool.Die):
            return mapped(total, lambda outcome: row_value(table.lookup(outcome)))
        return row_value(table.lookup(total))

    read.__name__ = table.id
    read.__doc__ = f"The row of {table.title} for a rolled total (or a roll): its value, else its result."
    return read


def _lookup_reader(lookup: Lookup) -> Callable:
    def read(key):
        if isinstance(key, icepool.Die):
            return mapped(key, lookup.read)
        return lookup.read(key)

    read.__name__ = lookup.id
    read.__doc__ = f"The row of {lookup.title} for a {lookup.key.lower() or 'key'}: its value, else its result."
    return read


def _signature(formula: Formula):
    """The formula's inputs in declared order, as positional calls take them; once one has a default,
    the rest are shown keyword-only (a signature cannot list a required input after an optional one)."""
    import inspect

    params, keyword_only = [], False
    for spec in formula.inputs:
        default = (
            plain(spec.default) if spec.default is not None else (None if spec.optional else inspect.Parameter.empty)
        )
        keyword_only = keyword_only or default is not inspect.Parameter.empty
        kind = (
            inspect.Parameter.KEYWORD_ONLY
            if keyword_only and default is inspect.Parameter.empty
            else inspect.Parameter.POSITIONAL_OR_KEYWORD
        )
        params.append(inspect.Parameter(spec.id, kind, default=default))
    # `result="killed"` names one of several results; without it, all of them. An input of that name is an error the
    # check reports (validate/computed.py): the signature then shows the input, as a signature holds a name once.
    if formula.results and all(spec.id != "result" for spec in formula.inputs):
        params.append(inspect.Parameter("result", inspect.Parameter.KEYWORD_ONLY, default=None))
    params.sort(key=lambda p: p.kind == inspect.Parameter.KEYWORD_ONLY)  # keyword-only ones go last, in order
    return inspect.Signature(params)
