"""City of the Damned combat system (Tommy Punk): injury roll, critical hits, simultaneous turns.

Source: 002_83544e0424992a45.txt. The system plugs into the City of the Damned rules
of White Dwarf 224 and 225, which the text does not print: the to-hit rolls, armour
saves and the Critical Hit Table come from there and are not modelled here.

The Injury Table gives its three results but not their roll ranges, so nothing here
turns an injury total into Knocked Down, Stunned or Out of Action. Chances are exact
``Fraction``s (icepool); the functions take plain numbers so that examples read like
the rules. Names carry a ``cotd_`` prefix because all mechanics share one namespace.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import icepool

from ..model.dice import DiceExpr

__all__ = [
    "COTD_INJURY_ROLL", "cotd_injury_total", "cotd_injury_distribution", "cotd_injury_range",
    "cotd_is_critical_hit", "cotd_injury_roll_critical", "cotd_critical_count_distribution",
    "cotd_critical_chance", "cotd_turn_order", "cotd_recovers", "cotd_recovery_chance",
    "cotd_knocked_down_to_hit_chance", "cotd_stand_up_move", "cotd_needs_roll_to_hit",
    "cotd_hit_outcome", "cotd_blunt_weapon_stuns", "cotd_blunt_stun_chance", "cotd_stunned_may_crawl",
]

D6 = icepool.d6

# "Roll a D6 and add the attackers Strength then subtract the defenders Toughness and Wounds"
COTD_INJURY_ROLL = DiceExpr.parse("D6 + S - T - W")

# Simultaneous System: "the model may stand up on the roll of 4+" / "turned into Knocked Down on the roll of 4+"
RECOVERY_TARGET = 4
# Stunned: "A model that is stunned may only crawl up to 2\"."
STUNNED_CRAWL_INCHES = 2
# Blunt weapons: "Hammer, staff, mace and club treats a result of 5-6 as stunned."
BLUNT_STUN_RESULTS = range(5, 7)
STATES = ("standing", "Knocked Down", "Stunned")


def _check_d6(roll: int, what: str) -> None:
    if not 1 <= roll <= 6:
        raise ValueError(f"{what} must be a D6 roll, 1 to 6, not {roll}")


def cotd_injury_total(d6: int, strength: int, toughness: int, wounds: int) -> int:
    """The sum looked up on the Injury Table: D6 + attacker's Strength - defender's Toughness - Wounds."""
    _check_d6(d6, "the injury D6")
    return d6 + strength - toughness - wounds


def cotd_injury_distribution(strength: int, toughness: int, wounds: int) -> dict[int, Fraction]:
    """The exact chance of each injury total for one hit."""
    return COTD_INJURY_ROLL.distribution(S=strength, T=toughness, W=wounds)


def cotd_injury_range(strength: int, toughness: int, wounds: int) -> tuple[int, int]:
    """The lowest and highest injury totals (a natural 1 and a natural 6)."""
    return COTD_INJURY_ROLL.bounds(S=strength, T=toughness, W=wounds)


def cotd_is_critical_hit(natural: int, needed: int) -> bool:
    """A natural 6 to hit is a Critical Hit, but not if a 6 was needed to hit at all.

    ``needed`` is the to-hit target (4 means 4+); anything of 6 or more, natural 6's
    included, means a 6 was needed.
    """
    _check_d6(natural, "the natural to-hit roll")
    return natural == 6 and needed < 6


def cotd_injury_roll_critical(natural: int) -> bool:
    """A natural 6 on the Injury Roll (the D6 of D6 + S) also causes a Critical Hit."""
    _check_d6(natural, "the natural injury roll")
    return natural == 6


def _criticals_after_to_hit(to_hit: int, needed: int):
    if to_hit < needed:
        return 0  # a miss: no injury roll, no critical
    return int(cotd_is_critical_hit(to_hit, needed)) + D6.map(lambda injury: int(cotd_injury_roll_critical(injury)))


def cotd_critical_count_distribution(needed: int) -> dict[int, Fraction]:
    """For one attack needing ``needed``+ to hit: the chance of 0, 1 or 2 Critical Hits.

    One can come from the to-hit roll, one from the injury roll of the hit; two add
    their effects together.
    """
    if not 2 <= needed <= 6:
        raise ValueError(f"a to-hit target on a D6 runs from 2+ to 6+, not {needed}+")
    criticals = D6.map(lambda to_hit: _criticals_after_to_hit(to_hit, needed))
    return {count: criticals.probability(count) for count in (0, 1, 2)}


def cotd_critical_chance(needed: int) -> Fraction:
    """The chance that one attack needing ``needed``+ to hit causes at least one Critical Hit."""
    return 1 - cotd_critical_count_distribution(needed)[0]


def cotd_turn_order(rolls: Mapping[str, int]) -> list[tuple[str, ...]]:
    """Simultaneous System: who moves in each phase, highest D20 first, then the next highest.

    The text does not say how ties are settled, so players with equal rolls are
    returned together, in one group, for the players to resolve.
    """
    for player, roll in rolls.items():
        if not 1 <= roll <= 20:
            raise ValueError(f"{player} rolled {roll}; a D20 rolls 1 to 20")
    by_roll: dict[int, list[str]] = {}
    for player, roll in rolls.items():
        by_roll.setdefault(roll, []).append(player)
    return [tuple(by_roll[roll]) for roll in sorted(by_roll, reverse=True)]


def cotd_recovers(roll: int) -> bool:
    """Simultaneous System, Recovery Phase: 4+ stands a Knocked Down model up, or turns a Stunned one Knocked Down."""
    _check_d6(roll, "the recovery roll")
    return roll >= RECOVERY_TARGET


def cotd_recovery_chance() -> Fraction:
    """The chance of that 4+ recovery roll."""
    return D6.probability(">=", RECOVERY_TARGET)


def cotd_knocked_down_to_hit_chance() -> Fraction:
    """Simultaneous System: a Knocked Down model may fight in HtH but needs natural 6's to hit."""
    return D6.probability(6)


