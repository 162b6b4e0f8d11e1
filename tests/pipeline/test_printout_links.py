"""A `{pdf}` link in the rules' text names a PDF the build makes, one its readers' site holds. `check` tells a dead
one, and the build stops at it before anything is laid out, so `build --only site` refuses it before any PDF exists.
Expected file names are written here by hand from `rulepress new sample`'s rules; the printouts a link may name are
read from a real build's sites."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT

from generator.cli import main
from generator.pipeline.printout_links import dead_pdf_links, printouts
from generator.validate import check_project

TURN = "      Each turn has two phases: first every model may move, then the models in contact fight.\n"
COLUMN = len("      Print ") + 1  # where the role starts on the line written after TURN


@pytest.fixture
def new_sample(tmp_path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    assert main(["-C", str(folder), "new", "sample"]) == 0
    return folder


def with_line(project: Path, line: str, after: str = TURN) -> int:
    """``line`` written into the turn rule's text after ``after``; returns its line number in rules.yaml."""
    rules = project / "rules_src" / "sample" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert after in text
    rules.write_text(text.replace(after, after + line + "\n", 1), encoding="utf-8")
    before = text[: text.index(after) + len(after)]
    return before.count("\n") + 1


def built(project: Path, capsys, *options: str) -> tuple[int, str]:
    code = main(["-C", str(project), "build", *options])
    return code, capsys.readouterr().err


def test_a_link_to_a_size_the_project_does_not_print_is_refused_at_the_role(new_sample, capsys):
    (new_sample / "rulepress.yaml").write_text("papers: [letter]\n", encoding="utf-8")
    line = with_line(new_sample, "      Print {pdf}`the quick reference <sheets/sample-quick-reference-a4.pdf>` first.")
    code, err = built(new_sample, capsys, "--only", "site")
    assert code == 1
    assert err.splitlines() == [
        f"rules_src/sample/rules.yaml:{line}:{COLUMN}: error[prose-link]: `{{pdf}}` names "
        "`sheets/sample-quick-reference-a4.pdf`, which the build does not make",
        "  hint: did you mean `sheets/sample-quick-reference-letter.pdf`?",
        f"build failed: 1 error; nothing is written to {new_sample / 'build'}",
    ]
    assert not (new_sample / "build").exists()


def test_check_tells_a_dead_link_as_the_build_does(new_sample, capsys):
    (new_sample / "rulepress.yaml").write_text("papers: [letter]\n", encoding="utf-8")
    line = with_line(new_sample, "      Print {pdf}`the quick reference <sheets/sample-quick-reference-a4.pdf>` first.")
    assert main(["-C", str(new_sample), "check", "--no-examples"]) == 1
    told = capsys.readouterr()
    assert told.err.splitlines() == [
        f"rules_src/sample/rules.yaml:{line}:{COLUMN}: error[prose-link]: `{{pdf}}` names "
        "`sheets/sample-quick-reference-a4.pdf`, which the build does not make",
        "  hint: did you mean `sheets/sample-quick-reference-letter.pdf`?",
    ]
    assert told.out.endswith(", 1 error\n")


def test_every_dead_link_is_told_in_one_run_and_the_last_build_is_kept(new_sample, capsys):
    (new_sample / "build").mkdir()
    (new_sample / "build" / "kept.txt").write_text("the last build\n", encoding="utf-8")
    first = with_line(new_sample, "      Print {pdf}`the sheet <sheets/crib.pdf>`.")
    second = with_line(
        new_sample,
        "      Print {pdf}`the booklet <handouts/sample-handout-gm-a4.pdf>`.",
        after="      Print {pdf}`the sheet <sheets/crib.pdf>`.\n",
    )
    code, err = built(new_sample, capsys)
    assert code == 1
    assert err.splitlines()[:4] == [
        f"rules_src/sample/rules.yaml:{first}:{COLUMN}: error[prose-link]: `{{pdf}}` names "
        "`sheets/crib.pdf`, which the build does not make",
        "  hint: name one the build makes: `handouts/sample-cards-a4.pdf`, `handouts/sample-cards-letter.pdf`, "
        "`handouts/sample-handout-a4.pdf`, `handouts/sample-handout-letter.pdf` and 20 more, listed on each "
        "ruleset's page under Downloads",
        f"rules_src/sample/rules.yaml:{second}:{COLUMN}: error[prose-link]: `{{pdf}}` names "
        "`handouts/sample-handout-gm-a4.pdf`, the game-master's, which the players' site does not hold",
        "  hint: link the players' `handouts/sample-handout-a4.pdf`, or write the link in the game-master's text "
        "(a `gm_note:`, or an entry marked `audience: gm`)",
    ]
    assert err.splitlines()[4:] == [f"build failed: 2 errors; {new_sample / 'build'} is left as it was"]
    assert [p.name for p in (new_sample / "build").iterdir()] == ["kept.txt"]


def test_the_game_masters_text_may_link_the_game_masters_printout(new_sample):
    gm_link = "{pdf}`the game-master's booklet <handouts/sample-handout-gm-a4.pdf>`"
    with_line(new_sample, f"    gm_note: Read {gm_link} first.")  # the rule's next field, after its text
    project = check_project(new_sample).project
    assert [rule.gm_note for rule in project.ruleset("sample").rules if rule.gm_note] == [f"Read {gm_link} first."]
    assert dead_pdf_links(project) == []
    players_text = with_line(new_sample, f"      Read {gm_link} first.")
    told = dead_pdf_links(check_project(new_sample).project)
    assert [(d.code.code, d.location.line) for d in told] == [("prose-link", players_text)]


def test_the_printouts_a_link_may_name_are_those_each_site_holds(sample_build):
    project = check_project(ROOT).project
    for audience, site in (("player", "site"), ("gm", "site-gm"), ("author", "site-author")):
        held = sample_build / site / "printouts"
        assert printouts(project, audience) == {p.relative_to(held).as_posix() for p in held.glob("*/*.pdf")}
