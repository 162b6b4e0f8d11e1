"""The `rulepress` command, run in-process: exit codes, output, and a build that never half-replaces."""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import said_beside_progress

from generator import __version__, report
from generator.cli import EXIT_ERRORS, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, main
from generator.diagnostics import Code
from generator.render.reference import codes_reference, format_reference

ROOT = Path(__file__).resolve().parents[1]
BROKEN = Path(__file__).parent / "broken"

SUMMARY = re.compile(
    r"^(?P<rulesets>[0-9]+) rulesets?, [0-9]+ tables?, [0-9]+ profile rows?, [0-9]+ examples?, "
    r"(?P<errors>[0-9]+) errors?$"
)
RULESET_LINE = re.compile(r"^[a-z][a-z0-9_]*: [0-9]+ examples?, all pass$")
# an overlay's examples run under its house values; those they change are named, and are no failure
HOUSE_LINE = re.compile(
    r"^[a-z][a-z0-9_]*: [0-9]+ examples?, [0-9]+ pass, [0-9]+ gives? another result under its "
    r"house values \([a-z_.]+(, [a-z_.]+)*\)$"
)


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


# A full build renders every site, sheet and handout (minutes); the reference is written by every build, so these
# build the least that still renders: one ruleset's one sheet (its quick reference, on both papers).
QUICK = ("--ruleset", "city_of_the_damned_combat", "--audience", "player", "--only", "sheets")


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


