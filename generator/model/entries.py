"""The kinds of entry a ruleset is made of, as immutable values.

Each class is also the schema of its YAML section: field types drive loading,
``spec`` help texts feed diagnostics and the generated format reference.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Annotated, ClassVar, Literal

from ..diagnostics import Location
from . import reads
from .base import (
    NOWHERE,
    Audience,
    Bounds,
    Markdown,
    Named,
    NotGiven,
    QuickMark,
    Source,
    coverage_field,
    item_loc,
    quick_field,
    spec,
    value_loc,
)
from .dice import DiceExpr, RollRange
from .points import Points

_LOC = dict(default=NOWHERE, compare=False, repr=False, metadata={"internal": True})


def _locs():
    return field(default_factory=lambda: MappingProxyType({}), compare=False, repr=False, metadata={"internal": True})


def _id():
    return field(default="", metadata={"internal": True})


@dataclass(frozen=True, kw_only=True)
class Located:
    """Where a value was written, and where each of its fields was (for diagnostics)."""

    loc: Location = field(**_LOC)
    locs: MappingProxyType = _locs()


@dataclass(frozen=True, kw_only=True)
class Entry(Located):
    """An entry of a section: its id is the key it is written under."""

    # what that key is, as the format reference and the error for a list written in its place say it (an input's
    # name, a page title's section)
    KEY: ClassVar[str] = "id"

    id: str = _id()

    def names(self) -> tuple[Named, ...]:
        """The entries this one names by id, where it names them (its prose aside, which any entry may have)."""
        return ()


def _see_also(entry) -> tuple[Named, ...]:
    return tuple(Named(id, item_loc(entry, "see_also", index)) for index, id in enumerate(entry.see_also))


def split_keyword(written: str) -> tuple[str, tuple[str, ...]]:
    """A keyword as written on a profile (`SHOOTS 12`, `Regenerate 4 -1`): its name and its whole-number parameters.
    The name keeps at least one word, so a keyword named `7` is a name; `FAST --3` is a name, not FAST and -3."""
    words = written.split()
    params = []
    while len(words) > 1 and re.fullmatch(r"-?[0-9]+", words[-1]):
        params.insert(0, words.pop())
    return " ".join(words), tuple(params)


def _keyword_names(owner) -> tuple[Named, ...]:
    """The declared keywords a profile row or an item names (`not given` names none)."""
    written = owner.keywords if isinstance(owner.keywords, tuple) else ()
    return tuple(
        Named(split_keyword(str(text))[0], item_loc(owner, "keywords", index), ("keyword",))
        for index, text in enumerate(written)
    )


@dataclass(frozen=True, kw_only=True)
class Cited(Entry):
    """An entry that cites its source."""

    source: Source | None = spec("Where the source text gives this entry.", None)


@dataclass(frozen=True, kw_only=True)
class ForAudience(Cited):
    """A cited entry that can be marked for the game-master only."""

    audience: Audience = spec("`player` (everyone) or `gm` (game-master only: never in player outputs).", "player")


def gm_only(entry) -> bool:
    """Game-master material: an entry or row marked `audience: gm`, or a hidden task. The one audience rule:
    the renderers leave such entries out of every player output, and the checks refuse player text naming them."""
    return getattr(entry, "audience", "player") == "gm" or getattr(entry, "gm_only", False)


AUTHORS = "author"  # the authors' edition: the game-master's, with how each number is checked
SEES_EVERYTHING = ("gm", AUTHORS)


def visible_to(entry, audience: str) -> bool:
    """Whether ``audience`` (`player`, `gm` or `author`) may see an entry or row: the game-master and the
    authors see everything, the players nothing that is game-master material."""
    return audience in SEES_EVERYTHING or not gm_only(entry)


def for_audience(items, audience: str) -> list:
    """The items the audience may see, in order."""
    return [item for item in items if visible_to(item, audience)]


@dataclass(frozen=True, kw_only=True)
class PageTitle(Entry):
    """The title of the page a section's entries get when they have no chapter, written under the section's name."""

    SHORTHAND: ClassVar[str] = "title"
    KEY: ClassVar[str] = "section"

    title: str = spec("The page's title.", example="Special rules")


@dataclass(frozen=True, kw_only=True)
class KindHeading(Entry):
    """How the victory-point checklist heads the group of one kind, written under the kind."""

    SHORTHAND: ClassVar[str] = "title"
    KEY: ClassVar[str] = "kind"

    title: str = spec("The group's heading on the checklist.", example="Leaders defeated")
    write_in_lines: Annotated[int, Bounds(0, 20)] = spec(
        "Blank lines under the group, for what scores that the sheet cannot name.", 2, example="3"
    )


@dataclass(frozen=True, kw_only=True)
class VictoryPointSheet(Located):
    """The victory-point checklist's own words: what a player writes beside their name, and each kind's heading."""

    PARTIAL: ClassVar[bool] = True  # a field or heading written wrong is left out alone (source.build)

    side: str = spec(
        "What a player writes in beside their name: their side, as the game calls it.", "Side", example="Crew"
    )
    kinds: tuple[KindHeading, ...] = spec(
        "Each kind's heading, under the kind (`leader: Leaders defeated`, or `{title: ..., write_in_lines: 3}`); "
        "a kind without one is headed by its name.",
        (),
    )
    gap_note: str = spec(
        "Where players find the points an empty box leaves out, said after the sheet's key to it.",
        "",
        example="they are on the list the referee gives out at the end of the game",
    )


@dataclass(frozen=True, kw_only=True)
class Declares(Located):
    """The ``declares:`` part of ``ruleset:``: lists the ruleset's entries choose from, and the words its outputs use
    for them. The engine names no game: what is not declared here is shown in neutral words."""

    PARTIAL: ClassVar[bool] = True  # a field or page title written wrong is left out alone (source.build)

    hero_levels: tuple[str, ...] = spec(
        "The levels heroes may have, lowest first; every hero then gives its `level:`. Each level `L` gives army "
        "limits "
        "the counts `L_heroes` and `most_of_one_L_hero`. Empty: any level (or none), and the counts are those of the "
        "levels the heroes use.",
        (),
        example="[minor, major]",
    )
    keyword_kinds: tuple[str, ...] = spec(
        "The kinds a keyword may be (its `kind:`). Empty: any kind.", (), example="[special rule, drill]"
    )
    item_kinds: tuple[str, ...] = spec(
        "The kinds an item may be (its `kind:`). Empty: any kind.", (), example="[blade, charm]"
    )
    victory_point_kinds: tuple[str, ...] = spec(
        "The kinds of victory points, in the order the checklist lists them (their `kind:`). Empty: any kind, in "
        "order of use.",
        (),
        example="[leader, relic, deed]",
    )
    page_titles: tuple[PageTitle, ...] = spec(
        "Titles of the pages entries with no chapter get, under their section's name (`keywords: Special rules`); "
        "a section without one gets a neutral title (`Keywords`).",
        (),
    )
    carried_spells: str = spec(
        "What the spells an army unit carries (its `spells:`) are called on rosters.", "spells", example="charms"
    )
    keywords_label: str = spec(
        "What profiles, rosters and cards head a troop's keywords with.", "Special rules", example="Abilities"
    )
    game_master: str = spec(
        "What the rules call the one who runs the game, as every output's own words name them (the game-master's "
        "copy, badges, banners, the victory-point checklist), written as mid-sentence: a sentence's start gets a "
        "capital. Left out: the base's, if it `extends` one, else `game-master`.",
        "",
        example="Referee",
    )
    victory_point_sheet: VictoryPointSheet | None = spec(
        "The victory-point checklist's words: `side:` (written in beside the player's name) and `kinds:` (each kind's "
        "heading and blank lines).",
        None,
    )


@dataclass(frozen=True, kw_only=True)
class Meta(Entry):
    """The ``ruleset:`` section of ``ruleset.yaml``: what this ruleset is."""

    KIND = "ruleset"  # its section is `ruleset:`

    title: str = spec("The ruleset's name as its author gives it.", example="Siege of the Old Mill")
    subtitle: str = spec("A strap line shown under the title.", "")
    short_title: str = spec(
        "A short name, added to page titles so search results say which ruleset they are from.", "", example="Old Mill"
    )
    author: str = spec("Who wrote the rules.", "", example="Sprinks")
    source: str = spec(
        "File name of the source text in `sources/`; entries cite it by default.", "", example="source.txt"
    )
    source_title: str = spec(
        "The source text's title, as citations name it (never by its file name); defaults to the ruleset's title.",
        "",
        example="Siege of the Old Mill, second edition",
    )
    version: str = spec(
        "The version or edition of the rules as the text states it, printed small on every sheet and handout "
        "(one line, at most 40 characters). Without it they carry the date of the rules instead: "
        "`SOURCE_DATE_EPOCH` when set, else the day the ruleset's files last changed.",
        "",
        example="2nd edition",
    )
    summary: Markdown = spec("A paragraph introducing the rules.", Markdown(""))
    language: str = spec(
        "The language the rules are written in, as a language tag (`en`, `fr`, `de-CH`): pages and handouts say so "
        "to browsers, screen readers and search, and the sentence before each worked example is read in it (numbers "
        "in words, chances such as `deux fois sur trois`, `27,8 %`: English, French and German; in another language "
        "the numbers written in digits alone, as `check` warns). Left out: the base's, if it `extends` one, else `en`.",
        "",
        example="fr",
    )
    needs: tuple[str, ...] = spec("What players need to play (dice, markers, a grid...).", ())
    extends: str = spec(
        "Id of a ruleset this one builds on: its values, formulas, tables, lookups, charts and terms "
        "can be used here as if written here.",
        "",
        example="standard_charts",
    )
    overlay: bool = spec(
        "True for house rules or errata: a ruleset that `extends` its base and changes only its "
        "values; every output marks each changed value and shows the original.",
        False,
    )
    kind: Literal["rules", "base"] = spec(
        "`base` for a ruleset others build on that is not a game of its own (standard charts); it is listed apart.",
        "rules",
    )
    declares: Declares | None = spec(
        "The lists the ruleset's entries choose from (hero levels and the kinds of keywords, items and victory points) "
        "and the words its outputs use for them.",
        None,
    )

    @property
    def hero_levels(self) -> tuple[str, ...]:
        return self.declares.hero_levels if self.declares else ()

    @property
    def keyword_kinds(self) -> tuple[str, ...]:
        return self.declares.keyword_kinds if self.declares else ()

    @property
    def item_kinds(self) -> tuple[str, ...]:
        return self.declares.item_kinds if self.declares else ()

    @property
    def victory_point_kinds(self) -> tuple[str, ...]:
        return self.declares.victory_point_kinds if self.declares else ()

    @property
    def page_titles(self) -> dict[str, str]:
        """Section -> the title of its page of entries with no chapter, as declared."""
        return {page.id: page.title for page in self.declares.page_titles} if self.declares else {}

    @property
    def carried_spells(self) -> str:
        return self.declares.carried_spells if self.declares else Declares.carried_spells

    @property
    def keywords_label(self) -> str:
        return self.declares.keywords_label if self.declares else Declares.keywords_label

    @property
    def victory_point_sheet(self) -> VictoryPointSheet:
        sheet = self.declares.victory_point_sheet if self.declares else None
        return sheet or VictoryPointSheet()


@dataclass(frozen=True, kw_only=True)
class Chapter(Entry):
    """A chapter of the rules; chapters are listed in the order the game is played."""

    title: str = spec("The chapter heading.", example="Combat")
    intro: Markdown = spec("Prose shown at the top of the chapter.", Markdown(""))
    audience: Audience = spec(
        "`player` (everyone) or `gm` (the game-master's chapter: its page and title never in player outputs, and "
        "only game-master material placed in it).",
        "player",
    )


@dataclass(frozen=True, kw_only=True)
class Phase(ForAudience):
    """A phase (or step) of the turn sequence, in the order it is played."""

    title: str = spec("The phase's name.", example="Movement")
    sequence: str = spec(
        "Which sequence the phase belongs to, for rulesets with several.", "turn", example="player turn"
    )
    summary: Markdown = spec("What happens in the phase, in a sentence or two.", Markdown(""))
    chapter: str = spec(
        "The chapter (id) whose rules describe the phase: its page and the booklet's chapter open with it.", ""
    )
    quick_reference: bool | QuickMark = quick_field("phase (in its turn sequence)", True)


@dataclass(frozen=True, kw_only=True)
class Rule(ForAudience):
    """A rule: a titled passage of prose, placed in a chapter, with its worked examples."""

    title: str = spec("The rule's heading.", example="Nerve tests")
    chapter: str = spec("The chapter (id) it belongs to.", example="combat")
    phase: str = spec("The phase (id) in which it applies, if any.", "")
    body: Markdown = spec("The rule text in MyST Markdown, with worked examples as fenced python blocks.", Markdown(""))
    gm_note: Markdown = spec("A remark for the game-master only; never in player outputs.", Markdown(""))
    see_also: tuple[str, ...] = spec("Ids of related rules, tables, terms or spells.", ())
    charts: tuple[str, ...] = spec(
        "Ids of charts (its own or its base's) printed with the rule as grids, so "
        "players read the chart, not a formula; a chart placed in the rule's own chapter prints there once, as its "
        "own entry.",
        (),
        example="[hit_chart, wound_chart]",
    )
    quick_reference: bool | QuickMark = quick_field("rule (its body, or the summary)")

    def names(self) -> tuple[Named, ...]:
        return _see_also(self)


@dataclass(frozen=True, kw_only=True)
class Term(ForAudience):
    """A glossary term: a state or word the rules use with a precise meaning."""

    term: str = spec("The term as the rules write it.", example="Dazed")
    aliases: tuple[str, ...] = spec("Other spellings that mean the same (armor/armour).", ())
    definition: Markdown = spec("What the term means, in a sentence or two.")
    see_also: tuple[str, ...] = spec("Ids of rules or tables that use the term.", ())

    def names(self) -> tuple[Named, ...]:
        return _see_also(self)


@dataclass(frozen=True, kw_only=True)
class Keyword(ForAudience):
    """A special rule or keyword a profile can carry, possibly with numeric parameters."""

    name: str = spec("The keyword as written in profiles, without its parameters.", example="SHOOTS")
    params: tuple[str, ...] = spec(
        "Names of its whole-number parameters, written after it (`SHOOTS 12`).", (), example="[range]"
    )
    kind: str = spec(
        "What sort of rule it is: one of the ruleset's `keyword_kinds`, when it declares them.",
        "special rule",
        example="drill",
    )
    definition: Markdown = spec("What the keyword does.")
    chapter: str = spec("The chapter (id) where it is printed; without one it gets a page of its kind.", "")
    coverage: str = coverage_field()


@dataclass(frozen=True, kw_only=True)
class TableRow(Located):
    """One row of a roll table: the rolls it covers and the result they give."""

    roll: RollRange | NotGiven = spec(
        "The result or range this row covers: `5`, `1-2`, `6+` (or `6 or more`), `1-` (or `1 or less`); "
        "`not given` if the source omits it. Percentile dice's `00` is written `100`, a D10's `0` is `10`.",
        example="1-2",
    )
    result: str = spec("The short result, as the table prints it.", example="Dazed")
    value: int | None = spec("A number the result stands for, for formulas and mechanics.", None)
    effect: Markdown = spec("The result's full effect, if longer than `result`.", Markdown(""))
    ref: str = spec(
        "Id of the entry this result names (another table to roll on, a spell, a glossary term, a rule).", ""
    )
    coverage: str = coverage_field()


@dataclass(frozen=True, kw_only=True)
class RollTable(ForAudience):
    """A roll table: a dice expression and rows that cover every result exactly once."""

    title: str = spec("The table's heading.", example="Rout table")
    dice: DiceExpr = spec("What is rolled: `D6`, `2D6`, `D20`, `D6 + S - T - W`.", example="D6")
    clamp: RollRange | None = spec(
        "For modified rolls: the lowest and highest row (`1-6`); totals beyond read as the nearest end.",
        None,
        example="1-6",
    )
    rows: tuple[TableRow, ...] = spec("The rows, each with `roll` and `result`.")
    chapter: str = spec("The chapter (id) where the table is printed.", "")
    phase: str = spec("The phase (id) in which the table is rolled.", "")
    note: Markdown = spec("Prose printed under the table.", Markdown(""))
    quick_reference: bool | QuickMark = quick_field("roll table (with its odds)", True)
    coverage: str = coverage_field()

    @property
    def ranges_given(self) -> bool:
        return all(not isinstance(r.roll, NotGiven) for r in self.rows)

    def names(self) -> tuple[Named, ...]:
        return tuple(Named(row.ref, value_loc(row, "ref")) for row in self.rows if row.ref)

    def read(self, total: int) -> int:
        """The total as the table reads it, after clamping."""
        if self.clamp is None:
            return total
        if self.clamp.low is not None:
            total = max(total, self.clamp.low)
        if self.clamp.high is not None:
            total = min(total, self.clamp.high)
        return total

    def lookup(self, total: int) -> TableRow:
        """The row for a rolled total (after modifiers)."""
        if not self.ranges_given:
            raise LookupError(f"the source does not give the roll ranges of {self.title}")
        read = self.read(total)
        for row in self.rows:
            if read in row.roll:
                reads.entry(self)
                reads.entry(row)
                return row
        raise LookupError(f"{self.title} has no row for {total}")

    def odds(self, **stats: int) -> tuple[tuple[TableRow, Fraction], ...]:
        """Each row with its exact chance, given values for the stats the dice name."""
        if not self.ranges_given:
            raise LookupError(f"the source does not give the roll ranges of {self.title}")
        chances = {id(row): Fraction(0) for row in self.rows}
        for total, chance in self.dice.distribution(**stats).items():
            chances[id(self.lookup(total))] += chance
        return tuple((row, chances[id(row)]) for row in self.rows)

    def chance(self, result: str, **stats: int) -> Fraction:
        """The chance of the row whose result (or ref) is ``result``."""
        return sum((p for row, p in self.odds(**stats) if result in (row.result, row.ref)), Fraction(0))

    def row_named(self, name: str) -> TableRow:
        """The row prose names by its result (as written, in any case) or by the id its `ref:` names: a `{roll}`
        role prints its range. KeyError for none."""
        wanted = " ".join(name.split()).casefold()
        for row in self.rows:
            if wanted in (" ".join(row.result.split()).casefold(), row.ref):
                return row
        raise KeyError(f"`{self.id}` has no row `{name}`")


@dataclass(frozen=True, kw_only=True)
class Column(Entry):
    """A column of a profile matrix: its heading, what its cells hold and their bounds."""

    label: str = spec("The column heading as the source prints it.", example="ATTACK")
    type: Literal["int", "number", "dice", "target", "text", "points", "models", "inches"] = spec(
        "`int` a whole number, `number` an exact number that is not a cost (a score, a rating: whole or a fraction "
        "such as 1½), "
        "`dice` a number of dice, `target` a roll such as 4+, `points` a cost (whole or a fraction such as 1½): the "
        "only "
        "column armies are costed by, `models` how many models (figures) one of the row fields (a gun's crew), "
        '`inches` a distance in whole inches (written `6` or `6"`, printed `6"`), `text` anything.',
        "int",
    )
    min: int | None = spec("Lowest allowed value for numeric columns.", None)
    max: int | None = spec("Highest allowed value for numeric columns.", None)
    help: str = spec("What the column means, shown as a tooltip and in the key.", "")
    cells: NotGiven | None = spec(
        '`not given` (or `"not given: why"`) when the text leaves out the whole column: '
        "every row that states no cell of it has a gap there.",
        None,
        example="not given",
    )

    @property
    def numeric(self) -> bool:
        return self.type != "text"


@dataclass(frozen=True, kw_only=True)
class ValueCell(Located):
    """A profile cell that names a value (`score: {value: bowmen_score}`) rather than typing its number again:
    printed as the value (a house rule marked, with the original), computed with as the value's magnitude."""

    value: str = spec(
        "Id of the value the cell shows; it must fit the column's type and bounds.", example="bowmen_score"
    )


