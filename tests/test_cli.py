"""The `rulepress` command, run in-process: exit codes, output, and a build that never half-replaces."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator import __version__
from generator.cli import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, main
from generator.diagnostics import Code
from generator.render.reference import codes_reference, format_reference

ROOT = Path(__file__).resolve().parents[1]
BROKEN = Path(__file__).parent / "broken"

SUMMARY = re.compile(r"^(?P<rulesets>[0-9]+) rulesets?, [0-9]+ tables?, [0-9]+ profiles?, [0-9]+ examples?, (?P<errors>[0-9]+) errors?$")
RULESET_LINE = re.compile(r"^[a-z][a-z0-9_]*: [0-9]+ examples?, all pass$")
# an overlay's examples run under its house values; those they change are named, and are no failure
HOUSE_LINE = re.compile(r"^[a-z][a-z0-9_]*: [0-9]+ examples?, [0-9]+ pass, [0-9]+ gives? another result under its "
                        r"house values \([a-z_.]+(, [a-z_.]+)*\)$")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def broken_project(root: Path) -> Path:
    folder = root / "rules_src" / "broken"
    shutil.copytree(BROKEN / "_base", folder)
    shutil.copyfile(BROKEN / "table_gap.yaml", folder / "table_gap.yaml")
    return root


# A full build renders every site, sheet and handout (minutes); the reference is written by every build.
QUICK = ("--ruleset", "rampant_hex", "--audience", "player", "--only", "site")


def leftovers(folder: Path) -> list[str]:
    """Staging or swapped-out folders a build left next to its output."""
    return sorted(p.name for p in folder.iterdir() if "-staging-" in p.name or ".old-" in p.name)


def test_exit_codes_are_the_documented_ones():
    assert (EXIT_OK, EXIT_ERRORS, EXIT_USAGE) == (0, 1, 2)


# -- usage ----------------------------------------------------------------------------------------
def test_version(capsys):
    code, out, _err = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"rulepress {__version__}"


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["check", "--help"], ["build", "--help"], ["codes", "--help"]])
def test_help(capsys, argv):
    code, out, _err = run(capsys, *argv)
    assert code == 0
    assert out.startswith("usage: rulepress")


def test_help_lists_the_commands(capsys):
    _code, out, _err = run(capsys, "--help")
    for command in ("check", "build", "codes"):
        assert re.search(rf"^\s+{command}\s+\S", out, re.M), command


def test_no_command_prints_help_and_is_a_usage_error(capsys):
    code, out, _err = run(capsys)
    assert code == 2
    assert out.startswith("usage: rulepress")


@pytest.mark.parametrize("argv, complaint", [
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["check", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["build", "--only", "everything"], "invalid choice: 'everything'"),
])
def test_bad_usage_exits_2_without_a_traceback(capsys, argv, complaint):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("usage: rulepress")
    assert complaint in err


def test_python_dash_m_generator():
    done = subprocess.run([sys.executable, "-m", "generator", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout.strip()) == (0, f"rulepress {__version__}")


# -- check ------------------------------------------------------------------------------------------
def test_check_on_the_real_project(capsys):
    code, out, err = run(capsys, "-C", str(ROOT), "check")
    assert (code, err) == (0, ""), err
    lines = out.splitlines()
    summary = SUMMARY.match(lines[-1])
    assert summary, lines[-1]
    assert summary["errors"] == "0"
    assert int(summary["rulesets"]) >= 1
    assert len(lines) - 1 == int(summary["rulesets"])
    assert all(RULESET_LINE.match(line) or HOUSE_LINE.match(line) for line in lines[:-1]), lines[:-1]
    assert any(line.startswith("rampant_hex: ") for line in lines[:-1])
    house = next(line for line in lines if line.startswith("rampant_hex_house: "))
    assert HOUSE_LINE.match(house) and "rules.faulty_scrolls" in house  # riders move 5 in all there, not 4


def test_check_one_ruleset_without_examples(capsys):
    code, out, err = run(capsys, "-C", str(ROOT), "check", "--ruleset", "rampant_hex", "--no-examples")
    assert (code, err) == (0, "")
    (summary,) = out.splitlines()
    assert SUMMARY.match(summary)
    assert summary.startswith("1 ruleset, ")


def test_check_without_rules_src_is_a_usage_error(capsys, tmp_path):
    code, out, err = run(capsys, "-C", str(tmp_path), "check")
    assert code == 2
    assert out == ""
    assert err.splitlines() == [f"rulepress: error: no rules_src/ folder in {tmp_path.resolve()}",
                                "  hint: run rulepress in a project folder, or pass -C PATH"]


def test_check_a_broken_project(capsys, tmp_path):
    code, out, err = run(capsys, "-C", str(broken_project(tmp_path)), "check")
    assert code == 1
    assert "error[table-gap]" in err
    assert out.splitlines()[-1] == "1 ruleset, 1 table, 0 profiles, 0 examples, 1 error"


# -- codes ------------------------------------------------------------------------------------------
def test_codes_lists_every_code(capsys):
    code, out, _err = run(capsys, "codes")
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == [c.code for c in Code]
    for line, c in zip(lines, Code):
        assert line.endswith(c.catches)


def test_codes_needs_no_project(capsys, tmp_path):
    assert run(capsys, "-C", str(tmp_path), "codes")[0] == 0


# -- build ------------------------------------------------------------------------------------------
def test_build_writes_the_reference(capsys, tmp_path):
    out_dir = tmp_path / "out"
    code, out, err = run(capsys, "-C", str(ROOT), "build", *QUICK, "--out", str(out_dir))
    assert (code, err) == (0, ""), err
    assert re.match(rf"built [0-9]+ rulesets? into {re.escape(str(out_dir))}(?: |$)", out.splitlines()[-1])
    assert (out_dir / "reference" / "format.md").read_text(encoding="utf-8") == format_reference()
    assert (out_dir / "reference" / "codes.md").read_text(encoding="utf-8") == codes_reference()
    assert leftovers(tmp_path) == []


def test_a_successful_build_replaces_the_old_output(capsys, tmp_path):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    (out_dir / ".manifest.json").write_text("{}", encoding="utf-8")  # an earlier build's folder
    (out_dir / "stale.txt").write_text("from an earlier build", encoding="utf-8")
    code, _out, err = run(capsys, "-C", str(ROOT), "build", *QUICK, "--out", str(out_dir))
    assert (code, err) == (0, ""), err
    assert not (out_dir / "stale.txt").exists()
    assert (out_dir / "reference" / "format.md").is_file()
    assert leftovers(tmp_path) == []


def test_a_failed_build_leaves_the_old_output_untouched(capsys, tmp_path):
    project = broken_project(tmp_path / "project")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    (out_dir / ".manifest.json").write_text("{}", encoding="utf-8")  # an earlier build's folder
    marker = out_dir / "marker.txt"
    marker.write_text("keep me", encoding="utf-8")
    code, out, err = run(capsys, "-C", str(project), "build", "--out", str(out_dir))
    assert code == 1
    assert out == ""
    lines = err.splitlines()
    assert "error[table-gap]" in lines[0]
    assert lines[-1] == f"build failed: 1 error; {out_dir} is left as it was"
    assert sorted(p.name for p in out_dir.iterdir()) == [".manifest.json", "marker.txt"]
    assert marker.read_text(encoding="utf-8") == "keep me"
    assert leftovers(tmp_path) == []


def test_a_failed_example_fails_the_build(capsys, tmp_path):
    project = tmp_path / "project"
    folder = project / "rules_src" / "broken"
    shutil.copytree(BROKEN / "_base", folder)
    shutil.copyfile(BROKEN / "example_failed.yaml", folder / "example_failed.yaml")
    out_dir = tmp_path / "out"
    code, _out, err = run(capsys, "-C", str(project), "build", "--out", str(out_dir))
    assert code == 1
    assert "error[example-failed]" in err
    assert not out_dir.exists()


def test_an_unknown_ruleset_is_a_usage_error(capsys):
    for command in ("check", "build"):
        code, out, err = run(capsys, "-C", str(ROOT), command, "--ruleset", "rampant_hx")
        assert code == EXIT_USAGE
        assert "no ruleset `rampant_hx`" in err and "did you mean `rampant_hex`?" in err
        assert "Traceback" not in err
