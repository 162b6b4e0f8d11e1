"""Goldens are reviewed, not regenerated; on CI nothing skips.

Each check runs pytest in a child process on a copy, so no golden of the repository is
ever rewritten by the suite itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import ROOT

pytest_plugins = ["pytester"]

CASE = "alias_bomb"
# What each child pytest leaves out besides its cache: plugins these runs never use (hypothesis's alone is a fifth
# of a second to import, in each of the seven).
LEAN = ("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:hypothesispytest")


def run_corpus(corpus: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("CI", "RULEPRESS_UPDATE_GOLDEN")}
    environment.update(RULEPRESS_BROKEN_CORPUS=str(corpus), PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            *LEAN,
            "--no-header",
            str(ROOT / "tests" / "validate" / "test_broken_corpus.py"),
            "-k",
            f"test_broken_case and {CASE}",
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def corpus_copy(tmp_path: Path) -> Path:
    corpus = tmp_path / "broken"
    shutil.copytree(ROOT / "tests" / "broken", corpus)
    return corpus


def test_update_mode_writes_a_changed_golden_and_fails(tmp_path):
    corpus = corpus_copy(tmp_path)
    golden = corpus / f"{CASE}.expected"
    right = golden.read_text(encoding="utf-8")
    golden.write_text("a golden nobody reviewed\n", encoding="utf-8")

    updated = run_corpus(corpus, RULEPRESS_UPDATE_GOLDEN="1")
    assert updated.returncode == 1, updated.stdout
    assert f"wrote {CASE}.expected" in updated.stdout
    assert golden.read_text(encoding="utf-8") == right  # the command's real output, for review

    again = run_corpus(corpus)
    assert again.returncode == 0, again.stdout


def test_update_mode_leaves_an_agreeing_golden_alone_and_passes(tmp_path):
    corpus = corpus_copy(tmp_path)
    golden = corpus / f"{CASE}.expected"
    before = golden.stat().st_mtime_ns
    run = run_corpus(corpus, RULEPRESS_UPDATE_GOLDEN="1")
    assert run.returncode == 0, run.stdout
    assert golden.stat().st_mtime_ns == before


def test_ci_refuses_update_mode(tmp_path):
    corpus = corpus_copy(tmp_path)
    golden = corpus / f"{CASE}.expected"
    golden.write_text("a golden nobody reviewed\n", encoding="utf-8")
    run = run_corpus(corpus, RULEPRESS_UPDATE_GOLDEN="1", CI="1")
    assert run.returncode != 0
    assert "CI refuses RULEPRESS_UPDATE_GOLDEN" in run.stdout + run.stderr
    assert golden.read_text(encoding="utf-8") == "a golden nobody reviewed\n"


SKIPPING = """
import pytest

def test_needs_a_tool():
    pytest.skip("the tool is missing")

@pytest.mark.skipif(True, reason="not on this machine")
def test_marked():
    pass

@pytest.mark.xfail(reason="known", strict=True)
def test_expected_failure():
    assert False
"""


def test_a_skip_is_a_failure_on_ci(pytester, monkeypatch):
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(SKIPPING)
    monkeypatch.setenv("CI", "true")
    pytester.runpytest_subprocess(*LEAN).assert_outcomes(
        failed=1, errors=1, xfailed=1
    )  # a skipif mark skips in setup: an error


def test_a_skip_stays_a_skip_off_ci(pytester, monkeypatch):
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(SKIPPING)
    monkeypatch.delenv("CI", raising=False)
    pytester.runpytest_subprocess(*LEAN).assert_outcomes(skipped=2, xfailed=1)


STATE_SEEN = """
import os
from pathlib import Path


def test_the_run_has_a_state_folder_of_its_own():
    folder = Path(os.environ["RULEPRESS_TEST_STATE"])
    assert folder.is_dir() and folder.parent == Path(os.environ["TMPDIR"])
    assert os.environ["XDG_STATE_HOME"] == str(folder)
"""


def test_a_run_removes_the_state_folder_it_made(pytester, monkeypatch):
    """The project's conftest makes the run's scratch state folder (where the cache key lives); the run removes it."""
    scratch = pytester.mkdir("scratch")
    pytester.makeconftest((ROOT / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(STATE_SEEN)
    monkeypatch.delenv("RULEPRESS_TEST_STATE", raising=False)
    monkeypatch.setenv("TMPDIR", str(scratch))
    pytester.runpytest_subprocess(*LEAN).assert_outcomes(passed=1)
    assert list(scratch.iterdir()) == []
