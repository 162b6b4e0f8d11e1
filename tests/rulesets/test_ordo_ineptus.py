"""Ordo Ineptus (the Shellendrak skirmish): its turn, movement, psychology, magic, searching and
victory rules as data and its own mechanics, against the text and brute-force enumeration.

Names come from the namespace the worked examples see. Expected values are typed from the
source text (rules_src/ordo_ineptus/sources/000_8f04420b949571a2.txt, quoted in comments) or
enumerated over every way the dice can fall; never taken from the code under test.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from helpers import ruleset_names, sweep

ns, rules, values = ruleset_names("ordo_ineptus", "rules", "values")  # module fixtures

FACES = range(1, 7)
# "the turn order will go ace, king, queen, jack, 10, etc." ("etc." read as 9 down to 2)
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def count(outcomes, wanted) -> Fraction:
    outcomes = list(outcomes)
    return Fraction(sum(1 for o in outcomes if wanted(*o)), len(outcomes))


def dice(n: int):
    return itertools.product(FACES, repeat=n)


# -- the values the text states ------------------------------------------------------------------
def test_values_as_the_text_states_them(rules, values):
    assert values.player_timer == 2  # "each player will have 2 minutes to complete their recovery and movement phases"
    assert str(rules.value("player_timer").value) == "2 minutes"
    assert values.campaign_bonus_vp == 2  # "receives two permanent victory point"
    assert values.rally_leader_reach == 12  # "If the warband leader is within 12” of the fleeing model"
    assert values.leader_reach == 8  # "the warband leader’s Leadership value may be used if he is within 8”"
    assert values.run_enemy_range == 8  # "no active enemy models within 8”"
    assert values.unseen_charge_range == 4  # "within 4\" of your starting position"
    assert values.charge_intercept_range == 2  # "within 2 inches of your charge path"
    assert values.window_extra_move == 1  # "costs an extra inch of movement"
    assert values.window_hit_strength == 1  # "takes a Str 1 hit"
    assert values.shamble_stop == 1  # "stopping 1” in front of any enemies"
    assert values.shamble_factor == Fraction(1, 2)  # "half its normal movement"
    assert values.terror_flight.bounds() == (2, 12)  # "fleeing 2D6”"
    assert values.casting_dice == 2  # "roll the target number on two dice"
    assert (values.hero_extra_dice, values.lord_extra_dice) == (1, 2)  # "an extra die", "2 extra dice"


def test_quick_reference_marks(rules):
    """The sheet carries the turn, armour, psychology, the injury and critical tables and the spells (000)."""
    marked = {e.id for _section, e in rules.all_entries() if getattr(e, "quick_reference", False)}
    assert {
        "recovery",
        "movement",
        "shooting",
        "hand_to_hand_combat",
        "armour",
        "fear_tests",
        "terror_tests",
        "critical_hit_table",
        "injury_table",
        "spells_chart",
    } <= marked


# -- the round ------------------------------------------------------------------------------------
def test_cards_are_called_ace_king_queen_jack_ten_down(ns):
    assert ns["CARD_RANKS"] == RANKS
    draws = {"a": "2♣", "b": "J♦", "c": "A♠", "d": "10♥", "e": "Q♣", "f": "K♥"}
    assert ns["turn_order"](draws) == (("c",), ("f",), ("e",), ("b",), ("d",), ("a",))
    card_rank = ns["card_rank"]
    assert [card_rank(rank + "♠") for rank in RANKS] == list(range(len(RANKS)))
    assert card_rank("Joker") is None


def _deck(jokers: int = 2) -> list[str]:
    return [rank + suit for rank in RANKS for suit in "♠♥♦♣"] + ["Joker"] * jokers


def test_turn_order_of_random_draws(ns):
    """Every non-joker holder acts once; groups share a rank and are called highest first."""

    def case(seed):
        rng = random.Random(seed)
        people = [f"p{i}" for i in range(rng.randint(2, 8))] + ["Game Master"]
        cards = rng.sample(_deck(), len(people))
        draws = dict(zip(people, cards))
        order = ns["turn_order"](draws)
        jokers = ns["joker_holders"](draws)
        called = [who for group in order for who in group]
        assert sorted(called + list(jokers)) == sorted(people), "each acts once"
        assert sorted(jokers) == sorted(who for who, card in draws.items() if card == "Joker"), "jokers"
        ranks = [{RANKS.index(draws[who][:-1]) for who in group} for group in order]
        assert all(len(r) == 1 for r in ranks), "a group mixes ranks"
        assert [r.pop() for r in ranks] == sorted({RANKS.index(c[:-1]) for c in cards if c != "Joker"}), "rank order"

    sweep(range(20), case)


def test_same_value_different_suits_act_together(ns):
    # "People with two cards of different suits take their turn simultaneously"
    assert ns["turn_order"]({"x": "7♠", "y": "7♦", "z": "8♣"}) == (("z",), ("x", "y"))
    with pytest.raises(ValueError):
        ns["turn_order"]({"x": "7♠", "y": "7♠"})
    with pytest.raises(ValueError):
        ns["turn_order"]({"x": "1♠"})


def test_final_standings_most_points_first(ns):
    # "the player with the most will be the winner"
    assert ns["final_standings"]({"a": 3, "b": 9, "c": 3}) == (("b",), ("a", "c"))


# -- movement and tests ----------------------------------------------------------------------------
@pytest.mark.parametrize("initiative", range(0, 9))
def test_initiative_test_roll_lower_on_a_d6(initiative, ns):
    # "pass an Initiative test (roll lower on a D6)", read strictly
    passes, chance = ns["initiative_test_passes"], ns["initiative_test_chance"]
    assert chance(initiative) == count(((face,) for face in FACES), lambda r: r < initiative)
    assert all(passes(r, initiative) == (r < initiative) for r in FACES)
    if 1 <= initiative <= 6:
        assert not passes(initiative, initiative)


def test_running_needs_no_active_enemy_within_8(ns):
    may_run = ns["may_run"]
    assert may_run([(8.5, "active")])
    assert not may_run([(8, "active")])
    assert may_run([(1, "Stunned"), (2, "knocked down"), (3, "HIDDEN")])
    assert may_run()


def test_charges(ns):
    # "Chargers can move double their movement value to reach their enemy."
    charge_reach, charge_reaches, unseen = ns["charge_reach"], ns["charge_reaches"], ns["unseen_charge_allowed"]
    assert charge_reach(4) == 8 and charge_reach(Fraction(9, 2)) == 9
    assert charge_reaches(4, 8) and not charge_reaches(4, Fraction("8.1"))
    # "so long as they are within 4\" of your starting position"; "cannot pass through a door"
    assert unseen(4) and not unseen(Fraction("4.1"))
    assert not unseen(2, target_hidden=True)
    assert not unseen(2, through_door=True)


def test_no_charge_with_an_interceptor_within_2_inches(ns):
    may_declare_charge = ns["may_declare_charge"]
    assert not may_declare_charge([2]) and not may_declare_charge([5, 0.5])
    assert may_declare_charge([2.1, 7]) and may_declare_charge()


def test_window_costs_an_extra_inch(ns):
    window_route_cost = ns["window_route_cost"]
    assert window_route_cost(0) == 1 and window_route_cost(3) == 4
    assert window_route_cost(Fraction(5, 2)) == Fraction(7, 2)


@pytest.mark.parametrize("inches", [0, 2, 5, 6.5, 7, 12, 13])
def test_2d6_flight_against_36_outcomes(inches, ns):
    covered = sum(1 for a, b in itertools.product(FACES, FACES) if a + b >= inches)
    assert ns["flight_at_least"](inches) == Fraction(covered, 36)


def test_stupid_shamble_is_half_move_stopping_1_inch_short(ns):
    shamble_distance = ns["shamble_distance"]
    assert shamble_distance(4) == 2 and shamble_distance(5) == Fraction(5, 2)
    assert shamble_distance(6, enemy_distance=10) == 3
    assert shamble_distance(6, enemy_distance=3) == 2
    assert shamble_distance(6, enemy_distance=Fraction(1, 2)) == 0


def test_movement_allowance(ns):
    # "normal movement value in inches, or double if running (or charging)"; "halved over difficult terrain"
    movement_allowance = ns["movement_allowance"]
    assert movement_allowance(4) == 4
    assert movement_allowance(4, running=True) == 8
    assert movement_allowance(4, charging=True) == 8
    assert movement_allowance(5, difficult=True) == Fraction(5, 2)
    assert movement_allowance(4, charging=True, difficult=True) == 4


def test_rally_and_leadership(ns, values):
    may_rally, usable_leadership = ns["may_rally"], ns["usable_leadership"]
    assert may_rally(2, [(3, "active")])
    assert not may_rally(3, [(3, "active")])
    assert may_rally(5, [(1, "Stunned")])
    assert not may_rally(None, [(9, "active")])
    assert usable_leadership(7, leader=9, leader_distance=12, reach=values.rally_leader_reach) == 9
    assert usable_leadership(7, leader=9, leader_distance=13, reach=values.rally_leader_reach) == 7
    assert usable_leadership(7, leader=9, leader_distance=8) == 9  # the default reach is 8"
    assert usable_leadership(7, leader=9, leader_distance=9) == 7
    assert usable_leadership(8, leader=6, leader_distance=1) == 8


def test_hidden_models_are_detected_within_initiative_inches(ns):
    detects_hidden = ns["detects_hidden"]
    assert detects_hidden(3, 3) and not detects_hidden(Fraction(7, 2), 3)


# -- magic ------------------------------------------------------------------------------------------
def test_casting_chance_against_36_outcomes(ns):
    def case(difficulty):
        assert ns["casting_chance"](difficulty) == count(dice(2), lambda a, b: a + b >= difficulty)

    sweep(range(0, 15), case)


def test_000_spells_by_caster_level(ns):
    """ "Level 1 and 2 casters may cast a single spell each turn, and level 3 or 4 casters may cast two";
    "a spell for each caster level they have"."""
    spells_per_turn, spells_known = ns["spells_per_turn"], ns["spells_known"]
    assert [spells_per_turn(level) for level in (1, 2, 3, 4)] == [1, 1, 2, 2]
    assert [spells_known(level) for level in (1, 2, 3, 4)] == [1, 2, 3, 4]
    chart = ns["spells_by_caster_level"]
    assert [chart("known", level) for level in (1, 2, 3, 4)] == [1, 2, 3, 4]
    assert [chart("cast per turn", level) for level in (1, 2, 3, 4)] == [1, 1, 2, 2]
    for bad in (0, 5):
        with pytest.raises(LookupError):
            spells_per_turn(bad)
        with pytest.raises(ValueError):
            spells_known(bad)


# -- searching ------------------------------------------------------------------------------------
def test_000_may_search(ns):
    # "the room in question is clear of all monsters" and the others "are not currently engaged"
    may_search = ns["may_search"]
    assert may_search(0) and not may_search(1)
    assert not may_search(0, others_engaged=True)


def test_000_search_dice(ns):
    """ "roll a die for each model ... Hero characters may roll an extra die ... Lords may roll 2 extra dice"."""
    search_dice = ns["search_dice"]
    assert search_dice(1) == 1
    assert search_dice(1, heroes=1) == 2
    assert search_dice(1, lords=1) == 3
    assert search_dice(5, heroes=2, lords=1) == 9
    assert search_dice(1, heroes=1, lords=1) is None  # heroes and lords are among the eligible models


@pytest.mark.parametrize("n", range(0, 7))
def test_search_chance_by_dice_against_enumeration(n, ns):
    # "On a roll of 5 or 6, the search is successful"
    expected = count(dice(n), lambda *rolls: any(roll >= 5 for roll in rolls)) if n else Fraction(0)
    assert ns["search_chance"](n) == expected


@pytest.mark.parametrize("models, heroes, lords", [(0, 0, 0), (1, 0, 0), (2, 1, 0), (2, 0, 1), (3, 1, 1), (4, 2, 0)])
def test_search_success_against_enumeration(models, heroes, lords, ns):
    n = models + heroes + 2 * lords  # a die each, one more per Hero, 2 more per Lord
    assert ns["search_dice"](models, heroes, lords) == n
    by_rule = count(dice(n), lambda *rolls: any(roll in (5, 6) for roll in rolls)) if n else Fraction(0)
    by_table = count(dice(n), lambda *rolls: ns["search_succeeds"](rolls)) if n else Fraction(0)
    assert ns["search_success_chance"](models, heroes, lords) == by_rule == by_table


def test_two_jokers_in_one_deck_both_go_when_they_wish(ns):
    """000: "Anyone holding a joker can go any time": a deck's two jokers may both be drawn, and
    neither holder is in the call."""
    draws = {"Ann": "Joker", "Bob": "joker", "GM": "A♠"}
    assert ns["turn_order"](draws) == (("GM",),)
    assert sorted(ns["joker_holders"](draws)) == ["Ann", "Bob"]
