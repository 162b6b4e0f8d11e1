"""What each unit of a profile matrix keeps count of in play, as rosters, cards and the army builder print it."""

from __future__ import annotations

from ..model.entries import turns_count
from ..model.ruleset import Ruleset

TALLY_BOXES = 10  # room to tick an open count: two rows of five, the count going on past them in the margin


def tracks(ruleset: Ruleset, matrix) -> list[dict]:
    """What each unit keeps count of, as the data declares it: a label, its boxes (an open count: a tally of
    boxes to tick), when they clear, and the turns they are printed for."""
    found = []
    for track in matrix.tracks:
        help = ""
        if track.term:
            term = ruleset.get("glossary", track.term)
            help = " ".join(str(term.definition).split())
        turns = turns_count(ruleset.value(track.turns).value) if track.turns else None
        found.append(
            {
                "id": track.id,
                "label": track.label,
                "boxes": list(range(track.boxes)) if track.boxes else None,
                "tally": None if track.boxes else list(range(TALLY_BOXES)),
                "turns": list(range(1, turns + 1)) if turns else None,
                "turns_label": ruleset.value(track.turns).label if turns else "",
                "per": "each turn" if track.per == "turn" else "",
                "help": help,
            }
        )
    return found
