"""More pipeline behaviour for mutation testing (issue 14): the search index that `rulepress serve`
makes after a build (a hard-linked copy of the build, Pagefind's index written into the copy alone,
swapped in under the build lock), the per-ruleset input key that spares a build making the HTML of an
unchanged ruleset's PDFs, and what the site keys are computed from. Every renderer is stood in for,
as in tests/test_mutation_kills_pipeline_builds.py, whose stand-ins and helpers these tests reuse.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

import generator.pipeline.build
import generator.pipeline.guard
import generator.pipeline.plan
import generator.pipeline.search_index
import generator.pipeline.staging
import generator.pipeline.workers
from generator import pipeline
from generator.pipeline.request import BuildRequest
from tests.test_mutation_kills_pipeline_builds import (  # noqa: F401 - project and renderers are fixtures
    ALL_PDFS,
    build,
    builder,
    files,
    manifest,
    project,
    renderers,
    stand_ruleset,
)

INDEX = pipeline.plan.INDEX_DIR


def _hand_made_build(tmp_path: Path) -> Path:
    """A build as serve leaves it: both sites with their search index, a PDF, a manifest."""
    out = tmp_path / "build"
    for name in ("site", "site-gm"):
        (out / name / INDEX / "fragment").mkdir(parents=True)
        (out / name / "index.html").write_text(f"<p>{name}</p>")
        (out / name / INDEX / "pagefind.js").write_text(f"old index of {name}")
        (out / name / INDEX / "fragment" / "a.pf").write_text(f"a fragment of {name}")
    (out / "sheets").mkdir()
    (out / "sheets" / "a-a4.pdf").write_text("a sheet")
    (out / ".manifest.json").write_text("{}")
    return out


def _inodes(folder: Path) -> dict[str, int]:
    return {name: (folder / name).stat().st_ino for name in files(folder)}


# -- the copy that serve indexes -------------------------------------------------------------------

def test_the_copy_for_the_search_index_links_every_file_but_that_sites_index(tmp_path):
    out = _hand_made_build(tmp_path)
    before = _inodes(out)
    staging = pipeline.search_index.copy_for_index(out)  # the player's site unless named
    assert staging.parent == tmp_path and staging.name.startswith(".build-staging-")
    assert files(staging) == [".manifest.json", "sheets/a-a4.pdf", "site-gm/_pagefind/fragment/a.pf",
                              "site-gm/_pagefind/pagefind.js", "site-gm/index.html", "site/index.html"]
    assert _inodes(staging) == {name: before[name] for name in files(staging)}  # the very files, linked
    assert _inodes(out) == before  # the build itself untouched
    gm = pipeline.search_index.copy_for_index(out, "site-gm")
    assert files(gm) == [".manifest.json", "sheets/a-a4.pdf", "site-gm/index.html", "site/_pagefind/fragment/a.pf",
                         "site/_pagefind/pagefind.js", "site/index.html"]


def test_there_is_no_copy_to_index_when_the_build_has_no_such_site(tmp_path):
    out = _hand_made_build(tmp_path)
    (out / "site" / "index.html").unlink()
    assert pipeline.search_index.copy_for_index(out) is None
    assert pipeline.search_index.copy_for_index(tmp_path / "never-built") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]  # no copy begun
    assert pipeline.search_index.copy_for_index(out, "site-gm") is not None  # the other site is there


def test_a_copy_stopped_halfway_is_removed_and_the_stop_raised(tmp_path, monkeypatch):
    out = _hand_made_build(tmp_path)

    def interrupted(source, target):
        raise KeyboardInterrupt  # Ctrl-C while serve copies the build

    monkeypatch.setattr(pipeline.search_index, "link_or_copy", interrupted)
    with pytest.raises(KeyboardInterrupt):
        pipeline.search_index.copy_for_index(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_a_copy_stopped_after_a_build_removed_it_raises_the_stop(tmp_path, monkeypatch):
    out = _hand_made_build(tmp_path)

    def removed_then_interrupted(source, target):
        import shutil

        shutil.rmtree(next(tmp_path.glob(".build-staging-*")))  # a build cleaned it up as a stale staging folder
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline.search_index, "link_or_copy", removed_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        pipeline.search_index.copy_for_index(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_the_copy_is_indexed_in_its_own_site_folder(tmp_path, monkeypatch):
    indexed = []
    monkeypatch.setattr(pipeline.search_index, "index_site", indexed.append)
    staging = tmp_path / "copy"
    pipeline.search_index.index_copy(staging)
    pipeline.search_index.index_copy(staging, "site-gm")
    assert indexed == [staging / "site", staging / "site-gm"]


def test_a_copy_whose_pagefind_failed_is_removed_and_the_failure_raised(tmp_path, monkeypatch):
    out = _hand_made_build(tmp_path)
    staging = pipeline.search_index.copy_for_index(out)

    def failing(site):
        raise pipeline.build.SearchIndexError("Pagefind exited with 1")

    monkeypatch.setattr(pipeline.search_index, "index_site", failing)
    with pytest.raises(pipeline.build.SearchIndexError):
        pipeline.search_index.index_copy(staging)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]

    def removed_then_failing(site):  # a build removed the copy meanwhile: Pagefind's failure is still what is raised
        import shutil

        shutil.rmtree(site.parent)
        raise pipeline.build.SearchIndexError("Pagefind exited with 1")

    monkeypatch.setattr(pipeline.search_index, "index_site", removed_then_failing)
    with pytest.raises(pipeline.build.SearchIndexError):
        pipeline.search_index.index_copy(pipeline.search_index.copy_for_index(out))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_the_indexed_copy_is_swapped_in_whole_and_leaves_nothing_behind(tmp_path):
    out = _hand_made_build(tmp_path)
    staging = pipeline.search_index.copy_for_index(out)
    (staging / "site" / INDEX).mkdir()
    (staging / "site" / INDEX / "pagefind.js").write_text("new index")
    pipeline.search_index.swap_index(staging, out)
    assert (out / "site" / INDEX / "pagefind.js").read_text() == "new index"
    assert (out / "site-gm" / INDEX / "pagefind.js").read_text() == "old index of site-gm"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".rulepress-cache", "build"]
    assert (tmp_path / ".rulepress-cache" / "build.lock").read_text() == ""  # taken and given back


def test_an_indexed_copy_is_dropped_while_a_build_holds_the_lock(tmp_path):
    out = _hand_made_build(tmp_path)
    staging = pipeline.search_index.copy_for_index(out)
    (staging / "site" / INDEX).mkdir()
    (staging / "site" / INDEX / "pagefind.js").write_text("new index")
    with pipeline.guard.build_lock(out):  # a build (here this test, through another open of the lock file)
        pipeline.search_index.swap_index(staging, out)
    assert (out / "site" / INDEX / "pagefind.js").read_text() == "old index of site"
    assert not staging.exists()


# -- serve's builds: the page first, the search index after it -------------------------------------

def test_a_build_for_serve_links_the_previous_index_or_has_pagefind_make_one(tmp_path, monkeypatch):
    indexed = []
    monkeypatch.setattr(pipeline.plan, "index_site", indexed.append)
    out = _hand_made_build(tmp_path)
    made = builder(tmp_path)
    (made.staging / "site").mkdir(parents=True)
    made.previous_index("site")
    assert files(made.staging / "site") == ["_pagefind/fragment/a.pf", "_pagefind/pagefind.js"]
    assert _inodes(made.staging / "site" / INDEX) == _inodes(out / "site" / INDEX)
    assert indexed == []
    made.previous_index("site-two")  # no previous index: Pagefind indexes the staged site
    assert indexed == [made.staging / "site-two"]


def _serve_site(renderers):
    """The site builder serve hands the build: Sphinx's output holds a fresh search index."""
    def site(project, args):
        outdir = Path(renderers.site(project, args))
        (outdir / INDEX).mkdir(exist_ok=True)
        (outdir / INDEX / "pagefind.js").write_text(f"Sphinx's index {renderers.site_version[args[3]]}")
        return str(outdir)
    return site


