"""The model beyond the four samples: fractional points, at-least limits, head-count armies,
hero levels and kinds a ruleset declares, and forces from any ruleset's army matrix.

Every expected number below is worked out by hand in the comment next to it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import make_project, sample_check, sample_project

from generator.diagnostics import Code
from generator.mechanics import armies
from generator.mechanics.armies import (
    army_counts,
    army_matrix,
    army_models,
    army_points,
    check_limits,
    count_names,
    force,
    force_line,
    line_cost,
    line_models,
)
from generator.model.points import exact, points_text
from generator.render.export import json_schema, ruleset_json
from generator.render.site.myst import army_md, limits_md
from generator.source.build import parse_points
from generator.validate import check_project

# -- a small game of its own: halves and thirds, a head-count, two hero levels of its own ------------------
RULESET = """\
ruleset:
  title: General test game
  declares:
    hero_levels: [minor, major]
    victory_point_kinds: [objective, kill]

profiles:
  warband:
    title: Warband
    columns:
      pts: {label: PTS, type: points, min: 0}
      figures: {label: FIGURES, type: models, min: 1}
    rows:
      levy: {name: Levy, pts: 1½, figures: 4}
      archers: {name: Archers, pts: 2 1/4, figures: 3}
      knight: {name: Knight, pts: 7/2, figures: not given}

costs:
  banner: {name: Banner, points: ⅓, added_to_unit: true}
  horn: {name: War horn, points: 0.5}

heroes:
  sergeant: {name: Sergeant, level: minor, points: 1, ability: Shouts.}
  captain: {name: Captain, level: major, points: 2.5, ability: Leads.}

army_limits:
  levy_third: {title: At least a third of the units are levy, count: levy, at_least: units / 3}
  some_heroes: {title: "As many minor heroes as major, two at most", count: minor_heroes, at_least: major_heroes, at_most: "2"}
  one_major: {title: One major hero of a type, count: most_of_one_major_hero, at_most: "1"}

victory_points:
  hold_the_hill: {name: Hold the hill, kind: objective, points: 2½}
"""

ARMIES = """\
armies:
  fractional:
    title: A fractional force
    matrix: warband
    agreed_points: 10
    total: 9⅔
    units:
      - {troop: levy, count: 3, points: 4½}
      - {troop: archers, count: 2, upgrades: [banner], points: 5 1/6}
  by_head:
    title: Twenty figures
    matrix: warband
    agreed_models: 20
    units:
      - {troop: levy, count: 3}
      - {troop: knight, count: 2, models: 2}
"""


def project(tmp_path: Path, *files: str, ruleset: str = RULESET) -> Path:
    parts = {f"general/part{index}.yaml": text for index, text in enumerate(files)}
    return make_project(tmp_path, parts, general=ruleset)


def diagnostics(root: Path) -> list[tuple[str, str, int, int, str]]:
    result = check_project(root)
    return [(d.code.code, d.location.path, d.location.line, d.location.column, d.message) for d in result.diagnostics]


@pytest.fixture
def rules(tmp_path):
    result = check_project(project(tmp_path, ARMIES))
    assert result.ok, [d.format() for d in result.diagnostics]
    return result.project.ruleset("general")


# -- reading points ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "written, value",
    [
        ("1½", Fraction(3, 2)),
        ("1 1/2", Fraction(3, 2)),
        ("3/2", Fraction(3, 2)),
        ("1.5", Fraction(3, 2)),
        ("½", Fraction(1, 2)),
        ("2⅔", Fraction(8, 3)),
        ("1 ¾", Fraction(7, 4)),
        ("0.25", Fraction(1, 4)),
        ("-1/3", Fraction(-1, 3)),
        ("0.1", Fraction(1, 10)),  # exact from the text: a float would be 3602879701896397/36028797018963968
    ],
)
def test_points_are_read_exactly(written, value):
    parsed = parse_points(written)
    assert parsed == value and type(parsed) is Fraction


@pytest.mark.parametrize("written, value", [(3, 3), ("3", 3), ("4/2", 2), ("2.0", 2), ("1 1/2", Fraction(3, 2))])
def test_whole_points_are_ints(written, value):
    parsed = parse_points(written)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize(
    "written", ["1,5", "1/0", "abc", "1.5.2", "1 3/2", "1½½", "3 pts", "", "1e3", "٣", True, 1.5, None]
)
def test_anything_else_is_not_points(written):
    with pytest.raises(ValueError):
        parse_points(written)


def test_bad_points_are_located_wrong_type_errors(tmp_path):
    root = project(
        tmp_path,
        """\
