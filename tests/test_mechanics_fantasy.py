"""The Fantasy charts and the Shellendrak skirmish (000) mechanics, against brute force and the text.

The oracles are the Warhammer Fantasy charts written out cell by cell, plain enumeration of
every way the dice can fall, and the statements 000 makes in so many words.
"""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import random
from fractions import Fraction

import pytest

from generator import mechanics
from generator.mechanics import fantasy, shellendrak
from generator.mechanics.fantasy import (
    SHOOTING_MODIFIERS, armour_save, save_chance, shooting_chance, target_chance, target_text, to_hit_melee,
    to_hit_shooting, to_wound,
)
from generator.mechanics.shellendrak import (
    CARD_RANKS, all_alone_test_due, at_long_range, casting_chance, charge_reach, charge_reaches, close_combat_hit_chance,
    critical_armour_save, critical_hit_chance, critical_hit_effect, detects_hidden, final_standings, flight_at_least,
    initiative_test_chance, initiative_test_passes, injury_chart_chances, injury_chart_result, joker_holders,
    may_coup_de_grace, may_declare_charge, may_leave_combat, may_rally, may_run, may_shoot, movement_allowance,
    rolls_on_injury_chart, search_dice, search_success_chance, search_succeeds, shamble_distance, shooting_targets,
    spells_known, spells_per_turn, strike_order, turn_order, unseen_charge_allowed, usable_leadership,
    window_route_cost,
)

FACES = range(1, 7)
N = None  # "no effect" on the wound chart

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

