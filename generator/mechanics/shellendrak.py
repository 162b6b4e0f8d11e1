"""Ordo Ineptus, the Shellendrak skirmish: what its own rules add to the Fantasy charts.

Source: 000_8f04420b949571a2.txt (a game-master's skirmish scenario). The to-hit,
to-wound and armour charts are in :mod:`fantasy`; this module holds the card turn
order, casting, searching rooms, critical hits, the injury chart, running and
charging, Initiative tests, the All Alone test and the other checks the text makes.

Readings the text leaves open, decided here and said in the rules prose:

- "Initiative test (roll lower on a D6)": strictly lower, so a roll equal to the
  Initiative fails (a model with Initiative 4 passes on 1-3).
- "roll the target number on two dice": that number or more.
- "within 8"", "within 4"", "within 12"", "within 2 inches" and "within its Initiative
  score in inches" include the distance itself.
- A Stupid model's shamble stops 1" short of the nearest enemy in its way.
- Two people holding cards of the same rank (necessarily of different suits in one
  deck) act together; the order among chargers, among equal Initiatives and among
  players tied on victory points is not given, so such models are grouped.

Probabilities are exact ``Fraction``s from icepool.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

import math

import icepool

from .fantasy import armour_save, target_chance, to_hit_melee, to_wound

__all__ = [
    "CARD_RANKS", "card_rank", "turn_order", "joker_holders",
    "PLAYER_TIMER_MINUTES", "CAMPAIGN_BONUS_VP", "final_standings",
    "counts_as_active", "may_rally", "usable_leadership",
    "movement_allowance", "may_run", "charge_reach", "charge_reaches", "unseen_charge_allowed",
    "may_declare_charge", "window_route_cost", "flight_at_least", "shamble_distance",
    "initiative_test_passes", "initiative_test_chance", "detects_hidden",
    "shooting_targets", "may_shoot", "at_long_range",
    "CriticalHit", "critical_hit_effect", "critical_hit_chance", "critical_armour_save",
    "injury_chart_result", "injury_chart_chances", "rolls_on_injury_chart", "may_coup_de_grace",
    "spells_known", "spells_per_turn", "casting_chance",
    "strike_order", "all_alone_test_due", "may_leave_combat",
    "close_combat_to_hit", "close_combat_hit_chance",
    "may_search", "search_dice", "search_succeeds", "search_success_chance",
]

D6 = icepool.d6

# -- the round: cards ---------------------------------------------------------------------
# "the turn order will go ace, king, queen, jack, 10, etc."
CARD_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
_SUITS = "♠♥♦♣SHDC"
JOKER = "Joker"

PLAYER_TIMER_MINUTES = 2  # recovery and movement phases of one player turn
CHARGE_INTERCEPT_INCHES = 2  # no charge with a possible interceptor this close to the charge path
WINDOW_EXTRA_INCHES = 1  # climbing through a first floor window
SHAMBLE_STOP_INCHES = 1  # a Stupid model stops this far in front of any enemies
CAMPAIGN_BONUS_VP = 2  # permanent Forsaken Vale victory points for the winner


def _split_card(card: str) -> tuple[str, str]:
    text = card.strip()
    if text.casefold() == JOKER.casefold():
        return JOKER, ""
    rank, suit = text[:-1].strip().upper(), text[-1].upper()
    if suit not in _SUITS or rank not in CARD_RANKS:
        raise ValueError(f"`{card}` is not a card: write a rank and a suit (A♠, 10♥, QD) or Joker")
    return rank, suit


def card_rank(card: str) -> int | None:
    """The card's place in the call: the ace is 0 (called first), the 2 is 12; a joker has none."""
    rank, _suit = _split_card(card)
    return None if rank == JOKER else CARD_RANKS.index(rank)


def turn_order(draws: Mapping[str, str]) -> tuple[tuple[str, ...], ...]:
    """Who takes their turn when, as groups called ace first; a group of several acts simultaneously.

    ``draws`` maps each player (and the Game Master) to the card drawn. Joker holders go
    whenever they wish and are left out (see ``joker_holders``). One deck holds each card once.
    """
    seen: dict[tuple[str, str], str] = {}
    for who, card in draws.items():
        key = _split_card(card)
        if key[0] != JOKER and key in seen:
            raise ValueError(f"{seen[key]} and {who} cannot both hold {card}: one deck has each card once")
        seen[key] = who
    ranked = [(card_rank(card), who) for who, card in draws.items() if card_rank(card) is not None]
    calls = sorted({rank for rank, _ in ranked})
    return tuple(tuple(who for rank, who in ranked if rank == call) for call in calls)


