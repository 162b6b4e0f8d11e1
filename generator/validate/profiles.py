"""Profile matrices: the values their cells and movement name fit, and what their play aids track is real."""

from __future__ import annotations

import dataclasses
import re

from ..diagnostics import Code, Diagnostic, did_you_mean
from ..model.base import NotGiven, value_loc
from ..model.entries import MOST_BOXES, Column, turns_count
from ..model.ruleset import Ruleset
from .references import unknown_ref


def check_play_aids(ruleset: Ruleset):
    """A matrix's movement names a distance in `values:`, and what it tracks names real terms and rules, once each."""
    for matrix in ruleset.profiles:
        for owner in (matrix, *matrix.rows):
            if owner.movement:
                yield from _movement_errors(ruleset, owner)
        labels: dict[str, str] = {}
        for track in matrix.tracks:
            yield from _track_errors(ruleset, track)
            key = track.label.casefold()
            if key in labels:
                yield Diagnostic(
                    Code.DUPLICATE_ID,
                    f"`{track.id}` tracks {track.label!r}, as `{labels[key]}` already does",
                    value_loc(track, "label"),
                    "track each thing once",
                )
            labels[key] = track.id


def _movement_errors(ruleset: Ruleset, owner):
    loc = value_loc(owner, "movement")
    if (d := unknown_ref(ruleset, "values", owner.movement, loc, "movement")) is not None:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", owner.movement):  # `movement: 6 inches`: a distance, not its id
            d = dataclasses.replace(
                d,
                hint='`movement:` names the id of a value written as a distance (`move: {value: 6"}` in '
                "`values:`), not the distance itself",
            )
        yield d
    elif not ruleset.is_unloaded(owner.movement, "values"):
        stated = ruleset.value(owner.movement).value
        if not isinstance(stated, NotGiven) and getattr(stated, "kind", "") != "distance":
            yield Diagnostic(
                Code.BAD_VALUE,
                f"movement `{owner.movement}` is {stated}, not a distance",
                loc,
                'name a value written as a distance: 6", 2 hexes',
            )


def _track_errors(ruleset: Ruleset, track):
    for name, section in (("term", "glossary"), ("rule", "rules")):
        target = getattr(track, name)
        if target and (d := unknown_ref(ruleset, section, target, value_loc(track, name), name)) is not None:
            yield d
    if track.boxes is not None and not 1 <= track.boxes <= MOST_BOXES:
        yield Diagnostic(
            Code.OUT_OF_RANGE,
            f"`{track.id}` asks for {track.boxes} boxes; a unit's row holds 1 to {MOST_BOXES}",
            value_loc(track, "boxes"),
            "leave `boxes` out for an open count: a tally space is printed",
        )
    if track.turns:
        yield from _turns_errors(ruleset, track)
    if not any(getattr(track, name) for name in track.one_of_checked[0]):
        yield Diagnostic(
            Code.MISSING_FIELD,
            f"`{track.id}` says what is tracked but not where the rules say so",
            track.loc,
            "name the glossary `term`, the `rule` or the `source` that makes players track it",
        )


def _turns_errors(ruleset: Ruleset, track):
    """`turns` names a count of turns, on a track cleared every turn, and the boxes of every turn fit a unit's row."""
    loc = value_loc(track, "turns")
    if track.per != "turn":
        yield Diagnostic(
            Code.BAD_VALUE,
            f"`{track.id}` prints its boxes once per turn (`turns`), but its marks stay all game",
            loc,
            "write `per: turn`, or leave `turns` out",
        )
    if (d := unknown_ref(ruleset, "values", track.turns, loc, "turns")) is not None:
        yield d
        return
    if ruleset.is_unloaded(track.turns, "values"):
        return
    stated = ruleset.value(track.turns).value
    if isinstance(stated, NotGiven):
        return  # printed as one set of boxes, rubbed out each turn
    count = turns_count(stated)
    if count is None:
        yield Diagnostic(
            Code.BAD_VALUE,
            f"turns `{track.turns}` is {stated}, not a whole number of turns",
            loc,
            "name a value written as a count: 6 turns",
        )
    elif count * (boxes := track.boxes or 1) > MOST_BOXES:
        yield Diagnostic(
            Code.OUT_OF_RANGE,
            f"`{track.id}` asks for {boxes} {'box' if boxes == 1 else 'boxes'} in each of {count} turns, "
            f"{boxes * count} in all; a unit's row holds 1 to {MOST_BOXES}",
            loc,
            "leave `turns` out: one set of boxes is printed, rubbed out each turn",
        )


