"""Process faults and data safety of `rulepress build` and `export`: kill -9, Ctrl-C, two builds at once,
`--jobs 1`, `--out` refusals, a read-only build/, and two clean builds compared byte for byte.

Each runs rulepress in a subprocess, as a user or CI would, on a copy of tests/fixtures/homebrew; the clean
build with one worker is made once a run for both tests that read it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import on_a4_alone
from site_helpers import ROOT

pytestmark = pytest.mark.build  # its tests run real builds (Sphinx, WeasyPrint) in their bodies

HOMEBREW = ROOT / "tests" / "fixtures" / "homebrew"


@pytest.fixture
def project(tmp_path) -> Path:
    folder = tmp_path / "project"
    shutil.copytree(HOMEBREW, folder)
    return on_a4_alone(folder)


@pytest.fixture(scope="module")
def one_worker_build(once_a_run) -> tuple[Path, subprocess.CompletedProcess]:
    """The fixture built clean with one worker and hash seed 2 (conftest's `homebrew_build`: two workers, seed 1):
    the project and what the command said. Made once a run, for both xdist workers; only read."""

    def build(folder: Path) -> None:
        shutil.rmtree(folder / "project", ignore_errors=True)  # what a failed first try left
        shutil.copytree(HOMEBREW, folder / "project")
        run = rulepress(folder / "project", "build", "--jobs", "1", PYTHONHASHSEED="2", SOURCE_DATE_EPOCH="")
        (folder / "said.json").write_text(json.dumps([run.returncode, run.stdout, run.stderr]), encoding="utf-8")

    folder = once_a_run("one-worker-homebrew", build)
    status, out, err = json.loads((folder / "said.json").read_text(encoding="utf-8"))
    return folder / "project", subprocess.CompletedProcess(["rulepress", "build"], status, out, err)


def env(**extra) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", **extra}


def rulepress(project: Path, *args, cwd: Path | None = None, **extra) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "generator", "-C", str(project), *args],
        capture_output=True,
        text=True,
        cwd=cwd or project.parent,
        env=env(**extra),
        timeout=600,
    )


def start(project: Path, *args) -> subprocess.Popen:
    """The command as a terminal starts it: its own process group, and Ctrl-C not ignored (a test run started in
    the background of a shell ignores SIGINT, and a child would inherit that)."""
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "-C", str(project), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=project.parent,
        env=env(),
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def digest(folder: Path) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (children, their children...), from /proc."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until_rendering(build: subprocess.Popen, project: Path, workers: int = 2, timeout: float = 120) -> set[int]:
    """Wait until the build has a staging folder and its worker processes; return the processes below it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        below = descendants(build.pid)
        if list(project.glob(".build-staging-*")) and len(below) >= workers + 1:  # the forkserver and its workers
            time.sleep(1.0)  # into the rendering
            return descendants(build.pid) | below
        assert build.poll() is None, build.communicate()
        time.sleep(0.05)
    pytest.fail("the build never started rendering")


def stop_all(build: subprocess.Popen) -> None:
    try:
        os.killpg(build.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_kill_9_leaves_no_worker_and_the_next_build_cleans_up(project):
    build = start(project, "build", "--jobs", "2")
    try:
        below = wait_until_rendering(build, project)
        os.kill(build.pid, signal.SIGKILL)
        build.wait(10)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in below) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in below if alive(pid)], "rulepress workers outlived a killed build"
    finally:
        stop_all(build)
    assert list(project.glob(".build-*")), "the test meant to kill the build while it was staging"
    again = rulepress(project, "build", "--only", "site", "--audience", "player")  # any build cleans up
    assert again.returncode == 0, again.stderr
    assert not list(project.glob(".build-*")) and not list(project.glob(".build.old-*"))
    assert (project / "build" / "site" / "index.html").is_file()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_ctrl_c_stops_cleanly_and_leaves_build_as_it_was(tmp_path):
    project = tmp_path / "samples"  # the sample rulesets: their sites and booklets take long enough to interrupt
    shutil.copytree(ROOT / "rules_src", project / "rules_src")
    first = rulepress(project, "build", "--only", "sheets", "--ruleset", "bad_moon_rising")  # an earlier build
    assert first.returncode == 0, first.stderr
    before = digest(project / "build")
    build = start(project, "build", "--jobs", "2")  # every other output is still to render
    try:
        below = wait_until_rendering(build, project)
        os.killpg(build.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the build and all its workers
        out, err = build.communicate(timeout=60)
    finally:
        stop_all(build)
    assert build.returncode != 0
    assert "Traceback" not in out + err, err
    assert "interrupted" in err and len(err.strip().splitlines()) == 1, err
    assert digest(project / "build") == before
    assert not list(project.glob(".build-*"))
    time.sleep(1)
    assert not [pid for pid in below if alive(pid)], "rulepress workers outlived Ctrl-C"


def test_a_second_build_into_the_same_folder_is_refused(project):
    build = start(project, "build", "--only", "site")
    try:
        wait_until_rendering(build, project)
        second = rulepress(project, "build", "--only", "sheets")
        out, err = build.communicate(timeout=300)
    finally:
        stop_all(build)
    assert build.returncode == 0, err
    assert second.returncode == 1
    assert "another rulepress build is writing" in second.stderr and "Traceback" not in second.stderr
    assert (project / "build" / "site" / "index.html").is_file()


def test_one_worker_builds_both_sites(one_worker_build):
    """With --jobs 1 one worker builds the player and the game-master sites: each in a fresh process."""
    project, run = one_worker_build
    assert run.returncode == 0, run.stderr
    assert "already registered" not in run.stdout + run.stderr
    assert (project / "build" / "site" / "index.html").is_file() and (
        project / "build" / "site-gm" / "index.html"
    ).is_file()


@pytest.mark.parametrize("where", ["project", "parent", "stranger", "rules_src", "a file"])
def test_out_that_would_lose_data_is_refused(project, where):
    stranger = project.parent / "photos"
    stranger.mkdir()
    (stranger / "holiday.jpg").write_bytes(b"not rulepress's")
    (project.parent / "notes.txt").write_text("mine\n")
    out = {
        "project": project,
        "parent": project.parent,
        "stranger": stranger,
        "rules_src": project / "rules_src" / "new",
        "a file": project.parent / "notes.txt",
    }[where]
    before = digest(project.parent)
    run = rulepress(project, "build", "--only", "sheets", "--out", str(out))
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.startswith("rulepress: error: --out") and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert digest(project.parent) == before
    assert not (project / "build").exists() and not (project / "rules_src" / "new").exists()


def test_out_may_be_new_empty_or_an_earlier_build(project, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for out in (tmp_path / "new" / "folder", empty, empty):  # the last: a folder an earlier build wrote
        run = rulepress(project, "build", "--only", "sheets", "--ruleset", "melee", "--out", str(out))
        assert run.returncode == 0, run.stderr
        assert list((out / "sheets").glob("*.pdf"))


def test_a_read_only_build_folder_is_left_as_it_was(project):
    assert rulepress(project, "build", "--only", "sheets").returncode == 0
    build = project / "build"
    before = digest(build)
    modes = {p: p.stat().st_mode for p in [build, *build.rglob("*")]}
    for path in modes:
        path.chmod(modes[path] & ~0o222)
    try:
        run = rulepress(project, "build")
    finally:
        for path, mode in modes.items():
            path.chmod(mode)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "read-only" in run.stderr
    assert digest(build) == before


def test_export_is_written_anew_by_a_build_and_written_atomically(project, tmp_path):
    assert rulepress(project, "export").returncode == 0
    assert rulepress(project, "export", "--audience", "gm").returncode == 0
    exported = digest(project / "build" / "export")
    assert {"melee-gm.json", "ruleset.schema.json"} <= set(exported) and "melee.json" not in exported  # whole
    run = rulepress(project, "build", "--only", "sheets", "--ruleset", "melee")
    assert run.returncode == 0, run.stderr
    assert digest(project / "build" / "export") == exported  # the same rules: the same export, written anew
    assert list((project / "build" / "sheets").glob("*.pdf"))
    again = rulepress(project, "export", "--audience", "gm")  # and an export keeps the build
    assert again.returncode == 0, again.stderr
    assert list((project / "build" / "sheets").glob("*.pdf")) and digest(project / "build" / "export") == exported
    stranger = tmp_path / "mine"
    stranger.mkdir()
    (stranger / "keep.txt").write_text("mine\n")
    refused = rulepress(project, "export", "--out", str(stranger))
    assert refused.returncode == 2 and digest(stranger) == {"keep.txt": hashlib.sha256(b"mine\n").hexdigest()}


def test_a_build_cleans_only_its_own_leftovers(project):
    """A killed build's staging folder goes; another output folder's, and anything else, stays. A build
    killed between the two renames of its swap gets its previous build back."""
    leftovers = [project / ".build-staging-abcd_123", project / ".site2-staging-abcd_123", project / ".build-mine"]
    for folder in leftovers:
        folder.mkdir()
        (folder / "file.txt").write_text("x\n")
    previous = project / ".build.old-4242"
    (previous / "site").mkdir(parents=True)  # an output this build leaves as it is (it makes the sheets alone)
    (previous / "site" / "kept.txt").write_text("the previous build\n")
    run = rulepress(project, "build", "--only", "sheets")
    assert run.returncode == 0, run.stderr
    assert not leftovers[0].exists() and leftovers[1].exists() and leftovers[2].exists()
    assert not previous.exists()
    assert (project / "build" / "site" / "kept.txt").is_file()  # the previous build, come back, then carried


def test_two_clean_builds_are_byte_identical(one_worker_build, homebrew_build):
    """Site (tooltip scripts included), sheets and booklets; different hash seeds, one and two workers."""
    folder, run = one_worker_build
    assert run.returncode == 0, run.stderr
    builds = [digest(homebrew_build / "build"), digest(folder / "build")]  # hash seed 1, two workers: conftest.py
    assert any(name.startswith("site/_static/tippy/") for name in builds[0])
    assert builds[0].keys() == builds[1].keys()
    assert [name for name in builds[0] if builds[0][name] != builds[1][name]] == []


def test_pdfs_are_byte_identical_without_harfbuzz_subset(tmp_path, monkeypatch):
    """Without HarfBuzz-Subset WeasyPrint subsets fonts with fontTools, which stamped each subset with the
    time of the render (so test_handouts' byte-identical test failed on a machine without it)."""
    import weasyprint.pdf.fonts

    from generator.render.pdf import PdfJob, render_pdf

    monkeypatch.setattr(weasyprint.pdf.fonts, "harfbuzz_subset", None)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    html = "<html><head></head><body><h1>Charge!</h1><p>Roll 2D6 and add the charge bonus.</p></body></html>"
    rendered = []
    for name in ("one.pdf", "two.pdf"):
        job = PdfJob(html=html, target=tmp_path / name, base_dir=tmp_path)
        rendered.append(render_pdf(job, tmp_path).read_bytes())
        time.sleep(1.1)  # fontTools' stamp is in seconds
    assert rendered[0] == rendered[1]
