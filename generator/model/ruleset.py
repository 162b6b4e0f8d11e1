"""The ruleset aggregate: every entry of one rules folder, looked up by kind and id."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from .entries import (
    ArmyLimit, ArmyList, Chapter, Cost, Hero, Item, Keyword, Meta, Phase, ProfileMatrix,
    RollTable, Rule, Spell, Term, VictoryPoints,
)

# Section name in YAML -> (entry class, attribute on Ruleset). Order is reading order.
SECTIONS: dict[str, type] = {
    "chapters": Chapter,
    "phases": Phase,
    "rules": Rule,
    "glossary": Term,
    "keywords": Keyword,
    "tables": RollTable,
    "profiles": ProfileMatrix,
    "spells": Spell,
    "items": Item,
    "heroes": Hero,
    "costs": Cost,
    "army_limits": ArmyLimit,
    "armies": ArmyList,
    "victory_points": VictoryPoints,
}


@dataclass(frozen=True)
class Example:
    """A worked example: a fenced python block with ``>>>`` lines in some prose."""

    ruleset: str
    entry: str  # "rules.moral_checks"
    path: str
    line: int  # line of the first ``>>>`` in the file
    source: str  # the example's text, dedented
    indent: int = 0  # columns the block is indented by in the file

    @property
    def statements(self) -> int:
        return sum(1 for l in self.source.splitlines() if l.lstrip().startswith(">>>"))


@dataclass(frozen=True)
class Ruleset:
    id: str
    meta: Meta
    chapters: tuple[Chapter, ...] = ()
    phases: tuple[Phase, ...] = ()
    rules: tuple[Rule, ...] = ()
    glossary: tuple[Term, ...] = ()
    keywords: tuple[Keyword, ...] = ()
    tables: tuple[RollTable, ...] = ()
    profiles: tuple[ProfileMatrix, ...] = ()
    spells: tuple[Spell, ...] = ()
    items: tuple[Item, ...] = ()
    heroes: tuple[Hero, ...] = ()
    costs: tuple[Cost, ...] = ()
    army_limits: tuple[ArmyLimit, ...] = ()
    armies: tuple[ArmyList, ...] = ()
    victory_points: tuple[VictoryPoints, ...] = ()
    examples: tuple[Example, ...] = ()
    files: tuple[str, ...] = ()
    # (section, id) of entries whose own errors were reported: references to them are not errors again
    unloaded: frozenset = frozenset()
    sources: MappingProxyType = field(default_factory=lambda: MappingProxyType({}), compare=False, repr=False)

    @property
    def title(self) -> str:
        return self.meta.title

    def section(self, name: str) -> tuple:
        return getattr(self, name)

    def get(self, section: str, id: str):
        for entry in self.section(section):
            if entry.id == id:
                return entry
        raise KeyError(f"{self.id} has no {section} entry `{id}`")

    def table(self, id: str) -> RollTable:
        return self.get("tables", id)

    def profile(self, id: str) -> ProfileMatrix:
        return self.get("profiles", id)

    def rule(self, id: str) -> Rule:
        return self.get("rules", id)

    def spell(self, id: str) -> Spell:
        return self.get("spells", id)

    def term(self, id: str) -> Term:
        return self.get("glossary", id)

    def all_entries(self):
        """(section, entry) for every entry, in section order."""
        for name in SECTIONS:
            for entry in self.section(name):
                yield name, entry

    def is_unloaded(self, id: str, section: str | None = None) -> bool:
        return any(i == id and (section is None or s == section) for s, i in self.unloaded)

    def ids(self) -> dict[str, str]:
        """Every entry id mapped to its section, for cross-references."""
        return {entry.id: section for section, entry in self.all_entries()}

    def counts(self) -> dict[str, int]:
        return {name: len(self.section(name)) for name in SECTIONS}
