"""Army building: points of each line, the counts limits speak of, and the limits themselves.

Limits are data (``army_limits:``) written as small arithmetic over named counts,
e.g. ``low_heroes + high_heroes`` at most ``units // 2``. They are parsed with
:mod:`ast` and evaluated over integers only: no names but the counts, no calls.
"""

from __future__ import annotations

import ast
import operator
from collections import Counter
from dataclasses import dataclass

from ..model.base import NotGiven
from ..model.entries import ArmyLimit, ArmyList, ArmyUnit, ProfileMatrix
from ..model.ruleset import Ruleset

__all__ = ["line_cost", "army_points", "army_counts", "check_limits"]

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}

BASE_COUNTS = {
    "units": "units in the force",
    "troop_points": "points spent on troop types alone",
    "points": "points spent in all",
    "heroes": "heroes of any level",
    "low_heroes": "low level heroes",
    "high_heroes": "high level heroes",
    "most_of_one_high_hero": "the most high level heroes of any one type",
}


class LimitExpressionError(ValueError):
    pass


def parse_limit(text: str, names: set[str]) -> ast.expr:
    """Parse a limit expression, allowing only whole numbers, known names and + - * //."""
    try:
        tree = ast.parse(str(text), mode="eval").body
    except SyntaxError as error:
        raise LimitExpressionError(f"`{text}` is not an arithmetic expression") from error
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise LimitExpressionError(f"`{node.id}` is not a count an army limit can use")
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, int) or isinstance(node.value, bool):
                raise LimitExpressionError(f"`{node.value!r}` is not a whole number")
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _OPS:
                raise LimitExpressionError("only + - * and // are allowed")
        elif not isinstance(node, (ast.Load, ast.operator)):
            raise LimitExpressionError(f"`{ast.unparse(node)}` is not allowed in an army limit")
    return tree


def evaluate(tree: ast.expr, counts: dict[str, int]) -> int:
    if isinstance(tree, ast.Constant):
        return tree.value
    if isinstance(tree, ast.Name):
        return counts[tree.id]
    return _OPS[type(tree.op)](evaluate(tree.left, counts), evaluate(tree.right, counts))


def count_names(ruleset: Ruleset) -> set[str]:
    """Every name a limit of this ruleset may use."""
    names = set(BASE_COUNTS)
    names.update(cost.id for cost in ruleset.costs)
    names.update(hero.id for hero in ruleset.heroes)
    names.update(id for section, id in ruleset.unloaded if section in ("costs", "heroes"))  # reported already
    for matrix in ruleset.profiles:
        names.update(row.id for row in matrix.rows)
    return names


def points_column(matrix: ProfileMatrix):
    return next((c for c in matrix.columns if c.type == "points"), None)


@dataclass(frozen=True)
class LineCost:
    unit: ArmyUnit
    troop_points: int | NotGiven
    upgrade_points: int
    hero_points: int

    @property
    def each(self) -> int | NotGiven:
        if isinstance(self.troop_points, NotGiven):
            return self.troop_points
        return self.troop_points + self.upgrade_points + self.hero_points

    @property
    def total(self) -> int | NotGiven:
        each = self.each
        return each if isinstance(each, NotGiven) else each * self.unit.count


def _points(entry) -> int:
    return 0 if isinstance(entry.points, NotGiven) else entry.points


def line_cost(ruleset: Ruleset, army: ArmyList, unit: ArmyUnit) -> LineCost:
    matrix = ruleset.profile(army.matrix)
    column = points_column(matrix)
    troop = matrix.row(unit.troop).values[column.id] if column else NotGiven()
    upgrades = sum(_points(ruleset.get("costs", c)) for c in unit.upgrades)
    heroes = sum(_points(ruleset.get("heroes", h)) for h in unit.heroes)
    return LineCost(unit, troop, upgrades, heroes)


def army_points(ruleset: Ruleset, army: ArmyList) -> int:
    """The list's total: every line, and what is bought for the whole force."""
    lines = [line_cost(ruleset, army, unit).total for unit in army.units]
    extras = sum(_points(ruleset.get("costs", c)) for c in army.extras)
    return sum(t for t in lines if not isinstance(t, NotGiven)) + extras


def army_counts(ruleset: Ruleset, army: ArmyList) -> dict[str, int]:
    counts = Counter({name: 0 for name in count_names(ruleset)})
    high_types: Counter = Counter()
    for unit in army.units:
        cost = line_cost(ruleset, army, unit)
        counts["units"] += unit.count
        counts[unit.troop] += unit.count
        if not isinstance(cost.troop_points, NotGiven):
            counts["troop_points"] += cost.troop_points * unit.count
        for upgrade in unit.upgrades:
            counts[upgrade] += unit.count
        for hero_id in unit.heroes:
            hero = ruleset.get("heroes", hero_id)
            counts[hero_id] += unit.count
            counts["heroes"] += unit.count
            counts[f"{hero.level}_heroes"] += unit.count
            if hero.level == "high":
                high_types[hero_id] += unit.count
    for extra in army.extras:
        counts[extra] += 1
    counts["points"] = army_points(ruleset, army)
    counts["most_of_one_high_hero"] = max(high_types.values(), default=0)
    return dict(counts)


@dataclass(frozen=True)
class LimitResult:
    limit: ArmyLimit
    count: int
    allowed: int

    @property
    def holds(self) -> bool:
        return self.count <= self.allowed


def check_limits(ruleset: Ruleset, army: ArmyList) -> list[LimitResult]:
    names = count_names(ruleset)
    counts = army_counts(ruleset, army)
    return [
        LimitResult(limit, evaluate(parse_limit(limit.count, names), counts), evaluate(parse_limit(limit.at_most, names), counts))
        for limit in ruleset.army_limits
    ]
