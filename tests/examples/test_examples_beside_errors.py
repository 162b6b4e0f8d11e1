"""Errors in one ruleset stop only the examples they reach: the others still run, and the summary says
which examples did not run and why.

Issue 21: while any data error existed, no worked example ran anywhere, even in other rulesets, and the
summary did not say so; README "Diagnostics" promises every problem "all of them in one run". Now a
ruleset whose files have errors, or whose base's do, runs no example ("game: 2 examples not run: its
rules have errors"); every other ruleset's examples run, and their failures are told in the same run.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import make_project

import generator.pipeline.build  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import pipeline
from generator.cli import main

pytestmark = pytest.mark.usefixtures("without_the_wall")  # the wall is not what is tested here (conftest)

GAME = """\
ruleset:
  title: Game
chapters:
  play: {title: Play}
values:
  hits: {value: 2, label: Hits}
tables:
  fate:
    title: Fate
    dice: D6
    chapter: play
    rows:
      - {roll: 1-5, result: nothing}
rules:
  play:
    title: Play
    chapter: play
    body: |
      A unit takes two hits:

      ```python
      >>> values.hits
      2
      ```

      And no more than two:

      ```python
      >>> values.hits <= 2
      True
      ```
"""
HOUSE = """\
ruleset:
  title: Game house rules
  extends: game
  overlay: true
values:
  hits: {value: 3}
"""
OTHER = """\
ruleset:
  title: Other
chapters:
  play: {title: Play}
values:
  range: {value: 4, label: Range}
rules:
  shoot:
    title: Shoot
    chapter: play
    body: |
      Shooting reaches four:

      ```python
      >>> values.range
      4
      ```

      And five, the text says wrongly:

      ```python
      >>> values.range
      5
      ```