def cotd_stand_up_move(normal_move: int) -> Fraction:
    """A model standing up in the Recovery Phase may use up to half his normal move (inches)."""
    return Fraction(normal_move, 2)


def cotd_stunned_may_crawl(distance: float) -> bool:
    """A Stunned model may only crawl, up to 2 inches ("up to" includes the 2")."""
    return distance <= STUNNED_CRAWL_INCHES


def _check_state(state: str) -> None:
    if state not in STATES:
        raise ValueError(f"state must be one of {', '.join(STATES)}, not {state!r}")


def cotd_needs_roll_to_hit(state: str) -> bool:
    """Roll to hit as normal, except that a hit directed against a Stunned model needs no roll to hit."""
    _check_state(state)
    return state != "Stunned"


def cotd_hit_outcome(state: str) -> str:
    """What a successful hit does to a model in ``state``.

    A standing model takes an injury roll; any successful hit against a Knocked Down
    model, or a hit against a Stunned model in subsequent turns, takes it Out of Action.
    """
    _check_state(state)
    return "Injury Table" if state == "standing" else "Out of Action"


def cotd_blunt_weapon_stuns(result: int) -> bool:
    """Whether a hammer, staff, mace or club treats this injury result as Stunned (a result of 5-6)."""
    return result in BLUNT_STUN_RESULTS


def cotd_blunt_stun_chance(strength: int, toughness: int, wounds: int) -> Fraction:
    """The chance that a hit with a hammer, staff, mace or club gives a result of 5-6, treated as Stunned."""
    total = COTD_INJURY_ROLL.die(S=strength, T=toughness, W=wounds)
    return total.probability(">=", BLUNT_STUN_RESULTS.start) - total.probability(">=", BLUNT_STUN_RESULTS.stop)
