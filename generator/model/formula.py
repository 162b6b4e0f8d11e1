"""A small, safe expression language for rules written as data.

Expressions are Python's expression syntax cut down to what rules need, parsed
with :mod:`ast` and evaluated by walking an allow-list of nodes: numbers, names
(inputs, values, ``let`` bindings), arithmetic (``/`` is exact), comparisons,
``and``/``or``/``not``, ``a if condition else b``, tuples for ``in``, and calls of
the functions in :data:`FUNCTIONS`, of formulas and of tables by id. Dice are
written as the rules write them (``D6``, ``2D6``, ``D3``) and become icepool dice,
so ``count(dice, D6 > target)`` is the exact distribution of successes and
``chance(highest(nerve, D6) > tokens)`` the exact chance of passing.

Nothing else is reachable: no attributes, no subscripts, no imports, no ``**``;
numbers are capped so that no expression can grow without end.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Mapping

import icepool

from .quantity import exact

MAX_NUMBER = 10**12  # the largest number an expression may reach
MAX_DICE = 100  # dice in one pool
MAX_SIDES = 1000  # sides of one die
MAX_LENGTH = 2000  # characters of one expression
MAX_DEPTH = 200  # operations nested in one expression: evaluating it stays far inside Python's recursion limit
_DICE = re.compile(r"(?<![\w.])(\d*)[dD](\d+)(?![\w.])")


class FormulaError(ValueError):
    """An expression that does not parse, names something unknown, or fails on some inputs."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


_NOT_ROLLS = frozenset({int, bool, Fraction, str, type(None), tuple})


def _is_roll(value) -> bool:
    """``isinstance(value, icepool.Die)``, quick for plain numbers (icepool's protocol check is slow for them)."""
    return type(value) not in _NOT_ROLLS and isinstance(value, icepool.Die)


_ROLLS: dict[tuple, tuple] = {}  # dice made from dice and numbers, by what they were made from
_ROLLS_KEPT = 20000


def _part(value):
    """How ``value`` enters a key of ``_ROLLS``: a die by identity (it is held with the entry, so its id is
    not reused while the entry lives), anything else by its type and value (so 1, True and 1/1 differ)."""
    if _is_roll(value):
        return "die", id(value)
    if value is None or type(value) in (int, bool, Fraction, str):
        return type(value), value
    raise TypeError("not remembered")  # a tuple (`in`) or anything else: made every time


def _remembered_roll(name, parts: tuple, make):
    """``make()``, or what it gave before for the same ``parts``: trying a formula with every input combines
    the same dice with the same numbers again and again, and a die is immutable, so one is built once."""
    try:
        key = (name, *(_part(value) for value in parts))
        found = _ROLLS.get(key)
    except TypeError:  # something unhashable: just make it
        return make()
    if found is not None and all(held is value for held, value in zip(found[0], parts)):
        return found[1]
    made = make()
    if len(_ROLLS) >= _ROLLS_KEPT:
        _ROLLS.clear()
    _ROLLS[key] = (parts, made)
    return made


def _dice(count: int, sides: int) -> icepool.Die:
    if not 1 <= sides <= MAX_SIDES:
        raise FormulaError(f"a die has 1 to {MAX_SIDES} sides, not {sides}")
    if not 0 <= count <= MAX_DICE:
        raise FormulaError(f"a roll has 0 to {MAX_DICE} dice, not {count}")
    return _remembered_roll("dice", (count, sides), lambda: count @ icepool.d(sides))


def _as_die(value) -> icepool.Die:
    if isinstance(value, icepool.Die):
        return value
    if isinstance(value, (bool, int, Fraction)):
        return icepool.Die([value])
    raise FormulaError(f"{_show(value)} is not a roll")


def _pool_size(count) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_DICE:
        raise FormulaError(f"a pool has 0 to {MAX_DICE} dice, not {_show(count)}")
    return count


def count(dice: int, each) -> icepool.Die:
    """How many of ``dice`` rolls succeed, ``each`` being one die's success (``D6 > armour``)."""
    size = _pool_size(dice)
    return _remembered_roll("count", (size, each),
                            lambda: size @ _as_die(each).map(lambda outcome: int(bool(outcome))))


def highest(dice: int, die=None) -> icepool.Die:
    """The highest of ``dice`` rolls of ``die`` (a D6 by default); 0 when no die is rolled."""
    size = _pool_size(dice)
    return _remembered_roll("highest", (size, die), lambda: _as_die(die if die is not None else icepool.d6).pool(size)
                            .highest(1).sum() if size else icepool.Die([0]))


def lowest(dice: int, die=None) -> icepool.Die:
    """The lowest of ``dice`` rolls of ``die`` (a D6 by default); 0 when no die is rolled."""
    size = _pool_size(dice)
    return _remembered_roll("lowest", (size, die), lambda: _as_die(die if die is not None else icepool.d6).pool(size)
                            .lowest(1).sum() if size else icepool.Die([0]))


