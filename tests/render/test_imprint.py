"""The imprint of a printout: which rules it was printed from, and where its page is on the site.

The version a ruleset states wins; without one, the date of the rules: SOURCE_DATE_EPOCH's day when set, else the day
the ruleset's files (and its bases') last changed. Text from the data is escaped wherever the templates print it.
The real PDFs are read back in test_imprint_pdfs.py.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import make_project
from pypdf import PdfReader

from generator.render.handouts.jobs import handout_jobs
from generator.render.imprint import rules_label
from generator.render.pdf import render_pdf
from generator.render.sheets.jobs import sheet_jobs
from generator.source.project import load_project

DAY = 24 * 60 * 60


def at(path: Path, day: str) -> None:
    """Give ``path`` the time of noon UTC on ``day`` (YYYY-MM-DD)."""
    moment = datetime.strptime(day + " 12:00", "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp()
    os.utime(path, (moment, moment))


def loaded(root: Path, id: str):
    project, diagnostics = load_project(root)
    assert not diagnostics.errors, [d.format() for d in diagnostics]
    return project.ruleset(id)


@pytest.fixture
def no_epoch(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


def test_the_version_the_text_states_is_printed_as_written(tmp_path):
    make_project(
        tmp_path,
        mill="ruleset:\n  title: Siege of the Old Mill\n  short_title: Old Mill\n  version: 2nd edition\n",
        keep="ruleset:\n  title: The Keep\n  version: '1.10'\n",
    )
    assert rules_label(loaded(tmp_path, "mill"), tmp_path) == "Old Mill · 2nd edition"
    assert rules_label(loaded(tmp_path, "keep"), tmp_path) == "The Keep · version 1.10"


def test_without_a_version_source_date_epoch_dates_the_rules(tmp_path, monkeypatch):
    make_project(tmp_path, mill="ruleset:\n  title: Siege of the Old Mill\n")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(365 * DAY + 5))
    assert rules_label(loaded(tmp_path, "mill"), tmp_path) == "Siege of the Old Mill · rules as of 1971-01-01"


def test_without_either_the_newest_of_the_rulesets_files_dates_it(tmp_path, no_epoch):
    make_project(
        tmp_path,
        {
            "mill/rules.yaml": "chapters:\n  combat: {title: Combat}\n",
            "mill/sources/text.txt": "COMBAT\nRoll a die.\n",
            "other/ruleset.yaml": "ruleset:\n  title: Another game\n",
        },
        mill="ruleset:\n  title: Siege of the Old Mill\n  source: text.txt\n",
    )
    for path in (tmp_path / "rules_src").rglob("*"):
        at(path, "2024-03-01")
    at(tmp_path / "rules_src" / "mill" / "sources" / "text.txt", "2024-05-09")  # the text it cites, amended
    at(tmp_path / "rules_src" / "other" / "ruleset.yaml", "2025-01-01")  # another ruleset changes nothing here
    assert rules_label(loaded(tmp_path, "mill"), tmp_path) == "Siege of the Old Mill · rules as of 2024-05-09"
    at(tmp_path / "rules_src" / "mill" / "rules.yaml", "2024-06-30")
    assert rules_label(loaded(tmp_path, "mill"), tmp_path) == "Siege of the Old Mill · rules as of 2024-06-30"


def test_an_overlay_is_as_new_as_its_base(tmp_path, no_epoch):
    make_project(
        tmp_path,
        {"mill/values.yaml": 'values:\n  move: {value: 6", label: Move}\n'},
        mill="ruleset:\n  title: Siege of the Old Mill\n",
        mill_house="ruleset:\n  title: Old Mill house rules\n  extends: mill\n  overlay: true\n",
    )
    for path in (tmp_path / "rules_src").rglob("*"):
        at(path, "2024-03-01")
    at(tmp_path / "rules_src" / "mill" / "values.yaml", "2024-04-02")
    assert rules_label(loaded(tmp_path, "mill_house"), tmp_path) == "Old Mill house rules · rules as of 2024-04-02"


def test_an_overlay_says_which_version_of_its_base_it_changes(tmp_path, no_epoch):
    make_project(
        tmp_path,
        mill="ruleset:\n  title: Siege of the Old Mill\n  short_title: Old Mill\n  version: '2'\n",
        mill_house="ruleset:\n  title: Old Mill house rules\n  extends: mill\n  overlay: true\n  version: club 3\n",
    )
    assert (
        rules_label(loaded(tmp_path, "mill_house"), tmp_path) == "Old Mill house rules · club 3, on Old Mill version 2"
    )
    assert rules_label(loaded(tmp_path, "mill"), tmp_path) == "Old Mill · version 2"


HOSTILE = 'ruleset:\n  title: "<script>alert(1)</script> & Co"\n  version: "<b>2</b>"\n'


def test_text_from_data_never_becomes_markup(tmp_path):
    make_project(tmp_path, mill=HOSTILE)
    (tmp_path / "rulepress.yaml").write_text("site:\n  url: https://example.org/a&b'c/\n", encoding="utf-8")
    project, diagnostics = load_project(tmp_path)
    assert not diagnostics.errors
    jobs = sheet_jobs(project, tmp_path / "out") + handout_jobs(project, tmp_path / "out", "player")
    assert jobs
    for job in jobs:
        assert "<script>alert" not in job.html and "<b>2</b>" not in job.html
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co · &lt;b&gt;2&lt;/b&gt;" in job.html, job.target.name
        assert "https://example.org/a&amp;b&#39;c/" in job.html, job.target.name


def test_no_site_address_no_link_and_no_code(tmp_path):
    make_project(tmp_path, mill="ruleset:\n  title: Siege of the Old Mill\n")
    project, _ = load_project(tmp_path)
    for job in sheet_jobs(project, tmp_path / "out") + handout_jobs(project, tmp_path / "out", "player"):
        assert "rules as of" in job.html
        assert "imprint-url" not in job.html and "data:image/png" not in job.html, job.target.name


@pytest.mark.build
def test_the_same_epoch_gives_the_same_bytes_and_prints_its_day(tmp_path, monkeypatch):
    make_project(tmp_path, mill="ruleset:\n  title: Siege of the Old Mill\n")
    (tmp_path / "rulepress.yaml").write_text("site:\n  url: https://example.org/rules/\n", encoding="utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14
    project, _ = load_project(tmp_path)
    made = []
    for attempt in ("one", "two"):
        (job,) = [j for j in sheet_jobs(project, tmp_path / attempt) if j.target.name.endswith("-a4.pdf")]
        made.append(render_pdf(job, tmp_path).read_bytes())
    assert made[0] == made[1]
    text = " ".join(PdfReader(tmp_path / "one" / job.target.name).pages[0].extract_text().split())
    assert "Siege of the Old Mill · rules as of 2023-11-14" in text
    assert "https://example.org/rules/sheets/mill-quick-reference.html" in text
