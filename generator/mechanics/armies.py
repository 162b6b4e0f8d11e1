"""Army building: points and models of each line, the counts limits speak of, and the limits themselves.

Limits are data (``army_limits:``) written as small arithmetic over named counts,
e.g. ``minor_heroes + major_heroes`` at most ``units // 2``, or ``archers`` at least
``units / 3``. They are parsed with :mod:`ast` and evaluated exactly: whole
numbers, ``//`` rounding down and ``/`` giving an exact Fraction; no names but the
counts, no calls. Points may be fractions (``1½``); they are never floats.
"""

from __future__ import annotations

import ast
import operator
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from ..model import reads
from ..model.base import NotGiven
from ..model.entries import ArmyLimit, ArmyList, ArmyUnit, ProfileMatrix
from ..model.points import Number, exact
from ..model.ruleset import ROW_SECTION, Ruleset

__all__ = [
    "line_cost",
    "line_models",
    "army_points",
    "army_models",
    "army_counts",
    "check_limits",
    "broken_limits",
    "army_matrix",
    "by_head_count",
    "balances_by_points",
    "force_line",
    "force",
]


def _divide(left: Number, right: Number) -> Number:
    return exact(Fraction(left) / Fraction(right))


_OPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: _divide,
}

BASE_COUNTS = {
    "units": "units in the force",
    "models": "models in the force",
    "troop_points": "points spent on troop types alone",
    "points": "points spent in all",
    "agreed_points": "the agreed points",
    "heroes": "heroes of any level",
}
# counts a ruleset balanced by head-count does not have; the game's size is no count another line raises
POINTS_COUNTS = ("troop_points", "points", "agreed_points")
UNITS = "units"  # what a profile row counts as unless it says (`counts_as:`)


class LimitExpressionError(ValueError):
    pass


class LimitTooLarge(LimitExpressionError):
    """A limit expression longer, or with a number larger, than any army limit needs."""


MAX_LIMIT_LENGTH = 300  # characters in one limit expression; the longest a ruleset needs is under 60
MAX_LIMIT_NUMBER = 10**9


def parse_limit(text: str, names: set[str]) -> ast.expr:
    """Parse a limit expression, allowing only whole numbers, known names and + - * / //."""
    text = str(text)
    if len(text) > MAX_LIMIT_LENGTH:
        raise LimitTooLarge(f"the limit expression is {len(text):,} characters long; the limit is {MAX_LIMIT_LENGTH}")
    if re.search(r"[0-9]{11,}", text):  # refused before Python reads a number of any length
        raise LimitTooLarge(
            f"a number in `{text[:40]}` is larger than {MAX_LIMIT_NUMBER:,}, the largest number a rule may state"
        )
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as error:
        raise LimitExpressionError(f"`{text}` is not an arithmetic expression") from error
    except (ValueError, RecursionError, MemoryError):
        raise LimitTooLarge(f"`{text[:40]}` is nested too deeply") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id not in names:
                unknown = LimitExpressionError(f"`{node.id}` is not a count an army limit can use")
                unknown.name = node.id
                raise unknown
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, int) or isinstance(node.value, bool):
                raise LimitExpressionError(f"`{node.value!r}` is not a whole number")
            if abs(node.value) > MAX_LIMIT_NUMBER:
                raise LimitTooLarge(
                    f"a number in `{text[:40]}` is larger than {MAX_LIMIT_NUMBER:,}, the largest number a rule may "
                    f"state"
                )
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _OPS:
                raise LimitExpressionError("only + - * / and // are allowed")
        elif not isinstance(node, (ast.Load, ast.operator)):
            raise LimitExpressionError(f"`{ast.unparse(node)}` is not allowed in an army limit")
    return tree


def evaluate(tree: ast.expr, counts: dict[str, Number]) -> Number:
    """The expression's exact value: an int, or a Fraction when ``/`` (or a fractional count) leaves one."""
    if isinstance(tree, ast.Constant):
        return tree.value
    if isinstance(tree, ast.Name):
        return counts[tree.id]
    return exact(_OPS[type(tree.op)](evaluate(tree.left, counts), evaluate(tree.right, counts)))


# -- hero levels: declared by the ruleset, or those its heroes use -----------------------------------
def hero_levels(ruleset: Ruleset) -> tuple[str, ...]:
    """The ruleset's hero levels: those its ``ruleset:`` declares, else those its heroes use, in order."""
    return ruleset.meta.hero_levels or tuple(dict.fromkeys(hero.level for hero in ruleset.heroes if hero.level))


