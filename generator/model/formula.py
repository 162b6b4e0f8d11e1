"""A small, safe expression language for rules written as data.

Expressions are Python's expression syntax cut down to what rules need, parsed
with :mod:`ast`, checked against an allow-list of nodes and compiled, node by node, into
functions of a scope (once, on first use): numbers, names
(inputs, values, ``let`` bindings), arithmetic (``/`` is exact), comparisons,
``and``/``or``/``not``, ``a if condition else b``, tuples for ``in``, and calls of
the functions in :data:`FUNCTIONS`, of formulas and of tables by id. Dice are
written as the rules write them (``D6``, ``2D6``, ``D3``) and become icepool dice,
so ``count(dice, D6 > target)`` is the exact distribution of successes and
``chance(highest(nerve, D6) > tokens)`` the exact chance of passing. Each die written is a roll of its own,
and what Python would ask a roll's truth of (a chain of comparisons, ``in``, ``and``/``or``/``not``, ``min``
and ``max``) is taken outcome by outcome: ``2 <= D6 <= 4`` is one roll compared twice.

Nothing else is reachable: no attributes, no subscripts, no imports, no ``**``;
numbers are capped so that no expression can grow without end.

What an expression builds is bounded before it is built (the dice × sides of a roll, the outcome pairs
of two rolls combined, the length of a text, the bits of a fraction, how deep formulas call formulas),
and every evaluation draws on a :class:`Budget` of steps, so that what no cap foresaw ends as a
``FormulaTooLarge`` error, not a hang.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import icepool

from .base import NotGivenError, is_given
from .dice import MAX_DICE_SIDES, single_die
from .quantity import Alternatives, exact
from .units import Distance, UnitMismatch

MAX_NUMBER = 10**12  # the largest number an expression may reach
MAX_BITS = 4096  # the largest numerator or denominator of an exact fraction, in bits (a chance of 100 D1000 needs 997)
MAX_DICE = 100  # dice in one pool
MAX_SIDES = 1000  # sides of one die
MAX_PAIRS = 1_000_000  # outcome pairs one operation on two rolls may combine (D1000 × D1000: about a second)
MAX_TEXT = 1000  # characters of a text (or items of a list) an expression may build
MAX_LENGTH = 2000  # characters of one expression
MAX_DEPTH = 200  # operations nested in one expression: evaluating it stays far inside Python's recursion limit
MAX_CALLS_DEEP = (
    40  # formulas inside formulas: deeper is a formula calling itself, found before Python's stack runs out
)
MAX_STEPS = 3_000_000  # work one check of an entry may do: operations evaluated and roll outcomes built (a few seconds)
CALL_STEPS = 10  # what calling a formula costs beyond its operations (its scope is made anew)
_DICE = re.compile(r"(?<![\w.])(\d*)[dD](\d+)(?![\w.])")


class FormulaError(ValueError):
    """An expression that does not parse, names something unknown, or fails on some inputs."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


class FormulaUnitMismatch(FormulaError):
    """An expression that mixes measures: hexes with inches, in a sum or a comparison."""


class FormulaDividesByZero(FormulaError):
    """An expression that divides by zero for some of its inputs' values."""


class FormulaTooLarge(FormulaError):
    """An expression beyond a cap: a roll of too many dice or outcomes, too long a text, too much work."""


class Budget:
    """The work an evaluation may still do, in steps: one per operation an expression holds each time it is
    evaluated, one per outcome pair a roll is built from. Counting work, not time, keeps the verdict the same on
    any machine, so a check that runs out of it is a located ``too-large`` error and can be remembered."""

    def __init__(self, steps: int = MAX_STEPS):
        self.steps = steps
        self.left = steps
        self.calls_deep = 0

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise FormulaTooLarge(
                f"computing it takes more than {self.steps:,} steps (operations and roll outcomes), "
                "the most one check may take"
            )


_budget: ContextVar[Budget | None] = ContextVar("rulepress_formula_budget", default=None)


@contextmanager
def budget(steps: int = MAX_STEPS):
    """Within it, every evaluation draws on one ``Budget`` of ``steps`` (a check of one entry, all its inputs)."""
    token = _budget.set(Budget(steps))
    try:
        yield _budget.get()
    finally:
        _budget.reset(token)


@contextmanager
def within_budget():
    """The budget in force, or a fresh one for an evaluation made outside any (a chart drawn, an example run)."""
    held = _budget.get()
    if held is not None:
        yield held
        return
    with budget() as fresh:
        yield fresh


def spend(steps: int) -> None:
    """Draw ``steps`` from the budget in force (none outside an evaluation: nothing to bound)."""
    held = _budget.get()
    if held is not None:
        held.spend(steps)


def _size(value) -> int:
    """How many outcomes a roll has (1 for anything else): what combining it costs."""
    return len(value) if _is_roll(value) else 1


_NOT_ROLLS = frozenset({int, bool, Fraction, str, type(None), tuple, Distance, Alternatives})


def _is_roll(value) -> bool:
    """``isinstance(value, icepool.Die)``, quick for plain numbers (icepool's protocol check is slow for them)."""
    return type(value) not in _NOT_ROLLS and isinstance(value, icepool.Die)