costs:
  comma:
    name: Comma
    points: 1,5
  quoted: {name: Quoted, points: "2"}
  float_like: {name: Float, points: 1.5e0}
profiles:
  warriors:
    title: Warriors
    columns:
      pts: {label: PTS, type: points}
    rows:
      spear: {name: Spear, pts: one and a half}
""",
    )
    found = [(code, line, column) for code, _path, line, column, _message in diagnostics(root)]
    # each value's column: after `    points: ` (12 characters), `  quoted: {name: Quoted, points: ` (33),
    # `  float_like: {name: Float, points: ` (36) and `      spear: {name: Spear, pts: ` (32)
    assert found == [
        ("wrong-type", 4, 13),
        ("wrong-type", 5, 34),
        ("wrong-type", 6, 37),
        ("wrong-type", 13, 33),
        ("army-matrices", 8, 3),  # a second matrix with points beside the ruleset's army matrix (a warning)
    ]
    message = check_project(root).diagnostics[0].message
    assert (
        message
        == "`points` must be a whole number or an exact fraction such as 1½, 1 1/2, 3/2 or 1.5, not the text `1,5`"
    )


def test_points_keep_their_bounds(tmp_path):
    root = project(tmp_path, "costs:\n  refund: {name: Refund, points: -1/2}\n")
    # after `  refund: {name: Refund, points: ` (33 characters)
    assert diagnostics(root) == [
        ("out-of-range", "rules_src/general/part0.yaml", 2, 34, "`points` is -½; it must be at least 0")
    ]


# -- printing points --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value, text",
    [
        (3, "3"),
        (Fraction(6, 2), "3"),
        (Fraction(3, 2), "1½"),
        (Fraction(1, 3), "⅓"),
        (Fraction(8, 3), "2⅔"),
        (Fraction(1, 4), "¼"),
        (Fraction(15, 4), "3¾"),
        (Fraction(7, 8), "7/8"),
        (Fraction(23, 8), "2 7/8"),
        (Fraction(-9, 4), "-2¼"),
        (0, "0"),
    ],
)
def test_points_print_with_vulgar_fractions(value, text):
    assert points_text(value) == text


def test_points_are_never_floats():
    with pytest.raises(TypeError):
        points_text(1.5)
    assert type(exact(Fraction(4, 2))) is int


# -- an army that adds up to a fraction -----------------------------------------------------------------
def test_the_model_reads_fractions_everywhere(rules):
    matrix = rules.profile("warband")
    assert matrix.row("levy")["pts"] == Fraction(3, 2)
    assert matrix.row("archers")["pts"] == Fraction(9, 4)
    assert matrix.row("knight")["pts"] == Fraction(7, 2)
    assert rules.get("costs", "banner").points == Fraction(1, 3)
    assert rules.get("costs", "horn").points == Fraction(1, 2)
    assert rules.get("heroes", "captain").points == Fraction(5, 2)
    assert rules.get("victory_points", "hold_the_hill").points == Fraction(5, 2)
    force_ = rules.get("armies", "fractional")
    assert force_.total == Fraction(29, 3) and force_.units[1].points == Fraction(31, 6)


def test_an_army_whose_points_add_up_to_a_fraction(rules):
    fractional = rules.get("armies", "fractional")
    levy, archers = fractional.units
    assert line_cost(rules, fractional, levy).total == Fraction(9, 2)  # 3 x 1½ = 4½
    # 2 x (2¼ + ⅓) = 2 x 2 7/12 = 5 1/6
    assert line_cost(rules, fractional, archers).each == Fraction(31, 12)
    assert line_cost(rules, fractional, archers).total == Fraction(31, 6)
    assert army_points(rules, fractional) == Fraction(29, 3)  # 4½ + 5 1/6 = 9⅔, under the 10 agreed
    assert (
        army_counts(rules, fractional)["troop_points"] == Fraction(9, 1)
        and type(army_counts(rules, fractional)["troop_points"]) is int
    )
    # 3 x 1½ + 2 x 2¼ = 4½ + 4½ = 9, a whole number again
    table = army_md(fractional, rules)
    assert "**9⅔** of 10" in table and "| 3x | Levy | 1½ | 4½ |" in table and "5 1/6" in table


def test_a_wrong_fractional_total_is_reported_in_fractions(tmp_path):
    root = project(tmp_path, ARMIES.replace("total: 9⅔", "total: 9⅓").replace("points: 5 1/6", "points: 5"))
    found = [(code, line, message) for code, _path, line, _column, message in diagnostics(root)]
    assert found == [
        ("points-mismatch", 6, "`fractional` adds up to 9⅔ points, not 9⅓"),
        ("points-mismatch", 9, "2x archers costs 5 1/6 points, not 5"),
    ]


def test_over_fractional_points(tmp_path):
    root = project(tmp_path, ARMIES.replace("agreed_points: 10", "agreed_points: 9.5"))
    assert [(c, m) for c, _p, _l, _col, m in diagnostics(root)] == [
        ("over-points", "`fractional` spends 9⅔ points of the 9½ agreed")
    ]


def test_json_exports_fractions_as_strings(rules):
    data = ruleset_json(rules)
    costs = {c["id"]: c["points"] for c in data["costs"]}
    assert costs == {"banner": "1/3", "horn": "1/2"}
    rows = {r["id"]: r["values"]["pts"] for r in data["profiles"][0]["rows"]}
    assert rows == {"levy": "3/2", "archers": "9/4", "knight": "7/2"}
    assert next(a for a in data["armies"] if a["id"] == "fractional")["total"] == "29/3"
    json.dumps(data)  # no Fraction left
    cost_points = json_schema()["$defs"]["Cost"]["properties"]["points"]
    options = json.dumps(cost_points)
    assert '"type": "integer"' in options and "^-?[0-9]+/[0-9]+$" in options


# -- limits with at least ----------------------------------------------------------------------------
def result_of(rules, army, limit: str):
    return next(r for r in check_limits(rules, army) if r.limit.id == limit)


def test_an_at_least_limit_kept_and_broken(rules):
    kept = force(force_line("levy", 2), force_line("archers", 3), ruleset=rules)  # 2 levy of 5 units: 2 >= 5/3
    broken = force(force_line("levy", 1), force_line("archers", 4), ruleset=rules)  # 1 levy of 5 units: 1 < 5/3
    assert (result_of(rules, kept, "levy_third").count, result_of(rules, kept, "levy_third").at_least) == (
        2,
        Fraction(5, 3),
    )
    assert result_of(rules, kept, "levy_third").holds
    assert result_of(rules, kept, "levy_third").at_most is None
    assert not result_of(rules, broken, "levy_third").holds and result_of(rules, broken, "levy_third").too_few
    exactly = force(force_line("levy", 2), force_line("archers", 4), ruleset=rules)  # 6 units: 6 / 3 = 2, an int
    assert (
        result_of(rules, exactly, "levy_third").at_least == 2
        and type(result_of(rules, exactly, "levy_third").at_least) is int
    )
    assert result_of(rules, exactly, "levy_third").holds


def test_a_limit_with_both_bounds(rules):
    def led(*heroes):
        return result_of(
            rules, force(force_line("levy", heroes=heroes), force_line("levy", 2), ruleset=rules), "some_heroes"
        )

    assert (led().count, led().at_least, led().at_most, led().holds) == (0, 0, 2, True)  # 0 >= 0 and 0 <= 2
    assert (led("captain").too_few, led("captain").holds) == (True, False)  # 0 minor < 1 major
    assert led("sergeant", "captain").holds  # 1 >= 1 and 1 <= 2
    three = led("sergeant", "sergeant", "sergeant", "captain")
    assert (three.count, three.too_many, three.too_few, three.holds) == (3, True, False, False)  # 3 > 2
    assert "at least `major_heroes` and at most `2`" in limits_md(list(rules.army_limits), rules, "author")


def test_a_broken_at_least_limit_is_a_located_diagnostic(tmp_path):
    root = project(
        tmp_path,
        ARMIES.replace("{troop: levy, count: 3, points: 4½}", "{troop: levy, count: 1, points: 1½}").replace(
            "total: 9⅔", "total: 6⅔"
        ),
    )  # 1½ + 5 1/6 = 6⅔; 1 levy of 3 units: 1 >= 3 / 3 holds
    assert diagnostics(root) == []
    root2 = project(
        tmp_path / "2",
        ARMIES.replace("{troop: levy, count: 3, points: 4½}", "{troop: levy, count: 1, points: 1½}")
        .replace(
            "{troop: archers, count: 2, upgrades: [banner], points: 5 1/6}",
            "{troop: archers, count: 3, upgrades: [banner], points: 7¾}",
        )
        .replace("total: 9⅔", "total: 9¼"),
    )
    # 1½ + 3 x 2 7/12 = 1½ + 7¾ = 9¼; 1 levy of 4 units < 4/3
    assert [(c, l, col, m) for c, _p, l, col, m in diagnostics(root2)] == [
        (
            "limit-broken",
            2,
            3,
            "`fractional` breaks “At least a third of the units are levy”: levy is 1, "
            "but at least 1⅓ (units / 3) is required",
        )
    ]


def test_a_limit_needs_a_bound(tmp_path):
    root = project(tmp_path, "army_limits:\n  loose: {title: Loose, count: units}\n")
    assert [(c, l, col, m) for c, _p, l, col, m in diagnostics(root)] == [
        ("missing-field", 2, 3, "army limit `loose` needs `at_most` or `at_least` (or both)")
    ]


def test_slash_divides_exactly_and_double_slash_rounds_down():
    names = {"units"}
    assert armies.evaluate(armies.parse_limit("units / 2", names), {"units": 7}) == Fraction(7, 2)
    assert armies.evaluate(armies.parse_limit("units // 2", names), {"units": 7}) == 3
    assert armies.evaluate(armies.parse_limit("units / 2 * 2", names), {"units": 7}) == 7


# -- armies balanced by head-count ----------------------------------------------------------------------
def test_a_head_count_army(rules):
    by_head = rules.get("armies", "by_head")
    levy, knights = by_head.units
    assert line_models(rules, by_head, levy) == 12  # 3 units x 4 figures
    assert line_models(rules, by_head, knights) == 2  # the matrix does not give it; the line says 2
    assert army_models(rules, by_head) == 14
    assert army_counts(rules, by_head)["models"] == 14
    assert by_head.agreed_points is None
    assert "Models: **14** of 20 agreed." in army_md(by_head, rules)


def test_a_head_count_army_over_its_models(tmp_path):
    root = project(tmp_path, ARMIES.replace("{troop: levy, count: 3}", "{troop: levy, count: 5}"))
    # 5 x 4 + 2 = 22 > 20, reported at the agreed number (line 13, after `    agreed_models: `)
    assert diagnostics(root) == [
        ("over-models", "rules_src/general/part0.yaml", 13, 20, "`by_head` fields 22 models of the 20 agreed")
    ]


def test_a_head_count_army_needs_every_lines_models(tmp_path):
    root = project(tmp_path, ARMIES.replace("{troop: knight, count: 2, models: 2}", "{troop: knight, count: 2}"))
    # at the troop of line 16, after `      - {troop: ` (16 characters)
    assert [(c, l, col) for c, _p, l, col, _m in diagnostics(root)] == [("missing-field", 16, 17)]


def test_stated_models_are_checked_against_the_matrix(tmp_path):
    root = project(tmp_path, ARMIES.replace("{troop: levy, count: 3}", "{troop: levy, count: 3, models: 10}"))
    assert [(c, m) for c, _p, _l, _col, m in diagnostics(root)] == [("points-mismatch", "3x levy is 12 models, not 10")]


def test_an_army_needs_agreed_points_or_models(tmp_path):
    root = project(tmp_path, "armies:\n  open:\n    title: Open\n    matrix: warband\n    units: [{troop: levy}]\n")
    assert [(c, l, col, m) for c, _p, l, col, m in diagnostics(root)] == [
        ("missing-field", 2, 3, "army list `open` needs `agreed_points` or `agreed_models` (or both)")
    ]


# -- hero levels and kinds the ruleset declares ----------------------------------------------------------
def test_hero_level_counts_come_from_the_declared_levels(rules):
    names = count_names(rules)
    assert {"minor_heroes", "major_heroes", "most_of_one_minor_hero", "most_of_one_major_hero"} <= names
    assert not {"low_heroes", "high_heroes", "most_of_one_high_hero"} & names
    two_captains = force(
        force_line("levy", 2, heroes=("captain",)), force_line("archers", heroes=("sergeant",)), ruleset=rules
    )
    counts = army_counts(rules, two_captains)
    assert (counts["major_heroes"], counts["minor_heroes"], counts["most_of_one_major_hero"], counts["heroes"]) == (
        2,
        1,
        2,
        3,
    )
    assert not result_of(rules, two_captains, "one_major").holds


def test_an_undeclared_hero_level_is_a_located_error(tmp_path):
    root = project(tmp_path, "heroes:\n  champion: {name: Champion, level: majr, points: 3, ability: Fights.}\n")
    result = check_project(root)
    [found] = result.diagnostics
    # `  champion: {name: Champion, level: ` is 36 characters: the value starts at column 37
    assert (found.code, found.location.line, found.location.column) == (Code.UNDECLARED_KIND, 2, 37)
    assert found.message == "hero level `majr` is not in `hero_levels:` of `ruleset: declares:`"
    assert found.hint == "did you mean `major`?"


def test_a_defaulted_value_must_be_declared_too(tmp_path):
    root = project(tmp_path, "heroes:\n  champion: {name: Champion, points: 3, ability: Fights.}\n")
    [found] = check_project(root).diagnostics
    assert found.code is Code.UNDECLARED_KIND and (found.location.line, found.location.column) == (2, 3)
    assert (
        found.message
        == "`champion` gives no `level:`; `hero_levels:` of `ruleset: declares:` says which hero levels there are"
    )


def test_undeclared_kinds_of_victory_points(tmp_path):
    root = project(tmp_path, "victory_points:\n  loot: {name: Loot, kind: treasure, points: 1}\n")
    [found] = check_project(root).diagnostics
    assert found.code is Code.UNDECLARED_KIND and found.location.line == 2
    assert found.hint == "`victory_point_kinds:` declares objective, kill; add it there or use one of those"


def test_nothing_declared_accepts_any_value_and_counts_the_levels_used(tmp_path):
    bare = "ruleset:\n  title: Bare\n"
    root = project(
        tmp_path,
        """\
