"""`rulepress build` as a whole: incremental, atomic, locked; `new`, `export`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import player_files
from site_helpers import ROOT, copy_project

import generator.pipeline.build  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.guard  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.search_index  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.staging  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import pipeline
from generator.cli import main

pytestmark = pytest.mark.build  # its tests run real builds (Sphinx, WeasyPrint) in their bodies


def summary_of(capsys) -> str:
    out = capsys.readouterr().out
    lines = [l for l in out.splitlines() if l.startswith("built ")]
    assert lines, out
    return lines[-1]


@pytest.fixture(scope="module")
def small_home(tmp_path_factory) -> dict:
    """Where the module's tests make `small`, and what its first build of the players' site printed once made."""
    return {"folder": tmp_path_factory.mktemp("small"), "said": None}


@pytest.fixture
def small(small_home) -> Path:
    """A copy of the Rampant Hex ruleset alone: quick to build. At one path for every test of the module (a build
    names its site caches by the path it builds into), so a copy of a build made there is the build made there."""
    project = small_home["folder"] / "project"
    shutil.rmtree(project, ignore_errors=True)
    return copy_project(project, ["rampant_hex"])


PLAYER_SITE = ["build", "--only", "site", "--audience", "player"]


@pytest.fixture
def small_built(small, small_home, capsys) -> tuple[Path, str]:
    """`small` with the players' site built, and the summary that build printed: built by the first test that asks,
    each later test given a copy of that build (project, cache and output) instead of building it again."""
    built = small_home["folder"] / "built"
    if small_home["said"] is None:
        assert main(["-C", str(small), *PLAYER_SITE]) == 0
        small_home["said"] = summary_of(capsys)
        shutil.copytree(small, built, symlinks=True)
    else:
        shutil.rmtree(small)
        shutil.copytree(built, small, symlinks=True)
    return small, small_home["said"]


def test_no_change_build_renders_nothing(small_built, capsys, monkeypatch):
    small, said = small_built
    assert "site: 1 written" in said
    first = {p: p.stat().st_ino for p in (small / "build" / "site").rglob("*.html")}

    def nothing_to_do(tasks, workers, advance, walled=None):
        assert tasks == [], "something was rendered although nothing changed"
        return []

    monkeypatch.setattr(pipeline.plan, "run_tasks", nothing_to_do)
    assert main(["-C", str(small), "build", "--only", "site", "--audience", "player"]) == 0
    assert "site: 0 written, 1 unchanged" in summary_of(capsys)
    second = {p: p.stat().st_ino for p in (small / "build" / "site").rglob("*.html")}
    assert first == second  # the very same files, linked into the new build


def test_changing_one_file_rebuilds_the_site(small_built, capsys):
    small, _ = small_built
    tables = small / "rules_src" / "rampant_hex" / "tables.yaml"
    tables.write_text(
        tables.read_text(encoding="utf-8").replace(
            "The player must complete these activations", "The player must complete all these activations"
        ),
        encoding="utf-8",
    )
    assert main(["-C", str(small), "build", "--only", "site", "--audience", "player"]) == 0
    assert "site: 1 written" in summary_of(capsys)
    assert "complete all these activations" in (small / "build" / "site" / "rampant_hex" / "activation.html").read_text(
        encoding="utf-8"
    )


def test_a_broken_file_leaves_the_previous_build_intact(small_built, capsys):
    small, _ = small_built
    before = {p.relative_to(small): p.read_bytes() for p in (small / "build").rglob("*") if p.is_file()}
    tables = small / "rules_src" / "rampant_hex" / "tables.yaml"
    tables.write_text(tables.read_text(encoding="utf-8").replace("roll: 5,", "roll: 7,"), encoding="utf-8")
    capsys.readouterr()
    assert main(["-C", str(small), "build", "--only", "site", "--audience", "player"]) == 1
    err = capsys.readouterr().err
    assert "error[table-gap]" in err and "is left as it was" in err and "Traceback" not in err
    after = {p.relative_to(small): p.read_bytes() for p in (small / "build").rglob("*") if p.is_file()}
    assert after == before
    assert not list(small.glob(".build-*"))  # no staging folder left behind


def test_a_second_build_is_refused_while_one_runs(small, capsys):
    out = small / "build"
    with pipeline.guard.build_lock(out):
        assert main(["-C", str(small), "build", "--only", "site"]) == 1
    err = capsys.readouterr().err
    assert "another rulepress build is writing" in err
    assert not out.exists()


def test_concurrent_builds_do_not_corrupt_build(small):
    command = [sys.executable, "-m", "generator", "-C", str(small), "build", "--only", "site", "--audience", "player"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    lock = small / pipeline.guard.CACHE_DIR / "build.lock"
    deadline = time.monotonic() + 60
    while not (lock.exists() and lock.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.02)
    second = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert second.returncode == 1
    assert "another rulepress build is writing" in second.stderr
    assert (small / "build" / "site" / "index.html").is_file()
    assert json.loads((small / "build" / pipeline.staging.MANIFEST).read_text())


def test_new_ruleset_checks_and_builds_at_once(tmp_path, capsys):
    (tmp_path / "rules_src").mkdir()
    assert main(["-C", str(tmp_path), "new", "my_skirmish", "--title", "My Skirmish"]) == 0
    assert main(["-C", str(tmp_path), "check"]) == 0
    assert capsys.readouterr().out.strip().endswith("0 errors")
    assert main(["-C", str(tmp_path), "build", "--only", "site", "--audience", "player"]) == 0
    assert "My Skirmish" in (tmp_path / "build" / "site" / "index.html").read_text(encoding="utf-8")
    assert main(["-C", str(tmp_path), "new", "my_skirmish"]) == 2  # exists already
    assert main(["-C", str(tmp_path), "new", "Bad Name"]) == 2


def test_new_ruleset_shows_every_kind_of_entry(tmp_path):
    from generator.model.ruleset import SECTIONS
    from generator.source.project import load_project

    (tmp_path / "rules_src").mkdir()
    assert main(["-C", str(tmp_path), "new", "sample"]) == 0
    project, diagnostics = load_project(tmp_path)
    assert not diagnostics.errors
    empty = [name for name in SECTIONS if not project.ruleset("sample").section(name)]
    assert empty == []


def test_export_validates_against_its_schema(tmp_path, capsys):
    import jsonschema  # a test dependency: missing, it fails

    out = tmp_path / "export"
    assert main(["-C", str(ROOT), "export", "--out", str(out), "--audience", "gm"]) == 0
    schema = json.loads((out / "ruleset.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    exported = sorted(out.glob("*-gm.json"))
    assert [p.name.removesuffix("-gm.json") for p in exported] == sorted(p.name for p in (ROOT / "rules_src").iterdir())
    for path in exported:
        jsonschema.validate(json.loads(path.read_text()), schema, cls=jsonschema.Draft202012Validator)
    rampant = json.loads((out / "rampant_hex-gm.json").read_text())
    activations = next(t for t in rampant["tables"] if t["id"] == "activations")
    assert activations["odds"] == ["1/3", "1/3", "1/6", "1/6"]


def test_player_export_has_no_game_master_entries(tmp_path):
    out = tmp_path / "export"
    assert main(["-C", str(ROOT), "export", "--out", str(out)]) == 0
    from generator.source.project import load_project

    project, _ = load_project(ROOT)
    hidden = [vp.name for r in project.rulesets for vp in r.victory_points if vp.gm_only]
    assert hidden
    text = "".join(p.read_text(encoding="utf-8") for p in out.glob("*.json"))
    for name in hidden:
        assert name not in text


def test_serve_rebuilds_on_save_and_tells_the_page(small):
    import socket
    import threading
    import urllib.request

    from generator.serve import EVENTS_PATH, RELOAD_PATH, serve

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    stop = threading.Event()  # ended with the test: a serve left running swaps the worker's stderr as it builds
    thread = threading.Thread(
        target=serve,
        args=(small,),
        kwargs={"port": port, "poll": 0.1, "rounds": 600, "stop": stop, "only": ["site"]},  # printouts: serve's tests
        daemon=True,
    )
    thread.start()

    def fetch(path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.read().decode("utf-8")

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            first = fetch(RELOAD_PATH)
            break
        except OSError:
            time.sleep(0.2)
    assert first == "0:ok"
    assert EVENTS_PATH in fetch("/site/index.html")  # the page listens for rebuilds
    tables = small / "rules_src" / "rampant_hex" / "tables.yaml"
    tables.write_text(
        tables.read_text(encoding="utf-8").replace("The player must complete", "Players must complete"),
        encoding="utf-8",
    )
    while time.monotonic() < deadline and fetch(RELOAD_PATH) == "0:ok":
        time.sleep(0.2)
    try:
        assert fetch(RELOAD_PATH) == "1:ok"
        assert "Players must complete" in fetch("/site/rampant_hex/activation.html")
    finally:
        stop.set()
        thread.join(timeout=120)


def test_a_site_that_warns_is_refused(small, tmp_path, monkeypatch):
    from generator.render.site import pages
    from generator.source.project import load_project

    real = pages.site_pages

    def with_a_broken_link(*args, **kwargs):
        generated = real(*args, **kwargs)
        generated.add("rampant_hex/broken.md", "# Broken\n\nSee {doc}`no-such-page`.\n")
        return generated

    monkeypatch.setattr(pages, "site_pages", with_a_broken_link)
    project, _ = load_project(small)
    with pytest.raises(pages.SiteWarnings, match="no-such-page"):
        pages.build_site(project, tmp_path / "cache", tmp_path / "html", "player")


def test_a_site_that_warns_is_not_published(small, capsys, monkeypatch):
    from generator.render.site.pages import SiteWarnings

    def warned(tasks, workers, advance, walled=None):
        raise SiteWarnings("index.md:3: WARNING: something is off")

    monkeypatch.setattr(pipeline.plan, "run_tasks", warned)
    assert main(["-C", str(small), "build", "--only", "site", "--audience", "player"]) == 1
    err = capsys.readouterr().err
    assert "something is off" in err and "nothing is written to" in err  # its first build
    assert not (small / "build").exists()


def test_building_one_audience_keeps_the_other(small_built, capsys):
    small, _ = small_built  # the players' site built
    player_index = small / "build" / "site" / "index.html"
    before = player_index.stat().st_ino
    assert main(["-C", str(small), "build", "--only", "site", "--audience", "gm"]) == 0
    assert (small / "build" / "site-gm" / "index.html").is_file()
    assert player_index.stat().st_ino == before  # carried over untouched


@pytest.mark.build
def test_a_player_build_writes_the_player_files_of_a_full_build_and_nothing_for_the_gm(sample_build, tmp_path):
    """On a ruleset with game-master material: `--audience player` writes its sheets, booklets and site pages
    byte for byte as the full build writes them for the players, and nothing for the game-master. (So the tests
    that read the player outputs read the sample build's: conftest `player_build`.)"""
    ruleset = "ordo_ineptus"
    out = tmp_path / "build"
    assert main(["-C", str(ROOT), "build", "--audience", "player", "--ruleset", ruleset, "--out", str(out)]) == 0

    def of_the_ruleset(files):
        return {p for p in files if p.name.startswith(f"{ruleset}-") or p.parts[:2] == ("site", ruleset)}

    everything = {p.relative_to(sample_build) for p in sample_build.rglob("*") if p.is_file()}
    assert [p for p in of_the_ruleset(everything) if "-gm" in p.name], "the ruleset has game-master files"
    written = {p.relative_to(out) for p in out.rglob("*") if p.is_file()}
    assert not (out / "site-gm").exists() and not (out / "site-author").exists()
    assert not [p for p in written if "-gm" in p.name]
    expected = of_the_ruleset(player_files(sample_build))
    assert of_the_ruleset(written) == expected
    assert [p for p in sorted(expected) if (out / p).read_bytes() != (sample_build / p).read_bytes()] == []


def _gm_notes(data) -> list[str]:
    """Every `gm_note` anywhere in an exported ruleset, however deep."""
    if isinstance(data, dict):
        return [v for k, v in data.items() if k == "gm_note" and v] + [n for v in data.values() for n in _gm_notes(v)]
    if isinstance(data, list):
        return [n for v in data for n in _gm_notes(v)]
    return []


def test_player_export_carries_no_gm_note(tmp_path):
    """The two notes Ordo Ineptus keeps for the game-master (damage.yaml, turn.yaml) are in the gm export only."""
    notes = ["I have plenty more where they came from", "Have sticky tabs available for players"]
    player, gm = tmp_path / "player", tmp_path / "gm"
    assert main(["-C", str(ROOT), "export", "--out", str(player)]) == 0
    assert main(["-C", str(ROOT), "export", "--out", str(gm), "--audience", "gm"]) == 0
    for path in sorted(set(player.glob("*.json")) - {player / "ruleset.schema.json"}):
        text = path.read_text(encoding="utf-8")
        assert _gm_notes(json.loads(text)) == [], path.name
        assert not [note for note in notes if note in " ".join(text.split())], path.name
    ordo = json.loads((gm / "ordo_ineptus-gm.json").read_text(encoding="utf-8"))
    assert [note for note in notes if any(note in " ".join(n.split()) for n in _gm_notes(ordo))] == notes


# -- serve's search index, made after the page (no rendering: folders made by hand) ------------------------
def _hand_made_build(tmp_path: Path) -> Path:
    out = tmp_path / "build"
    (out / "site" / "_pagefind").mkdir(parents=True)
    (out / "site" / "index.html").write_text("<p>new words</p>", encoding="utf-8")
    (out / "site" / "_pagefind" / "pagefind.js").write_text("old index", encoding="utf-8")
    (out / "sheets").mkdir()
    (out / "sheets" / "a-a4.pdf").write_bytes(b"%PDF a sheet")
    (out / pipeline.staging.MANIFEST).write_text("{}", encoding="utf-8")
    return out


def _fake_pagefind(site: Path) -> Path:
    assert not (site / "_pagefind").exists()  # the copy holds no part of the old index to be mixed with the new
    (site / "_pagefind").mkdir()
    (site / "_pagefind" / "pagefind.js").write_text(
        "new index of " + (site / "index.html").read_text(encoding="utf-8"), encoding="utf-8"
    )
    return site / "_pagefind"


def test_a_new_search_index_is_made_on_a_copy_and_swapped_in_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline.search_index, "index_site", _fake_pagefind)
    out = _hand_made_build(tmp_path)
    page, sheet = (out / "site" / "index.html").stat().st_ino, (out / "sheets" / "a-a4.pdf").stat().st_ino
    staging = pipeline.search_index.copy_for_index(out)
    pipeline.search_index.index_copy(staging)
    assert (out / "site" / "_pagefind" / "pagefind.js").read_text(encoding="utf-8") == "old index"  # not yet swapped
    pipeline.search_index.swap_index(staging, out)
    assert (out / "site" / "_pagefind" / "pagefind.js").read_text(encoding="utf-8") == "new index of <p>new words</p>"
    assert (out / "site" / "index.html").stat().st_ino == page  # the very files, linked
    assert (out / "sheets" / "a-a4.pdf").stat().st_ino == sheet
    assert sorted(p.name for p in tmp_path.iterdir()) == [".rulepress-cache", "build"]  # no copy left behind