def joker_holders(draws: Mapping[str, str]) -> tuple[str, ...]:
    """Players holding a joker, who may take their turn at any point in the order they wish."""
    return tuple(who for who, card in draws.items() if card_rank(card) is None)


def final_standings(victory_points: Mapping[str, int]) -> tuple[tuple[str, ...], ...]:
    """Players from most victory points to fewest; the first group wins (a tie stays a group)."""
    levels = sorted(set(victory_points.values()), reverse=True)
    return tuple(tuple(who for who, vp in victory_points.items() if vp == level) for level in levels)


# -- recovery and Leadership ---------------------------------------------------------------
_NOT_ACTIVE = {"stunned", "knocked down", "hidden"}


def counts_as_active(state: str) -> bool:
    """Enemy models that are Stunned, Knocked Down or Hidden do not count for running or rallying."""
    return state.casefold() not in _NOT_ACTIVE


def may_rally(nearest_friend: float | None, enemies: Iterable[tuple[float, str]] = ()) -> bool:
    """A fleeing model may try to rally unless the closest model to it is an enemy that counts.

    ``enemies`` are (distance, state) pairs. An enemy as close as the nearest friend is one of
    the closest models, so it stops the rally.
    """
    active = [distance for distance, state in enemies if counts_as_active(state)]
    if not active:
        return True
    return nearest_friend is not None and nearest_friend < min(active)


def usable_leadership(own: int, leader: int | None = None, leader_distance: float | None = None, reach: float = 8) -> int:
    """The Leadership a test uses: the warband leader's if he is within ``reach`` and it is better.

    The reach is 12" for rallying and 8" for All Alone, Fear, Terror and Stupidity tests.
    """
    if leader is None or leader_distance is None or leader_distance > reach:
        return own
    return max(own, leader)


# -- movement ----------------------------------------------------------------------------------
def _inches(value: Fraction) -> int | Fraction:
    """Whole inches as plain numbers, so that 8 reads as 8 and 2 1/2 as Fraction(5, 2)."""
    return int(value) if value.denominator == 1 else value


def movement_allowance(move: float, running: bool = False, charging: bool = False, difficult: bool = False) -> int | Fraction:
    """Inches a model may move: its Movement, doubled running or charging, halved over difficult terrain."""
    allowance = Fraction(move) * (2 if running or charging else 1)
    return _inches(allowance / 2 if difficult else allowance)


def may_run(enemies: Iterable[tuple[float, str]] = ()) -> bool:
    """Running needs no active enemy within 8" at the start of the movement phase.

    ``enemies`` are (distance, state) pairs; Stunned, Knocked Down and Hidden enemies do not count.
    """
    return not any(distance <= 8 and counts_as_active(state) for distance, state in enemies)


def charge_reach(move: float) -> int | Fraction:
    """Chargers move up to double their Movement to reach their enemy."""
    return movement_allowance(move, charging=True)


def charge_reaches(move: float, distance: float) -> bool:
    """A declared charge that falls short is a failed charge: normal move, no shooting that turn."""
    return distance <= charge_reach(move)


def unseen_charge_allowed(distance: float, target_hidden: bool = False, through_door: bool = False) -> bool:
    """Charging around a corner at an enemy out of sight: within 4" of the start, not Hidden, no door.

    The charger must then also pass an Initiative test.
    """
    return distance <= 4 and not target_hidden and not through_door


def may_declare_charge(interceptor_distances: Iterable[float] = ()) -> bool:
    """No charge if an enemy that could conceivably intercept it is within 2" of the charge path.

    ``interceptor_distances`` are how far such enemies are from the path.
    """
    return not any(distance <= CHARGE_INTERCEPT_INCHES for distance in interceptor_distances)


def window_route_cost(distance: float) -> int | Fraction:
    """Inches of movement a move through a first floor window uses: its length and an extra inch."""
    return _inches(Fraction(distance) + WINDOW_EXTRA_INCHES)