@dataclass(frozen=True, kw_only=True)
class ProfileRow(ForAudience):
    """A row of a profile matrix (a troop type, a model, a character): its name, its cells by column, its special
    rules."""

    name: str = spec("The troop type, model or character.", example="Spearmen")
    values: MappingProxyType = field(default_factory=lambda: MappingProxyType({}), metadata={"internal": True})
    keywords: tuple[str, ...] | NotGiven = spec(
        "Special rules with parameters, as declared in `keywords:`; `not given` if the source omits them.",
        (),
        example="[SHOOTS 12, Dodge]",
    )
    note: Markdown = spec("A remark on this row.", Markdown(""))
    movement: str = spec(
        "Id of the value giving how far this troop type moves, where it differs from the matrix's `movement`.",
        "",
        example="mounted_move",
    )
    counts_as: str = spec(
        "What one of this row is when an army is counted: `units` (the default), or a count of the "
        "ruleset's own that army limits and rosters use instead (a gun: `guns`; and `guns_points`, the points "
        "spent on their lines, upgrades and heroes included). Its models come from the `models` column either way "
        "(a gun's crew).",
        "units",
        example="guns",
    )

    def __getitem__(self, column: str):
        return self.values[column]

    def __getattr__(self, name: str):
        """Only for a name the row has no attribute of: a column's id read as one (``row.<column>``) says a cell is
        read by subscript (``row["<column>"]``)."""
        cells = self.__dict__.get("values", {})  # never self.values: a copy being made asks before its fields are set
        if not name.startswith("_") and name in cells:
            raise AttributeError(
                f"{type(self).__name__} has no attribute {name!r}: a cell is read by its column's id, "
                f'as row["{name}"]',
                name=name,
                obj=self,
            )
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self)

    def named_values(self) -> tuple[tuple[str, ValueCell], ...]:
        """(column id, cell) for each cell that names a value."""
        return tuple((column, cell) for column, cell in self.values.items() if isinstance(cell, ValueCell))

    def keyword(self, name: str) -> tuple[int, ...] | None:
        """The parameters of keyword ``name`` on this row, or None if it lacks it."""
        if isinstance(self.keywords, NotGiven):
            raise LookupError(f"the source does not give the special rules of {self.name}")
        for written in self.keywords:
            keyword, params = split_keyword(written)
            if keyword.casefold() == name.casefold():
                return tuple(int(param) for param in params)
        return None