def test_a_search_index_whose_pagefind_failed_leaves_the_build_and_no_copy(tmp_path, monkeypatch):
    def failing(site):
        raise pipeline.build.SearchIndexError("Pagefind exited with 1")

    monkeypatch.setattr(pipeline.search_index, "index_site", failing)
    out = _hand_made_build(tmp_path)
    staging = pipeline.search_index.copy_for_index(out)
    with pytest.raises(pipeline.build.SearchIndexError):
        pipeline.search_index.index_copy(staging)
    assert (out / "site" / "_pagefind" / "pagefind.js").read_text(encoding="utf-8") == "old index"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_a_search_index_is_dropped_when_a_build_holds_the_lock(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline.search_index, "index_site", _fake_pagefind)
    out = _hand_made_build(tmp_path)
    staging = pipeline.search_index.copy_for_index(out)
    pipeline.search_index.index_copy(staging)
    with pipeline.guard.build_lock(out):  # a build runs (in this test, this process holds its lock)
        import threading

        dropped = threading.Thread(target=pipeline.search_index.swap_index, args=(staging, out))
        dropped.start()
        dropped.join()
    assert (out / "site" / "_pagefind" / "pagefind.js").read_text(encoding="utf-8") == "old index"
    assert not staging.exists()


def test_a_build_for_serve_keeps_the_previous_search_index_and_makes_one_when_there_is_none(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline.plan, "index_site", _fake_pagefind)
    out = _hand_made_build(tmp_path)
    previous = (out / "site" / "_pagefind" / "pagefind.js").stat().st_ino
    staging = tmp_path / "staging"
    (staging / "site").mkdir(parents=True)
    (staging / "site" / "index.html").write_text("<p>newer words</p>", encoding="utf-8")
    builder = pipeline.plan.Builder.__new__(pipeline.plan.Builder)
    builder.out, builder.staging = out, staging
    builder.previous_index("site")
    assert (staging / "site" / "_pagefind" / "pagefind.js").stat().st_ino == previous
    empty = tmp_path / "empty-out"
    builder.out = empty
    (staging / "site-gm").mkdir()
    (staging / "site-gm" / "index.html").write_text("<p>gm</p>", encoding="utf-8")
    builder.previous_index("site-gm")
    assert (staging / "site-gm" / "_pagefind" / "pagefind.js").read_text(encoding="utf-8") == "new index of <p>gm</p>"
