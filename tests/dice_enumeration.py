"""A second, naive reading of the rules' formulas, to check the engine's dice against: every roll is a table of
outcomes and exact weights, built one die at a time by listing faces, and every operation on rolls lists every pair
of outcomes. No icepool and nothing of ``generator.model.formula``: only the formulas' own text (its syntax tree),
the ruleset's stated values and its tables' rows.

    oracle = Oracle(ruleset)
    oracle.formula("hits", attack=3, armour=4)   # a Dist: {0: 1/8, 1: 3/8, 2: 3/8, 3: 1/8}
"""

from __future__ import annotations

import ast
import functools
import itertools
import math
import operator
import re
from fractions import Fraction

from generator.model.computed import plain
from generator.model.quantity import Quantity
from generator.model.units import SIZES, Distance

_DICE = re.compile(r"(?<![\w.])(\d*)[dD](\d+)(?![\w.])")
CONSTANTS = {"None": None, "True": True, "False": False, "never": None}
BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: lambda a, b: Fraction(a) / Fraction(b) if not hasattr(a, "unit") else a / b,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in (b if isinstance(b, tuple) else (b,)),
    ast.NotIn: lambda a, b: a not in (b if isinstance(b, tuple) else (b,)),
}


class Dist(dict):
    """A roll: each outcome's exact chance."""

    @staticmethod
    def of(pairs) -> Dist:
        found = Dist()
        for value, weight in pairs:
            if weight:
                key = _key(value)
                found[key] = found[key] + weight if key in found else weight
        return found

    def __hash__(self):  # a roll used as a table key (an argument remembered): by content
        return hash(tuple(sorted(self.items(), key=repr)))


