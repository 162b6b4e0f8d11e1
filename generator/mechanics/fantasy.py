"""Warhammer Fantasy style charts that the Shellendrak skirmish (000) and Bad Moon Rising (001) lean on.

The to-hit and to-wound charts are the Warhammer Fantasy rulebook's, which the
texts use without printing ("The skirmish uses the same to hit chart and wound
charts as in the Warhammer Fantasy rulebook"). Armour follows 000's own rule;
its critical hits, injuries and other mechanics are in :mod:`shellendrak`.
Targets are whole numbers (4 means 4+); ``None`` means the roll cannot succeed
("no effect", "no save"). Chances are exact ``Fraction``s.
"""

from __future__ import annotations

from fractions import Fraction

import icepool

__all__ = [
    "to_hit_melee", "to_wound", "to_hit_shooting", "armour_save", "save_chance",
    "target_chance", "target_text", "shooting_chance", "SHOOTING_MODIFIERS",
]

# 000 § Shooting Phase: cover -1; "Other shooting modifiers are for moving, large target,
# and long range (more than half the range of the weapon), as in Fantasy."
SHOOTING_MODIFIERS = {"cover": -1, "moving": -1, "long range": -1, "large target": +1}


def to_hit_melee(attacker_ws: int, defender_ws: int) -> int:
    """Close combat: 3+ against a lower WS, 5+ against more than double, else 4+."""
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > 2 * attacker_ws:
        return 5
    return 4


def to_wound(strength: int, toughness: int) -> int | None:
    """S against T: 4+ when equal, one easier per point of S above (to 2+), one harder per point below; no effect from T - S >= 3."""
    difference = strength - toughness
    if difference <= -3:
        return None
    return max(2, 4 - difference)


def to_hit_shooting(bs: int, *modifiers: str) -> int:
    """The roll needed to hit: 7 - BS, then each named modifier (a -1 modifier makes the roll 1 harder).

    Results above 6 are the Fantasy 7+ rule: a 6, then another roll (see ``shooting_chance``).
    A natural 1 always misses, so nothing is easier than 2+.
    """
    needed = 7 - bs
    for name in modifiers:
        needed -= SHOOTING_MODIFIERS[name]
    return max(2, needed)


def shooting_chance(bs: int, *modifiers: str) -> Fraction:
    """The chance to hit, with 7+ as a 6 followed by 4+, 8+ by 5+, 9+ by 6+, 10+ impossible."""
    needed = to_hit_shooting(bs, *modifiers)
    if needed <= 6:
        return target_chance(needed)
    if needed <= 9:
        return target_chance(6) * target_chance(needed - 3)
    return Fraction(0)


def armour_save(base_save: int | None, strength: int, armour_piercing: bool = False) -> int | None:
    """000 § Armor: each point of Strength over 3 worsens the save by 1; armour piercing by 1 more; past 6+, no save."""
    if base_save is None:
        return None
    modified = base_save + max(0, strength - 3) + (1 if armour_piercing else 0)
    return modified if modified <= 6 else None


def target_chance(target: int | None) -> Fraction:
    """The chance to roll ``target`` or more on a D6; ``None`` (impossible) is 0."""
    if target is None:
        return Fraction(0)
    return icepool.d6.probability(">=", max(target, 1)) if target <= 6 else Fraction(0)


def save_chance(base_save: int | None, strength: int, armour_piercing: bool = False, ward: int | None = None) -> Fraction:
    """The chance a wound is saved: armour first, then the ward save (unaffected by Strength) if that fails."""
    armour = target_chance(armour_save(base_save, strength, armour_piercing))
    return armour + (1 - armour) * target_chance(ward)


def target_text(target: int | None, none: str = "–") -> str:
    return none if target is None else f"{target}+"