def test_serves_build_keeps_the_previous_search_index_and_a_build_writes_the_new_one(project, renderers, monkeypatch):
    def pagefind(site):
        (site / INDEX).mkdir()  # the staged site holds no index of its own: it was left out
        (site / INDEX / "pagefind.js").write_text("Pagefind's index")

    monkeypatch.setattr(pipeline.plan, "index_site", pagefind)
    index = project / "build" / "site" / INDEX / "pagefind.js"
    serve = dict(only=["site"], audience="player", site_builder=_serve_site(renderers), index_later=True)
    assert build(project, renderers, **serve) == 0
    assert index.read_text() == "Pagefind's index"  # no previous build: Pagefind made one
    first = index.stat().st_ino
    renderers.site_version["player"] = 2
    assert build(project, renderers, **serve) == 0
    assert renderers.sites == ["player"] and index.read_text() == "Pagefind's index" and index.stat().st_ino == first
    renderers.site_version["player"] = 3
    assert build(project, renderers, only=["site"], audience="player", site_builder=_serve_site(renderers)) == 0
    assert index.read_text() == "Sphinx's index 3"  # a build without serve's hook keeps the index Sphinx's build made


# -- the per-ruleset input key -------------------------------------------------------------------

def _record_jobs(renderers, monkeypatch) -> list:
    made = []

    def sheets(project, folder, rulesets=None):
        made.append(("sheets", sorted(rulesets)))
        return renderers.sheet_jobs(project, folder, rulesets)

    def handouts(project, folder, audience, rulesets=None):
        made.append(("handouts", sorted(rulesets)))
        return renderers.handout_jobs(project, folder, audience, rulesets)

    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", sheets)
    monkeypatch.setattr("generator.pipeline.plan.handout_jobs", handouts)
    return made