MOST_BOXES = 12  # the boxes a unit's row of a roster holds for one thing it tracks


def turns_count(stated) -> int | None:
    """A value read as a number of turns (`6 turns`, `6`): a whole count of at least one, else None."""
    if getattr(stated, "kind", "") in ("count", "number"):
        stated = stated.magnitude
    if isinstance(stated, bool) or not isinstance(stated, int | Fraction) or stated < 1:
        return None
    return int(stated) if stated == int(stated) else None


@dataclass(frozen=True, kw_only=True)
class Track(Cited):
    """Something the players keep count of for each unit in play (hit markers, actions, tokens), as the rules
    say: rosters and cards print boxes for it."""

    # where the rules say so: one of them, checked with the profile (validate.profiles), so that a track without
    # any is told with the rest of its matrix's problems rather than leave the matrix unloaded
    one_of_checked: ClassVar[tuple[tuple[str, ...], ...]] = (("term", "rule", "source"),)

    label: str = spec("What is tracked, as a column heading.", example="Hit markers")
    boxes: int | None = spec(
        "How many boxes each unit gets, when the rules give a number (one action a turn: 1); "
        "empty when the count is open, and a tally space is printed.",
        None,
        example="1",
    )
    per: Literal["game", "turn"] = spec("`turn` when the marks are cleared every turn, `game` when they stay.", "game")
    turns: str = spec(
        "For marks cleared every turn: id of the value giving how many turns a game lasts (a count), so rosters "
        "print the boxes once per turn, numbered, rather than once to rub out.",
        "",
        example="game_length",
    )
    term: str = spec("Id of the glossary term for what is tracked (a wound marker).", "", example="wound_marker")
    rule: str = spec("Id of the rule that makes the players track it.", "", example="taking_turns")


