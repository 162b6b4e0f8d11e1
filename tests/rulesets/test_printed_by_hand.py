"""What the sample rules print, typed by hand from the source texts: chart axes, the rows of word tables,
hero costs and tracking boxes.

These are the values `make data-mutation` (scripts/data_mutation.py) found no other test holding: a result
text whose number disagrees with its `value`, a chart axis that silently drops its first value, a hero
cost no quote states. Each expectation quotes its sentence (file as in ../shared/seeds) or says why the
chart prints what it prints. Nothing here is computed with the code under test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import sample_project

from generator.examples.sybil_yaml import namespace_for_path
from generator.model.text import range_words

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project():
    project, diagnostics = sample_project()
    assert not list(diagnostics), diagnostics
    return project


def axis(a) -> str | None:
    """An axis as its YAML writes it: the listed values, or `range L-H`."""
    if a is None:
        return None
    return " ".join(str(v) for v in a.values) if a.values else f"range {range_words(a.range)}"


# (ruleset, chart): (rows, columns) and why those are the values a player needs.
CHART_AXES = {
    ("bad_moon_rising", "wedge_complete_ranks_chart"): (
        ("range 1-7", "models shoot shoot on a hill"),
        "one row per complete rank from the single front model",
    ),
    ("city_of_the_damned_combat", "critical_hit_chances"): (
        ("1 2", "2+ 3+ 4+ 5+ 6+"),
        "002: 'at least one' and 'two' Critical Hits, for every roll needed on a D6",
    ),
    ("ordo_ineptus", "fear_and_hatred"): (
        ("3+ 4+ 5+ 6+", "0 1"),
        "000: to-hit rolls of the WS chart (3+ to 5+) and 6+ after a failed Fear test; Hatred re-roll or not",
    ),
    ("ordo_ineptus", "armour_save_chart"): (
        ("2+ 3+ 4+ 5+ 6+", "range 1-10"),
        "every armour save a model can have, against Strength 1 to 10",
    ),
    ("ordo_ineptus", "armour_piercing_chart"): (
        ("2+ 3+ 4+ 5+ 6+", "range 1-10"),
        "every armour save a model can have, against Strength 1 to 10",
    ),
    ("ordo_ineptus", "critical_armour_chart"): (
        ("2+ 3+ 4+ 5+ 6+", "range 1-10"),
        "every armour save a model can have, against Strength 1 to 10",
    ),
    ("ordo_ineptus", "casting_chart"): (
        (None, "range 3-12"),
        "000: 'roll the target number on two dice'; difficulties from 3 to 12",
    ),
    ("ordo_ineptus", "spells_chart"): (
        ("known cast per turn", "range 1-4"),
        "000: 'Level 1 and 2 casters ... level 3 or 4 casters'",
    ),
    ("ordo_ineptus", "initiative_chart"): (
        (None, "range 1-7"),
        "Initiative 1 up to 7, one past the last score a D6 can roll under",
    ),
    ("ordo_ineptus", "search_chart"): (
        (None, "range 1-6"),
        "000: one die per eligible model, heroes and lords adding dice: 1 to 6 dice",
    ),
    ("ordo_ineptus", "shooting_with_modifiers"): (
        (
            "range 1-10",
            "0 cover_modifier moving_modifier long_range_modifier large_target_modifier "
            "cover_modifier + moving_modifier cover_modifier + long_range_modifier "
            "moving_modifier + long_range_modifier cover_modifier + moving_modifier + long_range_modifier "
            "large_target_modifier + cover_modifier large_target_modifier + long_range_modifier",
        ),
        "BS 1 to 10; no modifier first, then each modifier of the text and the combinations met at the table",
    ),
    ("rampant_hex", "expected_hits_chart"): (
        ("range 1-6", "range 1-5"),
        "004 matrix: ATTACK dice 1 to 6 against ARMOUR 1 to 5",
    ),
    ("rampant_hex", "a_hit_chart"): (
        ("range 1-6", "range 1-5"),
        "004 matrix: ATTACK dice 1 to 6 against ARMOUR 1 to 5",
    ),
    ("rampant_hex", "moral_chart"): (("range 1-6", "range 0-6"), "004: MORAL dice 1 to 6 against 0 to 6 hit markers"),
    **{
        ("rampant_hex_house", id): (axes, "the base's chart, printed again over the house values")
        for id, axes in (
            ("expected_hits_chart", ("range 1-6", "range 1-5")),
            ("a_hit_chart", ("range 1-6", "range 1-5")),
            ("moral_chart", ("range 1-6", "range 0-6")),
        )
    },
    ("warhammer_fantasy_charts", "to_hit"): (
        ("range 1-10", "range 1-10"),
        "the rulebook's chart: WS 1 to 10 against WS 1 to 10",
    ),
    ("warhammer_fantasy_charts", "to_wound"): (
        ("range 1-10", "range 1-10"),
        "the rulebook's chart: Strength 1 to 10 against Toughness 1 to 10",
    ),
    ("warhammer_fantasy_charts", "shooting"): (
        ("range 1-10", "+1 0 -1 -2 -3"),
        "the rulebook's chart: BS 1 to 10, modifiers +1 down to -3",
    ),
}


@pytest.mark.parametrize("key", sorted(CHART_AXES), ids="/".join)
def test_chart_axes_as_typed(project, key):
    ruleset, id = key
    chart = project.ruleset(ruleset).chart(id)
    (rows, columns), why = CHART_AXES[key]
    assert (axis(chart.rows), axis(chart.columns)) == (rows, columns), why


def test_every_chart_has_its_axes_typed(project):
    """A new chart gets its axes typed here too, so no axis goes unguarded."""
    declared = {(r.id, c.id) for r in project.rulesets for c in r.charts if r.owner_of("charts", c.id) is r}
    assert declared == set(CHART_AXES)


# -- word tables and lookups: each row's key and printed result ----------------------------------
def rows(entry) -> list[tuple[str, str]]:
    return [(getattr(row, "key_text", None) or range_words(row.roll), row.result) for row in entry.rows]


def test_wedge_tables_print_the_texts_words(project):
    bmr = project.ruleset("bad_moon_rising")
    # 001: "counting every inch moved as two"; forward and wheeling forward "as normal"; it "cannot turn"
    printed = rows(bmr.lookup("wedge_inch_cost"))
    assert [(key, result.split(" ")[0]) for key, result in printed] == [
        ("forward", "×1"),
        ("wheel forward", "×1"),
        ("sideways", "×2"),
        ("backwards", "×2"),
        ("wheel backwards", "×2"),
        ("turn", "Cannot"),
    ]
    assert [row.value and row.value.magnitude for row in bmr.lookup("wedge_inch_cost").rows] == [1, 1, 2, 2, 2, None]
    # 001: "short bows, bows, long bows, crossbows or repeating crossbows may be deployed in a wedge formation"
    assert rows(bmr.lookup("wedge_weapons")) == [
        (w, "May form a wedge") for w in ("short bows", "bows", "long bows", "crossbows", "repeating crossbows")
    ]


def test_ordo_ineptus_spells_and_search(project):
    ordo = project.ruleset("ordo_ineptus")
    # 000: "Level 1 and 2 casters may cast a single spell each turn, and level 3 or 4 casters may cast two"
    spells = ordo.lookup("spells_per_turn")
    assert range_words(spells.over) == "1-4"
    assert rows(spells) == [("1-2", "One spell"), ("3-4", "Two spells")]
    # 000: "On a roll of 5 or 6, the search is successful"
    search = ordo.table("search_roll")
    assert str(search.dice) == "D6" and rows(search) == [("1-4", "Nothing found"), ("5-6", "Success")]


def test_rampant_hex_tables_as_printed(project):
    hex_ = project.ruleset("rampant_hex")
    # 004: "1-2: 2 Activations / 3-4: 3 Activations / 5: 4 Activations / 6: 5 Activations"
    assert rows(hex_.table("activations")) == [
        ("1-2", "2 activations"),
        ("3-4", "3 activations"),
        ("5", "4 activations"),
        ("6", "5 activations"),
    ]
    # 004: "1 Lost in the system ... no scrolls are given" / "2-3 1 scroll arrives" / "4-5 2 scrolls" / "6 3 scrolls"
    assert rows(hex_.table("scroll_appeal")) == [
        ("1", "No scrolls"),
        ("2-3", "1 scroll arrives"),
        ("4-5", "2 scrolls arrive"),
        ("6", "3 scrolls arrive"),
    ]
    # 004: "Each time you use a scroll roll 1D6 ... On the roll of a 1 the scroll has been misspelled"
    faulty = hex_.table("faulty_scroll")
    assert str(faulty.dice) == "D6" and rows(faulty) == [("1", "Misspelled"), ("2+", "The spell works")]


def test_rampant_hex_costs_and_tracks(project):
    hex_ = project.ruleset("rampant_hex")
    low = {"warrior_hero", "brave_commander", "warrior_priest", "swift_ranger"}
    # 004: "Each of these Hero types cost 2pts each"; "All High level heroes cost the normal unit cost plus 5 points"
    assert {h.id: h.points for h in hex_.heroes} == {
        **{id: 2 for id in low},
        **{id: 5 for id in ("legendary_warrior", "high_commander", "high_priest", "expert_ranger")},
    }
    # 004: the sample force "=30pts"
    force = hex_.get("armies", "thirty_point_force")
    assert (force.agreed_points, force.total) == (30, 30)
    # 004: "Once a unit has activated place an activation marker ... They may not activate again until next turn"
    activated = next(t for t in hex_.profile("troops").tracks if t.id == "activated")
    assert (activated.boxes, activated.per) == (1, "turn")


def test_rampant_hex_a_die_cannot_beat_six():
    """004: "The enemy has to beat this score on his attack dice to cause hits": a D6 beats ARMOUR 5 on a 6
    and never beats 6."""
    ns = namespace_for_path("rules_src/rampant_hex/ruleset.yaml")
    target = ns["die_hit_target"]
    assert [target(armour=a) for a in range(0, 7)] == [1, 2, 3, 4, 5, 6, None]
