"""Issue 21, items 12 and 13: rules coverage (what no worked example exercises) and writing examples with
the names in view (the names reference while check fails, a one-line doc for every name, broken_limits, is_given)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT, make_project, sample_check, sample_project

from generator.cli import main

pytestmark = pytest.mark.usefixtures("without_the_wall")  # the wall is not what is tested here (conftest)

REPO = ROOT
SAMPLES = ("bad_moon_rising", "city_of_the_damned_combat", "ordo_ineptus", "rampant_hex", "warhammer_fantasy_charts")

GAME = """\
ruleset:
  title: A game
chapters:
  play: {title: Play}
values:
  bonus: {value: 2, label: Bonus for a lucky roll}
  penalty: {value: 3, label: Penalty for an unlucky roll}
  timer: {value: 2 minutes, label: Time for a turn%(timer)s}
formulas:
  score:
    title: Score
    inputs:
      roll: {label: Roll, min: 1, max: 6}
      lucky: {label: Lucky, type: bool, default: false}
    expr: roll + bonus if lucky else roll - penalty
lookups:
  grade:
    title: Grade
    key: Score
    rows:
      - {when: 1-, result: poor}
      - {when: 2+, result: good}
rules:
  scoring:
    title: Scoring
    chapter: play
    body: |
      An unlucky roll of 5 scores 2, which is good.

      ```python
      >>> score(5)
      %(score)s
      >>> grade(score(5))
      'good'
      ```
"""


def project(tmp_path: Path, timer: str = "", score: str = "2") -> Path:
    return make_project(tmp_path, game=GAME % {"timer": timer, "score": score})


def line_of(root: Path, text: str) -> int:
    lines = (root / "rules_src/game/ruleset.yaml").read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


# -- item 13: rules coverage ---------------------------------------------------------------------------------
def test_coverage_lists_each_entry_no_example_exercises_with_its_place(tmp_path, capsys):
    root = project(tmp_path)
    assert main(["-C", str(root), "coverage"]) == 1
    out = capsys.readouterr().out
    # the example scores an unlucky roll: `penalty` is read, `bonus` (the branch not taken) is not
    assert f"rules_src/game/ruleset.yaml:{line_of(root, 'bonus:')}: value `bonus`" in out
    assert f"rules_src/game/ruleset.yaml:{line_of(root, 'timer:')}: value `timer`" in out
    assert "`penalty`" not in out and "formula `score`" not in out
    # the lookup was read for a 2: its row `2+` is exercised, the row `1-` is not
    assert f"rules_src/game/ruleset.yaml:{line_of(root, 'when: 1-')}: lookup row `grade[1] (1 or less: poor)`" in out
    assert "grade[2]" not in out
    # entries: bonus, penalty, timer, score, grade, its two rows; exercised: penalty, score, grade, one row
    assert "game: 4 of 7 exercised (57%)" in out


def test_a_coverage_reason_in_the_data_excuses_the_entry(tmp_path, capsys):
    root = project(tmp_path, timer=", coverage: 'prose only: the players time it'")
    main(["-C", str(root), "coverage"])
    out = capsys.readouterr().out
    assert "`timer`" not in out
    assert "game: 4 of 6 exercised (66%), 1 excused" in out


def test_a_reason_for_an_entry_an_example_exercises_is_reported_stale(tmp_path, capsys):
    root = project(tmp_path)
    text = (root / "rules_src/game/ruleset.yaml").read_text()
    (root / "rules_src/game/ruleset.yaml").write_text(
        text.replace("label: Penalty for an unlucky roll}", "label: Penalty, coverage: never read}")
    )
    main(["-C", str(root), "coverage"])
    assert "value `penalty` says `coverage: never read`, but an example exercises it" in capsys.readouterr().out


def test_every_entry_of_the_sample_rulesets_is_exercised_or_excused(capsys, monkeypatch):
    import generator.validate

    check_project, asked, result = generator.validate.check_project, [], sample_check()

    def checked_once(root, **options):  # the samples' check this process holds: the same call, made once
        asked.append(Path(root).resolve())
        if asked[-1] != REPO or set(options) != {"loaded"}:
            return check_project(root, **options)
        options["loaded"](result.project)
        return result

    monkeypatch.setattr(generator.validate, "check_project", checked_once)
    status = main(["-C", str(REPO), "coverage"])
    assert asked == [REPO]  # the command checked the samples before measuring
    out = capsys.readouterr().out
    assert status == 0, out
    for ruleset in SAMPLES:
        assert f"{ruleset}: " in out and "(100%)" in next(
            line for line in out.splitlines() if line.startswith(ruleset + ":")
        )


# -- item 12: writing examples with the names in view ------------------------------------------------------
def test_names_prints_the_names_reference_while_check_fails(tmp_path, capsys):
    root = project(tmp_path, score="3")  # the example is wrong: check fails
    assert main(["-C", str(root), "check"]) == 1
    capsys.readouterr()
    assert main(["-C", str(root), "names", "game"]) == 0
    out = capsys.readouterr().out
    assert "| `score(roll, lucky=False)` | formula | Score |" in out
    assert "| `values.bonus` | value | Bonus for a lucky roll: 2 |" in out
    assert "`broken_limits(ruleset, army)`" in out and "`is_given(thing)`" in out


def test_names_of_an_unknown_ruleset_is_a_usage_error(tmp_path, capsys):
    root = project(tmp_path)
    assert main(["-C", str(root), "names", "gmae"]) == 2
    assert "game" in capsys.readouterr().err


@pytest.mark.parametrize("ruleset", SAMPLES)
def test_every_name_a_sample_example_can_use_has_a_one_line_doc(ruleset):
    from generator.render.reference import example_names

    loaded, _ = sample_project()
    names = example_names(next(r for r in loaded.rulesets if r.id == ruleset), REPO)
    assert len(names) > 20
    assert [signature for _kind, signature, line in names if not line.strip()] == []


def test_broken_limits_gives_each_limit_the_list_breaks_with_its_numbers():
    from generator.mechanics.armies import broken_limits, force, force_line

    rules = sample_project()[0].ruleset("rampant_hex")
    # "if you have seven units you may not have more than three heroes": four heroes in seven units break it
    four = force(force_line("levy", 4, heroes=("brave_commander",)), force_line("levy", 3), ruleset=rules)
    broken = broken_limits(rules, four)
    assert [(r.limit.id, r.count, r.at_most) for r in broken] == [("heroes_half_units", 4, 3)]
    assert repr(broken) == "[<heroes_half_units: 4, at most 3>]"
    three = force(force_line("levy", 3, heroes=("brave_commander",)), force_line("levy", 4), ruleset=rules)
    assert broken_limits(rules, three) == []


def test_given_tells_what_the_text_leaves_out():
    from generator.examples.namespace import namespace_for

    rulesets = {r.id: r for r in sample_project()[0].rulesets}
    city = namespace_for(rulesets["city_of_the_damned_combat"])
    given = city["is_given"]
    # "Injury Table": the text gives the three results but not their roll ranges
    assert [given(row) for row in city["rules"].table("injury").rows] == [False, False, False]
    assert given(city["values"].stunned_crawl) and given(city["rules"].value("stunned_crawl"))
    hex_rules = rulesets["rampant_hex"]
    cells = [row["attack"] for row in hex_rules.profile("troops").rows]  # the matrix picture is missing
    assert cells and not any(given(cell) for cell in cells)
