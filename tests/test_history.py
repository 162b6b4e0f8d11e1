"""The date of a ruleset's rules in a git work tree: the day of the last commit touching its folders (its bases'
too) while they are committed as they are, whatever the files' modification times; the files' times once they
are edited, added or deleted since; SOURCE_DATE_EPOCH before either. Git is run on the project as on a
stranger's repository: a setting of the repository that would run a command runs nothing."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import make_project

from generator import history, wall
from generator.render.imprint import rules_label
from generator.source.project import load_project

MILL = "ruleset:\n  title: Siege of the Old Mill\n"


def at(path: Path, day: str) -> None:
    moment = datetime.strptime(day + " 12:00", "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp()
    os.utime(path, (moment, moment))


def every_file_at(root: Path, day: str) -> None:
    for path in (root / "rules_src").rglob("*"):
        at(path, day)


def git(root: Path, *arguments: str, when: str = "2024-03-05T10:00:00Z") -> None:
    environment = {
        "PATH": os.environ["PATH"],
        "HOME": str(root),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "A",
        "GIT_AUTHOR_EMAIL": "a@example.org",
        "GIT_COMMITTER_NAME": "A",
        "GIT_COMMITTER_EMAIL": "a@example.org",
        "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z",  # the author's day is not the day the commit was made
        "GIT_COMMITTER_DATE": when,
    }
    subprocess.run(["git", *arguments], cwd=root, env=environment, check=True, capture_output=True)


def commit(root: Path, when: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", "rules", when=when)


def label(root: Path, id: str = "mill") -> str:
    project, diagnostics = load_project(root)
    assert not diagnostics.errors, [d.format() for d in diagnostics]
    return rules_label(project.ruleset(id), root)


@pytest.fixture(params=["off", "auto"])
def repository(request, tmp_path, monkeypatch):
    """A project in a git work tree, its ruleset committed on 2024-03-05 (10:00 UTC), and every file's time a day
    of 2025 (a clone made then); git run straight, and behind the wall where this machine has one."""
    if request.param == "auto" and not wall.status().usable:
        pytest.skip("no wall on this machine")
    monkeypatch.setenv("RULEPRESS_WALL", request.param)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    root = tmp_path / "club"
    make_project(root, {"mill/rules.yaml": "chapters:\n  combat: {title: Combat}\n"}, mill=MILL)
    git(root, "init", "-q")
    commit(root, "2024-03-05T10:00:00Z")
    every_file_at(root, "2025-01-01")
    return root


def test_a_committed_ruleset_is_dated_by_its_last_commit_not_by_its_files_times(repository):
    assert label(repository) == "Siege of the Old Mill · rules as of 2024-03-05"


def test_the_commit_day_is_read_in_utc(repository):
    (repository / "rules_src" / "mill" / "rules.yaml").write_text("chapters:\n  melee: {title: Melee}\n")
    commit(repository, "2024-04-01T23:30:00-05:00")  # 04:30 UTC on 2 April
    assert label(repository) == "Siege of the Old Mill · rules as of 2024-04-02"


def test_commits_elsewhere_in_the_project_leave_the_date_alone(repository):
    make_project(repository, other="ruleset:\n  title: Another game\n")
    (repository / "README.md").write_text("notes\n")
    commit(repository, "2024-09-09T10:00:00Z")
    assert label(repository) == "Siege of the Old Mill · rules as of 2024-03-05"


def test_an_overlay_is_as_new_as_its_bases_last_commit(repository):
    make_project(repository, mill_house="ruleset:\n  title: House rules\n  extends: mill\n  overlay: true\n")
    commit(repository, "2024-05-01T10:00:00Z")
    (repository / "rules_src" / "mill" / "rules.yaml").write_text("chapters:\n  melee: {title: Melee}\n")
    commit(repository, "2024-06-01T10:00:00Z")
    assert label(repository, "mill_house") == "House rules · rules as of 2024-06-01"


@pytest.mark.parametrize("change", ["edited", "added", "deleted", "staged"])
def test_files_changed_since_the_last_commit_are_dated_by_their_times(repository, change):
    folder = repository / "rules_src" / "mill"
    if change == "deleted":
        (folder / "rules.yaml").unlink()
    elif change == "added":
        (folder / "values.yaml").write_text('values:\n  move: {value: 6", label: Move}\n')
    else:
        (folder / "rules.yaml").write_text("chapters:\n  melee: {title: Melee}\n")
        if change == "staged":
            git(repository, "add", "-A")
    every_file_at(repository, "2025-02-03")
    assert label(repository) == "Siege of the Old Mill · rules as of 2025-02-03"


def test_files_no_ruleset_reads_left_beside_it_change_nothing(repository):
    cache = repository / "rules_src" / "mill" / "__pycache__"
    cache.mkdir()
    (cache / "mechanics.cpython-311.pyc").write_bytes(b"\0")
    assert label(repository) == "Siege of the Old Mill · rules as of 2024-03-05"


def test_source_date_epoch_wins_over_the_commit(repository, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14
    assert label(repository) == "Siege of the Old Mill · rules as of 2023-11-14"


def test_a_project_inside_a_larger_work_tree_reads_that_tree(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEPRESS_WALL", "off")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    project = make_project(tmp_path / "club" / "rules", mill=MILL)
    git(tmp_path / "club", "init", "-q")
    commit(tmp_path / "club", "2024-07-07T10:00:00Z")
    every_file_at(project, "2025-01-01")
    assert label(project) == "Siege of the Old Mill · rules as of 2024-07-07"


def test_outside_a_work_tree_the_files_times_date_it(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    make_project(tmp_path, mill=MILL)
    every_file_at(tmp_path, "2025-01-01")
    assert label(tmp_path) == "Siege of the Old Mill · rules as of 2025-01-01"


HOSTILE_CONFIG = """[core]
    fsmonitor = "touch {mark}/fsmonitor; echo"
    pager = "touch {mark}/pager; cat"
    hooksPath = {mark}/hooks
