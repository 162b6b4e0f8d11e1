"""The Shellendrak skirmish (000) mechanics, against brute force and the text.

The oracles are plain enumeration of every way the dice can fall and the statements 000
makes in so many words.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from generator.examples.namespace import namespace_for_path

# The names come from the ruleset's namespace (its formulas, values and own mechanics), as its
# worked examples see them; the combat, shooting and damage tests moved to
# tests/rulesets/test_ordo_ineptus_combat.py and the charts to test_warhammer_fantasy_charts.py.
_NS = namespace_for_path("rules_src/ordo_ineptus/ruleset.yaml")
_NAMES = (
    "CARD_RANKS", "casting_chance", "charge_reach", "charge_reaches", "detects_hidden", "final_standings",
    "flight_at_least", "initiative_test_chance", "initiative_test_passes", "joker_holders", "may_declare_charge",
    "may_rally", "may_run", "movement_allowance", "search_dice", "search_success_chance", "search_succeeds",
    "shamble_distance", "spells_known", "spells_per_turn", "turn_order", "unseen_charge_allowed",
    "usable_leadership", "window_route_cost",
)
globals().update({name: _NS[name] for name in _NAMES if name in _NS})

FACES = range(1, 7)


def count(outcomes, wanted) -> Fraction:
    outcomes = list(outcomes)
    return Fraction(sum(1 for o in outcomes if wanted(*o)), len(outcomes))


def one_die(wanted) -> Fraction:
    return count(((face,) for face in FACES), wanted)


def dice(n: int):
    return itertools.product(FACES, repeat=n)


# -- shellendrak: the round ---------------------------------------------------------------------
def test_cards_are_called_ace_king_queen_jack_ten_down():
    assert CARD_RANKS[:5] == ("A", "K", "Q", "J", "10")
    draws = {"a": "2♣", "b": "J♦", "c": "A♠", "d": "10♥", "e": "Q♣", "f": "K♥"}
    assert turn_order(draws) == (("c",), ("f",), ("e",), ("b",), ("d",), ("a",))


def _deck(jokers: int = 2) -> list[str]:
    return [rank + suit for rank in CARD_RANKS for suit in "♠♥♦♣"] + ["Joker"] * jokers


@pytest.mark.parametrize("seed", range(20))
def test_turn_order_of_random_draws(seed):
    """Every non-joker holder acts once; groups share a rank and are called highest first."""
    rng = random.Random(seed)
    people = [f"p{i}" for i in range(rng.randint(2, 8))] + ["Game Master"]
    cards = rng.sample(_deck(), len(people))
    draws = dict(zip(people, cards))
    order = turn_order(draws)
    jokers = joker_holders(draws)
    called = [who for group in order for who in group]
    assert sorted(called + list(jokers)) == sorted(people)
    ranks = [{CARD_RANKS.index(draws[who][:-1]) for who in group} for group in order]
    assert all(len(r) == 1 for r in ranks)
    assert [r.pop() for r in ranks] == sorted({CARD_RANKS.index(c[:-1]) for c in cards if c != "Joker"})


def test_same_value_different_suits_act_together():
    assert turn_order({"x": "7♠", "y": "7♦", "z": "8♣"}) == (("z",), ("x", "y"))
    with pytest.raises(ValueError):
        turn_order({"x": "7♠", "y": "7♠"})
    with pytest.raises(ValueError):
        turn_order({"x": "1♠"})


def test_final_standings_most_points_first():
    assert final_standings({"a": 3, "b": 9, "c": 3}) == (("b",), ("a", "c"))


# -- shellendrak: movement and tests ---------------------------------------------------------------
@pytest.mark.parametrize("initiative", range(0, 9))
def test_initiative_test_roll_lower_on_a_d6(initiative):
    assert initiative_test_chance(initiative) == one_die(lambda r: r < initiative)
    assert initiative_test_chance(initiative) == one_die(lambda r: initiative_test_passes(r, initiative))
    assert not initiative_test_passes(initiative, initiative)


def test_running_needs_no_active_enemy_within_8():
    assert may_run([(8.5, "active")])
    assert not may_run([(8, "active")])
    assert may_run([(1, "Stunned"), (2, "knocked down"), (3, "HIDDEN")])


def test_charges():
    assert charge_reach(4) == 8 and charge_reach(Fraction(9, 2)) == 9
    assert charge_reaches(4, 8) and not charge_reaches(4, 8.1)
    assert unseen_charge_allowed(4) and not unseen_charge_allowed(4.1)
    assert not unseen_charge_allowed(2, target_hidden=True)
    assert not unseen_charge_allowed(2, through_door=True)


def test_no_charge_with_an_interceptor_within_2_inches():
    assert not may_declare_charge([2]) and not may_declare_charge([5, 0.5])
    assert may_declare_charge([2.1, 7]) and may_declare_charge()


def test_window_costs_an_extra_inch():
    assert window_route_cost(0) == 1 and window_route_cost(3) == 4
    assert window_route_cost(Fraction(5, 2)) == Fraction(7, 2)


@pytest.mark.parametrize("inches", [0, 2, 5, 6.5, 7, 12, 13])
def test_2d6_flight_against_36_outcomes(inches):
    covered = sum(1 for a, b in itertools.product(FACES, FACES) if a + b >= inches)
    assert flight_at_least(inches) == Fraction(covered, 36)


def test_stupid_shamble_is_half_move_stopping_1_inch_short():
    assert shamble_distance(4) == 2 and shamble_distance(5) == Fraction(5, 2)
    assert shamble_distance(6, enemy_distance=10) == 3
    assert shamble_distance(6, enemy_distance=3) == 2
    assert shamble_distance(6, enemy_distance=Fraction(1, 2)) == 0


def test_movement_allowance():
    assert movement_allowance(4) == 4
    assert movement_allowance(4, running=True) == 8
    assert movement_allowance(5, difficult=True) == Fraction(5, 2)
    assert movement_allowance(4, charging=True, difficult=True) == 4


def test_rally_and_leadership():
    assert may_rally(2, [(3, "active")])
    assert not may_rally(3, [(3, "active")])
    assert may_rally(5, [(1, "Stunned")])
    assert not may_rally(None, [(9, "active")])
    assert usable_leadership(7, leader=9, leader_distance=12, reach=12) == 9
    assert usable_leadership(7, leader=9, leader_distance=9) == 7
    assert usable_leadership(8, leader=6, leader_distance=1) == 8


def test_hidden():
    assert detects_hidden(3, 3) and not detects_hidden(3.5, 3)


# -- shellendrak: magic ---------------------------------------------------------------------------
@pytest.mark.parametrize("difficulty", range(0, 15))
def test_casting_chance_against_36_outcomes(difficulty):
    assert casting_chance(difficulty) == count(dice(2), lambda a, b: a + b >= difficulty)


def test_000_spells_by_caster_level():
    """"Level 1 and 2 casters may cast a single spell each turn, and level 3 or 4 casters may cast two"."""
    assert [spells_per_turn(level) for level in (1, 2, 3, 4)] == [1, 1, 2, 2]
    assert [spells_known(level) for level in (1, 2, 3, 4)] == [1, 2, 3, 4]
    for bad in (0, 5):
        with pytest.raises(ValueError):
            spells_per_turn(bad)


# -- shellendrak: searching ------------------------------------------------------------------------
def test_000_search_dice():
    """"roll a die for each model ... Hero characters may roll an extra die ... Lords may roll 2 extra dice"."""
    assert search_dice(1) == 1
    assert search_dice(1, heroes=1) == 2
    assert search_dice(1, lords=1) == 3
    assert search_dice(5, heroes=2, lords=1) == 9
    with pytest.raises(ValueError):
        search_dice(1, heroes=1, lords=1)


@pytest.mark.parametrize("models, heroes, lords", [(0, 0, 0), (1, 0, 0), (2, 1, 0), (2, 0, 1), (3, 1, 1), (4, 2, 0)])
def test_search_success_against_enumeration(models, heroes, lords):
    n = search_dice(models, heroes, lords)
    assert search_success_chance(models, heroes, lords) == count(dice(n), lambda *rolls: search_succeeds(rolls))
    assert search_success_chance(models, heroes, lords) == 1 - Fraction(2, 3) ** n
