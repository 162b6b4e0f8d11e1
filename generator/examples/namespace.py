"""What a worked example can use: its ruleset as ``rules`` and every mechanic."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

from .. import mechanics
from ..model.calculate import calculator
from ..model.ruleset import Ruleset
from .own_mechanics import exported


@cache
def mechanics_namespace() -> dict:
    """The generic mechanics: the public API rules authors' mechanics import (``generator.mechanics.__all__``)."""
    return {name: getattr(mechanics, name) for name in mechanics.__all__}


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
    }