@dataclass(frozen=True, kw_only=True)
class ProfileMatrix(ForAudience):
    """A profile matrix: declared, typed, bounded columns and one row per troop type."""

    title: str = spec("The matrix's heading.", example="Troop profile matrix")
    columns: tuple[Column, ...] = spec("The columns, keyed by id, in print order.")
    rows: tuple[ProfileRow, ...] = spec(
        "The rows, keyed by id; each cell keyed by column id; `not given` where the source omits it."
    )
    chapter: str = spec("The chapter (id) where the matrix is printed.", "")
    note: Markdown = spec("Prose printed under the matrix (footnotes, keys).", Markdown(""))
    movement: str = spec(
        "Id of the value giving how far the troop types move, when the rules give it rather than a column; "
        "a row's own `movement` overrides it.",
        "",
        example="move",
    )
    tracks: tuple[Track, ...] = spec(
        "What players keep count of for each unit in play, keyed by id, in print order: "
        "rosters and cards print boxes for each.",
        (),
    )
    row_label: str = spec(
        "What a row is, heading its names wherever the matrix prints (a terrain chart's `Terrain`).",
        "Troop type",
        example="Terrain",
    )
    pieces: bool = spec(
        "Whether its rows are pieces in play (troops, characters): each gets a card, and the matrix a blank roster; "
        "`false` for a chart of other things (terrain, weather) printed as a table alone.",
        True,
    )
    quick_reference: bool | QuickMark = quick_field("profile matrix", True)

    def row(self, id_or_name: str) -> ProfileRow:
        key = id_or_name.casefold().replace(" ", "_")
        for row in self.rows:
            if row.id == key or row.name.casefold() == id_or_name.casefold():
                return row
        raise KeyError(id_or_name)

    def column(self, id: str) -> Column:
        return next(c for c in self.columns if c.id == id)

    def movement_of(self, row: ProfileRow) -> str:
        """Id of the value giving how far ``row`` moves ("" when the data gives none)."""
        return row.movement or self.movement

    @property
    def has_movement(self) -> bool:
        """The matrix or one of its rows names how far troops move: every rendering of it prints a Move column."""
        return bool(self.movement or any(row.movement for row in self.rows))

    def names(self) -> tuple[Named, ...]:
        """The keywords and values its player rows name, then the values its own movement and tracks name."""
        rows = [row for row in self.rows if not gm_only(row)]
        named = [name for row in rows for name in _keyword_names(row)]
        for row in rows:
            named += [Named(cell.value, cell.loc, ("values",)) for _column, cell in row.named_values()]
            if row.movement:
                named.append(Named(row.movement, value_loc(row, "movement"), ("values",)))
        if self.movement:
            named.append(Named(self.movement, value_loc(self, "movement"), ("values",)))
        named += [Named(track.turns, value_loc(track, "turns"), ("values",)) for track in self.tracks if track.turns]
        return tuple(named)