_ROLLS: dict[tuple, tuple] = {}  # dice made from dice and numbers, by what they were made from
_ROLLS_KEPT = 20000
_OUTCOMES_KEPT = 4 * MAX_PAIRS  # outcomes of the dice kept together: a few of the largest, or many small ones
_kept_outcomes = [0]


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
    if len(_ROLLS) >= _ROLLS_KEPT or _kept_outcomes[0] > _OUTCOMES_KEPT:
        _ROLLS.clear()
        _kept_outcomes[0] = 0
    _ROLLS[key] = (parts, made)
    _kept_outcomes[0] += _size(made)
    return made


def _dice(count: int, sides: int) -> icepool.Die:
    if not 1 <= sides <= MAX_SIDES:
        raise (FormulaTooLarge if sides > MAX_SIDES else FormulaError)(f"a die has 1 to {MAX_SIDES} sides, not {sides}")
    if not 0 <= count <= MAX_DICE:
        raise (FormulaTooLarge if count > MAX_DICE else FormulaError)(f"a roll has 0 to {MAX_DICE} dice, not {count}")
    _refuse_big_pool(count, sides, f"{count}D{sides}")
    return _remembered_roll(
        "dice", (count, sides), lambda: _paid(count * count * sides, operator.matmul, count, single_die(sides))
    )


def _refuse_big_pool(count: int, sides: int, written: str) -> None:
    """The tables' cap on dice × sides holds in formulas too: summing more takes minutes."""
    if count * sides > MAX_DICE_SIDES:
        raise FormulaTooLarge(
            f"`{written}` rolls {count * sides:,} dice × sides; the limit is {MAX_DICE_SIDES:,} "
            "(such as 2D1000 or 20D100)"
        )


def _as_die(value) -> icepool.Die:
    if isinstance(value, icepool.Die):
        return value
    if isinstance(value, (bool, int, Fraction)):
        return icepool.Die([value])
    raise FormulaError(f"{_show(value)} is not a roll")


def _pool_size(count) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_DICE:
        too_many = isinstance(count, int) and not isinstance(count, bool) and count > MAX_DICE
        raise (FormulaTooLarge if too_many else FormulaError)(f"a pool has 0 to {MAX_DICE} dice, not {_show(count)}")
    return count


def _extreme(die: icepool.Die, size: int, highest: bool) -> icepool.Die:
    """The highest (or lowest) of ``size`` rolls of ``die``, exactly, from its cumulative counts: the chance that
    all of them are at most x is that of one, to the power ``size``. No pool machinery, whose recursion runs one
    frame per outcome and out of stack for a D1000, and whose work grows with dice × sides."""
    spend(len(die) * size)
    outcomes = sorted(die.outcomes(), reverse=not highest)
    quantities = [die.quantity(outcome) for outcome in outcomes]
    weights, below = {}, 0
    for outcome, quantity in zip(outcomes, quantities):
        weights[outcome + 0] = (below + quantity) ** size - below**size  # + 0: a true or false counts as 1 or 0
        below += quantity
    return icepool.Die(weights)


def maximum(*values):
    """The largest of its arguments; of rolls, the higher roll, each rolled apart (``max(D6, D8)``)."""
    return _either(values, highest=True)


def minimum(*values):
    """The smallest of its arguments; of rolls, the lower roll, each rolled apart (``min(D6, 3)``)."""
    return _either(values, highest=False)


def _either(values: tuple, highest: bool):
    """``max`` or ``min`` as Python gives them (of its arguments, or of the one tuple given), and of rolls the
    roll of the largest or smallest: Python's own would ask each die whether it is larger, which has no answer."""
    pool = values[0] if len(values) == 1 and type(values[0]) is tuple else values
    if not any(_is_roll(value) for value in pool):
        return (max if highest else min)(*values)
    return _extreme_of([_as_die(value) for value in pool], highest)


def _extreme_of(dice: list[icepool.Die], highest: bool) -> icepool.Die:
    """The highest (or lowest) of one roll of each of ``dice``, exactly: the number of ways every roll is at most x
    is the product of each die's, so the ways the highest is x are that product at x less that at the outcome
    before. As ``_extreme``, without the pool machinery."""
    outcomes = sorted(set().union(*(die.outcomes() for die in dice)), reverse=not highest)
    spend(len(outcomes) * len(dice))
    reached = [0] * len(dice)  # each die's ways to roll at most (or, for the lowest, at least) the outcome reached
    weights, before = {}, 0
    for outcome in outcomes:
        reached = [ways + die.quantity(outcome) for ways, die in zip(reached, dice)]
        now = math.prod(reached)
        if now != before:
            weights[outcome + 0] = now - before  # + 0: a true or false counts as 1 or 0
        before = now
    return icepool.Die(weights)


def count(dice: int, each) -> icepool.Die:
    """How many of ``dice`` rolls succeed, ``each`` being one die's success (``D6 > armour``)."""
    size = _pool_size(dice)
    spend(_size(each) + size * size)
    return _remembered_roll("count", (size, each), lambda: size @ _as_die(each).map(lambda outcome: int(bool(outcome))))


