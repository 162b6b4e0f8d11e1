"""What a worked example can use: its ruleset as ``rules`` and every mechanic."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import cache
from pathlib import Path

from .. import mechanics
from ..model.calculate import calculator
from ..model.ruleset import Ruleset
from .own_mechanics import exported


class ExampleRules(Ruleset):
    """The ruleset as a worked example reads it (``rules``): the ruleset itself, but a profile's cells that name a
    value are that value's number (``Ruleset.profile_as_read``): `2 * row["pts"]` is a sum, and a mechanic handed
    ``rules`` costs a line as the ruleset does."""

    __doc__ = Ruleset.__doc__  # what `rulepress names` says `rules` is

    @classmethod
    def of(cls, ruleset: Ruleset) -> ExampleRules:
        rules = cls(**{f.name: getattr(ruleset, f.name) for f in dataclasses.fields(ruleset)})
        return dataclasses.replace(rules, profiles=tuple(rules.profile_as_read(m.id) for m in ruleset.profiles))

    def get(self, section: str, id: str):
        return self.profile_as_read(id) if section == "profiles" else super().get(section, id)

    def reachable(self, name: str) -> tuple:
        return self._as_read(name, super().reachable(name))

    def _as_read(self, name: str, entries: tuple) -> tuple:
        return tuple(self.profile_as_read(matrix.id) for matrix in entries) if name == "profiles" else entries


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
        "rules": ExampleRules.of(ruleset),
        "values": calc.values(),
        "Fraction": Fraction,
    }