@dataclass(frozen=True, kw_only=True)
class Spell(ForAudience):
    """A spell: where it sits on its spell table, its range, casting value, effect and duration."""

    name: str = spec("The spell's name as the source spells it.", example="Fireball")
    table: str = spec("Id of the roll table the spell is found on.", "")
    roll: RollRange | None = spec(
        "The spell's roll on that table, written as its row's is (`3`, `1-2`, `5+`): the row's whole range. "
        "Left out, it is the range of the row whose `ref:` names the spell.",
        None,
        example="1-2",
    )
    range: int | None | NotGiven = spec(
        "Range in the ruleset's unit (inches, hexes); empty if the spell has none.", None
    )
    range_unit: str = spec("Unit of the range.", "hexes")
    casting_value: int | None | NotGiven = spec("The target on the casting dice, if the system has one.", None)
    target: str = spec("Who or what it may be cast on.", "")
    effect: Markdown = spec("What the spell does.")
    duration: str = spec("How long the effect lasts.", "", example="rest of the turn")
    quick_reference: bool | QuickMark = quick_field("spell (its range, duration and effect, or the summary)", True)
    chapter: str = spec("The chapter (id) where it is printed; without one it gets a page of its kind.", "")

    def names(self) -> tuple[Named, ...]:
        return (Named(self.table, value_loc(self, "table"), ("tables",)),) if self.table else ()