def highest(dice: int, die=None) -> icepool.Die:
    """The highest of ``dice`` rolls of ``die`` (a D6 by default); 0 when no die is rolled."""
    size = _pool_size(dice)
    return _remembered_roll(
        "highest",
        (size, die),
        lambda: (
            _extreme(_as_die(die if die is not None else icepool.d6), size, highest=True) if size else icepool.Die([0])
        ),
    )


def lowest(dice: int, die=None) -> icepool.Die:
    """The lowest of ``dice`` rolls of ``die`` (a D6 by default); 0 when no die is rolled."""
    size = _pool_size(dice)
    return _remembered_roll(
        "lowest",
        (size, die),
        lambda: (
            _extreme(_as_die(die if die is not None else icepool.d6), size, highest=False) if size else icepool.Die([0])
        ),
    )


def keep_highest(keep: int, dice: int, die=None) -> icepool.Die:
    """The total of the ``keep`` highest of ``dice`` rolls of ``die`` (a D6 by default): ``keep_highest(2, 3)`` is
    "roll 3D6, keep the highest 2" (``highest(2, 3D6)`` is the higher of two 3D6 totals)."""
    return _kept(keep, dice, die, highest=True)


def keep_lowest(keep: int, dice: int, die=None) -> icepool.Die:
    """The total of the ``keep`` lowest of ``dice`` rolls of ``die`` (a D6 by default)."""
    return _kept(keep, dice, die, highest=False)


def _kept(keep: int, dice: int, die, highest: bool) -> icepool.Die:
    size, rolled = _pool_size(dice), _as_die(die if die is not None else icepool.d6)
    if isinstance(keep, bool) or not isinstance(keep, int) or not 0 <= keep <= size:
        raise FormulaError(f"keeps 0 to {size} of {size} dice, not {_show(keep)}")
    _refuse_big_pool(size, len(rolled), f"{size} rolls of a roll of {len(rolled):,} outcomes")
    spend(size * keep * len(rolled) + 1)
    if keep == 0:
        return icepool.Die([0])
    pool = rolled.pool(size)
    return _remembered_roll(
        "keep_highest" if highest else "keep_lowest",
        (keep, size, rolled),
        lambda: (pool.highest(keep) if highest else pool.lowest(keep)).sum(),
    )


MAX_AGAIN = 20  # times a die may be rolled again (exploding or re-rolled): past that, the odds do not move in print


def explode(die, times: int) -> icepool.Die:
    """``die`` whose highest face is rolled again and added, up to ``times`` more rolls: ``explode(D6, 2)``, a 6
    rolls again and adds, and a second 6 once more (a third 6 adds no more)."""
    rolled = _as_die(die)
    again = _times(times)
    spend(len(rolled) * len(rolled) * (again + 1))
    return _remembered_roll("explode", (rolled, again), lambda: rolled.explode(depth=again))


def reroll(die, under, times: int = 1) -> icepool.Die:
    """``die`` with a result under ``under`` rolled again, up to ``times`` times (once by default), the last roll
    standing: ``reroll(D6, 4)`` re-rolls a failed 4+ once."""
    rolled = _as_die(die)
    again = _times(times)
    spend(len(rolled) * len(rolled) * (again + 1))
    return _remembered_roll("reroll", (rolled, under, again), lambda: _rolled_again(rolled, under, again))


def _rolled_again(die: icepool.Die, under, times: int) -> icepool.Die:
    """``die``, each result under ``under`` replaced by a roll of this same kind with one time fewer (icepool's
    ``reroll`` divides by zero where every result is rolled again)."""
    again = die
    for _ in range(times):
        again = die.map(_else(again, under))
    return again


def _else(again: icepool.Die, under):
    """A result at or over ``under``, else the roll ``again`` (one argument: icepool reads a function's)."""
    return lambda outcome: again if outcome < under else outcome


def _times(times) -> int:
    if isinstance(times, bool) or not isinstance(times, int) or not 0 <= times <= MAX_AGAIN:
        raise FormulaError(f"a die is rolled again 0 to {MAX_AGAIN} times, not {_show(times)}")
    return times


def total(dice: int, die) -> icepool.Die:
    """The sum of ``dice`` rolls of ``die``."""
    size = _pool_size(dice)
    rolled = _as_die(die)
    _refuse_big_pool(size, len(rolled), f"total({size}, a roll of {len(rolled):,} outcomes)")
    return _remembered_roll(
        "total", (size, die), lambda: _paid(size * size * len(rolled), operator.matmul, size, rolled)
    )


def chance(value) -> Fraction:
    """The exact chance that a condition holds: of a roll's true outcomes, 1 or 0 for a plain condition."""
    if _is_roll(value):
        spend(len(value))
        return _remembered_roll(
            "chance", (value,), lambda: sum((value.probability(o) for o in value.outcomes() if o), Fraction(0))
        )
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, (int, Fraction)) and 0 <= value <= 1:
        return Fraction(value)
    raise FormulaError(f"chance() takes a condition or a roll, not {_show(value)}")


def mean(roll) -> Fraction:
    """The exact average of a roll (the expected number of hits, say)."""
    spend(_size(roll))
    return Fraction(_as_die(roll).mean())


