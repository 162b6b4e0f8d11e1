"""The victory-point checklist as plain data: a group per kind, with tally lines.

The kinds are those the ruleset declares (`victory_point_kinds:`), in that order, else
those its victory points use. Each group is headed as `victory_point_sheet: kinds:` says,
else by its kind; the player line names the side as `victory_point_sheet: side:` says.

The player's checklist never names a game-master-only entry: hidden tasks become
anonymous "Hidden task" lines to fill in when the game-master announces one, and other
gm-only entries are left out entirely. The game-master's is an overview of the whole game:
every line, hidden ones with their points, and a column for each player. Points the source does not give stay ``None``,
printed as a blank box to fill in by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model.base import Markdown, NotGiven
from ...model.entries import KindHeading, VictoryPointSheet, for_audience, visible_to
from ...model.points import Number, points_text
from ...model.ruleset import Ruleset
from ..present import alternatives, capitalized, cites_a_source, source_title
from .quickref import cite

HIDDEN_LINES = 3  # at least this many anonymous hidden-task lines, so their number gives nothing away
OVERVIEW_SIDES = 5  # the game-master's sheet: a column per player, this many (a form; no rule says how many play)
HIDDEN_TASK = "Hidden task"


@dataclass(frozen=True)
class VpLine:
    name: str  # empty for a write-in line
    points: Number | None  # None: a blank box
    condition: Markdown = Markdown("")
    hidden: bool = False  # an anonymous hidden-task line (player) or a hidden entry (gm)

    @property
    def points_shown(self) -> str:
        return "" if self.points is None else points_text(self.points)


@dataclass(frozen=True)
class VpGroup:
    kind: str
    title: str
    lines: tuple[VpLine, ...]


@dataclass(frozen=True)
class VpChecklist:
    ruleset: str
    title: str
    audience: str
    groups: tuple[VpGroup, ...]
    sources: tuple[str, ...]
    side: str = VictoryPointSheet.side  # what a player writes in beside their name
    ticked: str = ""  # what one box is ticked for: the kinds, as a choice
    sides: int = 1  # columns of points to fill in: one player's, or every player's on the game-master's overview
    gap_key: str = ""  # what an empty box of points is, where the sheet prints one ("" where none is printed)

    @property
    def has_gaps(self) -> bool:
        return any(line.points is None for group in self.groups for line in group.lines)


def has_victory_points(ruleset: Ruleset) -> bool:
    return bool(ruleset.victory_points)


def kinds(ruleset: Ruleset) -> tuple[str, ...]:
    """The checklist's groups: the declared victory-point kinds, else the kinds in use, in order."""
    return ruleset.meta.victory_point_kinds or tuple(dict.fromkeys(v.kind for v in ruleset.victory_points))


def kind_heading(ruleset: Ruleset, kind: str) -> KindHeading:
    """How the checklist heads ``kind``: as the ruleset declares, else by the kind's own name."""
    declared = {heading.id: heading for heading in ruleset.meta.victory_point_sheet.kinds}
    return declared.get(kind) or KindHeading(id=kind, title=capitalized(kind))


def _points(entry) -> Number | None:
    return None if isinstance(entry.points, NotGiven) else entry.points


def _group(ruleset: Ruleset, heading: KindHeading, audience: str) -> VpGroup:
    kind = heading.id
    entries = [v for v in ruleset.victory_points if v.kind == kind]
    lines = []
    for entry in entries:
        if visible_to(entry, audience):
            lines.append(VpLine(entry.name, _points(entry), entry.condition, hidden=entry.gm_only))
    hidden = sum(1 for v in entries if v.hidden)
    if audience == "player" and hidden:
        lines += [VpLine(HIDDEN_TASK, None, hidden=True)] * max(HIDDEN_LINES, hidden)
    lines += [VpLine("", None)] * heading.write_in_lines
    return VpGroup(kind, heading.title, tuple(lines))


def victory_checklist(ruleset: Ruleset, audience: str = "player") -> VpChecklist:
    if audience not in ("player", "gm"):
        raise ValueError(f"audience is `player` or `gm`, not `{audience}`")
    shown = for_audience(ruleset.victory_points, audience)
    groups = tuple(_group(ruleset, kind_heading(ruleset, kind), audience) for kind in kinds(ruleset))
    # where every entry is the game-master's, the players' sheet still names the rules it is of
    sources = tuple(dict.fromkeys(c for v in shown if (c := cite(v, ruleset)))) or (
        (source_title(ruleset),) if cites_a_source(ruleset) else ()
    )
    return VpChecklist(
        ruleset.id,
        ruleset.title,
        audience,
        groups,
        sources,
        side=ruleset.meta.victory_point_sheet.side,
        ticked=alternatives(kinds(ruleset)),
        sides=OVERVIEW_SIDES if audience == "gm" else 1,
        gap_key=_gap_key(ruleset),
    )


def _gap_key(ruleset: Ruleset) -> str:
    """What an empty box of points is: points the source text leaves out, or (a game with no source) points to write
    in; where the ruleset says where players find them, that too."""
    said = "the source does not give the points" if cites_a_source(ruleset) else "points to write in"
    note = ruleset.meta.victory_point_sheet.gap_note
    return f"{said} ({note})" if note else said