@dataclass(frozen=True, kw_only=True)
class Item(ForAudience):
    """A piece of equipment or other item with rules attached."""

    name: str = spec("The item's name.", example="Lantern")
    kind: str = spec(
        "What sort of item: one of the ruleset's `item_kinds`, when it declares them.", "item", example="blade"
    )
    rules: Markdown = spec("What it does.")
    keywords: tuple[str, ...] = spec("Keywords it grants, as declared in `keywords:`.", ())
    points: Points | None | NotGiven = spec(
        "Its cost, if the ruleset has points (whole or a fraction such as 1½).", None
    )
    quick_reference: bool | QuickMark = quick_field("item (its points and rules, in the points list)", True)
    chapter: str = spec("The chapter (id) where it is printed; without one it gets a page of its kind.", "")

    def names(self) -> tuple[Named, ...]:
        return _keyword_names(self)


@dataclass(frozen=True, kw_only=True)
class Hero(ForAudience):
    """A hero type that joins a unit and grants it an ability."""

    name: str = spec("The hero's name.", example="Bold hero")
    level: str = spec(
        "The hero's level, for the army limits: one of the ruleset's `hero_levels`, which it must give "
        "when the ruleset declares them.",
        "",
        example="major",
    )
    ability: Markdown = spec("What the hero gives the unit or force.")
    points: Annotated[Points, Bounds(0)] | None | NotGiven = spec(
        "What the hero costs on top of the unit; empty in a ruleset balanced by head-count, where nothing costs "
        "points.",
        None,
        example="2",
    )
    quick_reference: bool | QuickMark = quick_field("hero (its points and ability, in the points list)", True)
    chapter: str = spec("The chapter (id) where it is printed; without one it gets a page of its kind.", "")