def check_value_cells(ruleset: Ruleset):
    """A profile cell that names a value names one the ruleset has, of the column's kind and within its bounds:
    checked with this ruleset's values, so an overlay's house value that breaks the column is refused too."""
    for matrix in ruleset.profiles:
        for row in matrix.rows:
            for column_id, written in row.named_values():
                column = matrix.column(column_id)
                if ruleset.is_unloaded(written.value, "values"):
                    continue  # its own error is reported
                ids = [v.id for v in ruleset.reachable("values")]
                if written.value not in ids:
                    yield Diagnostic(
                        Code.UNKNOWN_REF,
                        f"{column.label} of `{row.id}` names value `{written.value}`, which is not in `values:`",
                        written.loc,
                        did_you_mean(written.value, ids),
                    )
                else:
                    value = ruleset.value(written.value)
                    problem = _cell_misfit(column, value.value)
                    if problem:
                        # a house value that breaks a column the text's value fits is the overlay's doing: say so there
                        overlays = value.is_house_rule and _cell_misfit(column, value.original) is None
                        where = value.loc if overlays else written.loc
                        yield Diagnostic(
                            Code.WRONG_TYPE if problem[0] == "kind" else Code.OUT_OF_RANGE,
                            f"{column.label} of `{row.id}` names value `{value.id}`, which is {problem[1]}",
                            where,
                            _CELL_KINDS[column.type][1]
                            if problem[0] == "kind"
                            else "name a value within the column's bounds, or widen `min`/`max`",
                        )


# What a profile cell naming a value may name, by column type: (the kinds and units that fit, the hint)
_CELL_KINDS = {
    "int": ((("number", ""), ("count", None)), "name a whole number such as 3", "a whole number"),
    "dice": ((("number", ""), ("count", None)), "name a number of dice such as 3", "a number of dice"),
    "models": ((("number", ""), ("count", "models")), "name a number of models such as 10", "a number of models"),
    "points": ((("number", ""), ("count", "points")), "name a number of points such as 3 or 1½", "a number of points"),
    "number": ((("number", ""), ("count", None)), "name a number such as 3 or 1½", "a number"),
    "target": ((("target", ""),), "name a target roll such as 4+", "a target roll"),
    "inches": (
        (("number", ""), ("distance", "inches")),
        'name a distance in inches such as 6"',
        "a distance in inches",
    ),
    "text": ((), "any value fits a text column", "a text"),
}

_FRACTIONS_FIT = {"points", "number"}  # a score such as 1½ is a number; a count of dice or models is whole


def _cell_misfit(column: Column, stated) -> tuple[str, str] | None:
    """("kind" or "bounds", what is wrong) when a stated value cannot stand in the column's cell; None when it fits
    (a value the text does not give is a gap, as `not given` is)."""
    if isinstance(stated, NotGiven) or column.type == "text":
        return None
    fits, _hint, wanted = _CELL_KINDS[column.type]
    if not any(stated.kind == kind and (unit is None or stated.unit == unit) for kind, unit in fits):
        return "kind", f"{stated}, not {wanted}"
    magnitude = stated.magnitude
    if column.type not in _FRACTIONS_FIT and getattr(magnitude, "denominator", 1) != 1:
        return "kind", f"{stated}, not {wanted} (a whole number)"
    if (column.min is not None and magnitude < column.min) or (column.max is not None and magnitude > column.max):
        low = "" if column.min is None else f"at least {column.min}"
        high = "" if column.max is None else f"at most {column.max}"
        return "bounds", f"{stated}; {column.label} is {' and '.join(p for p in (low, high) if p)}"
    return None
