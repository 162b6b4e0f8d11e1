"""Blood, Guts and Rampant Hex: attack dice against armour, moral checks, scrolls.

Source: 004_7d410289ba4fa7f8.txt. Probabilities are exact (icepool); the
functions take plain numbers so that examples read like the rules.

Readings the text leaves open, decided here and said in the rules prose:

- Roll-offs (SETTING UP, INITIATIVE): what a tie means is not given, so the odds
  report ties apart rather than resolve them.
- "add 1 to their dice rolls when testing moral": 1 is added to every die.
- A misspelled scroll that rolls its own spell again applies that same spell.
- Ending the game on turns: equal points lost is not given, so no winner is named.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import icepool

from ..model.entries import ArmyList
from ..model.ruleset import Ruleset
from .armies import check_limits, count_names, evaluate, force, force_line, parse_limit

__all__ = [
    "attack_hits", "hits_distribution", "expected_hits", "chance_of_a_hit",
    "passes_moral", "moral_pass_chance", "misspell_chance", "ranged_attack_reaches",
    "roll_off_odds", "ranger_bonus", "move_hexes", "units_falling_back", "fewest_points_lost",
    "scroll_spell", "intended_spell_chance", "broken_limits", "limit_allowance",
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


# -- roll-offs: setting up and initiative -----------------------------------------------------

# "A force that contains a Ranger may add 1 to its rolls in the Initiative phase";
# an Expert Ranger adds 2 to them "AND also add 2 to the dice roll to decide which
# table edge you set up on".
_RANGER_BONUSES = {
    ("swift_ranger", "initiative"): 1,
    ("expert_ranger", "initiative"): 2,
    ("expert_ranger", "setup"): 2,
}
_ROLLS = ("initiative", "setup")


def ranger_bonus(hero: str | None, roll: str) -> int:
    """What a force's ranger adds to its ``"initiative"`` or ``"setup"`` (board edge) roll."""
    if roll not in _ROLLS:
        raise ValueError(f"roll is one of {', '.join(_ROLLS)}, not {roll!r}")
    return _RANGER_BONUSES.get((hero, roll), 0) if hero else 0


def roll_off_odds(bonus: int = 0, opponent_bonus: int = 0) -> dict[str, Fraction]:
    """Both players roll 1 dice and the highest roller wins: the chance you win, tie or lose.

    What a tie means is not given in the text, so it is reported, not resolved.
    """
    yours, theirs = D6 + bonus, D6 + opponent_bonus
    return {
        "win": (yours > theirs).probability(True),
        "tie": (yours == theirs).probability(True),
        "lose": (yours < theirs).probability(True),
    }


# -- activation and combat ---------------------------------------------------------------------

def move_hexes(riders: bool = False, extra_hex: bool = False) -> int:
    """How far a unit may move: up to 2 hexes, or 3 if they are riders; Sorcreenes spelle of
    inexplicable speede adds an extra hex to a move or charge."""
    return (3 if riders else 2) + (1 if extra_hex else 0)


def units_falling_back(hit_markers: Mapping[str, int]) -> tuple[str, ...]:
    """The units of a combat that must move 1 hex away: the one with the most hit markers, and
    every unit that shares the highest number."""
    if not hit_markers:
        return ()
    most = max(hit_markers.values())
    return tuple(unit for unit, hits in hit_markers.items() if hits == most)


def fewest_points_lost(**points_lost: int) -> str | None:
    """The winner once the agreed turns have expired: the player who lost the fewest PTS of
    units. Equal losses are not given in the text, so no winner is named (``None``)."""
    if not points_lost:
        raise ValueError("give the points each player has lost, e.g. you=10, opponent=8")
    least = min(points_lost.values())
    players = [player for player, lost in points_lost.items() if lost == least]
    return players[0] if len(players) == 1 else None


# -- scrolls -------------------------------------------------------------------------------------

def scroll_spell(ruleset: Ruleset, spell: str, faulty_roll: int, misspelled_roll: int | None = None) -> str:
    """The spell that takes effect when a scroll of ``spell`` is used: the faulty scroll roll
    comes first, and on a misspelling the spell table roll decides, whatever its range."""
    outcome = ruleset.table("faulty_scroll").lookup(faulty_roll)
    if outcome.result != "Misspelled":
        return ruleset.spell(spell).name
    if misspelled_roll is None:
        raise ValueError("the scroll is misspelled: give misspelled_roll, the roll on the spell table")
    return ruleset.table("spells").lookup(misspelled_roll).result


def intended_spell_chance(ruleset: Ruleset, spell: str) -> Fraction:
    """The chance a scroll's own spell takes effect: it works, or it is misspelled and the
    spell table gives the same spell again."""
    faulty = ruleset.table("faulty_scroll")
    name = ruleset.spell(spell).name
    works = faulty.chance("The spell works")
    return works + faulty.chance("Misspelled") * ruleset.table("spells").chance(name)


# -- forces: points and limits --------------------------------------------------------------------

# force_line and force (imported above, exported by armies.py) are the generic ones: a force
# without a matrix is costed from the ruleset's army matrix, here the troop profile matrix.


def broken_limits(ruleset: Ruleset, army: ArmyList) -> list[str]:
    """The ids of the army limits the force breaks."""
    return [result.limit.id for result in check_limits(ruleset, army) if not result.holds]


def limit_allowance(ruleset: Ruleset, limit: str, **counts: int) -> int:
    """The most an army limit allows for the given counts (``troop_points=40``, ``units=7``)."""
    names = count_names(ruleset)
    unknown = sorted(set(counts) - names)
    if unknown:
        raise ValueError(f"{', '.join(unknown)} is not a count an army limit uses")
    entry = ruleset.get("army_limits", limit)
    return evaluate(parse_limit(entry.at_most, names), {name: counts.get(name, 0) for name in names})