def _level_name(level: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", level.casefold()).strip("_")


def level_counts(level: str) -> tuple[str, str]:
    """The two counts a hero level gives limits: ``<level>_heroes`` and ``most_of_one_<level>_hero``."""
    name = _level_name(level)
    return f"{name}_heroes", f"most_of_one_{name}_hero"


# -- points or head-count: what balances the ruleset's armies ----------------------------------------
def balances_by_points(ruleset: Ruleset) -> bool:
    """Whether anything in the ruleset costs points: a profile matrix with a `points` column, an army stating
    points, a cost, a hero or an item with points. A ruleset with none is balanced by head-count (or has no
    armies at all), and no output prints points."""
    return (
        any(points_column(m) for m in ruleset.profiles)
        or bool(ruleset.costs)
        or any(
            a.agreed_points is not None or a.total is not None or any(u.points is not None for u in a.units)
            for a in ruleset.armies
        )
        or any(e.points is not None for e in (*ruleset.heroes, *ruleset.items))
    )


def by_head_count(army: ArmyList) -> bool:
    """An army balanced by head-count alone: it agrees models and states no points; its outputs print no points."""
    return (
        army.agreed_models is not None
        and army.agreed_points is None
        and army.total is None
        and not army.extras
        and all(unit.points is None and not unit.upgrades for unit in army.units)
    )


def row_counts(ruleset: Ruleset) -> dict[str, str]:
    """The ruleset's own counts its profile rows declare (`counts_as: guns`), each with the rows counted in it."""
    found: dict[str, list[str]] = {}
    for matrix in ruleset.profiles:
        for row in matrix.rows:
            if row.counts_as != UNITS:
                found.setdefault(row.counts_as, []).append(row.name)
    return {name: f"{name.replace('_', ' ')} in the force ({', '.join(rows)})" for name, rows in found.items()}


def count_descriptions(ruleset: Ruleset) -> dict[str, str]:
    """The named counts every army of this ruleset has (beyond cost, hero and troop ids), in words."""
    described = dict(BASE_COUNTS)
    if not balances_by_points(ruleset):
        for name in POINTS_COUNTS:
            del described[name]
    kinds = row_counts(ruleset)
    described.update(kinds)
    if balances_by_points(ruleset):  # war machines at most a third of the points: `war_machines_points`
        described.update(
            {kind_points(kind): f"points spent on {kind.replace('_', ' ')} (their lines)" for kind in kinds}
        )
    for level in hero_levels(ruleset):
        heroes, most = level_counts(level)
        described[heroes] = f"{level} level heroes"
        described[most] = f"the most {level} level heroes of any one type"
    return described


def kind_points(kind: str) -> str:
    """The count of the points spent on the lines whose troop counts as ``kind`` (`counts_as: guns`)."""
    return f"{kind}_points"


def count_names(ruleset: Ruleset) -> set[str]:
    """Every name a limit of this ruleset may use."""
    names = set(count_descriptions(ruleset))
    names.update(cost.id for cost in ruleset.costs)
    names.update(hero.id for hero in ruleset.heroes)
    names.update(id for section, id in ruleset.unloaded if section in ("costs", "heroes"))  # reported already
    names.update(id.partition(".")[2] for section, id in ruleset.unloaded if section == ROW_SECTION)  # likewise
    for matrix in ruleset.profiles:
        names.update(row.id for row in matrix.rows)
    return names


def points_column(matrix: ProfileMatrix):
    return next((c for c in matrix.columns if c.type == "points"), None)


def models_column(matrix: ProfileMatrix):
    return next((c for c in matrix.columns if c.type == "models"), None)


def army_matrices(ruleset: Ruleset) -> tuple[ProfileMatrix, ...]:
    """The matrices armies may be chosen from: those with a `points` column, else those with a `models` column."""
    return tuple(m for m in ruleset.profiles if points_column(m)) or tuple(
        m for m in ruleset.profiles if models_column(m)
    )


def army_matrix(ruleset: Ruleset, matrix: str = "") -> ProfileMatrix:
    """The profile matrix armies are chosen from: ``matrix`` if named, else the ruleset's one
    matrix with a `points` column (or, without any, its one matrix with a `models` column)."""
    if matrix:
        return ruleset.profile(matrix)
    found = army_matrices(ruleset)
    if len(found) != 1:
        which = f"{len(found)} ({', '.join(m.id for m in found)})" if found else "no"
        raise LookupError(
            f"{ruleset.id} has {which} profile matrices with a points or models column: name one with matrix="
        )
    return found[0]


@dataclass(frozen=True)
class LineCost:
    unit: ArmyUnit
    troop_points: Number | NotGiven
    upgrade_points: Number
    hero_points: Number

    @property
    def each(self) -> Number | NotGiven:
        if isinstance(self.troop_points, NotGiven):
            return self.troop_points
        return exact(self.troop_points + self.upgrade_points + self.hero_points)

    @property
    def total(self) -> Number | NotGiven:
        each = self.each
        return each if isinstance(each, NotGiven) else exact(each * self.unit.count)


def _points(entry) -> Number:
    return 0 if entry.points is None or isinstance(entry.points, NotGiven) else entry.points


def _sum(values) -> Number:
    return exact(sum(values, Fraction(0)))


def line_cost(ruleset: Ruleset, army: ArmyList, unit: ArmyUnit) -> LineCost:
    """What one line of the list costs: its troop, upgrade and hero points, ``.each`` unit and ``.total``."""
    matrix = army_matrix(ruleset, army.matrix)
    column = points_column(matrix)
    troop = ruleset.cell(matrix, matrix.row(unit.troop), column.id) if column else NotGiven()
    upgrades = _sum(_points(ruleset.get("costs", c)) for c in unit.upgrades)
    heroes = _sum(_points(ruleset.get("heroes", h)) for h in unit.heroes)
    return LineCost(unit, troop, upgrades, heroes)


def army_points(ruleset: Ruleset, army: ArmyList) -> Number:
    """The list's total: every line, and what is bought for the whole force."""
    lines = [line_cost(ruleset, army, unit).total for unit in army.units]
    extras = [_points(ruleset.get("costs", c)) for c in army.extras]
    return _sum([t for t in lines if not isinstance(t, NotGiven)] + extras)


def matrix_models(ruleset: Ruleset, army: ArmyList, unit: ArmyUnit) -> int | NotGiven | None:
    """The line's models as its matrix gives them (``count`` times the `models` column), NotGiven where
    the column says `not given`, None when the matrix has no `models` column."""
    matrix = army_matrix(ruleset, army.matrix)
    column = models_column(matrix)
    if column is None:
        return None
    each = ruleset.cell(matrix, matrix.row(unit.troop), column.id)
    return each if isinstance(each, NotGiven) else each * unit.count


def line_models(ruleset: Ruleset, army: ArmyList, unit: ArmyUnit) -> int | NotGiven:
    """How many models (figures) the line fields: from the matrix's `models` column, else as the
    line states (`models:`); NotGiven when neither says."""
    from_matrix = matrix_models(ruleset, army, unit)
    if isinstance(from_matrix, int):
        return from_matrix
    return unit.models if unit.models is not None else NotGiven()


def army_models(ruleset: Ruleset, army: ArmyList) -> int:
    """The list's head-count: the models of every line whose models are known."""
    return sum(m for unit in army.units if not isinstance(m := line_models(ruleset, army, unit), NotGiven))


def army_counts(ruleset: Ruleset, army: ArmyList) -> dict[str, Number]:
    """Every count the ruleset's army limits may name, for this list: ``units``, ``points``, each troop, hero and
    cost..."""
    counts = Counter({name: 0 for name in count_names(ruleset)})
    level_types: dict[str, Counter] = {level: Counter() for level in hero_levels(ruleset)}
    troop_points: list[Number] = []
    matrix = army_matrix(ruleset, army.matrix)
    by_points = balances_by_points(ruleset)
    for unit in army.units:
        cost = line_cost(ruleset, army, unit)
        kind = matrix.row(unit.troop).counts_as
        counts[kind] += unit.count  # `units`, unless the row counts as the ruleset's own
        counts[unit.troop] += unit.count
        if not isinstance(cost.troop_points, NotGiven):
            troop_points.append(cost.troop_points * unit.count)
            if kind != UNITS and by_points:
                counts[kind_points(kind)] = exact(counts[kind_points(kind)] + cost.total)
        for upgrade in unit.upgrades:
            counts[upgrade] += unit.count
        for hero_id in unit.heroes:
            hero = ruleset.get("heroes", hero_id)
            counts[hero_id] += unit.count
            counts["heroes"] += unit.count
            level_types.setdefault(hero.level, Counter())[hero_id] += unit.count
    for level, types in level_types.items():
        heroes, most = level_counts(level)
        counts[heroes] = sum(types.values())
        counts[most] = max(types.values(), default=0)
    for extra in army.extras:
        counts[extra] += 1
    if by_points:
        counts["troop_points"] = _sum(troop_points)
        counts["points"] = army_points(ruleset, army)
        agreed = army.agreed_points
        counts["agreed_points"] = agreed if agreed is not None and not isinstance(agreed, NotGiven) else 0
    counts["models"] = army_models(ruleset, army)
    return dict(counts)


@dataclass(frozen=True)
class LimitResult:
    """A limit applied to one army: what it counts, and the bounds its expressions give (None: no such bound)."""

    limit: ArmyLimit
    count: Number
    at_most: Number | None
    at_least: Number | None = None

    @property
    def allowed(self) -> Number | None:
        """The most allowed (the upper bound), as before limits had lower bounds."""
        return self.at_most

    @property
    def too_many(self) -> bool:
        return self.at_most is not None and self.count > self.at_most

    @property
    def too_few(self) -> bool:
        return self.at_least is not None and self.count < self.at_least

    @property
    def holds(self) -> bool:
        return not (self.too_many or self.too_few)

    def __repr__(self) -> str:
        """``<some_limit: 1, at most 0>``: the limit's id, what it counts and the bounds it gives, as examples show
        it."""
        bounds = [
            f"{words} {number}"
            for words, number in (("at least", self.at_least), ("at most", self.at_most))
            if number is not None
        ]
        return f"<{self.limit.id}: {self.count}, {' and '.join(bounds)}>"


def limit_bounds(limit: ArmyLimit) -> tuple[tuple[str, str], ...]:
    """The limit's bounds as written: ("at least", expression) and/or ("at most", expression)."""
    return tuple(
        (words, text) for words, text in (("at least", limit.at_least), ("at most", limit.at_most)) if str(text).strip()
    )


def check_limits(ruleset: Ruleset, army: ArmyList) -> list[LimitResult]:
    """Every army limit of the ruleset applied to the list: what each counts and the bounds it gives."""
    counts = army_counts(ruleset, army)
    return [apply_limit(ruleset, limit, counts) for limit in ruleset.army_limits]


def apply_limit(ruleset: Ruleset, limit, counts: dict) -> LimitResult:
    """One army limit applied to a list's ``counts`` (``army_counts``): what it counts and the bounds it gives.
    Raises ZeroDivisionError where one of its expressions divides by a count that is 0 in this list."""
    names = count_names(ruleset)
    reads.entry(limit)

    def bound(text: str) -> Number | None:
        return evaluate(parse_limit(text, names), counts) if str(text).strip() else None

    return LimitResult(
        limit, evaluate(parse_limit(limit.count, names), counts), bound(limit.at_most), bound(limit.at_least)
    )


def growing_counts(ruleset: Ruleset) -> set[str]:
    """The counts that another line or extra can only raise: all but those of points (a row or a cost may cost less
    than nothing where its column allows it)."""
    spent = {*POINTS_COUNTS, *(kind_points(kind) for kind in row_counts(ruleset))}
    return count_names(ruleset) - spent


def only_grows(tree: ast.expr, growing: set[str]) -> bool:
    """Whether the expression can only rise as the counts in ``growing`` rise: sums and products of those and of
    whole numbers, divided by whole numbers above 0."""
    if isinstance(tree, ast.Constant):
        return tree.value >= 0
    if isinstance(tree, ast.Name):
        return tree.id in growing
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, (ast.Add, ast.Mult)):
        return only_grows(tree.left, growing) and only_grows(tree.right, growing)
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, (ast.Div, ast.FloorDiv)):
        return only_grows(tree.left, growing) and isinstance(tree.right, ast.Constant) and tree.right.value > 0
    return False