def chance_of(die, outcome) -> Fraction:
    """The chance that a roll comes out exactly ``outcome``."""
    spend(_size(die))
    return _as_die(die).probability(outcome)


def where(condition, if_true, if_false):
    """``if_true`` where the condition holds, else ``if_false``; works on rolls too."""
    if isinstance(condition, icepool.Die):
        spend(len(condition) + _size(if_true) + _size(if_false))
        return condition.map(lambda outcome: if_true if outcome else if_false)
    return if_true if condition else if_false


def each(die, function, *args):
    """A roll whose every outcome goes through ``function`` (a formula, table or lookup), so that
    one roll can be asked several questions: ``each(D6, is_critical, needed)``."""
    if not callable(function):
        raise FormulaError("each() takes a roll and a formula, table or lookup")
    return mapped(_as_die(die), lambda outcome: function(outcome, *args))


def mapped(die: icepool.Die, function: Callable) -> icepool.Die:
    """``die.map(function)``, paid for: one step per outcome, and the outcomes of every roll ``function`` gives,
    which icepool then mixes into one (an ``each`` inside an ``each`` multiplies them)."""
    spend(len(die))

    def paid(outcome):
        result = function(outcome)
        spend(_size(result))
        return result

    return die.map(paid)


def clamp(value, low, high):
    """``value`` kept within ``low`` and ``high``."""
    if isinstance(value, icepool.Die):
        spend(len(value))
        return value.clip(low, high)
    return max(low, min(high, value))


def _round(function: Callable) -> Callable:
    def one(value):
        return function(value) if isinstance(value, Distance) else function(_fraction(value))  # 2½" rounds to 2"

    def rounded(value):
        if isinstance(value, icepool.Die):
            return mapped(value, one)
        return one(value)

    return rounded


def pick(value, n: int):
    """`pick(value, n)`: the n-th of the alternatives a text gives (`4 or 5 feet`: 1 is 4 feet)."""
    if not isinstance(value, Alternatives):
        raise FormulaError(f"pick() takes a value the text gives as alternatives (4 or 5 feet), not {_show(value)}")
    return value.pick(n)


FUNCTIONS: dict[str, Callable] = {
    "min": minimum,
    "max": maximum,
    "abs": abs,
    "floor": _round(math.floor),
    "ceil": _round(math.ceil),
    "count": count,
    "highest": highest,
    "lowest": lowest,
    "keep_highest": keep_highest,
    "keep_lowest": keep_lowest,
    "explode": explode,
    "reroll": reroll,
    "total": total,
    "chance": chance,
    "chance_of": chance_of,
    "where": where,
    "clamp": clamp,
    "dice": _dice,
    "each": each,
    "mean": mean,
    "pick": pick,
    "is_given": is_given,
}
FUNCTION_HELP = {
    name: (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""
    for name, function in FUNCTIONS.items()
}
FUNCTION_HELP.update(
    {
        "abs": "The size of a number, without its sign.",
        "floor": "Rounded down.",
        "ceil": "Rounded up.",
        "dice": "`dice(n, sides)`, as `nDsides` is written (`D66`, `dice(1, 66)`: a tens die and a units die).",
    }
)
CONSTANTS = {"None": None, "True": True, "False": False, "never": None}

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_OPERATOR_WORDS = {
    ast.Pow: "**",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.MatMult: "@",
}


def _show(value) -> str:
    if isinstance(value, icepool.Die):
        return "a roll"
    if isinstance(value, Fraction):
        return str(value)
    return repr(value)


class Results:
    """What a formula with several results gives a worked example called without `result=`: every result by
    name, read as ``brawl(6, 4).killed`` or ``brawl(6, 4)["killed"]``. Formulas name one result instead
    (``brawl(6, 4, result="killed")``): the language has no attributes."""

    __slots__ = ("_formula", "_values")

    def __init__(self, formula: str, values: dict):
        object.__setattr__(self, "_formula", formula)
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str):
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        raise AttributeError(
            f"{object.__getattribute__(self, '_formula')} has no result `{name}`; its results are {', '.join(values)}"
        )

    def __setattr__(self, name, value):
        raise AttributeError("a formula's results cannot be changed")

    def __getitem__(self, name: str):
        return self._values[name]

    def __iter__(self):
        return iter(self._values)

    def __eq__(self, other) -> bool:
        if isinstance(other, Results):
            return self._values == other._values
        return isinstance(other, dict) and self._values == other

    __hash__ = None

    def __repr__(self) -> str:
        return f"{self._formula}({', '.join(f'{k}={v!r}' for k, v in self._values.items())})"


