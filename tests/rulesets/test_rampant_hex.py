"""Blood, Guts and Rampant Hex (source 004) as data: its formulas, charts, sheet, mechanics and house overlay.

Expected values come from the source text (quoted beside them) or from brute force over
every face of every die (itertools.product), never from the code under test.

Ported from tests/test_sheets.py (which still imports the old module and is left for the
renderer's owner): the Rampant Hex chart rows (test_rampant_hex_odds, here against the
chart data rather than the PDF), test_command_unit_reads_the_next_row_down and
test_no_chance_prints_as_certain_unless_it_is.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import ruleset_names, sample_check, sweep

from generator.examples.own_mechanics import exported
from generator.model.calculate import calculator

ROOT = Path(__file__).resolve().parents[2]
FACES = range(1, 7)
# "Faulty scrolls!" and the spell table of "Picking spells", in the text's order
SPELLS = [
    "Olde reddes mystte",
    "Callahannes cloudee of confusieon",
    "Dolcivanians domee of protectieon",
    "Hallicians hail of deathe",
    "Sorcreenes spelle of inexplicable speede",
    "Bollocs brandee of bravery insannee",
]


ns, rules = ruleset_names("rampant_hex", "rules")  # module fixtures


@pytest.fixture(scope="module")
def house():
    result = sample_check()
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project.ruleset("rampant_hex_house")


# -- brute force ------------------------------------------------------------------------------------
def rolls(dice: int):
    return itertools.product(FACES, repeat=dice)


def hits_odds(attack: int, armour: int) -> dict[int, Fraction]:
    """Every roll of ATTACK dice; "Any dice that score higher than the targets ARMOUR cause one hit"."""
    counts: dict[int, int] = {}
    for roll in rolls(attack):
        hits = sum(1 for die in roll if die > armour)
        counts[hits] = counts.get(hits, 0) + 1
    return {hits: Fraction(counts.get(hits, 0), 6**attack) for hits in range(attack + 1)}


def moral_odds(dice: int, markers: int, bonus: int = 0) -> Fraction:
    """ "If any of the dice rolls are higher than the number of hit markers the unit has the unit passes"."""
    if dice == 0:
        return Fraction(0)
    passed = sum(1 for roll in rolls(dice) if any(die + bonus > markers for die in roll))
    return Fraction(passed, 6**dice)


def percent_text(chance: Fraction) -> str:
    text = f"{float(chance) * 100:.1f}".removesuffix(".0")
    return f"{text}%"


def lowest_face(succeeds) -> int | None:
    return next((face for face in FACES if succeeds(face)), None)


# -- attack dice against ARMOUR -------------------------------------------------------------------------
def test_hits_against_every_roll(ns):
    def case(attack, armour):
        odds = hits_odds(attack, armour)
        assert ns["hits_distribution"](attack, armour) == odds
        assert all(ns["chance_of_hits"](attack, armour, hits) == odds[hits] for hits in odds), "chance_of_hits"
        assert ns["expected_hits"](attack, armour) == sum(hits * p for hits, p in odds.items())
        assert ns["chance_of_a_hit"](attack, armour) == 1 - odds[0]

    sweep(itertools.product(range(0, 6), range(0, 8)), case)


@pytest.mark.parametrize("armour", range(0, 8))
def test_attack_hits_counts_dice_higher_than_armour(ns, armour):
    for roll in rolls(3):
        assert ns["attack_hits"](roll, armour) == sum(1 for die in roll if die > armour)


def test_attack_examples_of_the_text(ns, rules):
    # Legendary Warrior: "an extra attack dice in combat" and "reduce their armour score by 1"
    assert (
        rules.value("legendary_warrior_extra_dice").magnitude,
        rules.value("legendary_warrior_armour_reduction").magnitude,
    ) == (1, 1)
    # High Priest and Dolcivanians domee of protectieon: "add 1 to their armour stat"
    assert rules.value("high_priest_armour_bonus").magnitude == rules.value("domee_armour_bonus").magnitude == 1
    # Hallicians hail: "a ranged attack on 3 dice ... The attack has a range of 4 hexes"
    assert str(rules.value("hail_attack_dice").value) == "3" and str(rules.value("hail_range").value) == "4 hexes"
    assert rules.spell("hallicians_hail").range == 4
    assert {spell.roll.low: spell.range for spell in rules.spells} == {1: 3, 2: None, 3: 4, 4: 4, 5: 3, 6: 4}


@pytest.mark.parametrize("reach", range(0, 6))
def test_ranged_attack_reaches_up_to_its_range(ns, reach):
    # "RANGED ATTACK 3 means it reaches up to 3 hexes"
    for distance in range(0, 8):
        assert ns["ranged_attack_reaches"](reach, distance) is (distance <= reach)
    assert str(ns["rules"].value("ranged_attack_example").value) == "3 hexes"


# -- moral checks ------------------------------------------------------------------------------------------
def test_moral_pass_chance_against_every_roll(ns):
    def case(dice, bonus):
        for markers in range(0, 9):
            assert ns["moral_pass_chance"](dice, markers, bonus=bonus) == moral_odds(dice, markers, bonus), (
                dice,
                markers,
            )

    sweep(itertools.product(range(0, 6), range(0, 3)), case)


def test_passes_moral_on_every_roll(ns):
    for roll in rolls(3):
        for markers in range(0, 8):
            for bonus in (0, 1):
                assert ns["passes_moral"](roll, markers, bonus) is any(die + bonus > markers for die in roll)


def test_a_command_unit_adds_one_to_the_number_of_dice(ns, rules):
    # "may add 1 to the number of dice they roll for moral tests"
    assert rules.value("command_unit_extra_dice").magnitude == 1
    for moral in range(0, 5):
        assert ns["moral_dice"](moral, command_unit=True) == moral + 1
        assert ns["moral_dice"](moral, command_unit=False) == moral
        for markers in range(0, 7):
            assert ns["moral_pass_chance"](ns["moral_dice"](moral, command_unit=True), markers) == moral_odds(
                moral + 1, markers
            )


def test_command_unit_reads_the_next_row_down(ns, rules):
    """Ported from test_sheets: the moral chart's note, a command unit's extra die is one more MORAL die."""
    chart = rules.chart("moral_chart")
    assert "A command unit adds a die: read the next row down." in chart.note
    for moral in range(1, 6):
        for markers in range(0, 7):
            assert ns["moral_pass_chance"](ns["moral_dice"](moral, command_unit=True), markers) == ns[
                "moral_pass_chance"
            ](moral + 1, markers)


def test_glossary_says_number_of_dice(rules):
    assert "to the number of dice they roll for moral tests" in rules.term("command_unit_term").definition


# -- the sheet and its charts --------------------------------------------------------------------------------
def cells(ns, rules, chart_id):
    chart = rules.chart(chart_id)
    rows = list(range(chart.rows.range.low, chart.rows.range.high + 1))
    columns = list(range(chart.columns.range.low, chart.columns.range.high + 1))
    formula = ns[chart.formula]
    return (
        chart,
        rows,
        columns,
        {(r, c): formula(**{chart.rows.input: r, chart.columns.input: c}) for r in rows for c in columns},
    )


def test_the_sheet(rules):
    sheet = rules.get("sheets", "combat_odds")
    assert sheet.title == "Combat and moral odds"
    assert sheet.charts == ("expected_hits_chart", "a_hit_chart", "moral_chart")
    assert set(sheet.cites) == {"ranged_attacks", "combat", "moral_checks"}


def test_expected_hits_chart_every_cell(ns, rules):
    chart, rows, columns, grid = cells(ns, rules, "expected_hits_chart")
    assert (chart.show, chart.rows.label, chart.columns.label, rows, columns) == (
        "number",
        "ATTACK",
        "ARMOUR",
        [1, 2, 3, 4, 5, 6],
        [1, 2, 3, 4, 5],
    )
    for (attack, armour), value in grid.items():
        assert value == sum(h * p for h, p in hits_odds(attack, armour).items())


def test_a_hit_chart_every_cell(ns, rules):
    chart, rows, columns, grid = cells(ns, rules, "a_hit_chart")
    assert (chart.show, chart.impossible, rows, columns) == ("chance", "no hit", [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5])
    for (attack, armour), value in grid.items():
        assert value == 1 - hits_odds(attack, armour)[0]


def test_moral_chart_every_cell(ns, rules):
    chart, rows, columns, grid = cells(ns, rules, "moral_chart")
    assert (chart.show, chart.impossible, chart.rows.label, chart.columns.label, rows, columns) == (
        "chance",
        "cannot pass",
        "MORAL",
        "Hit markers",
        [1, 2, 3, 4, 5, 6],
        [0, 1, 2, 3, 4, 5, 6],
    )
    for (moral, markers), value in grid.items():
        assert value == moral_odds(moral, markers)
    assert grid[(6, 6)] == 0  # six hit markers: no die can pass


def test_column_notes_name_the_die_needed(rules):
    """The second heading line of each column is computed from the data: the face one die needs."""
    from generator.render.sheets.charts import chart_from_model

    for chart_id in ("expected_hits_chart", "a_hit_chart"):
        notes = chart_from_model(rules, rules.chart(chart_id)).column_notes
        expected = [
            f"{face}+ ({percent_text(Fraction(7 - face, 6))}) a die"
            for face in (lowest_face(lambda f, a=armour: f > a) for armour in range(1, 6))
        ]
        assert list(notes) == expected
    notes = chart_from_model(rules, rules.chart("moral_chart")).column_notes
    faces = [lowest_face(lambda f, m=markers: f > m) for markers in range(0, 7)]
    assert list(notes) == [
        ("impossible" if face is None else f"{face}+ ({percent_text(Fraction(7 - face, 6))}) a die") for face in faces
    ]


def test_the_expected_hits_picker_labels_its_columns_without_brackets_in_brackets_and_counts_hits(rules):
    """The picker's options read `1: 2+ (83.3%) a die`; an average is `hits` (formulas.yaml: `unit: hits`)."""
    from generator.render.markdown import picker_data
    from generator.render.sheets.charts import chart_from_model

    data = picker_data(chart_from_model(rules, rules.chart("expected_hits_chart")))
    faces = [lowest_face(lambda f, a=armour: f > a) for armour in range(1, 6)]
    assert data["columns"] == [
        f"{armour}: {face}+ ({percent_text(Fraction(7 - face, 6))}) a die" for armour, face in zip(range(1, 6), faces)
    ]
    assert data["units"] == ["hit", "hits"]
    # ATTACK 1 against ARMOUR 1: one die beating 1, 5 times in 6, so 0.83 hits on average
    assert data["cells"][0][0][0] == "0.83"