def flight_at_least(inches: float) -> Fraction:
    """The chance that a 2D6" flight (failed All Alone or Terror test) covers at least ``inches``."""
    return (2 @ D6).probability(">=", math.ceil(Fraction(inches)))


def shamble_distance(move: float, enemy_distance: float | None = None) -> int | Fraction:
    """A Stupid model out of combat rolling 1-3 shambles forward half its normal movement,
    stopping 1" in front of any enemies (``enemy_distance``: the nearest one in its way)."""
    distance = Fraction(move) / 2
    if enemy_distance is not None:
        distance = min(distance, max(Fraction(0), Fraction(enemy_distance) - SHAMBLE_STOP_INCHES))
    return _inches(distance)


def initiative_test_passes(roll: int, initiative: int) -> bool:
    """"roll lower on a D6": the roll must be lower than the Initiative, so equal fails."""
    return roll < initiative


def initiative_test_chance(initiative: int) -> Fraction:
    return D6.probability("<", initiative)


def detects_hidden(distance: float, initiative: int) -> bool:
    """An enemy always detects hidden models within its Initiative score in inches."""
    return distance <= initiative


# -- shooting --------------------------------------------------------------------------------
def shooting_targets(enemies: Mapping[str, float], elevated: bool = False) -> tuple[str, ...]:
    """The enemies a model may shoot: the closest in line of sight, or any from an elevated position.

    ``enemies`` maps each visible, non-hidden enemy to its distance; equally close ones may all be chosen.
    """
    if elevated or not enemies:
        return tuple(enemies)
    closest = min(enemies.values())
    return tuple(name for name, distance in enemies.items() if distance == closest)


def at_long_range(distance: float, weapon_range: float) -> bool:
    """Long range (-1 to hit) is more than half the range of the weapon."""
    return distance > Fraction(weapon_range) / 2


def may_shoot(ran: bool = False, attempted_charge: bool = False, stupid: bool = False) -> bool:
    """Models that ran, attempted a charge (even a failed one) or are Stupid may not shoot."""
    return not (ran or attempted_charge or stupid)


# -- critical hits and injuries ----------------------------------------------------------------
@dataclass(frozen=True)
class CriticalHit:
    """What a critical hit does: worsen the armour save, multiply the wounds, or slay outright."""

    save_penalty: int
    wound_multiplier: int
    killing_blow: bool = False


def critical_hit_effect(roll: int) -> CriticalHit:
    """The D6 rolled for a critical: 1-3 save -2; 4-5 save -2 and wounds doubled; 6 Killing Blow."""
    if roll in (1, 2, 3):
        return CriticalHit(save_penalty=2, wound_multiplier=1)
    if roll in (4, 5):
        return CriticalHit(save_penalty=2, wound_multiplier=2)
    if roll == 6:
        return CriticalHit(save_penalty=0, wound_multiplier=1, killing_blow=True)
    raise ValueError(f"a D6 cannot roll {roll}")


def critical_hit_chance(strength: int, toughness: int) -> Fraction:
    """The chance a to-wound roll is a critical: a six, when a six can wound at all."""
    return Fraction(0) if to_wound(strength, toughness) is None else D6.probability(6)


def critical_armour_save(base_save: int | None, strength: int, roll: int, armour_piercing: bool = False) -> int | None:
    """The armour save left after a critical hit; a Killing Blow allows none (ward saves still apply)."""
    effect = critical_hit_effect(roll)
    if effect.killing_blow:
        return None
    save = armour_save(base_save, strength, armour_piercing)
    if save is None:
        return None
    save += effect.save_penalty
    return save if save <= 6 else None


_INJURIES = {1: "Knocked Down", 2: "Knocked Down", 3: "Stunned", 4: "Stunned", 5: "Killed", 6: "Killed"}


def injury_chart_result(roll: int) -> str:
    """The D6 rolled when a model's wounds reach 0: 1-2 Knocked Down, 3-4 Stunned, 5-6 Killed."""
    try:
        return _INJURIES[roll]
    except KeyError:
        raise ValueError(f"a D6 cannot roll {roll}") from None


