"""Why this number?: each calculator answer and chart cell says which of the rule's cases gives it, with the numbers
picked and the values it read.

The expected reasons are the rule's own cases as the Warhammer Fantasy text states them ("hits on 3+ against a lower
WS, on 5+ against a WS more than 2 times its own, and on 4+ otherwise"; "a Toughness 4 or more above the Strength
cannot be wounded"), written out here for every pair of stats, never read from the engine.
"""

from __future__ import annotations

import itertools

from helpers import make_project, sample_check

from generator.render import calculators as calc
from generator.render.markdown import picker_data
from generator.render.sheets.charts import chart_from_model
from generator.render.why import chart_reasons
from generator.validate import check_project

LOWER = "Close combat: to hit against a lower Weapon Skill"
OTHERWISE = "Close combat: to hit against an equal Weapon Skill, or a higher one up to double"
DOUBLE = "Close combat: to hit against more than double the attacker's Weapon Skill"
RATIO = "An enemy Weapon Skill more than this many times the attacker's is hit on 5+"


def ruleset(ruleset_id: str):
    return sample_check(ruleset_id).project.ruleset(ruleset_id)


def player_calculators(ruleset_id: str) -> list[calc.Tabled]:
    """A sample's calculators for the players, made as a build makes them: by their key, once a process."""
    found = ruleset(ruleset_id)
    return calc.calculators(found, "player", calc.computed_key(found))


def tabled(ruleset_id: str, formula_id: str) -> calc.Tabled:
    return next(t for t in player_calculators(ruleset_id) if t.formula.id == formula_id)


def reasons(found: calc.Tabled) -> dict[tuple[str, ...], tuple[list[str], list[tuple[str, str]]]]:
    """Each answer's reasons by the options picked: the tests in words, and the values cited (value, label)."""
    data = found.data
    picks = itertools.product(*(spec["options"] for spec in data["inputs"]))
    return {
        pick: (why["because"], [(data["values"][i]["value"], data["values"][i]["label"]) for i in why["values"]])
        for pick, why in zip(picks, data["why"], strict=True)
    }


def test_each_to_hit_answer_names_the_case_of_the_rule_that_gives_it():
    by_pick = reasons(tabled("warhammer_fantasy_charts", "to_hit_melee"))
    assert len(by_pick) == 100
    for attacker, defender in itertools.product(range(1, 11), repeat=2):
        because, values = by_pick[(str(attacker), str(defender))]
        if attacker > defender:
            assert because == [f"Attacker's WS {attacker} is more than Defender's WS {defender}"]
            assert values == [("3+", LOWER)]
            continue
        doubled = f"2 × Attacker's WS {attacker} ({2 * attacker})"
        outclassed = defender > 2 * attacker
        assert because == [
            f"Attacker's WS {attacker} is not more than Defender's WS {defender}",
            f"Defender's WS {defender} {'is more than' if outclassed else 'is not more than'} {doubled}",
        ]
        assert values == [("2", RATIO), ("5+", DOUBLE) if outclassed else ("4+", OTHERWISE)]


def test_a_to_wound_answer_says_when_the_toughness_is_too_far_above_the_strength():
    by_pick = reasons(tabled("warhammer_fantasy_charts", "to_wound"))
    for strength, toughness in itertools.product(range(1, 11), repeat=2):
        because, _values = by_pick[(str(strength), str(toughness))]
        margin = toughness - strength
        said = "is at least" if margin >= 4 else "is less than"
        assert because[0] == f"Toughness {toughness} − Strength {strength} ({margin:+d}) {said} 4".replace(
            "(+", "("
        ).replace("(-", "(−"), (strength, toughness, because)
        assert len(because) == 1


def test_a_tick_reads_as_its_label_and_the_answer_picked():
    """Ordo Ineptus's close combat: a model that failed a Fear test hits on 6s, one that hates its enemy rerolls."""
    found = tabled("ordo_ineptus", "close_combat_hit_chance")
    labels = [spec["label"] for spec in found.data["inputs"]]
    assert labels[2:] == ["Failed a Fear test against the enemy", "Hates the enemy"]
    for pick, (because, _values) in reasons(found).items():
        for label, ticked in zip(labels[2:], pick[2:]):
            assert f"{label}: {ticked}" in because, (pick, because)


def test_a_chart_cell_gives_the_reasons_its_calculator_gives():
    """The to-hit chart's picker and the to-hit calculator are one formula: for each cell, the same reasons."""
    charts = ruleset("warhammer_fantasy_charts")
    chart = charts.chart(next(c.id for c in charts.section("charts") if c.formula == "to_hit_melee"))
    shown = chart_from_model(charts, chart)
    data = picker_data(shown, chart_reasons(charts, chart, shown))
    by_cell = {
        (row, column): (why["because"], [data["values"][i]["label"] for i in why["values"]])
        for (row, column), why in zip(itertools.product(data["rows"], data["columns"]), data["why"], strict=True)
    }
    calculator = {
        pick: (because, [label for _v, label in values])
        for pick, (because, values) in reasons(tabled("warhammer_fantasy_charts", "to_hit_melee")).items()
    }
    assert len(by_cell) == 100
    for (row, column), said in by_cell.items():
        assert said == calculator[(row.split(":")[0], column.split(":")[0])]