def test_no_chance_prints_as_certain_unless_it_is(ns):
    """Ported from test_sheets: near-certain is not certain."""
    assert 0.999 < ns["chance_of_a_hit"](6, 1) < 1
    assert ns["moral_pass_chance"](3, 0) == 1


# -- roll-offs ----------------------------------------------------------------------------------------------
def test_ranger_bonuses_from_the_text(ns):
    bonus = ns["ranger_bonus"]
    # "A force that contains a Ranger may add 1 to its rolls in the Initiative phase"
    assert bonus("swift_ranger", "initiative") == 1 and bonus("swift_ranger", "setup") == 0
    # "may add 2 to all their rolls in an Initiative phase AND also add 2 to the dice roll to decide which table edge"
    assert bonus("expert_ranger", "initiative") == 2 and bonus("expert_ranger", "setup") == 2
    assert bonus("none", "initiative") == bonus("none", "setup") == 0


@pytest.mark.parametrize("yours", range(0, 3))
@pytest.mark.parametrize("theirs", range(0, 3))
def test_roll_off_against_every_roll(ns, yours, theirs):
    pairs = [(a + yours, b + theirs) for a, b in rolls(2)]
    expected = {
        "win": Fraction(sum(a > b for a, b in pairs), 36),
        "tie": Fraction(sum(a == b for a, b in pairs), 36),
        "lose": Fraction(sum(a < b for a, b in pairs), 36),
    }
    assert ns["roll_off_odds"](yours, theirs) == expected
    assert sum(expected.values()) == 1


