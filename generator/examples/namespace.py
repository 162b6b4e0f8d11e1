"""What a worked example can use: its ruleset as ``rules`` and every mechanic."""

from __future__ import annotations

import importlib
import pkgutil
from fractions import Fraction
from functools import cache
from pathlib import Path

from .. import mechanics
from ..model.dice import DiceExpr, percent, target_probability
from ..model.formula import pick
from ..model.calculate import calculator
from ..model.ruleset import Ruleset
from .own_mechanics import exported


@cache
def mechanics_namespace() -> dict:
    names: dict = {}
    for info in pkgutil.iter_modules(mechanics.__path__):
        module = importlib.import_module(f"{mechanics.__name__}.{info.name}")
        names[info.name] = module
        for name in getattr(module, "__all__", ()):
            names[name] = getattr(module, name)
    return names


def namespace_for(ruleset: Ruleset, root: Path | None = None) -> dict:
    """What a worked example of ``ruleset`` can use: the generic mechanics, its roll tables,
    formulas and lookups by id, its values as ``values.id``, and its own mechanics module's names."""
    calc = calculator(ruleset)
    return {
        **mechanics_namespace(),
        **{t.id: calc.scope[t.id] for t in ruleset.reachable("tables")},
        **{f.id: calc.scope[f.id] for f in ruleset.reachable("formulas")},
        **{l.id: calc.scope[l.id] for l in ruleset.reachable("lookups")},
        **(exported(ruleset, root) if root is not None else {}),
        "rules": ruleset,
        "values": calc.values(),
        "Fraction": Fraction,
        "DiceExpr": DiceExpr,
        "percent": percent,
        "target_probability": target_probability,
        "pick": pick,
    }
