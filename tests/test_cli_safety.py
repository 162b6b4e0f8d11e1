"""The CLI never prints a traceback: process faults (Ctrl-C, a read-only or full disk, a busy port) and
odd input to `rulepress new` each end in one line with the cause and a non-zero exit, and a refused
build leaves build/ as it was. The attack cases (tests/attacks/cli_*) cover what needs no set-up."""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from helpers import ctrl_c_as_a_terminal_leaves_it, said_beside_progress

import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.staging  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator.cli import EXIT_ERRORS, EXIT_INTERNAL, EXIT_INTERRUPTED, main

pytestmark = pytest.mark.build  # its tests run real builds (Sphinx, WeasyPrint) in their bodies

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "tests" / "attacks" / "_template" / "project"


@pytest.fixture
def project(tmp_path) -> Path:
    """The attack template: one tiny ruleset, quick to check and build, with an earlier build/."""
    root = tmp_path / "project"
    shutil.copytree(TEMPLATE, root)
    (root / "build").mkdir()
    (root / "build" / "earlier-output.txt").write_text("a previous build's file\n", encoding="utf-8")
    return root


def digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def one_line_failure(capsys) -> str:
    """The one line a failed build says on stderr, beside the progress it says off a terminal."""
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    lines = [line for line in said_beside_progress(err).splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def test_a_read_only_build_parent_is_one_line(project, capsys, monkeypatch):
    """The staging folder cannot be made beside build/ (a read-only parent; root ignores chmod, so it is simulated)."""
    before = digest(project / "build")

    real_mkdir = Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self.name.startswith(".build-staging-"):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    assert main(["-C", str(project), "build", "--only", "site", "--audience", "player"]) == EXIT_ERRORS
    line = one_line_failure(capsys)
    assert "Permission denied" in line and "left as it was" in line
    assert digest(project / "build") == before


def test_a_read_only_build_folder_is_one_line(project, capsys, monkeypatch):
    """build/ cannot be renamed aside for the swap: the message says so and build/ stays."""
    before = digest(project / "build")
    real_rename = Path.rename

    def rename(self, target):
        if self.name == "build":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    assert main(["-C", str(project), "build", "--only", "site", "--audience", "player"]) == EXIT_ERRORS
    line = one_line_failure(capsys)
    assert "Permission denied" in line and "build" in line
    assert digest(project / "build") == before
    assert not list(project.glob(".build-*")), "the staging folder was left behind"


def test_a_really_read_only_project_is_one_line(project):
    """The project on a read-only mount (which root cannot write either), in a mount namespace of its own."""
    before = digest(project)
    script = (
        'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && '
        'exec "$1" -m generator -C "$0" build --only site --audience player'
    )
    run = subprocess.run(
        ["unshare", "--map-root-user", "--mount", "sh", "-c", script, str(project), sys.executable],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == EXIT_ERRORS, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "is read-only" in lines[0] and "left as it was" in lines[0], run.stderr
    assert digest(project) == before


def test_a_full_disk_is_one_line_and_leaves_build_as_it_was(project, capsys, monkeypatch):
    before = digest(project / "build")

    def full(self):
        raise OSError(errno.ENOSPC, "No space left on device", str(self.staging / "reference" / "format.md"))

    monkeypatch.setattr("generator.pipeline.plan.Builder.run", full)
    assert main(["-C", str(project), "build", "--only", "site", "--audience", "player"]) == EXIT_ERRORS
    line = one_line_failure(capsys)
    assert "No space left on device" in line and "left as it was" in line
    assert digest(project / "build") == before
    assert not list(project.glob(".build-*"))


def test_a_failed_swap_puts_the_previous_build_back(project, capsys, monkeypatch):
    before = digest(project / "build")
    real_rename = Path.rename

    def rename(self, target):
        if self.name.startswith(".build-"):  # the staging folder cannot take build/'s place
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    assert main(["-C", str(project), "build", "--only", "site", "--audience", "player"]) == EXIT_ERRORS
    one_line_failure(capsys)
    assert digest(project / "build") == before


def test_serve_on_a_busy_port_is_one_line(project, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        started = time.monotonic()
        assert main(["-C", str(project), "serve", "--port", str(port)]) == EXIT_ERRORS
    line = one_line_failure(capsys)
    assert f"127.0.0.1:{port}" in line and "in use" in line
    assert time.monotonic() - started < 10, "the port is tried before building"


def test_an_unexpected_error_is_one_line_exit_70(project, capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("something nobody expected\non two lines")

    monkeypatch.setattr("generator.report.run_check", broken)
    assert main(["-C", str(project), "check"]) == EXIT_INTERNAL
    line = one_line_failure(capsys)
    assert line.startswith("rulepress: internal error: RuntimeError: something nobody expected on two lines")


def test_an_empty_source_date_epoch_means_unset(project, capsys, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "")
    assert main(["-C", str(project), "check"]) == 0
    assert "SOURCE_DATE_EPOCH" not in os.environ  # so neither Sphinx nor the PDF workers read it


@pytest.mark.parametrize("epoch", ["yesterday", "-5", "1e9", "99999999999999999999999"])
def test_a_source_date_epoch_that_is_not_seconds_is_a_usage_error(project, capsys, monkeypatch, epoch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    assert main(["-C", str(project), "check"]) == 2
    assert "SOURCE_DATE_EPOCH" in one_line_failure(capsys)


@pytest.mark.parametrize(
    "title",
    [
        'Say "hi"',
        "Two\nlines: injected",
        "back\\slash: # not a comment",
        "it's 'quoted'",
        "\x1b[2J escape",
        "tab\there",
    ],
)
def test_new_writes_valid_yaml_whatever_the_title(tmp_path, capsys, title):
    assert main(["-C", str(tmp_path), "new", "my_game", "--title", title]) == 0
    for folder, shown in (("my_game", title), ("my_game_house_rules", f"{title} (house rules)")):
        data = yaml.safe_load((tmp_path / "rules_src" / folder / "ruleset.yaml").read_text(encoding="utf-8"))
        assert data["ruleset"]["title"] == shown
    assert main(["-C", str(tmp_path), "check", "--no-examples"]) == 0


def _group_alive(pgid: int) -> list[str]:
    """Processes of the group that are still running (zombies excluded)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(stat.parent.name)
    return alive


@pytest.mark.parametrize("delay", [0.5, 3.0])
def test_ctrl_c_stops_the_build_and_its_workers(project, delay):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it): exit 130, one line, no traceback
    from the command or any worker, build/ as it was, no staging folder, no worker left running."""
    before = digest(project / "build")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    run = subprocess.Popen(
        [sys.executable, "-m", "generator", "-C", str(project), "build", "--only", "site"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=ctrl_c_as_a_terminal_leaves_it,
    )
    time.sleep(delay)
    if run.poll() is None:
        os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert "Traceback" not in out + err and "Fatal Python error" not in err, err
    if run.returncode == 0:  # the build finished before the signal: nothing to stop
        return
    assert run.returncode == EXIT_INTERRUPTED, err
    assert "interrupted" in err and "left as it was" in err
    assert digest(project / "build") == before
    assert not list(project.glob(".build-*"))
    deadline = time.monotonic() + 10
    while _group_alive(run.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _group_alive(run.pid), "a worker outlived the interrupted build"
