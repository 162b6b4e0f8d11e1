"""The Warhammer Fantasy charts as the rulebook prints them, typed cell by cell: the oracle of the chart tests."""

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