@dataclass(frozen=True, kw_only=True)
class Cost(Cited):
    """A points cost that is not a troop type: an upgrade, or something bought once for the whole force."""

    name: str = spec("What is bought.", example="Standard bearer")
    points: Annotated[Points, Bounds(0)] | NotGiven = spec(
        "What it costs (whole or a fraction such as 1½).", example="3"
    )
    added_to_unit: bool = spec("True when it is paid on top of a unit's own cost.", False)
    troops: tuple[str, ...] = spec(
        "Added to a unit: the troop types (profile row ids) it may be bought for; none named: any.",
        (),
        example="[warriors, longbeards]",
    )
    quick_reference: bool | QuickMark = quick_field("cost (in the points list)", True)
    chapter: str = spec("The chapter (id) where it is printed; without one it gets a page of its kind.", "")


@dataclass(frozen=True, kw_only=True)
class ArmyLimit(Cited):
    """A limit every army list must keep: `count` at least `at_least` and at most `at_most`, all arithmetic on army
    counts."""

    one_of: ClassVar[tuple[tuple[str, ...], ...]] = (("at_most", "at_least"),)

    title: str = spec("The limit in words.", example="No more heroes than half the units")
    count: str = spec("What is counted: an expression over the army's counts.", example="minor_heroes + major_heroes")
    at_most: str = spec(
        "The most allowed: an expression over the army's counts (`//` divides rounding down, `/` exactly). "
        "A limit needs `at_most`, `at_least` or both.",
        "",
        example="units // 2",
    )
    at_least: str = spec(
        "The fewest allowed: an expression over the army's counts, as for `at_most`.", "", example="units / 3"
    )
    quick_reference: bool | QuickMark = quick_field("army limit", True)
    chapter: str = spec("The chapter (id) where it is printed; without one it gets a page of its kind.", "")
    coverage: str = coverage_field()
    # set by an overlay on the limits it adds (a tournament pack's): a house rule, not the text's
    house: bool = field(default=False, metadata={"internal": True})

    def names(self) -> tuple[Named, ...]:
        """The heroes and troop types its expressions count by id."""
        return tuple(
            Named(name, value_loc(self, field), ("hero", "troop"))
            for field in ("count", "at_most", "at_least")
            for name in sorted(limit_names(getattr(self, field)))
        )


