"""The Warhammer Fantasy charts as the rulebook prints them, typed cell by cell, and shooting by
enumerating two dice: the oracles of the chart tests."""

import itertools
from fractions import Fraction

FACES = range(1, 7)

N = None  # "no effect"

# The Warhammer Fantasy to-hit chart: attacker's WS (rows) against defender's WS (columns 1-10).
TO_HIT_CHART = {
    1: [4, 4, 5, 5, 5, 5, 5, 5, 5, 5],
    2: [3, 4, 4, 4, 5, 5, 5, 5, 5, 5],
    3: [3, 3, 4, 4, 4, 4, 5, 5, 5, 5],
    4: [3, 3, 3, 4, 4, 4, 4, 4, 5, 5],
    5: [3, 3, 3, 3, 4, 4, 4, 4, 4, 4],
    6: [3, 3, 3, 3, 3, 4, 4, 4, 4, 4],
    7: [3, 3, 3, 3, 3, 3, 4, 4, 4, 4],
    8: [3, 3, 3, 3, 3, 3, 3, 4, 4, 4],
    9: [3, 3, 3, 3, 3, 3, 3, 3, 4, 4],
    10: [3, 3, 3, 3, 3, 3, 3, 3, 3, 4],
}

# The Warhammer Fantasy to-wound chart: Strength (rows) against Toughness (columns 1-10).
# 6+ at T = S+2 and at T = S+3; "no effect" only from T = S+4.
TO_WOUND_CHART = {
    1: [4, 5, 6, 6, N, N, N, N, N, N],
    2: [3, 4, 5, 6, 6, N, N, N, N, N],
    3: [2, 3, 4, 5, 6, 6, N, N, N, N],
    4: [2, 2, 3, 4, 5, 6, 6, N, N, N],
    5: [2, 2, 2, 3, 4, 5, 6, 6, N, N],
    6: [2, 2, 2, 2, 3, 4, 5, 6, 6, N],
    7: [2, 2, 2, 2, 2, 3, 4, 5, 6, 6],
    8: [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    9: [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    10: [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
}


def shooting_by_enumeration(bs: int, modifier: int) -> Fraction:
    """Two dice: one roll up to 6+ (a natural 1 misses); 7+ a 6 then 4+, 8+ a 6 then 5+, 9+ a 6 then 6+."""
    needed = 7 - bs - modifier

    def hits(first, second):
        if first == 1:
            return False
        if needed <= 6:
            return first >= needed
        return needed <= 9 and first == 6 and second >= needed - 3

    return Fraction(sum(1 for roll in itertools.product(FACES, FACES) if hits(*roll)), 36)
