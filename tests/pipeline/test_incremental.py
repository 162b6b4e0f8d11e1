"""`rulepress build` after a change, on real builds: it renders again what the change touches, no more.

The project is the homebrew fixture (`melee`, its overlay `melee_house`) plus `melee_two`, a copy
of `melee` (as tests/pipeline/test_pdf_builds.py builds it; the PDFs' own cases are there). A page or PDF
the change did not touch is the previous build's very file (the same inode), and Sphinx did not
write it again (its output in the site cache keeps its mtime). Expected pages are written by hand
from the fixture: melee_two's rule `melee` is in its chapter `fighting`. Each test changes a copy of
one first build of the project.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest
from helpers import on_a4_alone

import generator.pipeline.guard  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import pipeline
from generator.cli import main

FIXTURE = Path(__file__).parents[1] / "fixtures" / "homebrew"
SITES = ("site", "site-gm")
# Files of a site that every build writes afresh from all pages: the search indexes and the
# general index. Everything else is a page, its assets, or Sphinx's static files.
WHOLE_SITE = ("_pagefind/", "searchindex.js", "genindex.html", "search.html", "objects.inv")


def files(project: Path, folder: str) -> dict[str, Path]:
    """A folder's files, without a site's own copies of the PDFs (`printouts/`: links to build/sheets' and
    build/handouts' files, which this file checks there)."""
    base = project / "build" / folder
    found = {p.relative_to(base).as_posix(): p for p in sorted(base.rglob("*")) if p.is_file()}
    return {name: path for name, path in found.items() if not name.startswith("printouts/")}


def identities(project: Path) -> dict[str, int]:
    return {
        f"{folder}/{name}": path.stat().st_ino
        for folder in (*SITES, "sheets", "handouts")
        for name, path in files(project, folder).items()
    }


def sphinx_writes(project: Path) -> dict[str, int]:
    """The mtime of every page Sphinx has written into its output in the site cache."""
    found = {}
    for site in SITES:
        html = pipeline.plan.site_cache(project, project / "build", site).with_name(site + "-html")
        found.update({f"{site}/{p.relative_to(html).as_posix()}": p.stat().st_mtime_ns for p in html.rglob("*.html")})
    return found


def pages(names) -> set[str]:
    return {name for name in names if name.endswith(".html") and not any(part in name for part in WHOLE_SITE)}


def text(pdf: Path) -> str:
    return "".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)


def edit(project: Path, ruleset: str, old: str, new: str) -> None:
    path = project / "rules_src" / ruleset / "ruleset.yaml"
    source = path.read_text(encoding="utf-8")
    assert source.count(old) == 1, old
    path.write_text(source.replace(old, new), encoding="utf-8")


def build(project: Path, *extra: str) -> None:
    assert main(["-C", str(project), "build", "--jobs", "2", *extra]) == 0


def new_project(folder: Path) -> Path:
    project = folder / "project"
    shutil.copytree(FIXTURE, project)
    on_a4_alone(project)
    shutil.copytree(project / "rules_src" / "melee", project / "rules_src" / "melee_two")
    edit(project, "melee_two", "title: Mêlée test", "title: Mêlée two")
    return project


@pytest.fixture(scope="module")
def home(tmp_path_factory, renders) -> Path:
    """The project built once with every output, and a copy of it as that first build left it."""
    folder = tmp_path_factory.mktemp("incremental")
    build(new_project(folder))
    shutil.copytree(folder / "project", folder / "built", symlinks=True)
    return folder


@pytest.fixture
def project(home) -> Path:
    """The first build, copied back to its own path for each test (a build names its site caches by the path it
    builds into): each test changes it against that build alone, and builds no edit another test made."""
    project = home / "project"
    shutil.rmtree(project)
    shutil.copytree(home / "built", project, symlinks=True)
    return project


def test_a_prose_edit_re_renders_only_its_page_and_the_pdfs_that_print_it(project):
    before, written = identities(project), sphinx_writes(project)
    edit(project, "melee_two", "A cavalryman scores {value}", "A mounted cavalryman scores {value}")
    build(project)
    after, rewritten = identities(project), sphinx_writes(project)
    assert pages(after) == pages(before)  # (search indexes and tooltips are files named by their content hash)
    changed = {name for name in after if after[name] != before.get(name)}
    assert pages(changed) == {"site/melee_two/fighting.html", "site-gm/melee_two/fighting.html"}
    # Sphinx writes the page again, and the ruleset's contents page whose toctree holds it (the same bytes)
    contents = {"site/melee_two/index.html", "site-gm/melee_two/index.html"}
    assert (
        pages(changed)
        <= pages(name for name in rewritten if rewritten[name] != written.get(name))
        <= pages(changed) | contents
    )
    assert "A mounted cavalryman scores" in (project / "build" / "site" / "melee_two" / "fighting.html").read_text(
        encoding="utf-8"
    )
    for name in (n for n in after if n.endswith(".pdf")):  # exactly the PDFs that print the sentence
        prints = name.split("/")[1].startswith("melee_two-") and "mounted cavalryman" in " ".join(
            text(project / "build" / name).split()
        )
        assert (name in changed) == prints, name
    assert any(name.endswith(".pdf") for name in changed)