def injury_chart_chances() -> dict[str, Fraction]:
    results = D6.map(_INJURIES)
    return {result: results.probability(result) for result in dict.fromkeys(_INJURIES.values())}


def rolls_on_injury_chart(killing_blow: bool = False, villager_or_circus: bool = False) -> bool:
    """Killing Blows, villagers and the Circus Macabre are removed at 0 wounds without the roll."""
    return not (killing_blow or villager_or_circus)


def may_coup_de_grace(target_state: str, standing_opponents_in_contact: int) -> bool:
    """A coup de grace needs a Knocked Down enemy in contact and no standing opponent in contact."""
    return target_state.casefold() == "knocked down" and standing_opponents_in_contact == 0


# -- magic -------------------------------------------------------------------------------------
def _caster_level(level: int) -> int:
    if level not in (1, 2, 3, 4):
        raise ValueError(f"caster levels run from 1 to 4, not {level}")
    return level


def spells_known(level: int) -> int:
    """Mage characters receive a spell for each caster level at the beginning of the game."""
    return _caster_level(level)


def spells_per_turn(level: int) -> int:
    """Level 1 and 2 casters cast one spell a turn, level 3 and 4 casters two."""
    return 1 if _caster_level(level) <= 2 else 2


def casting_chance(difficulty: int) -> Fraction:
    """A spell is cast by rolling its difficulty number or more on two dice."""
    return (2 @ D6).probability(">=", difficulty)


# -- close combat ------------------------------------------------------------------------------
def strike_order(initiative: Mapping[str, int], chargers: Iterable[str] = ()) -> tuple[tuple[str, ...], ...]:
    """Chargers strike first, then the rest from highest to lowest Initiative.

    Each group strikes at one step; the text gives no order within a group.
    """
    charging = tuple(who for who in initiative if who in set(chargers))
    rest = {who: i for who, i in initiative.items() if who not in charging}
    steps = tuple(tuple(who for who, i in rest.items() if i == level) for level in sorted(set(rest.values()), reverse=True))
    return ((charging,) if charging else ()) + steps


def all_alone_test_due(enemies: int, friends: int = 0, unbreakable: bool = False, immune_to_psychology: bool = False) -> bool:
    """At the end of a combat round a model alone against 2 or more models tests or flees 2D6"."""
    return friends == 0 and enemies >= 2 and not (unbreakable or immune_to_psychology)


def may_leave_combat(in_contact: Iterable[str], hostile: Iterable[str]) -> bool:
    """A model may leave a combat only if no model in base to base contact with it is hostile."""
    return not set(in_contact) & set(hostile)


def close_combat_to_hit(attacker_ws: int, defender_ws: int, afraid: bool = False) -> int:
    """The to-hit roll in combat; a model that failed its Fear test needs 6s to hit the feared enemy."""
    return 6 if afraid else to_hit_melee(attacker_ws, defender_ws)


def close_combat_hit_chance(attacker_ws: int, defender_ws: int, afraid: bool = False, hatred: bool = False) -> Fraction:
    """The chance one attack hits; Hatred re-rolls a failed to-hit roll."""
    hit = target_chance(close_combat_to_hit(attacker_ws, defender_ws, afraid))
    return hit + (1 - hit) * hit if hatred else hit


# -- searching rooms ----------------------------------------------------------------------------
def may_search(monsters_in_room: int, others_engaged: bool = False) -> bool:
    """A room may be searched when clear of monsters and any other warband in it is not engaged in hostility."""
    return monsters_in_room == 0 and not others_engaged


def search_dice(models: int, heroes: int = 0, lords: int = 0) -> int:
    """A die per eligible model; each Hero among them rolls an extra die, each Lord 2 extra dice."""
    if heroes + lords > models:
        raise ValueError("heroes and lords are counted among the eligible models")
    return models + heroes + 2 * lords


def search_succeeds(rolls: Iterable[int]) -> bool:
    """The search succeeds on any roll of 5 or 6."""
    return any(roll >= 5 for roll in rolls)


def search_success_chance(models: int, heroes: int = 0, lords: int = 0) -> Fraction:
    dice = search_dice(models, heroes, lords)
    if dice == 0:
        return Fraction(0)
    return (dice @ (D6 >= 5)).probability(">=", 1)
