"""The date a printout gives its rules is part of what decides that a PDF is unchanged: a build that keeps the last
build's PDFs keeps only those a clean build would make the same, when the date moves without a byte of the rules
changing (their files' times, a commit of the files as they are). Renderers stood in for (stand_ins.py); each
sheet's page prints its ruleset's date, as the real sheets' imprint does."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from stand_ins import SHEETS, build

from generator import keys, pipeline
from generator.render.imprint import rules_date
from generator.render.pdf import PdfJob


def at_noon(path: Path, day: str) -> None:
    moment = datetime.strptime(day + " 12:00", "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp()
    os.utime(path, (moment, moment))


def every_file_at(root: Path, day: str) -> None:
    for path in (root / "rules_src").rglob("*"):
        at_noon(path, day)


def git(root: Path, *arguments: str, when: str) -> None:
    names = {f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER") for what, value in (("NAME", "A"),)}
    emails = {f"GIT_{who}_EMAIL": "a@example.org" for who in ("AUTHOR", "COMMITTER")}
    environment = {
        "PATH": os.environ["PATH"],
        "HOME": str(root),
        "GIT_CONFIG_NOSYSTEM": "1",
        **names,
        **emails,
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
    }
    subprocess.run(["git", *arguments], cwd=root, env=environment, check=True, capture_output=True)


def commit(root: Path, when: str) -> None:
    git(root, "add", "-A", when=when)
    git(root, "commit", "-q", "-m", "rules", when=when)


def page(name: str, day: str) -> str:
    return f"<p>{name}, rules as of {day}</p>"


@pytest.fixture
def dated(project, renderers, monkeypatch):
    """Sheets whose page prints their ruleset's date (``rules_date``), as the imprint does."""
    monkeypatch.setenv("RULEPRESS_WALL", "off")

    def sheet_jobs(project, folder, rulesets=None):
        return [
            PdfJob(page(f"{r.id}-{name}.pdf", rules_date(r, project.root)), folder / f"{r.id}-{name}.pdf", project.root)
            for r in project.rulesets
            for name in SHEETS
            if rulesets is None or r.id in rulesets
        ]

    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", sheet_jobs)
    return renderers


def sheet_keys(out: Path) -> dict[str, str]:
    entries = json.loads((out / ".manifest.json").read_text())
    return {name: key for name, key in entries.items() if name.startswith("sheets/") and name.endswith(".pdf")}


def expected(project: Path, day: str) -> dict[str, str]:
    """The key of each sheet printed with ``day``: the hash of its page (``keys.job_key``)."""
    code = pipeline.plan.code_hash()
    return {
        f"sheets/{id}-{name}.pdf": keys.job_key(
            PdfJob(page(f"{id}-{name}.pdf", day), Path("x"), project), code, project
        )
        for id in ("melee", "melee_house")
        for name in SHEETS
    }


def test_a_ruleset_committed_as_it_is_keeps_its_commits_day_in_an_incremental_and_a_clean_build(
    project, dated, tmp_path
):
    git(project, "init", "-q", when="2024-03-05T10:00:00Z")
    commit(project, "2024-03-05T10:00:00Z")
    every_file_at(project, "2025-01-01")  # cloned on another day
    assert build(project, dated, only=["sheets"]) == 0
    assert sheet_keys(project / "build") == expected(project, "2024-03-05")
    every_file_at(project, "2025-02-02")  # cloned again
    assert build(project, dated, only=["sheets"]) == 0
    assert dated.pdfs == []  # nothing to make again
    assert build(project, dated, only=["sheets"], out=tmp_path / "clean") == 0
    assert sheet_keys(tmp_path / "clean") == sheet_keys(project / "build") == expected(project, "2024-03-05")


def test_committing_the_rules_as_they_are_dates_them_anew_in_an_incremental_build_as_in_a_clean_one(
    project, dated, tmp_path
):
    git(project, "init", "-q", when="2024-03-05T10:00:00Z")
    commit(project, "2024-03-05T10:00:00Z")
    (project / "rules_src" / "melee" / "ruleset.yaml").write_text("melee: 2\n")
    every_file_at(project, "2025-01-01")  # edited that day, not committed yet
    assert build(project, dated, only=["sheets"]) == 0
    assert (
        sheet_keys(project / "build")["sheets/melee-wound-sheet-a4.pdf"]
        == (expected(project, "2025-01-01")["sheets/melee-wound-sheet-a4.pdf"])
    )
    commit(project, "2025-03-03T10:00:00Z")  # not a byte of the rules changes
    assert build(project, dated, only=["sheets"]) == 0
    assert sorted(dated.pdfs) == sorted(f"sheets/melee-{name}.pdf" for name in SHEETS)
    assert build(project, dated, only=["sheets"], out=tmp_path / "clean") == 0
    clean = sheet_keys(tmp_path / "clean")
    assert sheet_keys(project / "build") == clean
    assert (
        clean["sheets/melee-wound-sheet-a4.pdf"] == expected(project, "2025-03-03")["sheets/melee-wound-sheet-a4.pdf"]
    )


def test_outside_git_files_given_another_time_are_dated_anew_in_an_incremental_build_as_in_a_clean_one(
    project, dated, tmp_path
):
    every_file_at(project, "2025-01-01")
    assert build(project, dated, only=["sheets"]) == 0
    every_file_at(project, "2025-02-02")  # the same bytes, another day
    assert build(project, dated, only=["sheets"]) == 0
    assert build(project, dated, only=["sheets"], out=tmp_path / "clean") == 0
    assert sheet_keys(tmp_path / "clean") == sheet_keys(project / "build") == expected(project, "2025-02-02")