# -- moving and combat -----------------------------------------------------------------------------------------
def test_move_hexes(ns):
    # "up to 2 hexes, or 3 if they are riders"; Sorcreenes spelle: "may move an extra hex"
    move = ns["move_hexes"]
    assert [move(riders=r, extra_hex=e) for r in (False, True) for e in (False, True)] == [2, 3, 3, 4]


def test_units_falling_back(ns):
    fall_back = ns["units_falling_back"]
    assert fall_back({"a": 1, "b": 3}) == ("b",)
    assert fall_back({"a": 3, "b": 1, "c": 3}) == ("a", "c")  # "If more than one unit have the highest number"
    assert fall_back({}) == ()


def test_fewest_points_lost(ns):
    assert ns["fewest_points_lost"](you=10, opponent=8) == "opponent"  # "the player that has lost the least wins"
    assert ns["fewest_points_lost"](you=8, opponent=8) is None
    with pytest.raises(ValueError):
        ns["fewest_points_lost"]()


# -- scrolls -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scrolls", range(0, 4))
def test_misspell_chance_against_every_roll(ns, scrolls):
    # "On the roll of a 1 the scroll has been misspelled"
    misspelled = sum(1 for roll in rolls(scrolls) if 1 in roll)
    assert ns["misspell_chance"](scrolls=scrolls) == Fraction(misspelled, 6**scrolls)