def limit_names(text: str) -> set[str]:
    """The names an army-limit expression uses (none when it does not parse: the limits check reports that)."""
    try:
        tree = ast.parse(str(text).strip() or "0", mode="eval")
        return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()  # reported by the limits check


@dataclass(frozen=True, kw_only=True)
class ArmyUnit(Located):
    """One line of an army list: a troop type, how many, and the heroes, spells and upgrades it takes."""

    troop: str = spec("Id of the troop type's row in the army's profile matrix.", example="archer")
    count: Annotated[int, Bounds(1, 100)] = spec("How many units of that type.", 1)
    points: Points | None = spec(
        "The points the list states for this line, checked against the matrix.", None, example="10"
    )
    models: Annotated[int, Bounds(1)] | None = spec(
        "The models (figures) the list states for this line in all, checked against the matrix's `models` column; "
        "where the matrix has none (or it is `not given`), this is the line's head-count.",
        None,
        example="20",
    )
    upgrades: tuple[str, ...] = spec("Ids of `costs:` bought for each unit of this line (a standard bearer...).", ())
    heroes: tuple[str, ...] = spec("Ids of heroes added to (each) unit of this line.", ())
    spells: tuple[str, ...] = spec(
        "Ids of spells the unit carries (what they are called is the ruleset's `carried_spells:`).", ()
    )


@dataclass(frozen=True, kw_only=True)
class ArmyList(ForAudience):
    """An army list: units from a profile matrix, with upgrades, checked against its agreed points or head-count,
    and limits."""

    one_of: ClassVar[tuple[tuple[str, ...], ...]] = (("agreed_points", "agreed_models"),)

    title: str = spec("The list's name.", example="A 40 point rearguard")
    matrix: str = spec("Id of the profile matrix the units come from.", example="troops")
    agreed_points: Annotated[Points, Bounds(1)] | None | NotGiven = spec(
        "The points both players agreed to spend; `not given` when the text does not say. A list needs "
        "`agreed_points`, "
        "`agreed_models` or both.",
        None,
        example="30",
    )
    agreed_models: Annotated[int, Bounds(1)] | None | NotGiven = spec(
        "For armies balanced by head-count: the most models (figures) each player may field; `not given` when the text "
        "does not say. A line's models come from the matrix's `models` column times its `count`, or from the line's "
        "`models:`.",
        None,
        example="20",
    )
    units: tuple[ArmyUnit, ...] = spec(
        "The lines of the list. A line written wrong is told and left out, and the other lines are still checked.",
        apart=True,
    )
    extras: tuple[str, ...] = spec("Ids of `costs:` bought once for the whole force (a banner, a blessing...).", ())
    total: Points | None = spec("The points total the list states, checked against the sum.", None, example="30")
    note: Markdown = spec("Prose shown with the roster.", Markdown(""))
    chapter: str = spec("The chapter (id) where it is printed; without one it gets a page of its kind.", "")

    def names(self) -> tuple[Named, ...]:
        """Its matrix; once that is found, each line's troop type in it, and the line's heroes and spells."""
        lines = tuple(
            name
            for unit in self.units
            for name in (
                Named(unit.troop, value_loc(unit, "troop"), ("row",)),
                *(Named(id, item_loc(unit, "heroes", index), ("heroes",)) for index, id in enumerate(unit.heroes)),
                *(Named(id, item_loc(unit, "spells", index), ("spells",)) for index, id in enumerate(unit.spells)),
            )
        )
        return (Named(self.matrix, value_loc(self, "matrix"), ("profiles",), lines),)


@dataclass(frozen=True, kw_only=True)
class VictoryPoints(ForAudience):
    """Victory points: what scores, of which declared kind, and how many points."""

    name: str = spec("What scores.", example="The enemy leader")
    kind: str = spec(
        "What sort of thing scores: one of the ruleset's `victory_point_kinds`, when it declares them.",
        example="leader",
    )
    points: Annotated[Points, Bounds(0)] | NotGiven = spec(
        "Points scored (whole or a fraction such as 1½); `not given` prints as a blank box.", NotGiven()
    )
    hidden: bool = spec("A hidden task: players learn of it only when the game-master says so.", False)
    condition: Markdown = spec("When the points are scored.", Markdown(""))
    chapter: str = spec("The chapter (id) where it is printed; without one it gets a page of its kind.", "")

    @property
    def gm_only(self) -> bool:
        return self.hidden or self.audience == "gm"
