"""Dice counted face by face, the oracle of the tests that check what the engine says about rolls of many dice."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

FACES = range(1, 7)


def hits_by_counting(attack: int, armour: int) -> dict[int, Fraction]:
    """Every face of every attack die (up to five dice), else the count of ways to pick which dice hit."""
    beats = sum(1 for face in FACES if face > armour)
    if attack <= 5:
        counted: dict[int, int] = {}
        for faces in itertools.product(FACES, repeat=attack):
            hits = sum(1 for face in faces if face > armour)
            counted[hits] = counted.get(hits, 0) + 1
        return {hits: Fraction(n, 6**attack) for hits, n in sorted(counted.items())}
    ways = {hits: comb(attack, hits) * beats**hits * (6 - beats) ** (attack - hits) for hits in range(attack + 1)}
    return {hits: Fraction(n, 6**attack) for hits, n in ways.items() if n}
