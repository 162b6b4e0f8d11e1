"""The army builder's data: what a player may pick from a ruleset's army matrix, and its limits compiled to data.

The page (static/rulepress-army.js) adds up points and counts and checks every army limit as ``check`` does
(``mechanics.armies``): the counts are the same sums of the same picks, and each limit expression is handed over as
its syntax tree (``["//", ["count", "units"], ["number", "2"]]``), evaluated there with exact fractions. Numbers are
exact fractions written ``"7/2"``; ``None`` is a value the source does not give, which counts as nothing, as in
``check``. Nothing here knows HTML or any game.
"""

from __future__ import annotations

import ast
import typing
from fractions import Fraction

from ..mechanics import armies
from ..model.base import Bounds, NotGiven
from ..model.entries import ArmyUnit, ValueCell, visible_to
from ..model.quantity import MAX_MAGNITUDE
from ..model.ruleset import Ruleset
from .present import count_label, entry_title, limit_bounds_words, limit_words, minus_text, profile_text, shown
from .prose import value_text
from .tracks import tracks

_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//"}


def exact_text(value) -> str | None:
    """An exact number as the page reads it (``"7/2"``), or None for a value the source does not give."""
    if value is None or isinstance(value, NotGiven):
        return None
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def expression_tree(text: str, names: set[str]) -> list | None:
    """A limit expression as data: ``["number", "2"]``, ``["count", name]`` or ``[operator, left, right]``."""
    if not str(text).strip():
        return None
    return _tree(armies.parse_limit(text, names))


def _tree(node: ast.expr) -> list:
    if isinstance(node, ast.Constant):
        return ["number", str(node.value)]
    if isinstance(node, ast.Name):
        return ["count", node.id]
    return [_OPERATORS[type(node.op)], _tree(node.left), _tree(node.right)]


def has_builder(ruleset: Ruleset) -> bool:
    """Whether the ruleset has an army matrix to build from (one with a points or a models column)."""
    try:
        armies.army_matrix(ruleset)
    except LookupError:
        return False
    return True


def builder_data(ruleset: Ruleset, audience: str) -> dict:
    """Everything the builder page needs for one ruleset, as this audience may see it."""
    matrix = armies.army_matrix(ruleset)
    points = armies.points_column(matrix)
    models = armies.models_column(matrix)
    names = armies.count_names(ruleset)
    rows = [row for row in matrix.rows if visible_to(row, audience)]
    stat_columns = [c for c in matrix.columns if c is not points]
    return {
        "ruleset": ruleset.id,
        "title": ruleset.title,
        "matrix": {"id": matrix.id, "title": matrix.title},
        "by_points": armies.balances_by_points(ruleset),
        "points_label": points.label if points else "",
        "columns": [c.label for c in stat_columns],
        "moves": matrix.has_movement,  # a Move column, as the roster PDF prints one
        "line_most": _bounds(ArmyUnit, "count").high,  # the most units one line holds, as `check` reads a list
        "largest": MAX_MAGNITUDE,  # the largest agreed size `check` takes (too-large beyond it)
        "troops": [
            {
                "id": row.id,
                "name": row.name,
                "points": exact_text(ruleset.cell(matrix, row, points.id)) if points else None,
                "counts_as": row.counts_as,
                "models": _whole(ruleset.cell(matrix, row, models.id)) if models else None,
                "stats": [_printed(ruleset, row.values.get(c.id), c) for c in stat_columns],
                "keywords": _printed(ruleset, row.keywords),
                "move": value_text(ruleset, matrix.movement_of(row)) if matrix.movement_of(row) else "",
            }
            for row in rows
        ],
        "tracks": [
            {
                "label": t["label"],
                "boxes": len(t["boxes"] or []),
                "tally": len(t["tally"] or []),
                "turns": len(t["turns"] or []),
                "per": t["per"],
            }
            for t in tracks(ruleset, matrix)
        ],
        "heroes": [
            {"id": h.id, "name": h.name, "level": h.level, "points": exact_text(h.points)}
            for h in ruleset.heroes
            if visible_to(h, audience)
        ],
        "upgrades": [_cost(c) for c in ruleset.costs if c.added_to_unit and visible_to(c, audience)],
        "extras": [_cost(c) for c in ruleset.costs if not c.added_to_unit and visible_to(c, audience)],
        "levels": [
            dict(zip(("heroes", "most"), armies.level_counts(level))) | {"level": level}
            for level in armies.hero_levels(ruleset)
        ],
        "counts": sorted(names),
        "own_counts": [{"name": name, "label": count_label(name)} for name in armies.row_counts(ruleset)],
        "limits": [
            {
                "id": limit.id,
                "title": limit.title,
                "count": expression_tree(limit.count, names),
                "at_most": expression_tree(limit.at_most, names),
                "at_least": expression_tree(limit.at_least, names),
                "counted": limit_words(limit.count, ruleset),
                "bounds": limit_bounds_words(limit, ruleset),
            }
            for limit in ruleset.army_limits
            if visible_to(limit, audience)
        ],
        "samples": [army_state(ruleset, army) for army in ruleset.armies if visible_to(army, audience)],
    }


def _bounds(cls, field: str) -> Bounds:
    """The bounds the list format puts on a number field (``count``: from 1 to 100)."""
    hint = typing.get_type_hints(cls, include_extras=True)[field]
    return next(mark for mark in getattr(hint, "__metadata__", ()) if isinstance(mark, Bounds))


def _printed(ruleset: Ruleset, written, column=None) -> str | None:
    """A profile cell (of ``column``, printed by its type) or keywords as a roster prints them; None where the source
    does not give it (a box to write in)."""
    if isinstance(written, ValueCell):
        value = ruleset.value(written.value)
        return None if isinstance(value.value, NotGiven) else minus_text(value_text(ruleset, value.id))
    if isinstance(written, NotGiven):
        return None
    return minus_text(profile_text(column, written, none="") if column else shown(written, none=""))


def _cost(cost) -> dict:
    return {"id": cost.id, "name": entry_title(cost), "points": exact_text(cost.points), "troops": list(cost.troops)}


def _whole(value) -> int | None:
    return None if value is None or isinstance(value, NotGiven) else int(value)


def army_state(ruleset: Ruleset, army) -> dict:
    """An army list as the page keeps one: its title, agreed points or models, lines and extras."""
    return {
        "title": army.title,
        "agreed_points": exact_text(army.agreed_points),
        "agreed_models": _whole(army.agreed_models),
        "units": [
            {
                "troop": u.troop,
                "count": u.count,
                "models": u.models,
                "heroes": list(u.heroes),
                "upgrades": list(u.upgrades),
            }
            for u in army.units
        ],
        "extras": list(army.extras),
    }
