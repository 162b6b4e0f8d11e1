"""Ordo Ineptus (000): combat, shooting and damage, against the text and brute force.

Ported from tests/test_mechanics_fantasy.py. The oracles are the statements 000 makes in so
many words (quoted in the comments), the Warhammer Fantasy charts typed cell by cell (see
tests/rulesets/test_warhammer_fantasy_charts.py) and plain enumeration of the dice.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from helpers import ruleset_names, sweep

from generator.model.formula import FormulaError

(
    ns,
    rules,
    values,
    armour_save,
    armour_piercing_save,
    save_chance,
    critical_hit_effect,
    critical_hit_chance,
    critical_armour_save,
    injury_chart_result,
    injury_chart_chances,
    rolls_on_injury_chart,
    may_coup_de_grace,
    strike_order,
    all_alone_test_due,
    may_leave_combat,
    close_combat_to_hit,
    close_combat_hit_chance,
    shooting_targets,
    shooting_modifier,
    may_shoot,
    at_long_range,
    to_hit_shooting,
    shooting_chance,
    target_chance,
    target_text,
) = ruleset_names(
    "ordo_ineptus",
    "rules",
    "values",
    "armour_save",
    "armour_piercing_save",
    "save_chance",
    "critical_hit_effect",
    "critical_hit_chance",
    "critical_armour_save",
    "injury_chart_result",
    "injury_chart_chances",
    "rolls_on_injury_chart",
    "may_coup_de_grace",
    "strike_order",
    "all_alone_test_due",
    "may_leave_combat",
    "close_combat_to_hit",
    "close_combat_hit_chance",
    "shooting_targets",
    "shooting_modifier",
    "may_shoot",
    "at_long_range",
    "to_hit_shooting",
    "shooting_chance",
    "target_chance",
    "target_text",
)  # module fixtures

FACES = range(1, 7)
from published_charts import TO_HIT_CHART, TO_WOUND_CHART, shooting_by_enumeration  # noqa: E402 - typed from the rulebook


def count(outcomes, wanted) -> Fraction:
    outcomes = list(outcomes)
    return Fraction(sum(1 for o in outcomes if wanted(*o)), len(outcomes))


def one_die(wanted) -> Fraction:
    return count(((face,) for face in FACES), wanted)


def dice(n: int):
    return itertools.product(FACES, repeat=n)


def plain_save(base, strength, piercing=False):
    """000 § Armor, written out: "For every number over three, the armor save is reduced by 1 ...
    Anything with the “armor piercing” ability reduces the save further by one"; worse than 6+ is none."""
    if base is None:
        return None
    save = base + max(0, strength - 3) + (1 if piercing else 0)
    return save if save <= 6 else None


# -- helpers -------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", [None, 1, 2, 3, 4, 5, 6, 7])
def test_target_chance_counts_faces(target, target_chance):
    assert target_chance(target) == (Fraction(0) if target is None else one_die(lambda r: r >= target))


def test_target_text(target_text):
    assert target_text(4) == "4+"
    assert target_text(None) == "–"
    assert target_text(None, none="no save") == "no save"


# -- armour ------------------------------------------------------------------------------------------
def test_000_armour_statement(armour_save):
    """ "a normal 4+ armor save would be a 5+ save against a Str 4 hit, 6+ against a St 5 hit
    and would be nothing against a hit of Str 6 or higher"."""
    assert armour_save(4, 3) == 4
    assert armour_save(4, 4) == 5
    assert armour_save(4, 5) == 6
    assert all(armour_save(4, s) is None for s in range(6, 11))


def test_armour_save_and_piercing(armour_piercing_save, armour_save):
    def case(base, strength):
        assert armour_save(base, strength) == plain_save(base, strength), "plain"
        assert armour_save(base, strength, True) == plain_save(base, strength, True), "piercing"
        assert armour_piercing_save(base, strength) == plain_save(base, strength, True), "armour_piercing_save"
        plain = plain_save(base, strength)
        assert armour_save(base, strength, True) == (None if plain is None or plain == 6 else plain + 1), "one worse"

    sweep(itertools.product(range(2, 7), range(1, 11)), case)


def test_an_armour_save_runs_from_2_to_6_as_the_charts_print_it(
    armour_save, armour_piercing_save, critical_armour_save
):
    """The text names no 1+ save, nor whether a rolled 1 would fail one: a calculator offering 1+ showed a save
    that never fails (100%). Each formula refuses it, and a 7+."""
    for base in (1, 7):
        for name, asked in (
            ("armour_save", lambda: armour_save(base, 3)),
            ("armour_piercing_save", lambda: armour_piercing_save(base, 3)),
            ("critical_armour_save", lambda: critical_armour_save(base, 3, 1)),
        ):
            with pytest.raises(FormulaError, match=f"`base_save` of {name} runs from 2 to 6, not {base}"):
                asked()


def test_no_save_stays_no_save(save_chance):
    assert save_chance(None, 1) == 0