heroes:
  elder: {name: Elder, level: elite, points: 3, ability: Knows.}
keywords:
  odd: {name: ODD, kind: quirk, definition: Odd.}
items:
  relic: {name: Relic, kind: relic, rules: Glows.}
victory_points:
  loot: {name: Loot, kind: treasure, points: 1}
army_limits:
  elite: {title: Few elite heroes, count: elite_heroes, at_most: "1"}
""",
        ruleset=bare,
    )
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    names = count_names(result.project.ruleset("general"))
    assert {"elite_heroes", "most_of_one_elite_hero"} <= names and "low_heroes" not in names


def test_the_samples_declare_what_they_use():
    result = sample_check()
    assert result.ok
    rampant = result.project.ruleset("rampant_hex")
    assert rampant.meta.hero_levels == ("low", "high")
    assert result.project.ruleset("ordo_ineptus").meta.victory_point_kinds == ("monster", "item", "task")


# -- forces from any ruleset's army matrix -------------------------------------------------------------------
def test_force_uses_the_army_matrix(rules):
    assert army_matrix(rules).id == "warband"
    listed = force(force_line("levy", 2), ruleset=rules, agreed_points=5)
    assert (listed.matrix, listed.agreed_points) == ("warband", 5)
    assert army_points(rules, listed) == 3  # 2 x 1½
    unbound = force(force_line("levy", 2))  # no ruleset: costed from whichever ruleset it is checked with
    assert unbound.matrix == "" and army_points(rules, unbound) == 3
    with pytest.raises(KeyError):
        force(force_line("dragon"), ruleset=rules)


def test_force_needs_a_matrix_name_when_several_have_points(tmp_path):
    second = (
        "profiles:\n  mercenaries:\n    title: Mercenaries\n    columns:\n      pts: {label: PTS, type: points}\n"
        "    rows:\n      sellsword: {name: Sellsword, pts: 2}\n"
    )
    result = check_project(project(tmp_path, second))
    rules = result.project.ruleset("general")
    with pytest.raises(LookupError, match="name one with matrix="):
        army_matrix(rules)
    listed = force(force_line("sellsword", 3), ruleset=rules, matrix="mercenaries")
    assert army_points(rules, listed) == 6


def test_every_kind_of_entry_an_example_names_is_found_by_its_id():
    samples = sample_project()[0]  # the samples' model, as their check reads it
    hex_rules = samples.ruleset("rampant_hex")
    assert hex_rules.army("thirty_point_force").title == "A 30 point force"
    assert hex_rules.hero("warrior_hero") is hex_rules.get("heroes", "warrior_hero")
    assert hex_rules.cost("scroll_appeal") is hex_rules.get("costs", "scroll_appeal")
    assert hex_rules.profile("troops").row("heavy_foot").name == "Heavy foot"
    damned = samples.ruleset("city_of_the_damned_combat")
    assert damned.item("hammer").name == "Hammer"
    with pytest.raises(KeyError):
        hex_rules.army("a_list_nobody_wrote")


# each section's entries by id, as `rules.<one>(id)` in a worked example: `rules.victory_point(...)` was an AttributeError
ONE_OF = {"glossary": "term", "armies": "army", "heroes": "hero", "army_limits": "army_limit"}


def test_every_section_s_entries_are_found_by_id_as_one_of_that_section():
    from generator.model.ruleset import SECTIONS

    found = set()
    for ruleset in sample_project()[0].rulesets:  # the samples' model, as their check reads it
        for section in SECTIONS:
            one = ONE_OF.get(section, section.removesuffix("s"))
            for entry in ruleset.section(section)[:1]:
                assert getattr(ruleset, one)(entry.id) is ruleset.get(section, entry.id), (ruleset.id, section)
                found.add(section)
    assert found == set(SECTIONS)
