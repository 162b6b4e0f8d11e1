"""Odds calculators: every answer a calculator holds, against the published charts and against enumerating dice.

The oracles never call the engine: the Warhammer Fantasy charts are typed from the rulebook
(tests/rulesets/published_charts.py), shooting at 7+ and over is two real dice enumerated, and Rampant Hex's hits
are every face of every attack die counted ("Any dice that score higher than the targets ARMOUR cause one hit", 004).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from dice_counting import hits_by_counting
from helpers import sample_check
from rulesets.published_charts import TO_HIT_CHART, TO_WOUND_CHART, shooting_by_enumeration

from generator.render import calculators as calc


def tabled(ruleset_id: str, formula_id: str) -> calc.Tabled:
    result = sample_check(ruleset_id)
    ruleset = next(r for r in result.project.rulesets if r.id == ruleset_id)
    return next(t for t in calc.calculators(ruleset, "player") if t.formula.id == formula_id)


def answers(found: calc.Tabled) -> dict[tuple[str, ...], list[dict]]:
    """Each answer by the options picked, as a player sees them."""
    options = [spec["options"] for spec in found.data["inputs"]]
    return dict(zip(itertools.product(*options), found.data["answers"], strict=True))


def fraction(chance: dict) -> Fraction:
    return Fraction(chance["exact"])


def test_the_to_hit_calculator_gives_the_published_chart():
    by_pick = answers(tabled("warhammer_fantasy_charts", "to_hit_melee"))
    assert len(by_pick) == 100
    for attacker, row in TO_HIT_CHART.items():
        for defender, needed in enumerate(row, 1):
            (part,) = by_pick[(str(attacker), str(defender))]
            assert part["text"] == f"{needed}+"
            assert fraction(part["chance"]) == Fraction(7 - needed, 6)


def test_the_to_wound_calculator_gives_the_published_chart():
    by_pick = answers(tabled("warhammer_fantasy_charts", "to_wound"))
    for strength, row in TO_WOUND_CHART.items():
        for toughness, needed in enumerate(row, 1):
            (part,) = by_pick[(str(strength), str(toughness))]
            assert part["text"] == ("impossible" if needed is None else f"{needed}+")
            assert fraction(part["chance"]) == (0 if needed is None else Fraction(7 - needed, 6))


def test_the_shooting_calculator_takes_any_total_modifier_with_two_dice_odds():
    """BS 0 to 10 and every total modifier from -5 to +5: the chance is the chart's own (a 6, then a second roll,
    from 7+), never a roll of 7 on one die."""
    by_pick = answers(tabled("warhammer_fantasy_charts", "to_hit_shooting"))
    assert len(by_pick) == 11 * 11
    for bs, modifier in itertools.product(range(0, 11), range(-5, 6)):
        shown = "±0" if modifier == 0 else f"{modifier:+d}".replace("-", "\u2212")
        (part,) = by_pick[(str(bs), shown)]
        assert fraction(part["chance"]) == shooting_by_enumeration(bs, modifier), (bs, modifier)


# 000: "Cover ... confers a -1 modifier to the shooting. Other shooting modifiers are for moving, large target, and
# long range ..., as in Fantasy": Fantasy's -1 for moving and long range, +1 for a large target.
SHOOTING_MODIFIERS = {"cover": -1, "moving": -1, "long_range": -1, "large_target": +1}


def test_a_shot_takes_any_combination_of_the_modifiers_the_rules_allow():
    by_pick = answers(tabled("ordo_ineptus", "shot_with_modifiers"))
    assert len(by_pick) == 11 * 2**4
    for bs in range(0, 11):
        for ticked in itertools.product((False, True), repeat=4):
            modifier = sum(m for m, on in zip(SHOOTING_MODIFIERS.values(), ticked) if on)
            roll, chance = by_pick[(str(bs), *("yes" if on else "no" for on in ticked))]
            needed = 7 - bs - modifier
            assert roll == {"text": "impossible" if needed >= 10 else f"{max(2, needed)}+"}  # no chance of one die
            assert Fraction(chance["exact"]) == shooting_by_enumeration(bs, modifier), (bs, ticked)
    # 000's own example: "A firer of Ballistic Skill 3 who moved needs a 5 to hit"
    assert by_pick[("3", "no", "yes", "no", "no")][0]["text"] == "5+"


def test_the_hits_calculator_gives_every_roll_of_the_attack_dice():
    found = tabled("rampant_hex", "hits")
    options = [spec["options"] for spec in found.data["inputs"]]
    assert [spec["label"] for spec in found.data["inputs"]] == ["ATTACK", "ARMOUR"]
    for (attack, armour), (part,) in answers(found).items():
        expected = hits_by_counting(int(attack), int(armour))
        rows = part["roll"]["rows"]
        assert [int(r["result"]) for r in rows] == list(expected), (attack, armour)
        below = Fraction(0)
        for row, chance in zip(rows, expected.values()):
            assert fraction(row["exactly"]) == chance
            assert fraction(row["at_least"]) == 1 - below and fraction(row["at_most"]) == below + chance
            below += chance
    assert options[0][0] == "0" and len(answers(found)) == len(options[0]) * len(options[1])


def test_a_formula_that_takes_any_value_or_too_many_has_no_calculator_and_says_why(monkeypatch):
    full_ranks = tabled("bad_moon_rising", "full_ranks_removed")
    assert full_ranks.data is None and full_ranks.why == "Models removed, Models in a full rank can take any value"
    monkeypatch.setattr(calc, "MAX_COMBINATIONS", 1000)
    many = tabled("rampant_hex", "chance_of_hits")  # ATTACK 0-12, ARMOUR 0-8, exactly 0-12: 13 x 9 x 13
    assert many.data is None and many.why == "its inputs combine in 1,521 ways"


@pytest.mark.parametrize("value, shown", [(-3, "\u22123"), (0, "±0"), (2, "+2")])
def test_a_modifier_is_picked_with_its_sign(value, shown):
    spec = calc.Input(id="modifier", label="Modifiers", min=-5, max=5)
    assert calc.choice_text(spec, value) == shown