def test_an_unchanged_ruleset_keeps_its_pdfs_without_their_pages_being_made(project, renderers, monkeypatch, capsys):
    made = _record_jobs(renderers, monkeypatch)
    assert build(project, renderers) == 0
    assert made == [("sheets", ["melee", "melee_house"]), ("handouts", ["melee", "melee_house"]),
                    ("handouts", ["melee", "melee_house"])]  # the handouts once per audience
    keys = manifest(project)
    assert len({keys[f"{kind}/.inputs-{id}"] for kind in ("sheets", "handouts") for id in ("melee", "melee_house")}) == 4  # one a kind and ruleset
    assert all(len(keys[f"{kind}/.inputs-{id}"]) == 64 for kind in ("sheets", "handouts") for id in ("melee", "melee_house"))
    made.clear()
    capsys.readouterr()
    assert build(project, renderers) == 0
    assert made == [] and renderers.pdfs == []
    assert manifest(project) == keys
    assert capsys.readouterr().out.split(" — ")[1].split(" (")[0] == \
        "site: 0 written, 2 unchanged; sheets: 0 written, 8 unchanged; handouts: 0 written, 14 unchanged"
    from tests.test_mutation_kills_pipeline_builds import edit

    edit(project, "melee_house")
    assert build(project, renderers) == 0
    assert made == [("sheets", ["melee_house"]), ("handouts", ["melee_house"]), ("handouts", ["melee_house"])]
    assert renderers.pdfs == []  # the pages came out the same: the PDFs are kept by their own keys


def test_a_new_source_date_epoch_or_generator_makes_every_page_again(project, renderers, monkeypatch):
    made = _record_jobs(renderers, monkeypatch)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000")
    assert build(project, renderers) == 0
    made.clear()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "2000")
    assert build(project, renderers) == 0
    assert made == [("sheets", ["melee", "melee_house"]), ("handouts", ["melee", "melee_house"]),
                    ("handouts", ["melee", "melee_house"])]
    made.clear()
    assert build(project, renderers) == 0
    assert made == []
    monkeypatch.setattr(pipeline.plan, "code_hash", lambda: "a newer generator")
    assert build(project, renderers) == 0
    assert sorted(renderers.pdfs) == ALL_PDFS


def test_the_input_key_reads_no_audience_from_arguments_that_name_none(tmp_path):
    ruleset = stand_ruleset(tmp_path, "mini")
    made = builder(tmp_path, ids=("mini",))
    bare = pipeline.plan.Builder(made.project, tmp_path / "build", tmp_path / "staging", {}, BuildRequest(tmp_path))
    assert bare.inputs_key("sheets", ruleset) == made.inputs_key("sheets", ruleset)
    assert builder(tmp_path, ids=("mini",), audience="gm").inputs_key("sheets", ruleset) != made.inputs_key("sheets", ruleset)