def test_a_change_in_one_ruleset_leaves_every_other_rulesets_outputs_untouched(project):
    before = identities(project)
    edit(project, "melee_two", "What a cavalryman scores", "What a knight scores")
    build(project)
    after = identities(project)
    others = [
        name
        for name in before
        if "/melee/" in name or "/melee_house/" in name or name.split("/")[-1].startswith(("melee-", "melee_house-"))
    ]
    assert len(others) > 20
    assert [name for name in others if after.get(name) != before[name]] == []
    assert "What a knight scores" in (project / "build" / "site" / "melee_two" / "values.html").read_text(
        encoding="utf-8"
    )


PDFS = ("--only", "sheets", "--only", "handouts")  # every PDF, for both audiences, and no site
ONE_SITE = ("--only", "site", "--audience", "player", "--ruleset", "melee")  # the players' site of one ruleset


@pytest.mark.build  # renders for real in its body
def test_two_projects_building_into_sibling_out_folders_never_share_a_cache(tmp_path):
    first, second = new_project(tmp_path / "first"), new_project(tmp_path / "second")
    edit(second, "melee", "title: Mêlée test", "title: Mêlée second")
    shared = tmp_path / "outs"
    assert main(["-C", str(first), "build", *ONE_SITE, "--out", str(shared / "a")]) == 0
    assert main(["-C", str(second), "build", *ONE_SITE, "--out", str(shared / "b")]) == 0
    caches = {
        pipeline.plan.site_cache(first, shared / "a", "site"),
        pipeline.plan.site_cache(second, shared / "b", "site"),
    }
    assert len(caches) == 2 and all(cache.is_dir() for cache in caches)
    assert not (shared / pipeline.guard.CACHE_DIR / "site").exists()  # nothing of a site beside the out folders
    assert pipeline.plan.site_cache(first, shared / "a", "site").is_relative_to(first)
    assert "Mêlée second" in (shared / "b" / "site" / "melee" / "index.html").read_text(encoding="utf-8")
    assert "Mêlée second" not in (shared / "a" / "site" / "melee" / "index.html").read_text(encoding="utf-8")
    # one project into two out folders: two caches too
    assert pipeline.plan.site_cache(first, shared / "a", "site") != pipeline.plan.site_cache(
        first, shared / "b", "site"
    )


def test_a_stylesheet_no_pdf_links_re_renders_no_pdf(project):
    before = identities(project)
    unused = project / "templates" / "handouts" / "unused.css"
    unused.parent.mkdir(parents=True, exist_ok=True)
    unused.write_text("/* a stylesheet the club keeps but no template links */\n", encoding="utf-8")
    build(project, *PDFS)
    after = identities(project)
    assert {name: after[name] for name in after if name.endswith(".pdf")} == {
        name: before[name] for name in before if name.endswith(".pdf")
    }


def _spy_on_pdf_jobs(monkeypatch) -> list[tuple[str, object]]:
    """Record (kind, rulesets asked for) each time the build lays out PDFs' HTML."""
    asked: list[tuple[str, object]] = []
    real_handouts, real_sheets = pipeline.plan.handout_jobs, pipeline.plan.sheet_jobs

    def handout_jobs(project, folder, audience, rulesets=None):
        asked.append(("handouts", rulesets))
        return real_handouts(project, folder, audience, rulesets)

    def sheet_jobs(project, folder, rulesets=None):
        asked.append(("sheets", rulesets))
        return real_sheets(project, folder, rulesets)

    monkeypatch.setattr(pipeline.plan, "handout_jobs", handout_jobs)
    monkeypatch.setattr(pipeline.plan, "sheet_jobs", sheet_jobs)
    return asked


def test_the_pdfs_of_a_ruleset_whose_files_did_not_change_are_not_laid_out_again(project, monkeypatch):
    asked = _spy_on_pdf_jobs(monkeypatch)
    edit(project, "melee_two", "title: Mêlée two", "title: Mêlée the second")
    before = identities(project)
    build(project, *PDFS)  # (the PDFs' plan is the same with the sites: `Builder.changed_jobs`)
    # melee_two alone: no ruleset extends it (written from the fixture)
    assert sorted(kind for kind, _ in asked) == ["handouts", "handouts", "sheets"]  # player and gm handouts, sheets
    assert all(rulesets == {"melee_two"} for _kind, rulesets in asked), asked
    after = identities(project)
    assert [
        n
        for n in before
        if n.endswith(".pdf") and n.split("/")[1].startswith(("melee-", "melee_house-")) and after[n] != before[n]
    ] == []
    assert "Mêlée the second" in text(project / "build" / "handouts" / "melee_two-handout-a4.pdf")


def test_a_change_to_a_base_lays_out_the_pdfs_of_the_rulesets_that_extend_it(project, monkeypatch):
    asked = _spy_on_pdf_jobs(monkeypatch)
    edit(project, "melee", "A cavalryman scores {value}", "A horseman scores {value}")
    build(project, *PDFS)
    # melee_house extends melee (its ruleset.yaml says `extends: melee`); melee_two is a copy, not an extension
    assert asked and all(rulesets == {"melee", "melee_house"} for _kind, rulesets in asked), asked


def test_nothing_changed_lays_out_no_pdf(project, monkeypatch):
    asked = _spy_on_pdf_jobs(monkeypatch)
    before = identities(project)
    build(project)
    assert asked == []
    assert identities(project) == before  # every page and PDF the previous build's very file


def test_the_site_cache_keeps_the_theme_templates_compiled(project):
    from generator.render.site import TEMPLATE_BYTECODE

    for site in SITES:
        folder = pipeline.plan.site_cache(project, project / "build", site) / TEMPLATE_BYTECODE
        assert len(list(folder.glob("__jinja2_*.cache"))) > 5, folder  # furo's page, base, sidebar... templates
