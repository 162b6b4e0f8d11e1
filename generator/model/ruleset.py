"""The ruleset aggregate: every entry of one rules folder, looked up by kind and id."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType

from ..diagnostics import did_you_mean
from . import reads
from .base import NotGiven
from .computed import Chart, Formula, Lookup, Sheet, Value
from .dice import RollRange
from .entries import (
    ArmyLimit,
    ArmyList,
    Chapter,
    Cost,
    Hero,
    Item,
    Keyword,
    Meta,
    Phase,
    ProfileMatrix,
    ProfileRow,
    RollTable,
    Rule,
    Spell,
    TableRow,
    Term,
    ValueCell,
    VictoryPoints,
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
    "values": Value,
    "formulas": Formula,
    "lookups": Lookup,
    "charts": Chart,
    "sheets": Sheet,
}
# Pages the site makes in every ruleset's folder beside a page per chapter, which is named by its id: no chapter
# may take these names. (The site's other pages have a hyphen in their names, which no id has.)
# The section each prose role names an entry of ({rule}`id`, {term}`word`...); {value} and {entry} roles read
# `values:` and `section.id` themselves.
ROLE_SECTIONS = {
    "rule": "rules",
    "table": "tables",
    "spell": "spells",
    "profile": "profiles",
    "term": "glossary",
    "formula": "formulas",
    "chart": "charts",
    "lookup": "lookups",
}
SITE_PAGE_NAMES = {
    "index": "the ruleset's front page",
    "glossary": "the glossary",
    "calculators": "the odds calculators",
    "examples": "the worked examples",
    "names": "the names worked examples can use",
}
ROW_SECTION = (
    "profile rows"  # a matrix's row that did not load, among `Ruleset.unloaded`: ("profile rows", "matrix.row")
)
ITEM_SECTION = "list items"  # an `apart` list's item that did not load (base.spec): ("list items", "entry.field.3")
SITE_FOLDERS = {  # what the site keeps beside the rulesets' own folders (render/site/pages.py KINDS)
    "sheets": "the cheat sheets",
    "handouts": "the handouts",
}
# Sections whose entries with no chapter get a page of their own, in the site's order (`army`: the costs, army limits
# and armies together); `ruleset: declares: page_titles:` may title each.
PAGED_SECTIONS = (
    "keywords",
    "spells",
    "heroes",
    "items",
    "army",
    "victory_points",
    "lookups",
    "charts",
    "values",
    "formulas",
)
# Sections a ruleset shares with those that extend it: what formulas, charts and sheets compute with.
SHARED_SECTIONS = ("values", "formulas", "lookups", "tables", "charts", "glossary", "keywords")


GAME_MASTER = "game-master"  # what outputs call the one who runs the game where no ruleset says


def game_master_words(name: str, *, start: bool = False, possessive: bool = False) -> str:
    """``name`` with a capital at a sentence's ``start``, and ``possessive`` (`game-master's`, `Boss'`)."""
    if possessive:
        name += "'" if name.endswith("s") else "'s"
    return name[:1].upper() + name[1:] if start else name


@dataclass(frozen=True)
class Example:
    """A worked example: a fenced python block with ``>>>`` lines in some prose."""

    ruleset: str
    entry: str  # "rules.<id>", the entry whose prose holds it
    path: str
    line: int  # line of the first ``>>>`` in the file
    source: str  # the example's text, dedented
    indent: int = 0  # columns the block is indented by in the file

    @property
    def statements(self) -> int:
        return sum(1 for l in self.source.splitlines() if l.lstrip().startswith(">>>"))


@dataclass(frozen=True)
class HouseResult:
    """A worked example of the text that gives another result under an overlay's values: what each
    statement that differs gives in the text and under the house rules (``None``: it raised there)."""

    entry: str  # the entry whose prose holds the example, as in ``Example.entry``
    source: str  # the example's code, dedented: how a renderer finds its block in the prose
    path: str
    line: int
    results: tuple[tuple[str, str | None], ...]  # (the text's result, the house rules' result) per statement