# The Warhammer Fantasy wound chart: Strength (rows) against Toughness (columns 1-10).
TO_WOUND_CHART = {
    1: [4, 5, 6, N, N, N, N, N, N, N],
    2: [3, 4, 5, 6, N, N, N, N, N, N],
    3: [2, 3, 4, 5, 6, N, N, N, N, N],
    4: [2, 2, 3, 4, 5, 6, N, N, N, N],
    5: [2, 2, 2, 3, 4, 5, 6, N, N, N],
    6: [2, 2, 2, 2, 3, 4, 5, 6, N, N],
    7: [2, 2, 2, 2, 2, 3, 4, 5, 6, N],
    8: [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    9: [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    10: [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
}

# The Fantasy BS table: the roll to hit before modifiers.
BS_TO_HIT = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2}


def count(outcomes, wanted) -> Fraction:
    outcomes = list(outcomes)
    return Fraction(sum(1 for o in outcomes if wanted(*o)), len(outcomes))


def one_die(wanted) -> Fraction:
    return count(((face,) for face in FACES), wanted)


def dice(n: int):
    return itertools.product(FACES, repeat=n)


# -- fantasy: the charts ----------------------------------------------------------------------
@pytest.mark.parametrize("attacker", TO_HIT_CHART)
def test_to_hit_melee_is_the_fantasy_chart(attacker):
    assert [to_hit_melee(attacker, defender) for defender in range(1, 11)] == TO_HIT_CHART[attacker]


@pytest.mark.parametrize("strength", TO_WOUND_CHART)
def test_to_wound_is_the_fantasy_chart(strength):
    assert [to_wound(strength, toughness) for toughness in range(1, 11)] == TO_WOUND_CHART[strength]


@pytest.mark.parametrize("bs, needed", BS_TO_HIT.items())
def test_ballistic_skill_before_modifiers(bs, needed):
    assert to_hit_shooting(bs) == needed
    assert shooting_chance(bs) == one_die(lambda r: r >= needed)


def test_000_shooting_modifiers():
    """000: cover is -1; moving, large target and long range "as in Fantasy"."""
    assert SHOOTING_MODIFIERS == {"cover": -1, "moving": -1, "long range": -1, "large target": +1}
    assert to_hit_shooting(3, "cover") == 5
    assert to_hit_shooting(3, "large target") == 3
    assert to_hit_shooting(5, "large target") == 2  # a natural 1 always misses


def _shooting_by_enumeration(needed: int) -> Fraction:
    """7+ is a 6 then 4+, 8+ a 6 then 5+, 9+ a 6 then 6+: enumerate both dice."""
    if needed <= 6:
        return count(dice(1), lambda r: r >= max(needed, 2))
    return count(dice(2), lambda first, second: first == 6 and second >= needed - 3 and needed <= 9)


@pytest.mark.parametrize("bs", range(1, 7))
@pytest.mark.parametrize("modifiers", [
    combo for size in range(len(SHOOTING_MODIFIERS) + 1) for combo in itertools.combinations(SHOOTING_MODIFIERS, size)
])
def test_shooting_chance_against_enumeration(bs, modifiers):
    needed = 7 - bs - sum(SHOOTING_MODIFIERS[m] for m in modifiers)
    assert shooting_chance(bs, *modifiers) == _shooting_by_enumeration(needed)


def test_shooting_beyond_9_plus_cannot_hit():
    assert to_hit_shooting(1, "cover", "moving", "long range") == 9
    assert shooting_chance(1, "cover", "moving", "long range") == Fraction(1, 36)
    assert shooting_chance(0, "cover", "moving", "long range") == 0


@pytest.mark.parametrize("target", [None, 0, 1, 2, 3, 4, 5, 6, 7])
def test_target_chance_counts_faces(target):
    expected = Fraction(0) if target is None else one_die(lambda r: r >= target)
    assert target_chance(target) == expected


def test_target_text():
    assert target_text(4) == "4+"
    assert target_text(None) == "–"
    assert target_text(None, none="no save") == "no save"


# -- fantasy: armour ------------------------------------------------------------------------
def test_000_armour_statement():
    """"a normal 4+ armor save would be a 5+ save against a Str 4 hit, 6+ against a St 5 hit
    and would be nothing against a hit of Str 6 or higher". """
    assert armour_save(4, 3) == 4
    assert armour_save(4, 4) == 5
    assert armour_save(4, 5) == 6
    assert all(armour_save(4, s) is None for s in range(6, 11))


def test_000_armour_piercing_one_more():
    for base, strength in itertools.product(range(1, 7), range(1, 8)):
        plain = armour_save(base, strength)
        piercing = armour_save(base, strength, armour_piercing=True)
        assert piercing == (None if plain is None or plain == 6 else plain + 1)


def test_no_save_stays_no_save():
    assert armour_save(None, 1) is None


@pytest.mark.parametrize("base", [None, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("strength", range(1, 8))
@pytest.mark.parametrize("ward", [None, 4, 5, 6])
@pytest.mark.parametrize("piercing", [False, True])
def test_save_chance_against_enumeration(base, strength, ward, piercing):
    """Armour first, then the ward save (which Strength does not touch) if the armour fails."""
    armour = armour_save(base, strength, piercing)

    def saved(armour_roll, ward_roll):
        if armour is not None and armour_roll >= armour:
            return True
        return ward is not None and ward_roll >= ward

    assert save_chance(base, strength, piercing, ward=ward) == count(dice(2), saved)


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
    assert not may_shoot(attempted_charge=True) and not may_shoot(ran=True) and may_shoot()


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


def test_hidden_and_targets():
    assert detects_hidden(3, 3) and not detects_hidden(3.5, 3)
    assert shooting_targets({"a": 5, "b": 5, "c": 7}) == ("a", "b")
    assert shooting_targets({}) == ()
    assert not at_long_range(15, 30) and at_long_range(15.5, 30) and at_long_range(4, 7)


# -- shellendrak: critical hits and injuries -------------------------------------------------------
@pytest.mark.parametrize("strength", range(1, 11))
@pytest.mark.parametrize("toughness", range(1, 11))
def test_critical_hit_chance_is_a_six_that_wounds(strength, toughness):
    needed = to_wound(strength, toughness)
    assert critical_hit_chance(strength, toughness) == one_die(lambda r: r == 6 and needed is not None and r >= needed)


def test_000_critical_hit_table():
    """"On a 1, 2, or 3 the armor save is reduced by 2. On a 4 or 5 ... and the wounds are doubled,
    on a 6 the model receives a Killing Blow"."""
    for roll in (1, 2, 3):
        effect = critical_hit_effect(roll)
        assert (effect.save_penalty, effect.wound_multiplier, effect.killing_blow) == (2, 1, False)
    for roll in (4, 5):
        effect = critical_hit_effect(roll)
        assert (effect.save_penalty, effect.wound_multiplier, effect.killing_blow) == (2, 2, False)
    assert critical_hit_effect(6).killing_blow
    with pytest.raises(ValueError):
        critical_hit_effect(7)


@pytest.mark.parametrize("base", [None, 1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("strength", range(1, 8))
@pytest.mark.parametrize("roll", FACES)
def test_critical_armour_save_is_two_worse(base, strength, roll):
    plain = armour_save(base, strength)
    expected = None if roll == 6 or plain is None or plain + 2 > 6 else plain + 2
    assert critical_armour_save(base, strength, roll) == expected


def test_000_injury_chart():
    assert [injury_chart_result(r) for r in FACES] == ["Knocked Down"] * 2 + ["Stunned"] * 2 + ["Killed"] * 2
    for result, chance in injury_chart_chances().items():
        assert chance == one_die(lambda r: injury_chart_result(r) == result) == Fraction(1, 3)
    assert rolls_on_injury_chart()
    assert not rolls_on_injury_chart(killing_blow=True)
    assert not rolls_on_injury_chart(villager_or_circus=True)
    assert may_coup_de_grace("knocked down", 0)
    assert not may_coup_de_grace("Stunned", 0)
    assert not may_coup_de_grace("Knocked Down", 2)


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


# -- shellendrak: combat and psychology ------------------------------------------------------------
def test_strike_order():
    assert strike_order({"a": 2, "b": 5, "c": 3}, chargers=["a"]) == (("a",), ("b",), ("c",))
    assert strike_order({"a": 4, "b": 4}) == (("a", "b"),)


def test_all_alone_and_leaving():
    assert all_alone_test_due(2) and not all_alone_test_due(1) and not all_alone_test_due(2, friends=1)
    assert not all_alone_test_due(2, unbreakable=True) and not all_alone_test_due(2, immune_to_psychology=True)
    assert may_leave_combat(["X"], []) and not may_leave_combat(["X", "Z"], ["Z"])


@pytest.mark.parametrize("attacker, defender", list(itertools.product(range(1, 11), repeat=2)))
@pytest.mark.parametrize("afraid", [False, True])
def test_hatred_rerolls_against_enumeration(attacker, defender, afraid):
    needed = 6 if afraid else TO_HIT_CHART[attacker][defender - 1]
    assert close_combat_hit_chance(attacker, defender, afraid) == one_die(lambda r: r >= needed)
    rerolled = count(dice(2), lambda first, second: first >= needed or second >= needed)
    assert close_combat_hit_chance(attacker, defender, afraid, hatred=True) == rerolled


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


# -- the shared namespace ----------------------------------------------------------------------------
def test_names_are_not_shadowed_by_other_modules():
    """Worked examples see every module's __all__ in one namespace; ours must stay unique."""
    ours = set(fantasy.__all__) | set(shellendrak.__all__)
    assert not set(fantasy.__all__) & set(shellendrak.__all__)
    for info in pkgutil.iter_modules(mechanics.__path__):
        if info.name in ("fantasy", "shellendrak"):
            continue
        module = importlib.import_module(f"{mechanics.__name__}.{info.name}")
        assert not ours & set(getattr(module, "__all__", ())), info.name


def test_every_exported_name_exists():
    for module in (fantasy, shellendrak):
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.{name}"
