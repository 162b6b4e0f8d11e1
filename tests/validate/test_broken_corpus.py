"""The broken-input corpus: one problem per case, each with its exact golden diagnostics.

A case is ``tests/broken/<case>.yaml`` (or a folder ``tests/broken/<case>/`` when it
needs several files, or must replace the base ``ruleset.yaml``). It is copied into a
fresh project as ``rules_src/broken/`` next to the valid base in ``tests/broken/_base/``,
and ``rulepress check`` must print exactly ``tests/broken/<case>.expected`` to stderr.
A folder's ``_rules_src/`` holds other rulesets the case needs (a base, a ruleset to overlay).

Set ``RULEPRESS_UPDATE_GOLDEN=1`` to write a golden that differs from the current output:
the case then fails all the same, so the new file is reviewed as a diff (``git diff
tests/broken``) before it is committed. CI refuses update mode.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import helpers
import pytest

from generator.cli import main
from generator.diagnostics import Code

# The corpus may be read from a copy (tests/end_to_end/test_golden_review.py reviews update mode on one).
BROKEN = Path(os.environ.get("RULEPRESS_BROKEN_CORPUS") or helpers.BROKEN)
BASE = BROKEN / "_base"
RULESET = "broken"
UPDATE = os.environ.get("RULEPRESS_UPDATE_GOLDEN") == "1"
if UPDATE and os.environ.get("CI"):
    raise pytest.UsageError("CI refuses RULEPRESS_UPDATE_GOLDEN: goldens are reviewed, never regenerated on CI")

# Codes rules data cannot trigger: they need templates or a build to go wrong.
# symlink-outside needs a symbolic link, which the corpus's copy into a project does not keep
# (tests/attacks/symlink_* make them); site-warning only a site build finds (limits_entry_role_unknown_section);
# template-error only a project template makes (tests/attacks/template_*).
NOT_FROM_RULES_DATA = {
    Code.RESOURCE_OUTSIDE,
    Code.SYMLINK_OUTSIDE,
    Code.SITE_WARNING,
    Code.TEMPLATE_ERROR,
    Code.SHEET_OVERFLOW,
}  # found by laying a sheet out: tests/render/sheets/test_sheet_overflow.py

DIAGNOSTIC = re.compile(
    r"^(?P<path>[^:\n]+):(?P<line>[0-9]+):(?P<column>[0-9]+): (?P<severity>error|warning)"
    r"\[(?P<code>[a-z-]+)\]: .+$"
)


def case_names() -> list[str]:
    names = {p.stem for p in BROKEN.glob("*.yaml")}
    names |= {p.name for p in BROKEN.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
    return sorted(names)


CASES = case_names()


def make_project(root: Path, case: str | None) -> Path:
    """A project whose only ruleset is the base plus ``case``."""
    folder = root / "rules_src" / RULESET
    shutil.copytree(BASE, folder)
    if case is None:
        return root
    if (BROKEN / case).is_dir():
        shutil.copytree(BROKEN / case, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("_rules_src"))
        if (BROKEN / case / "_rules_src").is_dir():
            shutil.copytree(BROKEN / case / "_rules_src", root / "rules_src", dirs_exist_ok=True)
    else:
        shutil.copyfile(BROKEN / f"{case}.yaml", folder / f"{case}.yaml")
    return root


def run_check(project: Path, capsys) -> tuple[int, str, str]:
    code = main(["-C", str(project), "check"])
    out, err = capsys.readouterr()
    return code, out, err


def golden_codes(case: str) -> set[str]:
    text = (BROKEN / f"{case}.expected").read_text(encoding="utf-8")
    return {m["code"] for m in map(DIAGNOSTIC.match, text.splitlines()) if m}


# -- the corpus itself ---------------------------------------------------------------------
def test_the_corpus_is_large_enough():
    assert len(CASES) >= 30


def test_the_base_alone_is_clean(tmp_path, capsys):
    code, out, err = run_check(make_project(tmp_path, None), capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "1 ruleset, 0 tables, 0 profile rows, 0 examples, 0 errors"


def test_every_case_has_a_golden_file_and_every_golden_file_a_case():
    goldens = {p.stem for p in BROKEN.glob("*.expected")}
    assert goldens == set(CASES)


def test_the_corpus_covers_every_code_rules_data_can_trigger():
    seen = set().union(*(golden_codes(case) for case in CASES))
    wanted = {code.code for code in Code} - {code.code for code in NOT_FROM_RULES_DATA}
    assert wanted - seen == set(), "codes no case triggers"
    assert seen <= wanted


# -- each case ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_broken_case(case, tmp_path, capsys):
    project = make_project(tmp_path, case)
    code, out, err = run_check(project, capsys)

    assert code == (1 if "error[" in err else 0)  # a case of warnings alone passes, and says them
    assert "Traceback" not in out + err
    golden = BROKEN / f"{case}.expected"
    if UPDATE and (not golden.exists() or golden.read_text(encoding="utf-8") != err):
        golden.write_text(err, encoding="utf-8")
        pytest.fail(f"wrote {golden.name}: review it with `git diff`, then run again without RULEPRESS_UPDATE_GOLDEN")
    assert err == golden.read_text(encoding="utf-8")

    lines = err.splitlines()
    diagnostics = [DIAGNOSTIC.match(line) for line in lines[0::2]]
    assert all(diagnostics), "every diagnostic is `path:line:col: error[code]: message`"
    assert all(line.startswith("  hint: ") and len(line) > len("  hint: ") for line in lines[1::2])
    errors = sum(1 for found in diagnostics if found["severity"] == "error")
    assert out.splitlines()[-1].endswith(f", {errors} error{'' if errors == 1 else 's'}")
    for found in diagnostics:
        assert_points_into_the_project(project, found)


def assert_points_into_the_project(project: Path, found: re.Match) -> None:
    """A location names a file of the project, and a line and column inside it."""
    path = project / found["path"]
    assert path.is_file(), found.group(0)
    lines = path.read_bytes().decode("utf-8", errors="replace").splitlines() or [""]
    line, column = int(found["line"]), int(found["column"])
    assert 1 <= line <= len(lines) + 1, found.group(0)
    assert 1 <= column <= (len(lines[line - 1]) if line <= len(lines) else 0) + 1, found.group(0)


# -- cases whose point is what did not happen ------------------------------------------------
def test_the_alias_bomb_is_refused_without_expanding(tmp_path, capsys):
    text = (BROKEN / "alias_bomb.yaml").read_text(encoding="utf-8")
    anchors_and_aliases = len(re.findall(r"[&*][a-z]\b", text))
    code, out, err = run_check(make_project(tmp_path, "alias_bomb"), capsys)
    assert code == 1
    assert golden_codes("alias_bomb") == {"yaml-alias"}
    assert err.count("error[yaml-alias]") == 1  # one located error, with the count of the rest
    assert f"(and {anchors_and_aliases - 1} more in this file)" in err
    assert "lol" not in out + err


def test_the_python_tag_runs_nothing(tmp_path, capfd):
    project = make_project(tmp_path, "python_tag")
    assert main(["-C", str(project), "check"]) == 1
    out, err = capfd.readouterr()
    assert "PWNED" not in out + err
    assert "error[yaml-tag]" in err


def test_a_bad_limit_expression_runs_nothing(tmp_path, capfd):
    project = make_project(tmp_path, "bad_expression")
    assert main(["-C", str(project), "check"]) == 1
    out, err = capfd.readouterr()
    assert "PWNED" not in out + err


def test_dice_syntax_points_into_the_expression():
    text = (BROKEN / "dice_syntax.yaml").read_text(encoding="utf-8").splitlines()
    golden = (BROKEN / "dice_syntax.expected").read_text(encoding="utf-8")
    pointed = [text[int(m["line"]) - 1][int(m["column"]) - 1] for m in map(DIAGNOSTIC.match, golden.splitlines()) if m]
    assert pointed == ["*", "-"]  # the stray operator, in a plain and in a quoted expression


# Malformed rules data of the kinds the corpus does not hold: each value of the wrong shape is one
# located `wrong-type` error at that value, and the check goes on to the next one.

RULES = """\
ruleset: {title: Malformed}
formulas:
  charge:
    title: Charge
    inputs: {dice: {label: Dice, optional: maybe}, bonus: {label: Bonus, default: [1, 2]}}
    expr: dice