"""


@pytest.fixture
def project(tmp_path) -> Path:
    return make_project(tmp_path, game=GAME, game_house=HOUSE, other=OTHER)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_the_examples_of_a_ruleset_without_errors_run_beside_anothers_errors(project, capsys):
    code, out, err = run(capsys, "-C", str(project), "check", "--all")
    assert code == 1
    assert "rules_src/game/ruleset.yaml:" in err and "error[table-gap]" in err
    assert "rules_src/other/ruleset.yaml:" in err and "gave 4, the example expects 5" in err  # told in the same run
    assert out.splitlines() == [
        "game: 2 examples not run: its rules have errors",
        "game_house: 2 examples not run: its base `game` has errors",
        "other: 2 examples, 1 failed",
        "3 rulesets, 2 tables, 0 profile rows, 6 examples, 2 errors",  # an overlay counts its base's tables
    ]


def test_a_ruleset_whose_file_does_not_read_says_its_examples_did_not_run(project, capsys):
    """The examples of a file that does not read are unknown, not none: the summary still names the ruleset."""
    (project / "rules_src" / "game" / "ruleset.yaml").write_text(GAME + "  bad: [unclosed\n", encoding="utf-8")
    code, out, _err = run(capsys, "-C", str(project), "check", "--all")
    assert code == 1
    assert out.splitlines()[:3] == [
        "game: examples not run: its rules have errors",
        "game_house: examples not run: its base `game` has errors",
        "other: 2 examples, 1 failed",
    ]


def test_a_clean_project_with_the_error_fixed_runs_every_example(project, capsys):
    game = project / "rules_src" / "game" / "ruleset.yaml"
    game.write_text(GAME.replace("roll: 1-5", "roll: 1-6"), encoding="utf-8")
    other = project / "rules_src" / "other" / "ruleset.yaml"
    other.write_text(
        OTHER.replace("      5\n", "      4\n").replace(
            "And five, the text says wrongly", "And four, as the text says"
        ),
        encoding="utf-8",
    )
    code, out, err = run(capsys, "-C", str(project), "check", "--all")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "game: 2 examples, all pass",
        # the house value 3 makes the first example's 2 a 3, and the second's True a False
        "game_house: 2 examples, 0 pass, 2 give another result under its house values (rules.play)",
        "other: 2 examples, all pass",
        "3 rulesets, 2 tables, 0 profile rows, 6 examples, 0 errors",
    ]


def test_an_error_in_the_projects_templates_stops_no_example(project, capsys):
    game = project / "rules_src" / "game" / "ruleset.yaml"
    game.write_text(GAME.replace("roll: 1-5", "roll: 1-6"), encoding="utf-8")
    (project / "templates").mkdir()
    (project / "templates" / "broken.html.j2").write_text("{% if %}", encoding="utf-8")
    code, out, err = run(capsys, "-C", str(project), "check", "--all")
    assert code == 1 and "error[template-error]" in err
    assert out.splitlines()[:2] == [
        "game: 2 examples, all pass",
        "game_house: 2 examples, 0 pass, 2 give another result under its house values (rules.play)",
    ]


def test_a_build_refused_for_an_error_tells_the_other_rulesets_failing_examples_too(project, capsys, tmp_path):
    code, out, err = run(capsys, "-C", str(project), "build", "--out", str(tmp_path / "out"))
    assert code == 1
    assert "error[table-gap]" in err and "gave 4, the example expects 5" in err
    assert "build failed: 2 errors" in err
    assert not (tmp_path / "out").exists()


# The same, called directly: check with examples runs those of every ruleset the errors do not reach.


def test_check_with_examples_runs_the_examples_of_every_ruleset_the_errors_do_not_reach(monkeypatch, tmp_path):
    import generator.examples.run as example_runs
    from generator.diagnostics import Code, Diagnostic, Diagnostics, Location
    from generator.validate import CheckResult

    class Cache:
        def __init__(self, root):
            self.root = root

    def ruleset(id):
        return SimpleNamespace(id=id, examples=(1, 2), meta=SimpleNamespace(extends="", overlay=False))

    rulesets = [ruleset("a"), ruleset("b")]
    project = SimpleNamespace(root=tmp_path / "resolved", rulesets=rulesets, with_house_results=lambda found: project)
    asked = []
    monkeypatch.setattr(pipeline.build, "CheckCache", Cache)

    def examples(ruleset, root, cache, every):
        asked.append((ruleset.id, root, type(cache), every))
        return SimpleNamespace(failures=[f"{ruleset.id}1", f"{ruleset.id}2"], changed=(), ruleset=ruleset.id)

    monkeypatch.setattr(example_runs, "run_examples_cached", examples)
    good = CheckResult(project, Diagnostics([]))
    monkeypatch.setattr(
        pipeline.build,
        "check_project",
        lambda root, cache, loaded: asked.append(("check", root, cache.root, loaded.__name__)) or good,
    )
    assert pipeline.build.check_with_examples(tmp_path)[1] == ["a1", "a2", "b1", "b2"]
    assert asked == [
        ("check", tmp_path, tmp_path, "prestart"),  # the walled host starts once the project is loaded
        ("a", tmp_path / "resolved", Cache, rulesets),
        ("b", tmp_path / "resolved", Cache, rulesets),
    ]
    asked.clear()
    error = Diagnostic(Code.TABLE_GAP, "gap", Location("rules_src/b/tables.yaml", 3, 1))
    bad = CheckResult(project, Diagnostics([error]))
    monkeypatch.setattr(pipeline.build, "check_project", lambda root, cache, loaded: bad)
    assert pipeline.build.check_with_examples(tmp_path)[1] == ["a1", "a2"]  # b's errors reach b's examples alone
    assert asked == [("a", tmp_path / "resolved", Cache, rulesets)]


WRONG_RESULT = OTHER.replace("Shooting reaches four:", "Shooting reaches four, not six:").replace(
    "And five, the text says wrongly:", "And it reaches four, where the example says five:"
)


def test_a_sentence_the_example_does_not_state_stops_none_of_its_examples(tmp_path, capsys):
    """ "six" is no number of its example, and the next example's result is wrong where its sentence is right: both
    are told in one run (the example did not run, and the author was told to change the sentence that was right)."""
    project = make_project(tmp_path, other=WRONG_RESULT)
    code, out, err = run(capsys, "-C", str(project), "check", "--all")
    assert code == 1
    assert "error[example-sentence]: `six`" in err and "gave 4, the example expects 5" in err
    assert out.splitlines() == [
        "other: 2 examples, 1 failed",
        "1 ruleset, 0 tables, 0 profile rows, 2 examples, 2 errors",
    ]