def total(dice: int, die) -> icepool.Die:
    """The sum of ``dice`` rolls of ``die``."""
    size = _pool_size(dice)
    return _remembered_roll("total", (size, die), lambda: size @ _as_die(die))


def chance(value) -> Fraction:
    """The exact chance that a condition holds: of a roll's true outcomes, 1 or 0 for a plain condition."""
    if _is_roll(value):
        return _remembered_roll("chance", (value,),
                                lambda: sum((value.probability(o) for o in value.outcomes() if o), Fraction(0)))
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, (int, Fraction)) and 0 <= value <= 1:
        return Fraction(value)
    raise FormulaError(f"chance() takes a condition or a roll, not {_show(value)}")


def mean(roll) -> Fraction:
    """The exact average of a roll (the expected number of hits, say)."""
    return Fraction(_as_die(roll).mean())


def chance_of(die, outcome) -> Fraction:
    """The chance that a roll comes out exactly ``outcome``."""
    return _as_die(die).probability(outcome)


def where(condition, if_true, if_false):
    """``if_true`` where the condition holds, else ``if_false``; works on rolls too."""
    if isinstance(condition, icepool.Die):
        return condition.map(lambda outcome: if_true if outcome else if_false)
    return if_true if condition else if_false


def each(die, function, *args):
    """A roll whose every outcome goes through ``function`` (a formula, table or lookup), so that
    one roll can be asked several questions: ``each(D6, is_critical, needed)``."""
    if not callable(function):
        raise FormulaError("each() takes a roll and a formula, table or lookup")
    return _as_die(die).map(lambda outcome: function(outcome, *args))


def clamp(value, low, high):
    """``value`` kept within ``low`` and ``high``."""
    if isinstance(value, icepool.Die):
        return value.clip(low, high)
    return max(low, min(high, value))


def _round(function: Callable) -> Callable:
    def rounded(value):
        if isinstance(value, icepool.Die):
            return value.map(lambda outcome: function(Fraction(outcome)))
        return function(Fraction(value))
    return rounded


FUNCTIONS: dict[str, Callable] = {
    "min": min, "max": max, "abs": abs, "floor": _round(math.floor), "ceil": _round(math.ceil),
    "count": count, "highest": highest, "lowest": lowest, "total": total, "chance": chance,
    "chance_of": chance_of, "where": where, "clamp": clamp, "dice": _dice, "each": each, "mean": mean,
}
FUNCTION_HELP = {name: (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""
                 for name, function in FUNCTIONS.items()}
FUNCTION_HELP.update({"min": "The smallest of its arguments.", "max": "The largest of its arguments.",
                      "abs": "The size of a number, without its sign.", "floor": "Rounded down.",
                      "ceil": "Rounded up.", "dice": "`dice(n, sides)`, as `nDsides` is written."})
CONSTANTS = {"None": None, "True": True, "False": False, "never": None}

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge}
_OPERATOR_WORDS = {ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
                   ast.RShift: ">>", ast.MatMult: "@"}


def _show(value) -> str:
    if isinstance(value, icepool.Die):
        return "a roll"
    if isinstance(value, Fraction):
        return str(value)
    return repr(value)


@dataclass(frozen=True)
class Expression:
    """A parsed expression and the names it uses (for reference checks and the dependency graph)."""

    text: str
    tree: ast.expr
    names: frozenset[str]
    calls: frozenset[str]

    @classmethod
    def parse(cls, text: str) -> Expression:
        text = str(text)
        if len(text) > MAX_LENGTH:
            raise FormulaError(f"an expression has at most {MAX_LENGTH} characters; split it with `let:`")
        source = _DICE.sub(lambda m: f"dice({m[1] or 1}, {m[2]})", text)
        try:
            tree = ast.parse(source.strip(), mode="eval").body
        except SyntaxError as error:
            raise FormulaError(f"`{text}` is not an expression: {error.msg}", max(0, (error.offset or 1) - 1)) from None
        except (ValueError, RecursionError, MemoryError):
            raise FormulaError(f"`{text[:40]}` is too deeply nested") from None
        if _depth(tree) > MAX_DEPTH:
            raise FormulaError(f"`{text[:40]}` nests more than {MAX_DEPTH} operations deep; split it with `let:`")
        names, calls = set(), set()
        for node in ast.walk(tree):
            _allow(node, text)
            if isinstance(node, ast.Name) and node.id not in CONSTANTS:
                names.add(node.id)
            if isinstance(node, ast.Call):
                calls.add(node.func.id)
        return cls(text, tree, frozenset(names - calls), frozenset(calls - set(FUNCTIONS)))

    def evaluate(self, scope: Mapping[str, object]):
        try:
            return _normal(_eval(self.tree, scope))
        except FormulaError:
            raise
        except RecursionError:
            raise FormulaError("the formulas call each other without end") from None
        except ZeroDivisionError:
            raise FormulaError(f"`{self.text}` divides by zero") from None
        except (TypeError, ValueError, ArithmeticError, LookupError) as error:
            raise FormulaError(f"`{self.text}` failed: {error}") from None