def test_save_chance_against_enumeration(save_chance):
    """ "A model with both an armor save and a ward save can take the armor save first and then try
    their ward save if they fail that"; ward saves are unaffected by Strength."""

    def case(base, strength, ward, piercing):
        armour = plain_save(base, strength, piercing)

        def saved(armour_roll, ward_roll):
            if armour is not None and armour_roll >= armour:
                return True
            return ward is not None and ward_roll >= ward

        assert save_chance(base, strength, piercing, ward=ward) == count(dice(2), saved)

    sweep(itertools.product([None, 2, 3, 4, 5, 6], range(1, 8), [None, 4, 5, 6], [False, True]), case)


def test_armour_charts_and_sheet(rules):
    assert rules.chart("armour_save_chart").impossible == "no save"
    assert rules.chart("armour_piercing_chart").formula == "armour_piercing_save"
    assert [(s.id, s.value.value) for s in rules.chart("critical_armour_chart").fixed] == [("roll", 1)]
    sheet = rules.get("sheets", "armour_saves")
    assert sheet.charts == ("armour_save_chart", "armour_piercing_chart", "critical_armour_chart")


# -- critical hits and injuries ---------------------------------------------------------------------
def test_critical_hit_chance_is_a_six_that_wounds(critical_hit_chance):
    """ "Whenever a six is rolled to wound, a critical hit is scored"."""

    def case(strength, toughness):
        needed = TO_WOUND_CHART[strength][toughness - 1]
        wanted = one_die(lambda r: r == 6 and needed is not None and r >= needed)
        assert critical_hit_chance(strength, toughness) == wanted

    sweep(itertools.product(range(1, 11), range(1, 11)), case)


def test_critical_on_six_only_wounds(critical_hit_chance):
    assert critical_hit_chance(2, 5) == Fraction(1, 6)  # T = S+3: a 6 wounds, and is critical
    assert critical_hit_chance(2, 6) == 0  # no effect: no roll to wound, no critical


def test_000_critical_hit_table(critical_hit_effect):
    """ "On a 1, 2, or 3 the armor save is reduced by 2. On a 4 or 5 the armor save is reduced by 2
    and the wounds are doubled, on a 6 the model receives a Killing Blow"."""
    for roll in (1, 2, 3):
        effect = critical_hit_effect(roll)
        assert (effect.save_penalty, effect.wound_multiplier, effect.killing_blow) == (2, 1, False)
    for roll in (4, 5):
        effect = critical_hit_effect(roll)
        assert (effect.save_penalty, effect.wound_multiplier, effect.killing_blow) == (2, 2, False)
    # the 6 is a Killing Blow and nothing else: the text reduces no save and doubles no wounds for it
    effect = critical_hit_effect(6)
    assert (effect.save_penalty, effect.wound_multiplier, effect.killing_blow) == (0, 1, True)
    for bad in (0, 7):
        with pytest.raises(ValueError):
            critical_hit_effect(bad)


def test_critical_armour_save_is_two_worse(critical_armour_save):
    def case(base, strength, roll, piercing):
        plain = plain_save(base, strength, piercing)
        expected = None if roll == 6 or plain is None or plain + 2 > 6 else plain + 2
        assert critical_armour_save(base, strength, roll, piercing) == expected

    sweep(itertools.product([2, 3, 4, 5, 6], range(1, 8), FACES, [False, True]), case)


def test_000_injury_chart(injury_chart_chances, injury_chart_result, may_coup_de_grace, rolls_on_injury_chart):
    """ "On a 1 or 2, the unit is knocked down ... On a 3 or 4 ... stunned ... On a 5 or 6 ... killed"."""
    assert [injury_chart_result(r) for r in FACES] == ["Knocked Down"] * 2 + ["Stunned"] * 2 + ["Killed"] * 2
    chances = injury_chart_chances()
    assert set(chances) == {"Knocked Down", "Stunned", "Killed"}
    for result, chance in chances.items():
        assert chance == one_die(lambda r: injury_chart_result(r) == result) == Fraction(1, 3)
    assert rolls_on_injury_chart()
    assert not rolls_on_injury_chart(killing_blow=True)
    assert not rolls_on_injury_chart(villager_or_circus=True)
    assert may_coup_de_grace("Knocked Down", 0)
    assert not may_coup_de_grace("Stunned", 0)
    assert not may_coup_de_grace("Knocked Down", 2)


# -- close combat ------------------------------------------------------------------------------------
def test_strike_order(strike_order):
    """ "Normally, chargers strike first"; then highest to lowest Initiative."""
    assert strike_order({"a": 2, "b": 5, "c": 3}, chargers=["a"]) == (("a",), ("b",), ("c",))
    assert strike_order({"a": 4, "b": 4}) == (("a", "b"),)
    assert strike_order({"a": 4, "b": 4, "c": 1}, chargers=["c", "b"]) == (("b", "c"), ("a",))


