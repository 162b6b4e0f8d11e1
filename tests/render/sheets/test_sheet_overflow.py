"""A one-page sheet whose content cannot fit its page is a located error, never a silent second page.

The crowded quick reference is proven to need more than one page by rendering it as a real PDF
(without the one-page rule) and counting its pages with pypdf; then `build` must refuse it.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from generator.render.pdf import render_pdf
from generator.render.sheets.jobs import sheet_jobs
from generator.source.project import load_project

pytestmark = pytest.mark.build  # its tests run real builds (Sphinx, WeasyPrint) in their bodies

ROOT = Path(__file__).resolve().parents[3]
CROWDED = 100  # values marked for the quick reference: far more than one page holds at 8 pt


def rulepress(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "generator", "-C", str(project), *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=600,
    )


def crowd(project: Path) -> None:
    lines = ["values:"] + [
        f"  key_number_{n}: {{value: {n}, label: A key number the players look up often number {n},"
        f" quick_reference: true}}"
        for n in range(CROWDED)
    ]
    (project / "rules_src" / "game" / "crowded.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_quick_reference_too_long_for_its_page_fails_the_build_naming_what_was_marked(tmp_path):
    project = tmp_path / "crowded"
    assert rulepress(project, "new", "game").returncode == 0
    first = rulepress(project, "build", "--only", "sheets", "--ruleset", "game", "--audience", "player", "--jobs", "1")
    assert first.returncode == 0, first.stderr
    before = files(project / "build")
    crowd(project)

    jobs = [
        j
        for j in sheet_jobs(load_project(project)[0], tmp_path / "out", {"game"})
        if j.target.name == "game-quick-reference-a4.pdf"
    ]
    spilled = render_pdf(dataclasses.replace(jobs[0], overflow=None), project)
    assert len(pypdf.PdfReader(spilled).pages) > 1  # the content really takes two pages, even in the smaller type

    # every sheet too long is told in the one run: the game's and its house rules' (which print the game's marked
    # entries), on each paper; the first refused ended the build, and the next was told by the next build
    done = rulepress(project, "build", "--only", "sheets", "--audience", "player", "--jobs", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    told = re.findall(
        r"^rules_src/(\w+)/ruleset\.yaml:\d+:\d+: error\[sheet-overflow\]: the sheet `(\w+)-quick-reference` "
        r"takes \d+ pages of (A4|US Letter) even in its smaller type, not one",
        done.stderr,
        re.M,
    )
    assert sorted(told) == [
        (ruleset, ruleset, paper) for ruleset in ("game", "game_house_rules") for paper in ("A4", "US Letter")
    ], done.stderr
    assert "values (`key_number_0`" in done.stderr and "build failed: 4 errors" in done.stderr
    assert "Traceback" not in done.stderr
    assert files(project / "build") == before  # build/ left as it was