@pytest.mark.parametrize(
    "argv, complaint",
    [
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["check", "--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["build", "--only", "everything"], "invalid choice: 'everything'"),
    ],
)
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
    shown = (ROOT / "README.md").read_text(encoding="utf-8").split("$ .venv/bin/rulepress check\n", 1)[1]
    assert shown.split("\n```", 1)[0] == out.rstrip("\n")  # what the README shows a new user is what they will see


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
    assert err.splitlines() == [
        f"rulepress: error: no rules_src/ folder in {tmp_path.resolve()}",
        "  hint: run rulepress in a project folder, or pass -C PATH",
    ]


def test_check_a_broken_project(capsys, tmp_path):
    code, out, err = run(capsys, "-C", str(broken_project(tmp_path)), "check")
    assert code == 1
    assert "error[table-gap]" in err
    assert out.splitlines()[-1] == "1 ruleset, 1 table, 0 profile rows, 0 examples, 1 error"


def test_the_summary_counts_profile_rows_with_an_error_in_a_cell(capsys, tmp_path):
    folder = tmp_path / "rules_src" / "broken"
    shutil.copytree(BROKEN / "_base", folder)
    (folder / "troops.yaml").write_text(
        "profiles:\n  troops:\n    title: Troops\n    columns:\n"
        "      attack: {label: ATTACK, type: dice, min: 0, max: 10}\n"
        "    rows:\n"
        "      heavy_foot: {name: Heavy foot, attack: 3}\n"
        "      giants: {name: Giants, attack: 11}\n"  # above the column's 10: one error, and still a row written
        "      light_foot: {name: Light foot, attack: 2}\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "-C", str(tmp_path), "check", "--no-examples")
    assert code == 1
    assert "error[out-of-range]" in err
    assert out.splitlines()[-1] == "1 ruleset, 0 tables, 3 profile rows, 0 examples, 1 error"


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
@pytest.mark.build  # renders for real in its body
def test_build_writes_the_reference(capsys, tmp_path):
    out_dir = tmp_path / "out"
    code, out, err = run(capsys, "-C", str(ROOT), "build", *QUICK, "--out", str(out_dir))
    assert (code, said_beside_progress(err)) == (0, ""), err
    assert re.match(rf"built [0-9]+ rulesets? into {re.escape(str(out_dir))}(?: |$)", out.splitlines()[-1])
    assert (out_dir / "reference" / "format.md").read_text(encoding="utf-8") == format_reference()
    assert (out_dir / "reference" / "codes.md").read_text(encoding="utf-8") == codes_reference()
    assert leftovers(tmp_path) == []


@pytest.mark.build  # renders for real in its body
def test_a_successful_build_replaces_the_old_output(capsys, tmp_path):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    (out_dir / ".manifest.json").write_text("{}", encoding="utf-8")  # an earlier build's folder
    (out_dir / "stale.txt").write_text("from an earlier build", encoding="utf-8")
    code, _out, err = run(capsys, "-C", str(ROOT), "build", *QUICK, "--out", str(out_dir))
    assert (code, said_beside_progress(err)) == (0, ""), err
    assert not (out_dir / "stale.txt").exists()
    assert (out_dir / "reference" / "format.md").is_file()
    assert leftovers(tmp_path) == []


@pytest.mark.build  # renders for real in its body
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


@pytest.mark.build  # renders for real in its body
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


# The command line's own refusals and last-resort messages: option values argparse cannot judge, failures
# that are not the rules' fault, and what `new` refuses. Each is one line and an exit status, no traceback.


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(BROKEN / "_base", tmp_path / "rules_src" / "game")
    return tmp_path


def usage_error(capsys, *argv: str) -> str:
    assert main(list(argv)) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    return err.splitlines()[-1]


@pytest.mark.parametrize(
    "jobs, complaint",
    [
        ("0", "0 worker processes cannot run anything; give 1 or more"),
        ("-2", "-2 worker processes cannot run anything; give 1 or more"),
        ("two", "`two` is not a whole number"),
    ],
)
def test_jobs_must_be_a_positive_whole_number(capsys, project, jobs, complaint):
    assert (
        usage_error(capsys, "-C", str(project), "build", "--jobs", jobs)
        == f"rulepress build: error: argument --jobs: {complaint}"
    )


@pytest.mark.parametrize(
    "jobs, complaint",
    [
        ("0", "0 worker processes cannot run anything; give 1 or more"),
        ("two", "`two` is not a whole number"),
    ],
)
def test_jobs_from_the_environment_must_be_a_positive_whole_number(capsys, monkeypatch, project, jobs, complaint):
    monkeypatch.setenv("RULEPRESS_JOBS", jobs)
    assert (
        usage_error(capsys, "-C", str(project), "build")
        == f"rulepress build: error: argument --jobs: RULEPRESS_JOBS: {complaint}"
    )


@pytest.mark.parametrize(
    "environment, argv, workers",
    [(None, [], None), ("3", [], 3), ("3", ["--jobs", "2"], 2), ("two", ["--jobs", "1"], 1)],
)
def test_rulepress_jobs_sets_the_default_workers_and_jobs_overrides_it(
    monkeypatch, project, environment, argv, workers
):
    """CI or a machine shared with other work says how many workers a build starts; None: one per core."""
    import generator.pipeline.build

    asked = []
    monkeypatch.setattr(generator.pipeline.build, "run_build", lambda request: asked.append(request.jobs) or 0)
    if environment is None:
        monkeypatch.delenv("RULEPRESS_JOBS", raising=False)
    else:
        monkeypatch.setenv("RULEPRESS_JOBS", environment)
    assert main(["-C", str(project), "build", *argv]) == 0
    assert asked == [workers]


@pytest.mark.parametrize(
    "port, complaint",
    [
        ("65536", "port 65536 does not exist; give 1-65535 (0: any free port)"),
        ("-1", "port -1 does not exist; give 1-65535 (0: any free port)"),
        ("http", "`http` is not a port number"),
    ],
)
def test_port_must_exist(capsys, project, port, complaint):
    assert (
        usage_error(capsys, "-C", str(project), "serve", "--port", port)
        == f"rulepress serve: error: argument --port: {complaint}"
    )


@pytest.mark.parametrize(
    ("name", "id"),
    [
        ("My-Game", "my_game"),
        ("2fast", "my_skirmish_2fast"),
        ("_hidden", "hidden"),
        ("game!", "game"),
        ("règles_de_mêlée", "regles_de_melee"),
        ("Œil", "oeil"),
    ],
)
def test_new_refuses_a_name_that_is_no_id_and_offers_one(capsys, tmp_path, name, id):
    assert usage_error(capsys, "-C", str(tmp_path), "new", name) == (
        f"rulepress: error: `{name}` is not a usable ruleset id; an id is lower_snake_case of ASCII letters a-z, "
        f"digits and _: `{id}`"
    )
    assert not (tmp_path / "rules_src").exists()


@pytest.mark.parametrize(("name", "kind"), [("sheets", "the cheat sheets"), ("handouts", "the handouts")])
def test_new_refuses_a_name_the_site_keeps_for_its_own_folder(capsys, tmp_path, name, kind):
    """`new sheets` wrote a ruleset that `check` then refused (page-name): it is refused before anything is written."""
    assert usage_error(capsys, "-C", str(tmp_path), "new", name) == (
        f"rulepress: error: `{name}` would take the name of the site's folder of {kind}; choose another name, such as "
        f"`{name}_rules`"
    )
    assert not (tmp_path / "rules_src").exists()


def test_new_refuses_a_ruleset_or_its_house_rules_that_exist(capsys, tmp_path):
    (tmp_path / "rules_src" / "taken").mkdir(parents=True)
    (tmp_path / "rules_src" / "other_house_rules").mkdir()
    folder = (tmp_path / "rules_src").resolve()
    assert (
        usage_error(capsys, "-C", str(tmp_path), "new", "taken")
        == f"rulepress: error: {folder / 'taken'} already exists; choose another name"
    )
    assert (
        usage_error(capsys, "-C", str(tmp_path), "new", "other")
        == f"rulepress: error: {folder / 'other_house_rules'} already exists; choose another name"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["other_house_rules", "taken"]  # nothing half-written


def test_new_lists_what_it_wrote_and_what_to_do_next(capsys, tmp_path):
    assert main(["-C", str(tmp_path), "new", "skirmish"]) == 0
    lines = capsys.readouterr().out.splitlines()
    written = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "rules_src").rglob("*") if p.is_file())
    assert sorted(line.removeprefix("created ") for line in lines[:-1]) == written
    assert "rules_src/skirmish/ruleset.yaml" in written and "rules_src/skirmish_house_rules/ruleset.yaml" in written
    assert lines[-1] == f"next: rulepress -C {tmp_path} check, then rulepress -C {tmp_path} build"


def test_new_in_the_folder_it_runs_in_says_the_next_commands_without_a_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "skirmish"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "next: rulepress check, then rulepress build"
    assert (tmp_path / "rules_src" / "skirmish" / "ruleset.yaml").is_file()


def failing_check(monkeypatch, error: BaseException) -> None:
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr("generator.report.run_check", fail)


def test_rules_nested_beyond_recursion_are_a_message(capsys, project, monkeypatch):
    failing_check(monkeypatch, RecursionError("maximum recursion depth exceeded"))
    assert main(["-C", str(project), "check"]) == EXIT_ERRORS
    assert capsys.readouterr().err == "rulepress: error: the rules nest too deeply to read\n"


def test_an_interrupted_check_says_so_without_mentioning_build(capsys, project, monkeypatch):
    failing_check(monkeypatch, KeyboardInterrupt())
    assert main(["-C", str(project), "check"]) == EXIT_INTERRUPTED
    assert capsys.readouterr().err == "rulepress: interrupted\n"


def test_a_file_system_error_names_the_file_and_the_cause(capsys, project, monkeypatch):
    failing_check(monkeypatch, OSError(errno.EACCES, "Permission denied", "rules_src/game/ruleset.yaml"))
    assert main(["-C", str(project), "check"]) == EXIT_ERRORS
    assert capsys.readouterr().err == "rulepress: error: Permission denied: rules_src/game/ruleset.yaml\n"


def test_output_whose_reader_stopped_ends_quietly_with_the_status_of_sigpipe():
    """`rulepress codes | head`: the reader goes away; no message, the status a shell gives a command SIGPIPE ended."""
    read, write = os.pipe()
    os.close(read)  # nobody will read what the command writes
    try:
        done = subprocess.run(
            [sys.executable, "-m", "generator", "codes"], stdout=write, stderr=subprocess.PIPE, text=True, timeout=60
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


def test_a_broken_pipe_that_is_not_the_output_is_said(capsys, project, monkeypatch):
    failing_check(monkeypatch, BrokenPipeError(errno.EPIPE, "Broken pipe"))  # standard output here is pytest's, open
    assert main(["-C", str(project), "check"]) == EXIT_ERRORS
    assert capsys.readouterr().err == "rulepress: error: Broken pipe\n"


@pytest.mark.parametrize(
    "error, text",
    [
        (
            OSError(
                errno.EXDEV, "Invalid cross-device link", "build/.staging", None, "build"
            ),  # as os.rename raises it
            "Invalid cross-device link: build/.staging -> build",
        ),
        (OSError(errno.ENOSPC, "No space left on device"), "No space left on device"),
        (OSError("the disk went away"), "the disk went away"),
        (OSError(), "OSError"),
    ],
)
def test_os_error_text_is_the_cause_then_the_files(error, text):
    assert report.os_error_text(error) == text


def test_an_internal_error_message_is_cut_to_one_short_line(capsys, project, monkeypatch):
    failing_check(monkeypatch, ValueError("x" * 400))
    assert main(["-C", str(project), "check"]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert err == f"rulepress: internal error: ValueError: {'x' * 299}… (please report this with the command you ran)\n"


def test_a_closed_stderr_still_leaves_the_exit_status(project, monkeypatch):
    class Closed:
        def write(self, text):
            raise ValueError("I/O operation on closed file")

        def flush(self):
            raise ValueError("I/O operation on closed file")

    failing_check(monkeypatch, RecursionError())
    monkeypatch.setattr("sys.stderr", Closed())
    assert main(["-C", str(project), "check"]) == EXIT_ERRORS


def test_a_bad_source_date_epoch_is_refused_before_any_command_runs(capsys, project, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1" * 50)
    assert main(["-C", str(project), "codes"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err == (
        "rulepress: error: SOURCE_DATE_EPOCH must be whole seconds since 1970 (0 to 253402300799) or unset, "
        f"not `{'1' * 39}…`\n"
    )


def test_the_last_second_a_date_can_show_is_accepted(capsys, project, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", " 253402300799 ")
    assert main(["-C", str(project), "codes"]) == 0
    assert os.environ["SOURCE_DATE_EPOCH"] == "253402300799"  # read once, stripped, for the workers
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "253402300800")
    assert main(["-C", str(project), "codes"]) == EXIT_USAGE


def test_a_wall_setting_that_is_none_of_the_three_is_said_to_be_read_as_required(capsys, project, monkeypatch):
    """RULEPRESS_WALL=bogus ran as `required` and said nothing (the README lists auto, required and off)."""
    monkeypatch.setenv("RULEPRESS_WALL", "bogus")
    main(["-C", str(project), "codes"])
    assert capsys.readouterr().err.splitlines() == [
        "rulepress: note: RULEPRESS_WALL is `bogus`, none of auto, required, off: it is read as `required`"
    ]
    monkeypatch.setenv("RULEPRESS_WALL", "off")
    main(["-C", str(project), "codes"])
    assert capsys.readouterr().err == ""
