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


class RulesetNotLoadable(Exception):
    pass


@cache
def _project(root: Path, ruleset_id: str):
    from ..validate import check_project

    return check_project(root, ruleset_id)


def namespace_for_path(path: str | Path) -> dict:
    """The namespace for an example in ``rules_src/<ruleset>/...``."""
    path = Path(path).resolve()
    parts = path.parts
    index = len(parts) - 1 - parts[::-1].index("rules_src")
    root, ruleset_id = Path(*parts[:index]), parts[index + 1]
    result = _project(root, ruleset_id)
    if not result.ok:
        shown = "\n".join(d.format() for d in result.diagnostics.errors[:10])
        raise RulesetNotLoadable(f"rules_src/{ruleset_id} has errors; fix them before its examples can run:\n{shown}")
    return namespace_for(result.project.ruleset(ruleset_id), root)