@dataclass(frozen=True)
class Expression:
    """A parsed expression and the names it uses (for reference checks and the dependency graph)."""

    text: str
    tree: ast.expr
    names: frozenset[str]
    calls: frozenset[str]
    steps: int = 1  # the operations it holds: what evaluating it once costs

    @classmethod
    def parse(cls, text: str) -> Expression:
        text = str(text)
        if len(text) > MAX_LENGTH:
            raise FormulaError(f"an expression has at most {MAX_LENGTH} characters; split it with `let:`")
        source, origin = _literal_dice(text)
        written = _Written(source, origin)
        try:
            tree = ast.parse(source.strip(), mode="eval").body
        except SyntaxError as error:
            where = written.at(error.lineno or 1, max(0, (error.offset or 1) - 1))
            raise FormulaError(f"`{text}` is not an expression: {error.msg}", where) from None
        except (ValueError, RecursionError, MemoryError):
            raise FormulaError(f"`{text[:40]}` is too deeply nested") from None
        if _depth(tree) > MAX_DEPTH:
            raise FormulaError(f"`{text[:40]}` nests more than {MAX_DEPTH} operations deep; split it with `let:`")
        names, calls = set(), set()
        for node in ast.walk(tree):
            try:
                _allow(node)
            except FormulaError as refused:
                refused.offset = written.of(node)  # every node refused is an expression or an operation: it has one
                raise
            if isinstance(node, ast.Name) and node.id not in CONSTANTS:
                names.add(node.id)
            if isinstance(node, ast.Call):
                calls.add(node.func.id)
        return cls(text, tree, frozenset(names - calls), frozenset(calls - set(FUNCTIONS)), _operations(tree))

    @cached_property
    def run(self) -> Callable[[Mapping[str, object]], object]:
        """The expression as a function of a scope, compiled on its first evaluation (``_compiled``)."""
        return _compiled(self.tree)

    def __getstate__(self) -> dict:
        return {name: value for name, value in self.__dict__.items() if name != "run"}  # a function does not pickle

    def evaluate(self, scope: Mapping[str, object]):
        held = _budget.get()
        if held is None:  # an evaluation outside any check's budget: its own
            with budget():
                return self.evaluate(scope)
        held.calls_deep += 1
        try:
            return self._evaluate(scope, held)
        finally:
            held.calls_deep -= 1

    def _evaluate(self, scope: Mapping[str, object], held: Budget):
        if held.calls_deep > MAX_CALLS_DEEP:
            raise FormulaError("the formulas call each other without end")
        held.spend(self.steps)
        try:
            return _normal(self.run(scope))
        except FormulaError:
            raise
        except MemoryError:
            raise FormulaTooLarge(f"`{_short(self.text)}` ran out of memory") from None
        except RecursionError as error:
            raise _recursion(error) from None
        except ZeroDivisionError:
            raise FormulaDividesByZero(f"`{self.text}` divides by zero") from None
        except NotGivenError as error:
            raise FormulaError(str(error)) from None  # it says what is not given, and how to test for it
        except UnitMismatch as error:
            raise FormulaUnitMismatch(f"`{self.text}` mixes measures: {error}") from None
        except (TypeError, ValueError, ArithmeticError, LookupError) as error:
            raise FormulaError(f"`{self.text}` failed: {error}") from None


def _operations(tree: ast.AST) -> int:
    return sum(1 for node in ast.walk(tree) if isinstance(node, ast.expr))


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def _recursion(error: RecursionError) -> FormulaError:
    """What ran out of Python's stack: icepool building one roll (a roll too large to compute), or else formulas
    or the functions they call calling each other."""
    in_icepool, formulas, frames = False, 0, error.__traceback__
    while frames is not None:
        code = frames.tb_frame.f_code
        in_icepool = in_icepool or frames.tb_frame.f_globals.get("__name__", "").startswith("icepool")
        formulas += code is Expression._evaluate.__code__
        frames = frames.tb_next
    if in_icepool and formulas <= 2:
        return FormulaTooLarge("a roll has too many outcomes to compute")
    return FormulaError("the formulas call each other without end")


def _literal_dice(text: str) -> tuple[str, list[int]]:
    """``text`` with its dice written as ``dice(n, sides)``, and for each of its characters (and its end) where the
    author wrote it (a die's call: where the die is written); dice beyond the caps are refused here, where they
    are written, rather than when they are rolled."""
    pieces, origin, at = [], [], 0
    for match in _DICE.finditer(text):
        count, sides = int(match[1] or 1), int(match[2])
        if sides > MAX_SIDES:
            raise FormulaTooLarge(f"`{match[0]}` has {sides:,} sides; the largest die is a D{MAX_SIDES}", match.start())
        if count > MAX_DICE or count * sides > MAX_DICE_SIDES:
            raise FormulaTooLarge(
                f"`{match[0]}` rolls {count * sides:,} dice × sides; the limit is {MAX_DICE_SIDES:,} "
                "(such as 2D1000 or 20D100)",
                match.start(),
            )
        call = f"dice({match[1] or 1}, {match[2]})"
        pieces += [text[at : match.start()], call]
        origin += [*range(at, match.start()), *[match.start()] * len(call)]
        at = match.end()
    pieces.append(text[at:])
    origin += range(at, len(text) + 1)
    return "".join(pieces), origin


class _Written:
    """Where in the author's text a place Python names in the source it parsed lies: Python counts lines of the
    stripped source, a node's columns in UTF-8 bytes and a syntax error's in characters, after dice were rewritten."""

    def __init__(self, source: str, origin: list[int]):
        self.origin = origin
        self.lead = len(source) - len(source.lstrip())
        self.lines = source.strip().split("\n")

    def at(self, line: int, column: int) -> int:
        offset = self.lead + sum(len(text) + 1 for text in self.lines[: line - 1]) + column
        return self.origin[min(offset, len(self.origin) - 1)]  # never past the text's end, whatever Python says

    def of(self, node: ast.AST) -> int:
        line = self.lines[node.lineno - 1]
        return self.at(node.lineno, len(line.encode()[: node.col_offset].decode(errors="ignore")))