def _key(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def uniform(sides: int) -> Dist:
    """One die as written: a D66 (any die written with one digit twice or more) lists every way its dice fall,
    each die a digit of the number read (D66: 11 to 66)."""
    written = str(sides)
    if len(written) > 1 and written[0] != "1" and set(written) == {written[0]}:
        faces = range(1, int(written[0]) + 1)
        ways = list(itertools.product(faces, repeat=len(written)))
        return Dist.of((int("".join(map(str, way))), Fraction(1, len(ways))) for way in ways)
    return Dist.of((face, Fraction(1, sides)) for face in range(1, sides + 1))


def lift(function, *args):
    """``function`` of plain values, applied to every combination of the outcomes of the rolls among ``args``: a
    roll of results weighted by the product of their chances (each roll independent, as dice are)."""
    if not any(isinstance(a, Dist) for a in args):
        return function(*args)
    rolls = [a.items() if isinstance(a, Dist) else [(a, None)] for a in args]  # a plain value: certain, no weight
    pairs = []
    for combination in itertools.product(*rolls):
        weight = math.prod(w for _v, w in combination if w is not None)
        result = function(*(v for v, _w in combination))
        if isinstance(result, Dist):
            pairs += [(v, weight * w) for v, w in result.items()]
        else:
            pairs.append((result, weight))
    return Dist.of(pairs)


def repeat(times: int, one: Dist, combine, start) -> Dist:
    """``times`` independent rolls of ``one`` folded with ``combine``, one die at a time."""
    found = Dist({start: Fraction(1)})
    for _ in range(times):
        found = lift(combine, found, one)
        found = found if isinstance(found, Dist) else Dist({found: Fraction(1)})
    return found


def chance(value) -> Fraction:
    if isinstance(value, Dist):
        return sum((w for v, w in value.items() if v), Fraction(0))
    if isinstance(value, bool):
        return Fraction(int(value))
    return Fraction(value)


def _as_dist(value) -> Dist:
    return value if isinstance(value, Dist) else Dist({_key(value): Fraction(1)})


class Oracle:
    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.formulas = {f.id: f for f in ruleset.reachable("formulas")}
        self.tables = {t.id: t for t in ruleset.reachable("tables")}
        self.lookups = {lk.id: lk for lk in ruleset.reachable("lookups")}
        self.values = {id: self.function(id) for id in [*self.formulas, *self.tables, *self.lookups]}
        for value in ruleset.reachable("values"):
            stated = value.value
            if isinstance(stated, Quantity):
                self.values[value.id] = self._stated(stated)

    def _stated(self, quantity: Quantity):
        if quantity.kind == "dice" and not quantity.value.stats:
            return self.evaluate(ast.parse(_dice_calls(str(quantity.value)), mode="eval").body, {})
        return quantity.value

    # -- formulas -------------------------------------------------------------------------------------------------
    def formula(self, id: str, *args, result: str | None = None, **given):
        formula = self.formulas[id]
        scope = dict(self.values)
        names = [spec.id for spec in formula.inputs]
        given = dict(zip(names, args)) | given
        for spec in formula.inputs:
            if spec.id in given and not (spec.optional and given[spec.id] is None):
                scope[spec.id] = given[spec.id]
            elif spec.optional:
                scope[spec.id] = None
            else:
                default = plain(spec.default)
                scope[spec.id] = bool(default) if spec.type == "bool" else default
            unit = spec.unit or (formula.unit if formula.unit in SIZES else "")
            if spec.type == "distance" and unit and isinstance(scope[spec.id], int | Fraction):
                scope[spec.id] = Distance(scope[spec.id], unit)  # a bare number is read in the input's unit
        for binding in formula.let:
            scope[binding.id] = self.evaluate(_tree(binding.expr.text), scope)
        if not formula.results:
            return self.evaluate(_tree(formula.expr.text), scope)
        found = {o.id: self.evaluate(_tree(o.expr.text), scope) for o in formula.results}
        return found[result] if result else found

    def evaluate(self, node: ast.expr, scope: dict):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return CONSTANTS[node.id] if node.id in CONSTANTS else scope[node.id]
        if isinstance(node, ast.Tuple | ast.List):
            return tuple(self.evaluate(item, scope) for item in node.elts)
        if isinstance(node, ast.UnaryOp):
            operand = self.evaluate(node.operand, scope)
            op = {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos}[type(node.op)]
            return lift(op, operand)
        if isinstance(node, ast.BoolOp):  # `and` stops at the first false, `or` at the first true
            stop = operator.not_ if isinstance(node.op, ast.And) else bool
            result = self.evaluate(node.values[0], scope)
            for item in node.values[1:]:
                if isinstance(result, Dist):
                    rest = self.evaluate(item, scope)
                    result = lift(lambda a, b: a if stop(a) else b, result, rest)
                elif stop(result):
                    return result
                else:
                    result = self.evaluate(item, scope)
            return result
        if isinstance(node, ast.IfExp):
            test = self.evaluate(node.test, scope)
            if not isinstance(test, Dist):
                return self.evaluate(node.body if test else node.orelse, scope)
            body, orelse = self.evaluate(node.body, scope), self.evaluate(node.orelse, scope)
            return lift(lambda t: body if t else orelse, test)
        if isinstance(node, ast.BinOp):
            return lift(BINARY[type(node.op)], self.evaluate(node.left, scope), self.evaluate(node.right, scope))
        if isinstance(node, ast.Compare):  # a chain reads each operand once: `2 <= D6 <= 4` compares one roll twice
            ops = [COMPARE[type(op)] for op in node.ops]
            values = [self.evaluate(node.left, scope)]
            for op, comparator in zip(ops, node.comparators):
                values.append(self.evaluate(comparator, scope))
                plain = not any(isinstance(value, Dist) for value in values)
                if plain and not op(values[-2], values[-1]):
                    return False  # a chain of plain values stops at its first false comparison, as Python's
            return lift(lambda *faces: all(op(a, b) for op, a, b in zip(ops, faces, faces[1:])), *values)
        if isinstance(node, ast.Call):
            args = [self.evaluate(a, scope) for a in node.args]
            kwargs = {k.arg: self.evaluate(k.value, scope) for k in node.keywords}
            return self.call(node.func.id, args, kwargs, scope)
        raise NotImplementedError(ast.dump(node))

    def call(self, name: str, args: list, kwargs: dict, scope: dict):
        if name == "dice":
            count, sides = args
            return repeat(count, uniform(sides), operator.add, 0)
        if name == "count":
            n, each = args
            hit = chance(each)
            one = Dist.of([(1, hit), (0, 1 - hit)])
            return repeat(n, one, operator.add, 0)
        if name in ("highest", "lowest"):
            n, die = args[0], (args[1] if len(args) > 1 else uniform(6))
            if n == 0:
                return Dist({0: Fraction(1)})
            pick = max if name == "highest" else min
            return _fold(n, _as_dist(die), pick)
        if name == "total":
            n, die = args
            return repeat(n, _as_dist(die), operator.add, 0)
        if name == "chance":
            return chance(args[0])
        if name == "chance_of":
            die, outcome = args
            return _as_dist(die).get(_key(outcome), Fraction(0))
        if name == "mean":
            return sum((Fraction(v) * w for v, w in _as_dist(args[0]).items()), Fraction(0))
        if name == "each":
            die, function, *rest = args
            return lift(lambda face: function(face, *rest), _as_dist(die))
        if name == "where":
            return lift(lambda t: args[1] if t else args[2], args[0])
        if name in ("min", "max", "abs", "clamp", "floor", "ceil"):
            plain = {
                "min": min,
                "max": max,
                "abs": abs,
                "clamp": lambda v, low, high: max(low, min(high, v)),
                "floor": math.floor,
                "ceil": math.ceil,
            }[name]
            return lift(plain, *args)
        if name in self.formulas:
            return lift(lambda *plain: self.formula(name, *plain, **kwargs), *args)
        if name in self.tables:
            return lift(lambda total: _row_value(self.tables[name].lookup(total)), *args)
        if name in self.lookups:
            return lift(self.lookups[name].read, *args)
        raise NotImplementedError(name)

    def function(self, name: str):
        """A formula, table or lookup as a value (``each(D6, is_critical_wound, needed)``)."""
        return lambda *args: self.call(name, list(args), {}, {})


def _fold(n: int, first: Dist, pick) -> Dist:
    found = first
    for _ in range(n - 1):
        found = lift(pick, found, first)
    return found


def _row_value(row):
    value = getattr(row, "value", None)
    if isinstance(value, Quantity):
        return value.value
    return value if value is not None else row.result


def _dice_calls(text: str) -> str:
    return _DICE.sub(lambda m: f"dice({m.group(1) or 1}, {m.group(2)})", text)


@functools.cache  # a formula's text, read once: the tree is only walked, never changed
def _tree(text: str) -> ast.expr:
    return ast.parse(_dice_calls(str(text)).strip(), mode="eval").body