def test_misspell_chance_is_one_in_six(ns):
    assert ns["misspell_chance"]() == Fraction(1, 6)


@pytest.mark.parametrize("spell", SPELLS)
def test_intended_spell_chance(ns, spell):
    # it works on 2-6; on a 1 the spell table gives each spell one time in six
    assert ns["intended_spell_chance"](spell) == Fraction(5, 6) + Fraction(1, 6) * Fraction(1, 6)


def test_scroll_spell(ns, rules):
    cast = ns["scroll_spell"]
    # the text's example: Dolcivanians domee, a 1, then a 5 on the spell table
    assert cast("dolcivanians_domee", faulty_roll=1, misspelled_roll=5) == "Sorcreenes spelle of inexplicable speede"
    for spell in rules.spells:
        for faulty in range(2, 7):
            assert cast(spell.id, faulty_roll=faulty) == spell.name
        for face, name in zip(FACES, SPELLS):
            assert cast(spell.id, faulty_roll=1, misspelled_roll=face) == name
    with pytest.raises(ValueError):
        cast("dolcivanians_domee", faulty_roll=1)


# -- forces ------------------------------------------------------------------------------------------------
def test_force_uses_the_matrix_with_points(ns, rules):
    assert ns["force"]().matrix == "troops"
    assert ns["force"]().agreed_points == 50  # "A medium game in my experience will be between 40-50 points"
    renamed = dataclasses.replace(rules, profiles=tuple(dataclasses.replace(m, id="colours") for m in rules.profiles))
    assert exported(renamed, ROOT)["force"]().matrix == "colours"


def test_limits_from_the_text(ns, rules):
    allowance, broken, line, force = ns["limit_allowance"], ns["broken_limits"], ns["force_line"], ns["force"]
    # "if you have seven units you may not have more than three heroes"
    assert allowance(rules, "heroes_half_units", units=7) == 3
    # "1 per 30 full points of troops"; "one per full 40 points of units"
    assert [allowance(rules, "command_per_30", troop_points=p) for p in (29, 30, 59, 60)] == [0, 1, 1, 2]
    assert [allowance(rules, "high_hero_per_40", troop_points=p) for p in (39, 40, 79, 80)] == [0, 1, 1, 2]
    # the reading: six heavy foot command units are 30 points of troops (not 6 x 8 = 48), so one is allowed
    six_commands = broken(rules, force(line("heavy_foot", 6, upgrades=("command_unit",))))
    assert [(r.limit.id, r.count, r.at_most) for r in six_commands] == [("command_per_30", 6, 1)]
    assert broken(rules, force(line("heavy_foot", 6), line("heavy_foot", upgrades=("command_unit",)))) == []
    with pytest.raises(ValueError):
        allowance(rules, "heroes_half_units", armies=3)


def test_limit_readings_are_flagged(rules):
    for limit in ("command_per_30", "high_hero_per_40"):
        assert "as read here" in rules.get("army_limits", limit).title


# -- the house overlay ---------------------------------------------------------------------------------------
def test_overlay_changes_the_riders_move_and_keeps_the_original(house, rules):
    changed = house.value("riders_move")
    assert str(changed.value) == "4 hexes" and str(changed.original) == "3 hexes"
    assert changed.is_house_rule and changed.house_note.strip()
    assert str(rules.value("riders_move").value) == "3 hexes" and not rules.value("riders_move").is_house_rule
    assert [v.id for v in house.values if v.is_house_rule] == ["riders_move"]
    assert house.meta.overlay and house.meta.extends == "rampant_hex"
    assert "house values, not the text's" in house.meta.summary
    assert [(e.entry, e.line) for e in house.examples] == [
        (e.entry, e.line) for e in rules.examples
    ]  # re-run under its values


def test_overlay_formulas_use_the_house_value(house, rules):
    assert calculator(house).scope["move_hexes"](riders=True, extra_hex=False) == 4
    assert calculator(house).scope["move_hexes"](riders=False, extra_hex=False) == 2  # foot keep the text's move
    assert calculator(rules).scope["move_hexes"](riders=True, extra_hex=False) == 3
