"""The PDF half of `rulepress build`, on real PDFs read back: what a change re-renders, what it keeps.

The project is the homebrew fixture (`melee`, its overlay `melee_house`) plus `melee_two`, a copy
of `melee` whose id shares melee's prefix. A PDF kept from the previous build is the same file
(a hard link), so "untouched" is checked by inode and "re-rendered" by inode and by its text.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pypdf
import pytest
from helpers import on_a4_alone

import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator.cli import main

FIXTURE = Path(__file__).parents[1] / "fixtures" / "homebrew"
TITLES = {"melee": "Mêlée test", "melee_house": "Mêlée test (club house rules)", "melee_two": "Mêlée two"}
PDF_KINDS = ["--only", "sheets", "--only", "handouts", "--audience", "player", "--jobs", "1"]


def owner(pdf: Path) -> str:
    return max((id for id in TITLES if pdf.name.startswith(id + "-")), key=len)


def pdfs(project: Path) -> dict[str, Path]:
    return {p.relative_to(project / "build").as_posix(): p for p in sorted((project / "build").glob("*/*.pdf"))}


def inodes(project: Path) -> dict[str, int]:
    return {name: path.stat().st_ino for name, path in pdfs(project).items()}


def text(pdf: Path) -> str:
    return "".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)


def build(project: Path, *extra: str) -> None:
    assert main(["-C", str(project), "build", *PDF_KINDS, *extra]) == 0


def set_value(project: Path, ruleset: str, old: str, new: str) -> None:
    """Edit the ruleset's file and keep its time stamp. Every PDF prints "rules as of" the day its newest file was
    written (render/imprint.py): an edit on another day than the copy's files were made re-renders each PDF that
    prints that date, as it should; a change of content is what these tests follow, on any day they run."""
    path = project / "rules_src" / ruleset / "ruleset.yaml"
    source = path.read_text(encoding="utf-8")
    assert old in source
    written = path.stat()
    path.write_text(source.replace(old, new, 1), encoding="utf-8")
    os.utime(path, ns=(written.st_atime_ns, written.st_mtime_ns))


@pytest.fixture(scope="module")
def built(once_a_run, renders) -> Path:
    """The project built once a run, for both xdist workers (a PDF's key names no path: copies build from it);
    only read."""

    def make(folder: Path) -> None:
        project = folder / "project"
        shutil.rmtree(project, ignore_errors=True)  # what a failed first try left
        shutil.copytree(FIXTURE, project)
        on_a4_alone(project)
        shutil.copytree(project / "rules_src" / "melee", project / "rules_src" / "melee_two")
        set_value(project, "melee_two", "title: Mêlée test", "title: Mêlée two")
        build(project)

    return once_a_run("pdf-builds", make) / "project"


@pytest.fixture
def project(built, tmp_path) -> Path:
    """A copy of the built project; its PDFs are new files, so inodes are compared within one test."""
    copy = tmp_path / "project"
    shutil.copytree(built, copy, symlinks=True)
    return copy


def test_every_ruleset_gets_sheets_and_handouts_that_read_back_with_its_title(built):
    found = pdfs(built)
    for id, title in TITLES.items():
        own = [path for path in found.values() if owner(path) == id]
        assert any(name.startswith("sheets/") for name in found if owner(found[name]) == id), id
        assert any(name.startswith("handouts/") for name in found if owner(found[name]) == id), id
        handout = next(p for p in own if "handout" in p.name and p.name.endswith("-a4.pdf"))
        assert title in text(handout)
    quick = found["sheets/melee_house-quick-reference-a4.pdf"]
    assert "2 (house rule" in re.sub(r"\s+", " ", text(quick))  # the overlay's cavalry score, marked


def test_a_build_with_nothing_changed_renders_no_pdf(project):
    before = inodes(project)
    build(project)
    assert inodes(project) == before


def test_a_changed_value_re_renders_its_ruleset_and_no_other(project):
    before = inodes(project)
    set_value(project, "melee_two", "What a cavalryman scores", "What a knight scores")
    build(project)
    after = inodes(project)
    assert after.keys() == before.keys()
    for name, path in pdfs(project).items():  # exactly the PDFs that print the label are rendered again
        shows = owner(path) == "melee_two" and "What a knight scores" in text(path)
        assert (after[name] != before[name]) == shows, name
    quick = text(project / "build" / "sheets" / "melee_two-quick-reference-a4.pdf")
    assert "What a knight scores" in quick and "cavalryman" not in quick


def test_a_change_in_a_base_re_renders_its_overlay(project):
    before = inodes(project)
    set_value(project, "melee", "What a cavalryman scores", "What a knight scores")
    build(project)
    after = inodes(project)
    for name, path in pdfs(project).items():
        shows = owner(path) in ("melee", "melee_house") and "What a knight scores" in text(path)
        assert (after[name] != before[name]) == shows, name
    assert "What a knight scores" in text(project / "build" / "sheets" / "melee_house-quick-reference-a4.pdf")


def test_a_changed_generator_re_renders_every_pdf(project, monkeypatch):
    before = inodes(project)
    monkeypatch.setattr("generator.pipeline.plan.code_hash", lambda: "a generator of another version")
    build(project)
    after = inodes(project)
    assert all(after[name] != before[name] for name in before)


def test_a_project_stylesheet_re_renders_the_booklets_that_use_it(project):
    before = inodes(project)
    override = project / "templates" / "handouts" / "handout.css"
    override.parent.mkdir(parents=True)
    default = FIXTURE.parents[2] / "templates" / "handouts" / "handout.css"
    override.write_text(default.read_text(encoding="utf-8") + "\n/* the club's own edit */\n", encoding="utf-8")
    build(project)
    after = inodes(project)
    booklets = [name for name in before if "-handout-" in name]
    assert booklets and all(after[name] != before[name] for name in booklets)


def test_a_ruleset_build_renders_that_ruleset_only_even_with_a_shared_prefix(project):
    before = inodes(project)
    set_value(project, "melee", "What a cavalryman scores", "What a knight scores")
    set_value(project, "melee_two", "What a cavalryman scores", "What a squire scores")
    build(project, "--ruleset", "melee")
    after = inodes(project)
    assert after.keys() == before.keys()
    for name, path in pdfs(project).items():
        shows = owner(path) == "melee" and "What a knight scores" in text(path)
        assert (after[name] != before[name]) == shows, name
    assert "What a knight scores" in text(project / "build" / "sheets" / "melee-quick-reference-a4.pdf")
    assert "cavalryman" in text(
        project / "build" / "sheets" / "melee_two-quick-reference-a4.pdf"
    )  # not asked for: kept

    build(project, "--ruleset", "melee_two")
    assert "What a squire scores" in text(project / "build" / "sheets" / "melee_two-quick-reference-a4.pdf")
    assert inodes(project)["sheets/melee-quick-reference-a4.pdf"] == after["sheets/melee-quick-reference-a4.pdf"]


def test_a_deleted_pdf_is_rendered_again(project):
    before = inodes(project)
    gone = project / "build" / "handouts" / "melee-handout-a4.pdf"
    gone.unlink()
    build(project)
    after = inodes(project)
    assert after.keys() == before.keys()
    assert "Mêlée test" in text(gone)
    assert all(after[name] == before[name] for name in before if name != "handouts/melee-handout-a4.pdf")
