"""What a ruleset's own mechanics (``rules_src/<ruleset>/mechanics*.py``) may use from Rulepress.

A mechanics module imports only these names, as ``from generator.mechanics import army_points, is_given``; the
rest of the generator may change without notice. Worked examples see the same names without importing them
(``generator/examples/namespace.py``), beside ``rules``, ``values``, ``Fraction`` and the ruleset's tables,
formulas and lookups.

Dice and chances
    ``DiceExpr``: a dice expression as the data writes it (``DiceExpr.parse("2D6 + 1")``), with its exact
    ``distribution()``. ``target_probability(target, sides=6)``: the chance one die rolls ``target`` or more
    (``None``, impossible, is 0). ``percent(chance, digits=1)``: a chance as people read it (``33.3%``).
    ``pick(value, n)``: the n-th of the alternatives a value gives (``4 or 5 feet``).
    ``calculator(ruleset)``: the ruleset's formulas, tables and lookups, callable by id from ``.scope``.

What the text states
    ``is_given(thing)``: False for what the text marks ``not given`` (a value, a profile cell, a row's roll).

Armies: points, models, counts and limits
    ``force_line(troop, count=1, heroes=(), upgrades=(), spells=(), models=None)`` and
    ``force(*lines, ruleset=, matrix="", agreed_points=None, ...)`` build an army list to reason about.
    ``line_cost`` and ``army_points`` cost it; ``line_models`` and ``army_models`` count its models;
    ``army_counts`` gives every count an army limit may name, ``count_names(ruleset)`` their names;
    ``check_limits`` and ``broken_limits`` judge the ruleset's army limits on it; ``parse_limit(text, names)`` and
    ``evaluate(tree, counts)`` read and work out a limit's expression. ``army_matrix``: the profile matrix armies
    are chosen from; ``balances_by_points`` and ``by_head_count``: whether a ruleset, or a list, counts points.

Model types
    ``ArmyList`` (an army list: ``units``, ``extras``, ``agreed_points``...) and ``ArmyUnit`` (one line of it:
    ``troop``, ``count``, ``heroes``, ``upgrades``, ``spells``, ``models``).

The submodules below this package must not import it (its names come from them): they import each other by path.
"""

from __future__ import annotations

from ..model.calculate import calculator
from ..model.dice import DiceExpr, percent, target_probability
from ..model.entries import ArmyList, ArmyUnit
from ..model.formula import pick
from .armies import (
    army_counts,
    army_matrix,
    army_models,
    army_points,
    balances_by_points,
    broken_limits,
    by_head_count,
    check_limits,
    count_names,
    evaluate,
    force,
    force_line,
    line_cost,
    line_models,
    parse_limit,
)
from .stated import is_given

__all__ = [
    # dice and chances
    "DiceExpr",
    "target_probability",
    "percent",
    "pick",
    "calculator",
    # what the text states
    "is_given",
    # armies: points, models, counts and limits
    "force_line",
    "force",
    "line_cost",
    "army_points",
    "line_models",
    "army_models",
    "army_counts",
    "count_names",
    "check_limits",
    "broken_limits",
    "parse_limit",
    "evaluate",
    "army_matrix",
    "balances_by_points",
    "by_head_count",
    # model types
    "ArmyList",
    "ArmyUnit",
]
