"""The Warhammer Fantasy charts base ruleset against the published charts and brute force.

The to-hit and to-wound charts are typed cell by cell from the Warhammer Fantasy rulebook's
charts (which Ordo Ineptus, 000, uses without printing: "The skirmish uses the same to hit
chart and wound charts as in the Warhammer Fantasy rulebook"). The shooting chances are
checked against every way two six-sided dice can fall.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from helpers import ruleset_names, sweep

ns, to_hit_melee, to_wound, to_hit_shooting, shooting_chance = ruleset_names(
    "warhammer_fantasy_charts", "to_hit_melee", "to_wound", "to_hit_shooting", "shooting_chance"
)  # module fixtures

FACES = range(1, 7)
from published_charts import TO_HIT_CHART, TO_WOUND_CHART, shooting_by_enumeration  # noqa: E402 - typed from the rulebook

# The Fantasy BS table: the roll to hit before modifiers (7 - BS; a natural 1 always misses).
BS_TO_HIT = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 2}


def count(outcomes, wanted) -> Fraction:
    outcomes = list(outcomes)
    return Fraction(sum(1 for o in outcomes if wanted(*o)), len(outcomes))


@pytest.mark.parametrize("attacker", TO_HIT_CHART)
def test_to_hit_is_the_fantasy_chart(attacker, to_hit_melee):
    assert [to_hit_melee(attacker, defender) for defender in range(1, 11)] == TO_HIT_CHART[attacker]


@pytest.mark.parametrize("strength", TO_WOUND_CHART)
def test_to_wound_is_the_fantasy_chart(strength, to_wound):
    assert [to_wound(strength, toughness) for toughness in range(1, 11)] == TO_WOUND_CHART[strength]


def test_to_wound_edges(to_wound):
    assert to_wound(2, 5) == 6 and to_wound(1, 4) == 6  # T = S+3: 6+
    assert to_wound(1, 5) is None and to_wound(6, 10) is None  # T = S+4: no effect


@pytest.mark.parametrize("bs, needed", BS_TO_HIT.items())
def test_ballistic_skill_before_modifiers(bs, needed, shooting_chance, to_hit_shooting):
    assert to_hit_shooting(bs) == needed
    assert shooting_chance(bs) == count(((face,) for face in FACES), lambda roll: roll >= needed)


def test_shooting_chance_against_two_dice(shooting_chance):
    def case(bs, modifier):
        assert shooting_chance(bs, modifier) == shooting_by_enumeration(bs, modifier)

    sweep(itertools.product(range(1, 11), range(-5, 6)), case)  # BS 1 to 10: the chart's rows


def test_shooting_roll_beyond_six(shooting_chance, to_hit_shooting):
    assert to_hit_shooting(1, -1) == 7 and to_hit_shooting(1, -3) == 9
    assert to_hit_shooting(1, -4) is None  # 10+ cannot hit
    assert shooting_chance(1, -3) == Fraction(1, 36)
    assert shooting_chance(1, -4) == 0


def test_charts_and_sheets_are_declared(ns):
    rules = ns["rules"]
    assert rules.meta.kind == "base"
    assert [c.id for c in rules.charts] == ["to_hit", "to_wound", "shooting"]
    assert rules.chart("to_wound").impossible == "no effect"
    shooting = rules.chart("shooting")
    assert shooting.chance == "shooting_chance"
    assert [q.value for q in shooting.columns.values] == [1, 0, -1, -2, -3]
    assert rules.sheets == ()  # the rulesets that use the charts print them, with their own notes