def test_a_pdf_the_manifest_names_in_a_folder_of_its_ruleset_stays_with_it(project, renderers, monkeypatch):
    made = _record_jobs(renderers, monkeypatch)
    assert build(project, renderers) == 0
    extra = project / "build" / "sheets" / "melee-extra" / "notes.pdf"
    extra.parent.mkdir()
    extra.write_text("notes")
    keys = manifest(project)
    keys["sheets/melee-extra/notes.pdf"] = "by hand"
    keys["sheets/elsewhere/melee_house-x.pdf"] = "by hand, and gone"  # in no folder of a ruleset: no ruleset's PDF
    pipeline.staging.write_manifest(project / "build", keys)  # as this machine's build would have
    inode = extra.stat().st_ino
    made.clear()
    assert build(project, renderers) == 0
    assert made == [] and renderers.pdfs == []
    assert extra.read_text() == "notes" and extra.stat().st_ino == inode
    assert manifest(project)["sheets/melee-extra/notes.pdf"] == "by hand"


def test_a_pdf_no_longer_made_is_dropped_and_the_rest_still_carried(project, renderers):
    assert build(project, renderers) == 0
    (project / "build" / "sheets" / "melee_house-retired-a4.pdf").write_text("a sheet since removed")
    kept = project / "build" / "sheets" / "extra" / "melee-notes.pdf"  # read after every file beside it
    kept.parent.mkdir()
    kept.write_text("melee's")
    assert build(project, renderers, ruleset="melee_house") == 0
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == \
        sorted(ALL_PDFS + ["sheets/extra/melee-notes.pdf"])  # the retired sheet gone, melee's notes kept


# -- what the templates digest and the site keys are made of --------------------------------------

def test_the_templates_digest_hashes_each_files_path_and_bytes_once_a_build(tmp_path, monkeypatch):
    defaults = tmp_path / "defaults"
    (defaults / "fonts").mkdir(parents=True)
    (defaults / "sheet.css").write_text("body {}")
    (defaults / "fonts" / "a.woff").write_bytes(b"\0font")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "sheet.css").write_text("p {}")
    monkeypatch.setattr("generator.keys.default_templates", lambda: defaults)
    made = builder(tmp_path)
    expected = hashlib.sha256()
    for path in (tmp_path / "templates" / "sheet.css", defaults / "fonts" / "a.woff", defaults / "sheet.css"):
        expected.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    assert made.templates_digest() == expected.digest()
    (tmp_path / "templates" / "sheet.css").write_text("q {}")
    assert made.templates_digest() == expected.digest()  # read once a build
    (tmp_path / "templates" / "sheet.css").rename(tmp_path / "templates" / "page.css")
    (tmp_path / "templates" / "page.css").write_text("p {}")
    renamed = hashlib.sha256()
    for path in (tmp_path / "templates" / "page.css", defaults / "fonts" / "a.woff", defaults / "sheet.css"):
        renamed.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    assert builder(tmp_path).templates_digest() == renamed.digest()


def test_the_site_key_and_sphinx_are_given_the_same_pages_made_from_the_downloads(project, renderers, monkeypatch):
    asked, keyed = [], []

    def site_pages(project, audience, downloads=None):
        asked.append((project, audience, downloads))
        return f"the {audience} pages"

    def site_key(project, audience, downloads, code, pages=None):
        keyed.append(pages)
        return f"{audience} {downloads}"

    monkeypatch.setattr("generator.pipeline.plan.site_pages", site_pages)
    monkeypatch.setattr("generator.pipeline.plan.site_key", site_key)
    assert build(project, renderers, audience="gm") == 0
    (who, audience, downloads), = asked
    assert who is renderers.project and audience == "gm"
    assert downloads == renderers.downloads["gm"] and sorted(downloads) == ["melee", "melee_house"]
    assert keyed == ["the gm pages"] and renderers.site_args[0][5] == "the gm pages"


# -- the watcher ----------------------------------------------------------------------------------

def test_the_watcher_only_asks_whether_the_process_is_there(monkeypatch):
    import threading
    import time

    asked, exits, never = [], [], threading.Event()

    def kill(pid, signal):
        asked.append((pid, signal))
        if len(asked) == 2:
            raise ProcessLookupError

    def exit_(code):
        exits.append(code)
        never.wait()  # the watching thread stops here for good (a daemon: it ends with the tests)

    monkeypatch.setattr(os, "kill", kill)
    monkeypatch.setattr(os, "_exit", exit_)
    pipeline.workers.watch(123456789, every=0.001)
    deadline = time.monotonic() + 5
    while not exits and time.monotonic() < deadline:
        time.sleep(0.001)
    assert asked == [(123456789, 0), (123456789, 0)] and exits == [1]
