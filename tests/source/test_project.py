"""Loading a project of several rulesets: `--ruleset` keeps only the chosen ruleset's problems, a folder
name that is no id is a located error, and asking the project for a ruleset it lacks names those it has."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import BROKEN

from generator.cli import main
from generator.source.project import load_project

GAP = (
    "rules_src/broken/table_gap.yaml:6:7: error[table-gap]: `activations` has no row for 6, 10-11 on 2D6\n"
    "  hint: add a row for the missing results, widen a range, or clamp the roll\n"
)


@pytest.fixture
def two_rulesets(tmp_path: Path) -> Path:
    """`good` (the broken corpus's valid base) next to `broken` (the same with a table gap)."""
    for name in ("good", "broken"):
        shutil.copytree(BROKEN / "_base", tmp_path / "rules_src" / name)
    shutil.copyfile(BROKEN / "table_gap.yaml", tmp_path / "rules_src" / "broken" / "table_gap.yaml")
    return tmp_path


def test_checking_one_ruleset_leaves_out_the_errors_of_another(two_rulesets, capsys):
    assert main(["-C", str(two_rulesets), "check", "--ruleset", "good"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines() == ["good: no worked examples", "1 ruleset, 0 tables, 0 profile rows, 0 examples, 0 errors"]


def test_checking_the_broken_ruleset_alone_still_reports_its_error(two_rulesets, capsys):
    assert main(["-C", str(two_rulesets), "check", "--ruleset", "broken"]) == 1
    out, err = capsys.readouterr()
    assert err == GAP
    assert out.splitlines() == ["1 ruleset, 1 table, 0 profile rows, 0 examples, 1 error"]


def test_a_ruleset_folder_that_is_no_id_is_a_located_error(two_rulesets, capsys):
    shutil.rmtree(two_rulesets / "rules_src" / "broken")
    shutil.copytree(BROKEN / "_base", two_rulesets / "rules_src" / "Bad-Name")
    assert main(["-C", str(two_rulesets), "check"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "rules_src/Bad-Name:1:1: error[bad-id]: ruleset folder `Bad-Name` is not lower_snake_case\n"
        "  hint: use lower-case letters, digits and underscores\n"
    )


def test_checking_one_ruleset_leaves_out_what_is_wrong_with_another_s_folder_itself(two_rulesets, capsys):
    """A diagnostic located at a folder (`rules_src/Bad-Name`) is that folder's, as one located in a file in it is;
    one in a file kept in rules_src/ itself (an army list there) belongs to no ruleset and is kept."""
    shutil.copytree(BROKEN / "_base", two_rulesets / "rules_src" / "Bad-Name")
    assert main(["-C", str(two_rulesets), "check", "--ruleset", "good"]) == 0
    assert capsys.readouterr().err == ""


def test_folders_starting_with_a_dot_or_underscore_are_not_rulesets(two_rulesets):
    shutil.copytree(BROKEN / "_base", two_rulesets / "rules_src" / "_drafts")
    shutil.copytree(BROKEN / "_base", two_rulesets / "rules_src" / ".hidden")
    project, _diagnostics = load_project(two_rulesets)
    assert sorted(r.id for r in project.rulesets) == ["broken", "good"]


def test_asking_for_a_missing_ruleset_names_those_there_are(two_rulesets):
    project, _diagnostics = load_project(two_rulesets)
    assert project.ruleset("good").id == "good"
    with pytest.raises(KeyError) as missing:
        project.ruleset("ugly")
    assert missing.value.args[0] == "no ruleset `ugly`; there are: broken, good"


def test_a_ruleset_whose_only_file_does_not_read_is_told_that_alone(tmp_path, capsys):
    """The file that does not read may hold the `ruleset:` section: its syntax error is the one thing to fix, with
    where the bracket left open starts (the parser notices only on the next line)."""
    folder = tmp_path / "rules_src" / "g"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(
        "ruleset:\n  title: G\nvalues:\n  a: {value: 1, label: A\n  b: {value: 2, label: B}\n", encoding="utf-8"
    )
    assert main(["-C", str(tmp_path), "check"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "rules_src/g/ruleset.yaml:5:4: error[yaml-syntax]: YAML syntax: did not find expected ',' or '}' (the `{` at "
        "4:6 is not closed)",
        "  hint: check indentation, colons and quotes near this position",
    ]


def test_a_second_ruleset_section_is_told_where_it_is_and_ruleset_yaml_s_is_kept(tmp_path):
    """A `ruleset:` in another file sorted before ruleset.yaml (`more.yaml`) took its place: the ruleset lost its title
    and source, was told "meta `g` needs the field `title`" and each quote then had no text. The second section is
    told where it is, and the ruleset is ruleset.yaml's."""
    from generator.validate import check_project

    folder = tmp_path / "rules_src" / "g"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text("ruleset:\n  title: Grim\n  source: grim.txt\n", encoding="utf-8")
    (folder / "more.yaml").write_text("ruleset:\n  summary: More.\n", encoding="utf-8")
    (folder / "sources").mkdir()
    (folder / "sources" / "grim.txt").write_text("GRIM\n\nA grim game.\n", encoding="utf-8")
    result = check_project(tmp_path)
    assert [d.format() for d in result.diagnostics] == [
        "rules_src/g/more.yaml:2:3: error[duplicate-id]: a second `ruleset:` section\n"
        "  hint: keep one `ruleset:` per folder"
    ]
    meta = result.project.ruleset("g").meta
    assert (meta.title, meta.source) == ("Grim", "grim.txt")


def test_a_ruleset_section_without_its_title_is_called_a_ruleset(tmp_path):
    from generator.validate import check_project

    folder = tmp_path / "rules_src" / "g"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text("ruleset:\n  summary: Grim.\n", encoding="utf-8")
    told = [d.format().splitlines()[0] for d in check_project(tmp_path).diagnostics]
    assert "rules_src/g/ruleset.yaml:2:3: error[missing-field]: ruleset `g` needs the field `title`" in told


def test_a_file_that_does_not_read_is_told_to_leave_the_rulesets_other_checks_undone(two_rulesets, capsys):
    """The table gap is not found while a file of its ruleset does not read, and the summary says what was not
    checked, so that the one error told is not taken for all there are."""
    (two_rulesets / "rules_src" / "broken" / "armies.yaml").write_text("armies:\n  broken: {title: x\n")
    assert main(["-C", str(two_rulesets), "check", "--ruleset", "broken", "--no-examples"]) == 1
    out, err = capsys.readouterr()
    assert "error[yaml-syntax]" in err and "table-gap" not in err
    assert out.splitlines() == [
        "broken: references, tables, profile matrices, armies, sheets and the sentences before worked examples were "
        "not checked, as rules_src/broken/armies.yaml does not read: fix its errors above, then check again",
        "1 ruleset, 1 table, 0 profile rows, 0 examples, 1 error",
    ]
