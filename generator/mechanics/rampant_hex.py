"""Blood, Guts and Rampant Hex: attack dice against armour, moral checks, scrolls.

Source: 004_7d410289ba4fa7f8.txt. Probabilities are exact (icepool); the
functions take plain numbers so that examples read like the rules.
"""

from __future__ import annotations

from fractions import Fraction

import icepool

__all__ = [
    "attack_hits", "hits_distribution", "expected_hits", "chance_of_a_hit",
    "passes_moral", "moral_pass_chance", "misspell_chance", "ranged_attack_reaches",
]

D6 = icepool.d6


def attack_hits(rolls: list[int] | tuple[int, ...], armour: int) -> int:
    """Hits from rolled attack dice: each die that scores higher than ARMOUR is one hit."""
    return sum(1 for roll in rolls if roll > armour)


def hits_distribution(attack: int, armour: int, armour_bonus: int = 0) -> dict[int, Fraction]:
    """The exact chance of each number of hits from ATTACK dice against ARMOUR."""
    hits = attack @ (D6 > armour + armour_bonus)
    return {int(h): hits.probability(h) for h in range(attack + 1)}


def expected_hits(attack: int, armour: int) -> Fraction:
    return sum((h * p for h, p in hits_distribution(attack, armour).items()), Fraction(0))


def chance_of_a_hit(attack: int, armour: int) -> Fraction:
    return 1 - hits_distribution(attack, armour)[0]


def passes_moral(rolls: list[int] | tuple[int, ...], hit_markers: int, bonus: int = 0) -> bool:
    """A moral check passes if any die (plus a hero's bonus) is higher than the hit markers."""
    return any(roll + bonus > hit_markers for roll in rolls)


def moral_pass_chance(moral: int, hit_markers: int, extra_dice: int = 0, bonus: int = 0) -> Fraction:
    """The chance of passing a moral check with MORAL dice (plus command dice) against the markers."""
    dice = moral + extra_dice
    if dice <= 0:
        return Fraction(0)
    best = D6.pool(dice).highest(1).sum() + bonus
    return best.probability(">", hit_markers)


def misspell_chance() -> Fraction:
    """Faulty scrolls: a 1 on the D6 rolled before each casting."""
    return D6.probability(1)


def ranged_attack_reaches(range_hexes: int, distance_hexes: int) -> bool:
    """`RANGED ATTACK 3` reaches any enemy unit up to 3 hexes away."""
    return distance_hexes <= range_hexes
