"""The command line's own refusals and last-resort messages: option values argparse cannot judge, failures
that are not the rules' fault, and what `new` refuses. Each is one line and an exit status, no traceback."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from generator import report
from generator.cli import EXIT_ERRORS, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, main

BROKEN = Path(__file__).parent / "broken"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(BROKEN / "_base", tmp_path / "rules_src" / "game")
    return tmp_path


def usage_error(capsys, *argv: str) -> str:
    assert main(list(argv)) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    return err.splitlines()[-1]


@pytest.mark.parametrize("jobs, complaint", [
    ("0", "0 worker processes cannot run anything; give 1 or more"),
    ("-2", "-2 worker processes cannot run anything; give 1 or more"),
    ("two", "`two` is not a whole number"),
])
def test_jobs_must_be_a_positive_whole_number(capsys, project, jobs, complaint):
    assert usage_error(capsys, "-C", str(project), "build", "--jobs", jobs) == \
        f"rulepress build: error: argument --jobs: {complaint}"


@pytest.mark.parametrize("port, complaint", [
    ("65536", "port 65536 does not exist; give 1-65535 (0: any free port)"),
    ("-1", "port -1 does not exist; give 1-65535 (0: any free port)"),
    ("http", "`http` is not a port number"),
])
def test_port_must_exist(capsys, project, port, complaint):
    assert usage_error(capsys, "-C", str(project), "serve", "--port", port) == \
        f"rulepress serve: error: argument --port: {complaint}"


@pytest.mark.parametrize("name", ["My-Game", "2fast", "_hidden", "game!"])
def test_new_refuses_a_name_that_is_no_id(capsys, tmp_path, name):
    assert usage_error(capsys, "-C", str(tmp_path), "new", name) == \
        f"rulepress: error: `{name}` is not a usable ruleset id; use lower_snake_case such as `my_skirmish`"
    assert not (tmp_path / "rules_src").exists()


def test_new_refuses_a_ruleset_or_its_house_rules_that_exist(capsys, tmp_path):
    (tmp_path / "rules_src" / "taken").mkdir(parents=True)
    (tmp_path / "rules_src" / "other_house_rules").mkdir()
    folder = (tmp_path / "rules_src").resolve()
    assert usage_error(capsys, "-C", str(tmp_path), "new", "taken") == \
        f"rulepress: error: {folder / 'taken'} already exists; choose another name"
    assert usage_error(capsys, "-C", str(tmp_path), "new", "other") == \
        f"rulepress: error: {folder / 'other_house_rules'} already exists; choose another name"
    assert sorted(p.name for p in folder.iterdir()) == ["other_house_rules", "taken"]  # nothing half-written


def test_new_lists_what_it_wrote_and_what_to_do_next(capsys, tmp_path):
    assert main(["-C", str(tmp_path), "new", "skirmish"]) == 0
    lines = capsys.readouterr().out.splitlines()
    written = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "rules_src").rglob("*") if p.is_file())
    assert sorted(line.removeprefix("created ") for line in lines[:-1]) == written
    assert "rules_src/skirmish/ruleset.yaml" in written and "rules_src/skirmish_house_rules/ruleset.yaml" in written
    assert lines[-1] == "next: rulepress check, then rulepress build"


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


@pytest.mark.parametrize("error, text", [
    (OSError(errno.EXDEV, "Invalid cross-device link", "build/.staging", None, "build"),  # as os.rename raises it
     "Invalid cross-device link: build/.staging -> build"),
    (OSError(errno.ENOSPC, "No space left on device"), "No space left on device"),
    (OSError("the disk went away"), "the disk went away"),
    (OSError(), "OSError"),
])
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
    assert err == ("rulepress: error: SOURCE_DATE_EPOCH must be whole seconds since 1970 (0 to 253402300799) or unset, "
                   f"not `{'1' * 39}…`\n")


def test_the_last_second_a_date_can_show_is_accepted(capsys, project, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", " 253402300799 ")
    assert main(["-C", str(project), "codes"]) == 0
    assert os.environ["SOURCE_DATE_EPOCH"] == "253402300799"  # read once, stripped, for the workers
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "253402300800")
    assert main(["-C", str(project), "codes"]) == EXIT_USAGE