[log]
    showSignature = true
[gpg]
    program = {mark}/gpg
[filter "x"]
    clean = "touch {mark}/clean; cat"
    smudge = "touch {mark}/smudge; cat"
    process = "touch {mark}/process"
"""


def test_the_repositorys_own_settings_run_no_command(repository, tmp_path):
    mark = tmp_path / "marks"
    mark.mkdir()
    (mark / "gpg").write_text(f"#!/bin/sh\ntouch {mark}/gpg-ran\n")
    (mark / "gpg").chmod(0o755)
    (repository / ".gitattributes").write_text("* filter=x\n")
    commit(repository, "2024-03-05T11:00:00Z")
    with (repository / ".git" / "config").open("a") as config:
        config.write(HOSTILE_CONFIG.format(mark=mark))
    every_file_at(repository, "2025-01-01")
    assert label(repository) == "Siege of the Old Mill · rules as of 2024-03-05"
    assert sorted(p.name for p in mark.iterdir()) == ["gpg"]


def test_a_git_that_does_not_answer_in_time_leaves_the_files_times(repository, monkeypatch):
    monkeypatch.setenv("RULEPRESS_WALL", "off")  # behind the wall only /usr is there: a git elsewhere is not found
    slow = repository.parent / "bin"
    slow.mkdir()
    (slow / "git").write_text("#!/bin/sh\nsleep 30\n")
    (slow / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{slow}:{os.environ['PATH']}")
    monkeypatch.setattr(history, "GIT_SECONDS", 0.5)
    assert label(repository) == "Siege of the Old Mill · rules as of 2025-01-01"


def test_a_build_reads_each_rulesets_history_once(repository, monkeypatch):
    asked = []
    real = history.committed
    monkeypatch.setattr(history, "committed", lambda root, files: asked.append(files) or real(root, files))
    with history.read_once():
        for _ in range(3):
            assert label(repository) == "Siege of the Old Mill · rules as of 2024-03-05"
    assert len(asked) == 1


def test_untrusted_rules_cannot_point_git_at_a_repository_outside_the_project(tmp_path, monkeypatch):
    """A project's own `.git` file naming a git folder elsewhere on the machine: under --untrusted the wall is not
    opened to it, and the files' times date the rules; a trusted run follows it, as git does for a linked work tree."""
    if not wall.status().usable:
        pytest.skip("no wall on this machine")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    elsewhere = tmp_path / "elsewhere"
    make_project(elsewhere, mill=MILL)
    git(elsewhere, "init", "-q")
    commit(elsewhere, "2024-03-05T10:00:00Z")
    project = make_project(tmp_path / "contribution", mill=MILL)
    (project / ".git").write_text(f"gitdir: {elsewhere / '.git'}\n")
    every_file_at(project, "2025-01-01")
    monkeypatch.setenv("RULEPRESS_WALL", "auto")
    assert label(project) == "Siege of the Old Mill · rules as of 2024-03-05"
    monkeypatch.setenv("RULEPRESS_WALL", "required")
    assert label(project) == "Siege of the Old Mill · rules as of 2025-01-01"


def test_a_listing_git_did_not_write_as_expected_vouches_for_nothing(tmp_path):
    (tmp_path / "a.yaml").write_text("a: 1\n")
    blob = history._blob_id(tmp_path / "a.yaml", 40)
    assert history._as_committed(tmp_path, f"100644 blob {blob}\ta.yaml\0".encode(), ["a.yaml"])
    assert not history._as_committed(tmp_path, f"100644 blob {blob} extra\ta.yaml\0".encode(), ["a.yaml"])
    assert not history._as_committed(tmp_path, f"120000 blob {blob}\ta.yaml\0".encode(), ["a.yaml"])  # a link
    assert not history._as_committed(tmp_path, b"", ["a.yaml"])