def test_a_formula_s_reasons_follow_the_formulas_it_calls_and_quote_the_source():
    """Ordo Ineptus: "Cover ... confers a -1 modifier to the shooting"; a BS 3 firer who moved, at a target in cover:
    -2 in all, 7 - 3 + 2 = 6+. The cover value is cited with the text's own words, found in its source file."""
    found = tabled("ordo_ineptus", "shot_with_modifiers")
    data = found.data
    because, values = reasons(found)[("3", "yes", "yes", "no", "no")]
    assert ["Target in cover: yes", "Firer moved: yes", "At long range: no", "Large target: no"] == [
        line for line in because if line.endswith((": yes", ": no"))
    ]
    assert "needed is 7 − BS 3 − Modifiers −2 (6)" in because
    cover = next(v for v in data["values"] if v["label"] == "Shooting at a model in cover")
    assert cover["value"] == "−1"
    source = " ".join("".join(ruleset("ordo_ineptus").sources.values()).split())
    assert cover["quote"] in source
    assert data["cited"]["quote"] in source  # the formula's own source
    assert ("−1", "Shooting at a model in cover") in values


def test_a_result_worked_out_from_dice_says_how_in_words():
    """Rampant Hex: "Any dice that score higher than the targets ARMOUR cause one hit" (004): ATTACK 3 at ARMOUR 4
    is three dice counted where each beats 4. No reason of any sample's calculators prints a roll's inner table."""
    by_pick = reasons(tabled("rampant_hex", "hits"))
    because, _values = by_pick[("3", "4")]
    assert because == ["Hits from ATTACK dice against ARMOUR: counting ATTACK 3 dice where D6 is more than ARMOUR 4"]
    for ruleset_id in ("rampant_hex", "ordo_ineptus", "city_of_the_damned_combat", "bad_moon_rising"):
        for found in player_calculators(ruleset_id):
            for why in (found.data or {}).get("why", ()):
                assert not any("Die with" in line or "|" in line for line in why["because"]), (found.formula.id, why)


def test_where_the_rules_give_an_answer_names_the_ruleset_once():
    """The box's last line is the rule and the ruleset, then the citation: when the source's title begins with the
    ruleset's own ("City of the Damned combat system, Stunned") the ruleset is not named twice over."""
    lines = []
    for ruleset_id in ("city_of_the_damned_combat", "bad_moon_rising", "warhammer_fantasy_charts"):
        title = ruleset(ruleset_id).title
        for found in player_calculators(ruleset_id):
            if found.data:
                cited = found.data["cited"].get("source", "")
                lines.append((title, " · ".join(filter(None, (found.data["where"], cited)))))
    assert lines and all(line.count(title) == 1 for title, line in lines), lines
    assert "A hit needs a roll to hit · City of the Damned combat system, Stunned" in [line for _t, line in lines]


FURY = """\
ruleset: {title: Fury}
formulas:
  kept:
    title: Keep two
    inputs:
      needed: {label: Needed, type: int, min: 10, max: 10}
    expr: chance(keep_highest(2, 3) >= needed)
  boom:
    title: Boom
    inputs:
      needed: {label: Needed, type: int, min: 7, max: 7}
    expr: chance(explode(D6, 2) + reroll(D6, 4) >= needed) + chance(reroll(D6, 3, 2) >= needed)
"""


def test_dice_kept_exploding_or_re_rolled_are_said_in_words(tmp_path):
    result = check_project(make_project(tmp_path, fury=FURY))
    assert result.ok, [d.format() for d in result.diagnostics]
    fury = result.project.ruleset("fury")
    because = [calc.tabulate(fury, formula).data["why"][0]["because"] for formula in fury.formulas]
    assert because == [
        ["Keep two: the chance that the highest 2 of 3 D6 added is at least Needed 10"],
        [
            "Boom: the chance that D6 exploding up to 2 times + D6 re-rolled under 4 is at least Needed 7 + the chance "
            "that D6 re-rolled under 3 up to 2 times is at least Needed 7"
        ],
    ]


POOL = """\
ruleset: {title: Fury}
formulas:
  pool_face:
    title: Successes of one die
    calculator: false
    inputs:
      face: {label: Face, type: int, min: 1, max: 6}
    expr: 2 if face == 6 else (1 if face >= 4 else 0)
  pool:
    title: Successes of a pool
    inputs:
      dice: {label: Dice in the pool, type: int, min: 2, max: 2}
    expr: total(dice, each(D6, pool_face))
    result: roll
"""


def test_a_roll_read_through_a_formula_face_by_face_is_said_with_that_formula(tmp_path):
    """`each(D6, pool_face)` read "a roll": the reason now says what each face is read as."""
    result = check_project(make_project(tmp_path, fury=POOL))
    assert result.ok, [d.format() for d in result.diagnostics]
    [pool] = calc.calculators(result.project.ruleset("fury"), "player")
    assert pool.data["why"][0]["because"] == [
        "Successes of a pool: the total of Dice in the pool 2 D6, each face read as Successes of one die"
    ]


def test_a_formula_read_face_by_face_keeps_the_case_of_its_title(tmp_path):
    """German capitalises its nouns: a formula titled "Erfolge eines Würfels" is said so in another's reason, as the
    inputs' labels are, never "erfolge eines Würfels"."""
    german = POOL.replace("Successes of one die", "Erfolge eines Würfels").replace(
        "{title: Fury}", "{title: Fury, language: de}"
    )
    result = check_project(make_project(tmp_path, fury=german))
    assert result.ok, [d.format() for d in result.diagnostics]
    [pool] = calc.calculators(result.project.ruleset("fury"), "player")
    assert pool.data["why"][0]["because"][0].endswith("each face read as Erfolge eines Würfels")
