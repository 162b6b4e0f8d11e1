"""This ruleset's own mechanics: procedures its data cannot say as a formula.

It runs for this ruleset alone, with `rules` (the ruleset) and `values` (every value
by id) already in scope. Read numbers from `values`, never type them here: `check`
warns on any number but 0 and 1. Examples can call what `__all__` lists.
"""

__all__ = ["casualties"]


def casualties(winner_score, loser_score) -> int:
    """Models the side that scored less loses: one per point of difference, rounded down."""
    return int(max(0, winner_score - loser_score) // 1)