def _depth(tree: ast.AST) -> int:
    """How many operations deep the tree nests (a lone number: 0), counted without recursion: the tree
    may be deeper than Python's stack."""
    deepest, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _allow(node: ast.AST, text: str) -> None:
    where = getattr(node, "col_offset", 0)
    if isinstance(node, ast.BinOp) and type(node.op) not in _BINARY:
        raise FormulaError(f"`{_OPERATOR_WORDS.get(type(node.op), type(node.op).__name__)}` is not allowed in a formula", where)
    if isinstance(node, ast.Compare) and any(type(op) not in (*_COMPARE, ast.In, ast.NotIn) for op in node.ops):
        raise FormulaError("compare with == != < <= > >= or `in`", where)
    if isinstance(node, ast.Constant):
        if node.value is not None and not isinstance(node.value, (int, str)) or (isinstance(node.value, int) and abs(node.value) > MAX_NUMBER):
            raise FormulaError(f"`{node.value!r}` is not a whole number up to {MAX_NUMBER:,} or a text", where)
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise FormulaError("only functions, formulas and tables can be called, by name", where)
        if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
            raise FormulaError("write arguments one by one", where)
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
               ast.Constant, ast.Tuple, ast.List, ast.Load, ast.keyword, ast.operator, ast.unaryop, ast.boolop,
               ast.cmpop)
    if not isinstance(node, allowed):
        raise FormulaError(f"`{ast.unparse(node) if isinstance(node, ast.expr) else type(node).__name__}` is not allowed "
                           "in a formula (no attributes, subscripts, lambdas or comprehensions)", where)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        raise FormulaError("`~` is not allowed in a formula", where)


def _checked(value):
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        raise FormulaError(f"a result passed {MAX_NUMBER:,}, the largest number a formula may reach")
    return value


def _normal(value):
    if isinstance(value, Fraction):
        return exact(value)
    return value


def _operation(function, left, right):
    """``function(left, right)``; with a die on either side, the die it made before for the same operands."""
    if _is_roll(left) or _is_roll(right):
        return _remembered_roll(function, (left, right), lambda: function(left, right))
    return function(left, right)


def _exactly(value):
    """``value`` with a roll's outcomes as fractions, so that dividing it never gives a float."""
    return value.map(Fraction) if _is_roll(value) else Fraction(value)


def _exact_quotient(left, right):
    return _exactly(left) / _exactly(right)


def _divide(left, right):
    """``left / right`` exactly: numbers as fractions, and a roll outcome by outcome, as fractions too."""
    if _is_roll(left) or _is_roll(right):
        return _operation(_exact_quotient, left, right)
    return Fraction(left) / Fraction(right)


def _eval(node: ast.expr, scope: Mapping[str, object]):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in CONSTANTS:
            return CONSTANTS[node.id]
        if node.id not in scope:
            raise FormulaError(f"`{node.id}` is not an input, a value or a `let` name here")
        return scope[node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_eval(item, scope) for item in node.elts)
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand, scope)
        if isinstance(node.op, ast.Not):
            return not operand
        return -operand if isinstance(node.op, ast.USub) else +operand
    if isinstance(node, ast.BoolOp):
        result = _eval(node.values[0], scope)
        for item in node.values[1:]:
            if isinstance(node.op, ast.And) and not result or isinstance(node.op, ast.Or) and result:
                return result
            result = _eval(item, scope)
        return result
    if isinstance(node, ast.IfExp):
        test = _eval(node.test, scope)
        if _is_roll(test):
            return where(test, _eval(node.body, scope), _eval(node.orelse, scope))
        return _eval(node.body if test else node.orelse, scope)
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, scope), _eval(node.right, scope)
        if isinstance(node.op, ast.Div):
            return _checked(_divide(left, right))
        return _checked(_operation(_BINARY[type(node.op)], left, right))
    if isinstance(node, ast.Compare):
        left = _eval(node.left, scope)
        for op, comparator in zip(node.ops, node.comparators):
            right = _eval(comparator, scope)
            if isinstance(op, (ast.In, ast.NotIn)):
                held = left in (right if isinstance(right, tuple) else (right,))
                result = held if isinstance(op, ast.In) else not held
            else:
                result = _operation(_COMPARE[type(op)], left, right)
            if _is_roll(result) or not result:
                return result  # a roll's comparison is a roll of true and false; chains stop there
            left = right
        return True
    if isinstance(node, ast.Call):
        name = node.func.id
        function = FUNCTIONS.get(name) or scope.get(name)
        if not callable(function):
            raise FormulaError(f"`{name}` is not a function, a formula or a table")
        args = [_eval(a, scope) for a in node.args]
        kwargs = {k.arg: _eval(k.value, scope) for k in node.keywords}
        return _checked(function(*args, **kwargs))
    raise FormulaError(f"`{ast.unparse(node)}` is not allowed in a formula")  # pragma: no cover - _allow stops it