tables:
  weather:
    title: Weather
    dice: D6
    quick_reference: 5
    rows:
      - {roll: 1-6, result: Fine}
profiles:
  listed: [a, b]
  rowlist:
    title: Row list
    columns: {attack: {label: A}}
    rows: [archer]
  scalars:
    title: Scalar rows
    columns: {attack: {label: A}, cost: {label: Pts, type: points}}
    rows:
      archer: just an archer
      knight: {name: Knight, attack: {not_given: lost page}, cost: true}
      squire: {name: Squire, attack: {not_given: lost, extra: 1}, cost: 2}
"""


F = "rules_src/game/ruleset.yaml"


KIND = "  hint: write a value of the expected kind"


EXPECTED = f"""\
{F}:5:44: error[wrong-type]: `optional` must be true or false, not the text `maybe`
{KIND}
{F}:5:83: error[wrong-type]: `default` has an unexpected value
{KIND}
{F}:11:22: error[wrong-type]: `quick_reference` must be `true`, `false` or a mapping with `summary:` (and `title:`), not the number `5`
  hint: write `quick_reference: true`, or `quick_reference: {{summary: ...}}`
{F}:15:11: error[wrong-type]: expected a mapping of profile matrix fields, found a list (- item lines)
{KIND}
{F}:19:11: error[wrong-type]: `rows` must be a mapping of ids to rows, not a list (- item lines)
{KIND}
{F}:24:15: error[wrong-type]: profile row `archer` must be a mapping, not the text `just an archer`
{KIND}
{F}:25:68: error[wrong-type]: Pts must be a whole number or an exact fraction such as 1½, 1 1/2, 3/2 or 1.5, not the boolean `true`
  hint: write points as 3, 1½, 1 1/2, 3/2 or 1.5, without units
{F}:26:38: error[wrong-type]: `attack` must be `not given`, or `not given: why` with the why in words
  hint: write `not given`, or `"not given: the text omits it"` (quoted, for the colon)
"""


# where each error points, by hand: (line, column) -> the text that starts there
POINTED_AT = {
    (5, 44): "maybe",
    (5, 83): "[1, 2]",
    (11, 22): "5",
    (15, 11): "[a, b]",
    (19, 11): "[archer]",
    (24, 15): "just an archer",
    (25, 68): "true",
    (26, 38): "{not_given: lost, extra: 1}",
}


def test_each_value_of_the_wrong_shape_is_one_located_error(tmp_path: Path, capsys):
    (tmp_path / "rules_src" / "game").mkdir(parents=True)
    (tmp_path / "rules_src" / "game" / "ruleset.yaml").write_text(RULES, encoding="utf-8")
    assert main(["-C", str(tmp_path), "check", "--no-examples"]) == 1
    out, err = capsys.readouterr()
    assert err == EXPECTED
    # the knight and the squire: rows with an error in a cell (the archer is no mapping, so no row)
    assert out == "1 ruleset, 0 tables, 2 profile rows, 0 examples, 8 errors\n"


def test_the_positions_are_those_of_the_values():
    lines = RULES.splitlines()
    for (line, column), text in POINTED_AT.items():
        assert lines[line - 1][column - 1 :].startswith(text), (line, column)
