"""The search index that `rulepress serve` makes after a build: a hard-linked copy of the build, Pagefind's
index written into the copy alone, swapped in under the build lock. Every renderer is stood in for
(tests/pipeline/stand_ins.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from stand_ins import build, builder, files

import generator.pipeline.build  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.guard  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.search_index  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import pipeline

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
    assert files(staging) == [
        ".manifest.json",
        "sheets/a-a4.pdf",
        "site-gm/_pagefind/fragment/a.pf",
        "site-gm/_pagefind/pagefind.js",
        "site-gm/index.html",
        "site/index.html",
    ]
    assert _inodes(staging) == {name: before[name] for name in files(staging)}  # the very files, linked
    assert _inodes(out) == before  # the build itself untouched
    gm = pipeline.search_index.copy_for_index(out, "site-gm")
    assert files(gm) == [
        ".manifest.json",
        "sheets/a-a4.pdf",
        "site-gm/index.html",
        "site/_pagefind/fragment/a.pf",
        "site/_pagefind/pagefind.js",
        "site/index.html",
    ]


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