def test_all_alone_and_leaving(all_alone_test_due, may_leave_combat):
    """ "if a model is alone and fighting against 2 or more models, it must pass a leadership test"."""
    assert all_alone_test_due(2) and not all_alone_test_due(1) and not all_alone_test_due(2, friends=1)
    assert not all_alone_test_due(2, unbreakable=True) and not all_alone_test_due(2, immune_to_psychology=True)
    assert may_leave_combat(["X"], []) and not may_leave_combat(["X", "Z"], ["Z"])


def test_fear_and_hatred_against_enumeration(close_combat_hit_chance, close_combat_to_hit):
    """Fear: "they will require 6’s to hit the feared enemy"; Hatred: "re-roll failed to hit rolls"."""

    def case(attacker, defender, afraid):
        needed = 6 if afraid else TO_HIT_CHART[attacker][defender - 1]
        assert close_combat_to_hit(attacker, defender, afraid) == needed
        assert close_combat_hit_chance(attacker, defender, afraid) == one_die(lambda r: r >= needed), "no hatred"
        rerolled = count(dice(2), lambda first, second: first >= needed or second >= needed)
        assert close_combat_hit_chance(attacker, defender, afraid, hatred=True) == rerolled, "hatred"

    sweep(itertools.product(range(1, 11), range(1, 11), [False, True]), case)


# -- shooting ---------------------------------------------------------------------------------------
def test_000_shooting_modifiers(shooting_modifier, to_hit_shooting):
    """000: "Cover ... confers a -1 modifier to the shooting"; moving, large target and long range
    "as in Fantasy" (-1, +1, -1)."""
    assert shooting_modifier(cover=True) == -1
    assert shooting_modifier(moving=True) == -1 and shooting_modifier(long_range=True) == -1
    assert shooting_modifier(large_target=True) == 1
    assert shooting_modifier() == 0
    assert to_hit_shooting(3, shooting_modifier(cover=True)) == 5
    assert to_hit_shooting(3, shooting_modifier(large_target=True)) == 3
    assert to_hit_shooting(5, shooting_modifier(large_target=True)) == 2  # a natural 1 always misses


def test_shooting_with_modifiers_against_enumeration(shooting_chance, shooting_modifier):
    def case(bs, flags):
        cover, moving, long_range, large = flags
        modifier = shooting_modifier(cover=cover, moving=moving, long_range=long_range, large_target=large)
        # 000: cover, moving and long range are -1 each, a large target +1 (typed here from the text)
        assert modifier == -cover - moving - long_range + large, "modifier"
        assert shooting_chance(bs, modifier) == shooting_by_enumeration(bs, modifier), f"chance at {modifier:+d}"

    sweep(itertools.product(range(1, 7), itertools.product([False, True], repeat=4)), case)


def test_shooting_rules(at_long_range, may_shoot, shooting_targets):
    """ "a model must shoot at the closest enemy model"; "Models that run or attempt a charge may not
    shoot"; long range is "more than half the range of the weapon"."""
    assert shooting_targets({"a": 5, "b": 5, "c": 7}) == ("a", "b")
    assert shooting_targets({"a": 5, "c": 7}, elevated=True) == ("a", "c")
    assert shooting_targets({}) == ()
    assert may_shoot() and not may_shoot(ran=True) and not may_shoot(attempted_charge=True)
    assert not may_shoot(stupid=True)
    assert not at_long_range(15, 30) and at_long_range(Fraction(31, 2), 30) and at_long_range(4, 7)


def test_quick_reference_and_sheets(rules, values):
    assert rules.table("critical_hit_table").quick_reference  # the critical roll reaches the sheet with its table
    assert values.critical_roll == 6
    assert {s.id for s in rules.sheets} >= {"to_hit", "to_wound", "armour_saves", "shooting"}
    assert rules.meta.extends == "warhammer_fantasy_charts"


def test_every_sheet_naming_the_killing_blow_keeps_its_ward_save(rules):
    """'on a 6 the model receives a Killing Blow and is automatically slain and removed (ward saves may still be
    taken, however)': a sheet's line on the critical hit table says so wherever it names the Killing Blow, and the
    sheets that print that line print the same one."""
    lines = {(sheet.id, str(note)) for sheet in rules.sheets for note in sheet.notes if "Killing Blow" in str(note)}
    assert {sheet for sheet, _ in lines} >= {"armour_saves", "to_wound"}
    for sheet, line in lines:
        assert "ward saves may still be taken" in line, sheet
    assert len({line for _, line in lines}) == 1


def test_the_shooting_sheet_says_which_modifiers_the_text_leaves_to_fantasy(rules):
    """000: "Other shooting modifiers are for moving, large target, and long range (more than half the range of the
    weapon), as in Fantasy": the text prints none of their numbers, so the sheet that prints them says so beside
    them; cover's -1 is the text's own ("confers a -1 modifier to the shooting")."""
    notes = [str(note) for note in rules.sheet("shooting").notes]
    fantasy = ("moving_modifier", "long_range_modifier", "large_target_modifier")
    printing = [note for note in notes if any(f"{{value}}`{value}`" in note for value in fantasy)]
    assert printing
    for note in printing:
        assert all(f"{{value}}`{value}`" in note for value in fantasy), note
        assert "does not print them" in note, note