@dataclass(frozen=True)
class Ruleset:
    """One ruleset as checked, immutable: its entries by section (``rules.tables``), each by id as one of its
    section (``rules.value(id)``, ``rules.table(id)``, ``rules.army(id)``, ``rules.army_limit(id)``,
    ``rules.victory_point(id)``, ``rules.term(id)`` of the glossary...), any as ``rules.get("armies", id)``; a profile's
    row as ``rules.profile(id).row(id)``, a cell of it by its column's id as ``.row(id)["column"]``, the numbers a
    keyword of it carries as ``.keyword("NAME")``; a roll table's exact chance of a result as
    ``rules.table(id).chance("Result", **stats)``; a spell's row as ``rules.spell_row(spell)``), its base's too where
    it extends one (``reachable``)."""

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
    values: tuple[Value, ...] = ()
    formulas: tuple[Formula, ...] = ()
    lookups: tuple[Lookup, ...] = ()
    charts: tuple[Chart, ...] = ()
    sheets: tuple[Sheet, ...] = ()
    examples: tuple[Example, ...] = ()
    files: tuple[str, ...] = ()
    # rules files that did not read as YAML (reported): what they hold is unknown, so nothing else is checked
    unreadable: tuple[str, ...] = ()
    # (section, id) of entries whose own errors were reported: references to them are not errors again
    unloaded: frozenset = frozenset()
    # (section, entry) of each entry whose id an entry of its section had already (reported `duplicate-id`): no
    # part of the ruleset, yet what is written in it is checked all the same (validate.checks), so that removing the
    # duplicate brings no errors that were there all along
    set_aside: tuple[tuple[str, object], ...] = field(default=(), compare=False, repr=False)
    # profile rows left out for an error in a cell (reported), kept for the checks that read their other fields
    rows_with_errors: tuple[ProfileRow, ...] = field(default=(), compare=False, repr=False)
    sources: MappingProxyType = field(default_factory=lambda: MappingProxyType({}), compare=False, repr=False)
    # the ruleset this one builds on (`extends:`): its values, formulas, tables and charts are reachable here
    base: Ruleset | None = field(default=None, compare=False, repr=False)
    # the ruleset's own mechanics: mechanics.py, then mechanics_*.py, relative to the project; one module
    mechanics: tuple[str, ...] = ()
    # the names those files define at their top level, read and not run: a formula calling one is told it cannot
    mechanics_defines: tuple[str, ...] = field(default=(), compare=False, repr=False)
    # an overlay's: the ruleset it changes, as written (the text an overlay's citations name)
    original: Ruleset | None = field(default=None, compare=False, repr=False)
    # an overlay's: its examples that give another result under its values than in the text (what check found)
    house_results: tuple[HouseResult, ...] = field(default=(), compare=False, repr=False)

    @property
    def title(self) -> str:
        return self.meta.title

    @property
    def language(self) -> str:
        """The language tag its rules are written in: its own, else that of the ruleset it extends or overlays,
        else English."""
        below = self.base if self.base is not None else self.original
        return self.meta.language or (below.language if below is not None else "en")

    def game_master(self, *, start: bool = False, possessive: bool = False) -> str:
        """What its outputs call the one who runs the game (`declares: game_master:`): its own, else that of the
        ruleset it extends or overlays, else `game-master`; with a capital at a sentence's ``start``, and
        ``possessive`` (`game-master's`, `Boss'`)."""
        own = self.meta.declares.game_master if self.meta.declares else ""
        below = self.base if self.base is not None else self.original
        return game_master_words(
            own or (below.game_master() if below is not None else GAME_MASTER), start=start, possessive=possessive
        )

    def section(self, name: str) -> tuple:
        if name not in SECTIONS:  # never an attribute that is not a section: `{entry}`meta.x`` is a KeyError
            raise KeyError(f"no section `{name}`")
        return getattr(self, name)

    def get(self, section: str, id: str):
        entry = self.find(section, id)
        if entry is None:
            close = did_you_mean(id, [e.id for e in self.reachable(section)])
            raise KeyError(f"{self.id} has no {section} entry `{id}`" + (f"; {close}" if close else ""))
        return entry

    def find(self, section: str, id: str):
        """The entry ``id`` of ``section`` (a base's too, where shared), or None: ``get`` without the hint, which
        costs a comparison with every id and is only wanted for a mistake."""
        for entry in self.section(section):
            if entry.id == id:
                reads.entry(entry)
                return entry
        if self.base is not None and section in SHARED_SECTIONS:
            return self.base.find(section, id)
        return None

    def reachable(self, section: str) -> tuple:
        """The section's entries with those of the bases it extends (own entries first)."""
        own = self.section(section)
        if self.base is None or section not in SHARED_SECTIONS:
            return own
        ids = {entry.id for entry in own}
        return own + tuple(entry for entry in self.base.reachable(section) if entry.id not in ids)

    def owner_of(self, section: str, id: str) -> Ruleset:
        """The ruleset (this one or a base) that defines the entry."""
        if any(entry.id == id for entry in self.section(section)) or self.base is None:
            return self
        return self.base.owner_of(section, id)

    def linked(self, section: str, id: str) -> tuple[Ruleset, object]:
        """(the ruleset whose pages print it, the entry) for the entry a role links: this ruleset's own or
        inherited entry (``get``), else an entry of any section of a base it extends, which is not inherited (a
        base's rule or spell is none of this ruleset's) but is printed on the base's pages, where a link goes; a
        KeyError as ``get``'s when neither has it."""
        try:
            entry = self.get(section, id)
        except KeyError:
            base = self.base_having(section, id)
            if base is None:
                raise
            return base, base.get(section, id)
        return (self.owner_of(section, id) if section in SHARED_SECTIONS else self), entry

    def base_having(self, section: str, id: str) -> Ruleset | None:
        """The base this ruleset extends (or its base...) that has the entry ``id`` of ``section`` itself, or None:
        for a message that says where an entry this ruleset cannot use is. A sheet is none: no page prints it."""
        below = self.base if section in SECTIONS and section != "sheets" else None
        while below is not None:
            if any(entry.id == id for entry in below.section(section)):
                return below
            below = below.base
        return None

    def value(self, id: str) -> Value:
        return self.get("values", id)

    def cell(self, matrix: ProfileMatrix, row: ProfileRow, column: str):
        """A profile cell as mechanics compute with it: a cell naming a value gives this ruleset's value (an
        overlay's house value, then), its magnitude, or its text in a text column; `not given` stays a gap."""
        written = row.values.get(column)
        if not isinstance(written, ValueCell):
            return written
        try:
            value = self.value(written.value)
        except KeyError:  # a value it does not have: reported where the cell names it, a gap meanwhile
            return NotGiven()
        if isinstance(value.value, NotGiven):
            return value.value
        return str(value.value) if matrix.column(column).type == "text" else value.magnitude

    def profile_as_read(self, id: str) -> ProfileMatrix:
        """A profile matrix as this ruleset reads it: each cell that names a value is that value (an overlay's house
        value, then), as ``cell`` computes with it, so a worked example doing sums with a row's cells gets numbers."""
        matrix = Ruleset.get(self, "profiles", id)  # as written, whatever a subclass reads
        if not any(row.named_values() for row in matrix.rows):
            return matrix
        rows = tuple(
            replace(row, values=MappingProxyType({column: self.cell(matrix, row, column) for column in row.values}))
            for row in matrix.rows
        )
        return replace(matrix, rows=rows)

    def formula(self, id: str) -> Formula:
        return self.get("formulas", id)

    def chart(self, id: str) -> Chart:
        return self.get("charts", id)

    def lookup(self, id: str) -> Lookup:
        return self.get("lookups", id)

    def table(self, id: str) -> RollTable:
        return self.get("tables", id)

    def profile(self, id: str) -> ProfileMatrix:
        return self.get("profiles", id)

    def rule(self, id: str) -> Rule:
        return self.get("rules", id)

    def spell(self, id: str) -> Spell:
        return self.get("spells", id)

    def spell_row(self, spell: Spell) -> TableRow | None:
        """The row of its table a spell sits on: the row whose whole range its `roll:` is, else (no roll written)
        the row whose `ref:` names it; None for neither, or for a table that is not there."""
        if not spell.table or spell.table not in {t.id for t in self.reachable("tables")}:
            return None
        for row in self.table(spell.table).rows:
            if spell.roll is None and row.ref == spell.id:
                return row
            if spell.roll is not None and not isinstance(row.roll, NotGiven):
                if (row.roll.low, row.roll.high) == (spell.roll.low, spell.roll.high):
                    return row
        return None

    def spell_roll(self, spell: Spell) -> RollRange | None:
        """What a spell's card and pages print as its roll: its row's range (as the table prints it), else the
        roll it is written with; None where neither is known."""
        row = self.spell_row(spell)
        if row is not None and not isinstance(row.roll, NotGiven):
            return row.roll
        return spell.roll

    def spell_chance(self, spell: Spell) -> Fraction | None:
        """The exact chance of a spell's row on its table, or None where the table gives no ranges, its
        dice read stats, or no row is the spell's."""
        row = self.spell_row(spell)
        table = self.table(spell.table) if row is not None else None
        if table is None or not table.ranges_given or table.dice.stats:
            return None
        return next(p for r, p in table.odds() if r is row)

    def term(self, id: str) -> Term:
        return self.get("glossary", id)

    def army(self, id: str) -> ArmyList:
        return self.get("armies", id)

    def hero(self, id: str) -> Hero:
        return self.get("heroes", id)

    def item(self, id: str) -> Item:
        return self.get("items", id)

    def cost(self, id: str) -> Cost:
        return self.get("costs", id)

    def keyword(self, id: str) -> Keyword:
        return self.get("keywords", id)

    def phase(self, id: str) -> Phase:
        return self.get("phases", id)

    def chapter(self, id: str) -> Chapter:
        return self.get("chapters", id)

    def army_limit(self, id: str) -> ArmyLimit:
        return self.get("army_limits", id)

    def victory_point(self, id: str) -> VictoryPoints:
        return self.get("victory_points", id)

    def sheet(self, id: str) -> Sheet:
        return self.get("sheets", id)

    def table_row(self, target: str) -> tuple[RollTable, TableRow]:
        """The table and row a `{roll}` role names, `table:Result` (a result as written, or its `ref:`); KeyError
        for a table or row there is not, or a target without the colon."""
        table_id, colon, name = target.partition(":")
        if not colon:
            raise KeyError(f"`{target}` names no row: write {{roll}}`table:Result`")
        table = self.table(table_id.strip())
        return table, table.row_named(name.strip())

    def all_entries(self):
        """(section, entry) for every entry, in section order."""
        for name in SECTIONS:
            for entry in self.section(name):
                yield name, entry

    def is_unloaded(self, id: str, section: str | None = None) -> bool:
        return any(i == id and (section is None or s == section) for s, i in self.unloaded)

    def lacks_items(self, id: str, field: str) -> bool:
        """Whether an item of the entry ``id``'s list ``field`` did not load (reported where it is written)."""
        return any(s == ITEM_SECTION and i.rpartition(".")[0] == f"{id}.{field}" for s, i in self.unloaded)

    def ids(self) -> dict[str, str]:
        """Every entry id mapped to its section, for cross-references."""
        return {entry.id: section for section, entry in self.all_entries()}

    def counts(self) -> dict[str, int]:
        return {name: len(self.section(name)) for name in SECTIONS}


def term_names(ruleset: Ruleset) -> dict[str, str]:
    """Every spelling of every glossary term, casefolded, mapped to the term's id."""
    names = {}
    for term in ruleset.reachable("glossary"):
        for spelling in (term.term, *term.aliases):
            names[spelling.casefold()] = term.id
    return names