def fixed(tree: ast.expr) -> bool:
    """Whether the expression names no count: the same for every list."""
    return not any(isinstance(node, ast.Name) for node in ast.walk(tree))


def broken_limits(ruleset: Ruleset, army: ArmyList) -> list[LimitResult]:
    """The army limits the list breaks, each with its count and bounds: ``[<some_limit: 4, at most 3>]``."""
    return [result for result in check_limits(ruleset, army) if not result.holds]


# -- a force for worked examples and tests -------------------------------------------------------------
def force_line(
    troop: str,
    count: int = 1,
    heroes: tuple[str, ...] = (),
    upgrades: tuple[str, ...] = (),
    spells: tuple[str, ...] = (),
    models: int | None = None,
) -> ArmyUnit:
    """A line of a force: ``count`` units of a troop type, each with the same heroes, upgrades and spells."""
    return ArmyUnit(
        troop=troop, count=count, heroes=tuple(heroes), upgrades=tuple(upgrades), spells=tuple(spells), models=models
    )


def force(
    *lines: ArmyUnit,
    ruleset: Ruleset | None = None,
    matrix: str = "",
    agreed_points: Number | None = None,
    agreed_models: int | None = None,
    extras: tuple[str, ...] = (),
    title: str = "A force",
) -> ArmyList:
    """A force chosen from a ruleset's army matrix (:func:`army_matrix`), or from ``matrix``.

    With ``ruleset=`` the matrix is found (and the troops checked) now; without, a force
    with no ``matrix`` uses the army matrix of whichever ruleset it is costed with.
    """
    if ruleset is not None:
        chosen = army_matrix(ruleset, matrix)
        for line in lines:
            chosen.row(line.troop)  # KeyError for a troop the matrix does not have
        matrix = chosen.id
    return ArmyList(
        title=title,
        matrix=matrix,
        agreed_points=agreed_points,
        agreed_models=agreed_models,
        units=tuple(lines),
        extras=tuple(extras),
    )