def _depth(tree: ast.AST) -> int:
    """How many operations deep the tree nests (a lone number: 0), counted without recursion: the tree
    may be deeper than Python's stack."""
    deepest, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _allow(node: ast.AST) -> None:
    """Refuse ``node`` when the language has no such thing (``parse`` says where it is written)."""
    if isinstance(node, ast.BinOp) and type(node.op) not in _BINARY:
        raise FormulaError(
            f"`{_OPERATOR_WORDS.get(type(node.op), type(node.op).__name__)}` is not allowed in a formula"
        )
    if isinstance(node, ast.Compare) and any(type(op) not in (*_COMPARE, ast.In, ast.NotIn) for op in node.ops):
        raise FormulaError("compare with == != < <= > >= or `in`")
    if isinstance(node, ast.Constant):
        if (
            node.value is not None
            and not isinstance(node.value, (int, str))
            or (isinstance(node.value, int) and abs(node.value) > MAX_NUMBER)
        ):
            raise FormulaError(f"`{node.value!r}` is not a whole number up to {MAX_NUMBER:,} or a text")
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise FormulaError("only functions, formulas and tables can be called, by name")
        if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
            raise FormulaError("write arguments one by one")
    allowed = (
        ast.Expression,
        ast.BinOp,
        ast.UnaryOp,
        ast.BoolOp,
        ast.Compare,
        ast.IfExp,
        ast.Call,
        ast.Name,
        ast.Constant,
        ast.Tuple,
        ast.List,
        ast.Load,
        ast.keyword,
        ast.operator,
        ast.unaryop,
        ast.boolop,
        ast.cmpop,
    )
    if not isinstance(node, allowed):
        raise FormulaError(
            f"`{ast.unparse(node) if isinstance(node, ast.expr) else type(node).__name__}` is not allowed "
            "in a formula (no attributes, subscripts, lambdas or comprehensions)",
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        raise FormulaError("`~` is not allowed in a formula")


def _checked(value):
    """``value``, refused when it is beyond a cap: a number (or a roll's outcome) past ``MAX_NUMBER``, a fraction
    of more than ``MAX_BITS``, a text or list longer than ``MAX_TEXT``."""
    if _is_roll(value):
        spend(len(value))
        for outcome in value.outcomes():
            _checked_one(outcome)
    else:
        _checked_one(value)
    return value


def _checked_one(value) -> None:
    kind = type(value)
    if kind is Distance:
        value, kind = value.magnitude, type(value.magnitude)
    if kind is int or kind is Fraction:
        if abs(value) > MAX_NUMBER:
            raise FormulaTooLarge(f"a result passed {MAX_NUMBER:,}, the largest number a formula may reach")
        if kind is Fraction and value.denominator.bit_length() > MAX_BITS:
            raise FormulaTooLarge(
                f"a result is a fraction of more than {MAX_BITS:,} bits, the most a formula may compute with"
            )
    elif (kind is str or kind is tuple) and len(value) > MAX_TEXT:
        raise FormulaTooLarge(f"a result is a text or list of {len(value):,} items; the limit is {MAX_TEXT:,}")


def _outcomes_of(value) -> tuple:
    return tuple(value.outcomes()) if _is_roll(value) else (value,)


def _longest(value) -> int:
    """The longest text or list ``value`` is or may roll (0: none)."""
    return max((len(v) for v in _outcomes_of(value) if isinstance(v, (str, tuple))), default=0)


def _largest(value) -> int:
    """The largest whole number ``value`` is or may roll, as a repeat count (0: none)."""
    return max((abs(v) for v in _outcomes_of(value) if isinstance(v, int)), default=0)


def _refuse_before(function, left, right) -> None:
    """Refuse, before it is made, what would be too large to hold: a roll of two rolls' outcome pairs past
    ``MAX_PAIRS``, a text repeated past ``MAX_TEXT``, or text formatting with ``%`` (which can pad to any width)."""
    if _is_roll(left) and _is_roll(right) and len(left) * len(right) > MAX_PAIRS:
        raise FormulaTooLarge(
            f"combining a roll of {len(left):,} outcomes with one of {len(right):,} makes "
            f"{len(left) * len(right):,} pairs; the limit is {MAX_PAIRS:,}"
        )
    if function is operator.mod and _longest(left):
        raise FormulaError("`%` takes numbers, not a text or a list")
    if function is operator.mul:
        repeated = max(_longest(left) * _largest(right), _longest(right) * _largest(left))
        if repeated > MAX_TEXT:
            raise FormulaTooLarge(f"a text or list repeated to {repeated:,} items; the limit is {MAX_TEXT:,}")


def _normal(value):
    if isinstance(value, Fraction):
        return exact(value)
    return value


def _paid(steps: int, function, *args):
    spend(steps)
    return function(*args)


def _operation(function, left, right):
    """``function(left, right)``; with a die on either side, the die it made before for the same operands."""
    if _is_roll(left) or _is_roll(right):
        _refuse_before(function, left, right)
        return _remembered_roll(
            function, (left, right), lambda: _paid(_size(left) * _size(right), function, left, right)
        )
    if type(left) in (str, tuple) or type(right) in (str, tuple):
        _refuse_before(function, left, right)
    return function(left, right)


def _fraction(value) -> Fraction:
    """A number as an exact fraction; a text is refused, not read (``Fraction('1e999999999')`` never ends)."""
    if isinstance(value, str):
        raise FormulaError(f"{_show(value)} is not a number")
    return Fraction(value)


def _exactly(value):
    """``value`` with a roll's outcomes as fractions, so that dividing it never gives a float."""
    return value.map(_exact_outcome) if _is_roll(value) else _exact_outcome(value)


def _exact_outcome(value):
    return value if isinstance(value, Distance) else _fraction(value)


def _exact_quotient(left, right):
    return _exactly(left) / _exactly(right)


def _divide(left, right):
    """``left / right`` exactly: numbers as fractions, and a roll outcome by outcome, as fractions too."""
    if _is_roll(left) or _is_roll(right):
        return _operation(_exact_quotient, left, right)
    if isinstance(left, (Distance, Alternatives)) or isinstance(right, (Distance, Alternatives)):
        return left / right  # exact, in its unit; two measures, or alternatives, refuse it there
    return _fraction(left) / _fraction(right)


def _eval(node: ast.expr, scope: Mapping[str, object]):
    """What ``node`` comes to in ``scope``: a part of an expression evaluated alone (an expression's own compiled
    function is kept with it, ``Expression.run``)."""
    return _compiled(node)(scope)


# An expression is evaluated once for every combination of inputs `check` tries: each node becomes a function of the
# scope once, with its kind, operator and children decided then, not looked up again on every evaluation. A node is
# compiled in one frame of Python's stack, as it is evaluated in one (`_COMPILERS[type(child)](child)`, not through
# a helper), so that an expression nested as deep as MAX_DEPTH allows compiles and runs far inside the recursion limit.
def _compiled(node: ast.expr) -> Callable[[Mapping[str, object]], object]:
    return _COMPILERS[type(node)](node)


def _constant(node: ast.Constant):
    value = node.value
    return lambda scope: value


def _name(node: ast.Name):
    name = node.id
    if name in CONSTANTS:
        value = CONSTANTS[name]
        return lambda scope: value

    def read(scope):
        if name not in scope:
            raise FormulaError(f"`{name}` is not an input, a value or a `let` name here")
        return scope[name]

    return read


def _sequence(node: ast.Tuple | ast.List):
    items = [_COMPILERS[type(item)](item) for item in node.elts]
    return lambda scope: tuple(item(scope) for item in items)


def _unary(node: ast.UnaryOp):
    operand = _COMPILERS[type(node.operand)](node.operand)
    if isinstance(node.op, ast.Not):

        def not_(scope):
            value = operand(scope)
            return _joint(operator.not_, [value]) if _is_roll(value) else not value

        return not_
    if isinstance(node.op, ast.USub):
        return lambda scope: -operand(scope)
    return lambda scope: +operand(scope)


def _boolean(node: ast.BoolOp):
    stops = operator.not_ if isinstance(node.op, ast.And) else bool  # `and` stops at a false, `or` at a true
    first, rest = (
        _COMPILERS[type(node.values[0])](node.values[0]),
        [_COMPILERS[type(item)](item) for item in node.values[1:]],
    )

    def boolean(scope):
        result = first(scope)
        for item in rest:
            if _is_roll(result):  # a roll has no one truth to stop at: each outcome goes its own way
                result = _joint(lambda held, then: held if stops(held) else then, [result, item(scope)])
            elif stops(result):
                return result
            else:
                result = item(scope)
        return result

    return boolean


def _choice(node: ast.IfExp):
    test, body, orelse = (
        _COMPILERS[type(node.test)](node.test),
        _COMPILERS[type(node.body)](node.body),
        _COMPILERS[type(node.orelse)](node.orelse),
    )

    def choice(scope):
        held = test(scope)
        if _is_roll(held):
            return where(held, body(scope), orelse(scope))
        return body(scope) if held else orelse(scope)

    return choice


def _binary(node: ast.BinOp):
    left, right = _COMPILERS[type(node.left)](node.left), _COMPILERS[type(node.right)](node.right)
    if isinstance(node.op, ast.Div):
        return lambda scope: _checked(_divide(left(scope), right(scope)))
    function = _BINARY[type(node.op)]
    return lambda scope: _checked(_operation(function, left(scope), right(scope)))


def _comparison(node: ast.Compare):
    first, ops, comparators = (
        _COMPILERS[type(node.left)](node.left),
        node.ops,
        [_COMPILERS[type(c)](c) for c in node.comparators],
    )

    def compare(scope):
        left = first(scope)
        for at, (op, comparator) in enumerate(zip(ops, comparators)):
            right = comparator(scope)
            if _is_roll(left) or _is_roll(right) or _holds_roll(right):
                return _rolled_chain(ops[at:], [left, right, *(later(scope) for later in comparators[at + 1 :])])
            if not _compared(op, left, right):
                return False
            left = right
        return True

    return compare


def _call(node: ast.Call):
    name = node.func.id
    args = [_COMPILERS[type(a)](a) for a in node.args]
    keywords = [(k.arg, _COMPILERS[type(k.value)](k.value)) for k in node.keywords]

    def call(scope):
        function = FUNCTIONS.get(name) or scope.get(name)
        if not callable(function):
            raise FormulaError(f"`{name}` is not a function, a formula or a table")
        result = function(*[a(scope) for a in args], **{key: value(scope) for key, value in keywords})
        if isinstance(result, Results):
            first = next(iter(result), "")
            raise FormulaError(
                f"`{name}` gives several results ({', '.join(result)}); name the one wanted: "
                f'`{name}(..., result="{first}")`'
            )
        return _checked(result)

    return call


_COMPILERS = {
    ast.Constant: _constant,
    ast.Name: _name,
    ast.Tuple: _sequence,
    ast.List: _sequence,
    ast.UnaryOp: _unary,
    ast.BoolOp: _boolean,
    ast.IfExp: _choice,
    ast.BinOp: _binary,
    ast.Compare: _comparison,
    ast.Call: _call,
}


def _compared(op: ast.cmpop, left, right) -> bool:
    """One comparison of a chain, of plain values: ``in`` looks in a tuple (or at one value)."""
    if isinstance(op, (ast.In, ast.NotIn)):
        held = left in (right if isinstance(right, tuple) else (right,))
        return held if isinstance(op, ast.In) else not held
    return _COMPARE[type(op)](left, right)


def _holds_roll(value) -> bool:
    return type(value) is tuple and any(_is_roll(item) for item in value)


def _rolled_chain(ops: list, values: list):
    """A chain of comparisons from where a roll is compared (``ops`` from there, ``values`` their operands, each
    evaluated once, as Python evaluates a chain once it is past its plain start): a roll of whether every
    comparison holds, each operand read once (``2 <= D6 <= 4`` compares one roll twice)."""
    if any(_holds_roll(value) for value in values):
        raise FormulaError("`in` looks among values, not rolls: compare the roll itself (`D6 in (1, 2)`)")
    if len(ops) == 1 and type(ops[0]) in _COMPARE:  # one roll against one value: icepool's own, remembered
        return _operation(_COMPARE[type(ops[0])], *values)
    return _joint(lambda *plain: all(_compared(op, a, b) for op, a, b in zip(ops, plain, plain[1:])), values)


def _joint(function, values: list) -> icepool.Die:
    """``function`` of ``values`` where each roll among them is one of its outcomes, over every combination of
    those (each roll rolled once, wherever it stands): the roll of what ``function`` gives."""
    rolls = [index for index, value in enumerate(values) if _is_roll(value)]
    combinations = math.prod(len(values[index]) for index in rolls)
    if combinations > MAX_PAIRS:
        raise FormulaTooLarge(f"comparing these rolls takes {combinations:,} combinations; the limit is {MAX_PAIRS:,}")
    spend(combinations)

    def at(*outcomes):
        given = list(values)
        for index, outcome in zip(rolls, outcomes):
            given[index] = outcome
        return function(*given)

    return icepool.map(at, *(values[index] for index in rolls))


# -- why a result is what it is ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    """A test an expression decided on its way to its value (``a > b`` of ``x if a > b else y``), and how."""

    test: ast.expr
    held: bool


@dataclass(frozen=True)
class Path:
    """The way one evaluation went: the tests decided, in order, and the names it read on the way (first read
    first); a test of a roll is no decision (both ways are taken, each with its chance)."""

    decisions: tuple[Decision, ...]
    names: tuple[str, ...]
    calls: tuple[ast.Call, ...] = ()  # the calls made on the way, in order (a formula's: to follow it too)


def path_of(expression: Expression, scope: Mapping[str, object]) -> Path:
    """How ``expression`` reaches its value in ``scope``: only the branches taken are followed."""
    decisions: list[Decision] = []
    names: dict[str, None] = {}
    calls: list[ast.Call] = []
    with budget():
        _follow(expression.tree, scope, decisions, names, calls)
    return Path(tuple(decisions), tuple(names), tuple(calls))


def value_in(node: ast.expr, scope: Mapping[str, object]):
    """What a part of an expression comes to in ``scope`` (to say a test's numbers)."""
    with budget():
        return _normal(_eval(node, scope))


def _follow(node: ast.expr, scope: Mapping[str, object], decisions: list, names: dict, calls: list) -> None:
    if isinstance(node, ast.IfExp):
        test = _eval(node.test, scope)
        _follow(node.test, scope, [], names, calls)
        if _is_roll(test):
            _follow(node.body, scope, decisions, names, calls)
            _follow(node.orelse, scope, decisions, names, calls)
            return
        decisions.append(Decision(node.test, bool(test)))
        _follow(node.body if test else node.orelse, scope, decisions, names, calls)
        return
    if isinstance(node, ast.Name) and node.id not in CONSTANTS:
        names.setdefault(node.id)
        return
    if isinstance(node, ast.Call):
        names.setdefault(node.func.id)
        calls.append(node)
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            _follow(child, scope, decisions, names, calls)
