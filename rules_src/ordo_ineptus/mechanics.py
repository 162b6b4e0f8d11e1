"""Ordo Ineptus, the Shellendrak skirmish: the procedures its data cannot say as formulas.

Everything else (movement, charges, Initiative tests, casting, searching) is in the
`formulas:` and `lookups:` of this folder; every number here is read from `values:`.

Readings the text leaves open, decided here and said in the rules prose:

- "the turn order will go ace, king, queen, jack, 10, etc.": "etc." is read as 9 down to 2
  (the value `card_order`).
- Two people holding cards of the same rank (necessarily of different suits in one deck) act
  together; the order among players tied on victory points is not given, so they are grouped.
- "within 8"", "within 12"", "within 2 inches" include the distance itself.
- A rally is stopped by an enemy as close as the nearest friend (it is one of the closest models).
- A Stupid model's shamble stops 1" short of the nearest enemy in its way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

__all__ = [
    "CARD_RANKS",
    "card_rank",
    "turn_order",
    "joker_holders",
    "final_standings",
    "counts_as_active",
    "may_rally",
    "usable_leadership",
    "may_run",
    "may_declare_charge",
    "flight_at_least",
    "shamble_distance",
    "search_succeeds",
]


# "the turn order will go ace, king, queen, jack, 10, etc.": the ranks in the order they are called.
def _ranks() -> tuple[str, ...]:
    """The ranks in the order they are called, read from the value when a card is read."""
    return tuple(rank.strip() for rank in values.card_order.split(","))  # noqa: F821 - preset


CARD_RANKS = _ranks()
_SUITS = "♠♥♦♣SHDC"
_JOKER = "Joker"
# "enemy models that are Stunned, Knocked Down, or Hidden do not count"
_NOT_ACTIVE = {"stunned", "knocked down", "hidden"}


def _split_card(card: str) -> tuple[str, str]:
    text = card.strip()
    if text.casefold() == _JOKER.casefold():
        return _JOKER, ""
    rank, suit = text[:-1].strip().upper(), text[-1:].upper()
    if not suit or suit not in _SUITS or rank not in _ranks():
        raise ValueError(f"`{card}` is not a card: write a rank and a suit (A♠, 10♥, QD) or Joker")
    return rank, suit


def card_rank(card: str) -> int | None:
    """The card's place in the call: the ace is 0 (called first), the lowest card last; a joker has none."""
    rank, _suit = _split_card(card)
    return None if rank == _JOKER else _ranks().index(rank)


def turn_order(draws: Mapping[str, str]) -> tuple[tuple[str, ...], ...]:
    """Who takes their turn when, as groups called ace first; a group of several acts simultaneously.

    ``draws`` maps each player (and the Game Master) to the card drawn. Joker holders go
    whenever they wish and are left out (see ``joker_holders``). One deck holds each card once.
    """
    seen: dict[tuple[str, str], str] = {}
    for who, card in draws.items():
        key = _split_card(card)
        if key[0] != _JOKER and key in seen:
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


def counts_as_active(state: str) -> bool:
    """Enemy models that are Stunned, Knocked Down or Hidden do not count for running or rallying."""
    return state.casefold() not in _NOT_ACTIVE


def may_rally(nearest_friend, enemies: Iterable[tuple[object, str]] = ()) -> bool:
    """A fleeing model may try to rally unless the closest model to it is an enemy that counts.

    ``enemies`` are (distance, state) pairs. An enemy as close as the nearest friend is one of
    the closest models, so it stops the rally.
    """
    active = [distance for distance, state in enemies if counts_as_active(state)]
    if not active:
        return True
    return nearest_friend is not None and nearest_friend < min(active)


def usable_leadership(own: int, leader: int | None = None, leader_distance=None, reach=None) -> int:
    """The Leadership a test uses: the warband leader's if he is within ``reach`` and it is better.

    The reach is `rally_leader_reach` (12") for rallying and `leader_reach` (8", the default)
    for All Alone, Fear, Terror and Stupidity tests.
    """
    reach = values.leader_reach if reach is None else reach
    if leader is None or leader_distance is None or leader_distance > reach:
        return own
    return max(own, leader)


def may_run(enemies: Iterable[tuple[object, str]] = ()) -> bool:
    """Running needs no active enemy within `run_enemy_range` (8") at the start of the movement phase.

    ``enemies`` are (distance, state) pairs; Stunned, Knocked Down and Hidden enemies do not count.
    """
    return not any(distance <= values.run_enemy_range and counts_as_active(state) for distance, state in enemies)


def may_declare_charge(interceptor_distances: Iterable = ()) -> bool:
    """No charge if an enemy that could conceivably intercept it is within `charge_intercept_range` (2")
    of the charge path. ``interceptor_distances`` are how far such enemies are from the path."""
    return not any(distance <= values.charge_intercept_range for distance in interceptor_distances)


def flight_at_least(inches) -> Fraction:
    """The chance that a `terror_flight` (2D6") flight covers at least ``inches``."""
    return values.terror_flight.die().probability(">=", math.ceil(Fraction(inches)))


def _inches(value):
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


def shamble_distance(move, enemy_distance=None):
    """A Stupid model out of combat rolling 1-3 shambles forward half its normal movement
    (`shamble_factor`), stopping `shamble_stop` (1") in front of any enemies
    (``enemy_distance``: the nearest one in its way)."""
    distance = Fraction(move) * values.shamble_factor
    if enemy_distance is not None:
        stop = values.shamble_stop.in_unit("inches")  # a value keeps its unit; this mechanic counts inches
        distance = min(distance, max(Fraction(0), Fraction(enemy_distance) - stop))
    return _inches(distance)


def search_succeeds(rolls: Iterable[int]) -> bool:
    """The search succeeds when any die reads `Success` on the search roll table (a 5 or 6)."""
    table = rules.table("search_roll")
    return any(table.lookup(roll).result == "Success" for roll in rolls)
