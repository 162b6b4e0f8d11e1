"""Focused tests that kill mutmut survivors in the pipeline (see docs/mutation-survivors.md).

They drive the pipeline's own small steps (the summary line, the staging folders a killed build
leaves, the swap, the manifest, the lock) on folders made by hand, without rendering anything.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

import generator.pipeline.build
import generator.pipeline.guard
import generator.pipeline.plan
import generator.pipeline.staging
from generator import pipeline
from generator.pipeline.plan import Summary
from generator.pipeline.request import BuildRequest


def test_the_summary_line_names_each_kind_written_and_unchanged():
    assert Summary().line() == ""
    assert Summary(written={"site": 2}).line() == "site: 2 written, 0 unchanged"
    assert Summary(reused={"sheets": 3}).line() == "sheets: 0 written, 3 unchanged"
    assert Summary(written={"site": 1}, reused={"site": 1}, rendering=2.34).line() == \
        "site: 1 written, 1 unchanged (rendering 2.3s)"
    assert Summary(written={"not-a-kind": 1}).line() == ""


def test_the_summary_follows_the_order_of_outputs():
    first, second = pipeline.plan.OUTPUTS[0], pipeline.plan.OUTPUTS[1]
    line = Summary(written={second: 1, first: 2}).line()
    assert line == f"{first}: 2 written, 0 unchanged; {second}: 1 written, 0 unchanged"


def test_what_a_killed_build_left_is_cleaned_or_brought_back(tmp_path):
    out = tmp_path / "build"
    (tmp_path / ".build-staging-abcd_123").mkdir()  # a staging folder: 8 characters after the prefix
    (tmp_path / ".build-staging-short").mkdir()  # not one of ours: 5 characters
    (tmp_path / ".build.old-4242").mkdir()  # the previous build, half swapped: comes back as build/
    (tmp_path / ".build.old-4242" / "index.html").write_text("previous")
    (tmp_path / ".other-staging-abcd_123").mkdir()  # another out folder's: kept
    (tmp_path / ".build.old-x").mkdir()  # not a pid: kept
    pipeline.staging.clean_stale(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".build-staging-short", ".build.old-x", ".other-staging-abcd_123", "build"]
    assert (out / "index.html").read_text() == "previous"
    (tmp_path / ".build.old-99").mkdir()  # build/ exists now: an old one is only removed
    pipeline.staging.clean_stale(out)
    assert not (tmp_path / ".build.old-99").exists() and (out / "index.html").is_file()


def test_a_stale_file_or_link_is_never_removed(tmp_path):
    out = tmp_path / "build"
    (tmp_path / ".build-staging-abcd1234").write_text("a file, not a folder")
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / ".build.old-7").symlink_to(target)
    pipeline.staging.clean_stale(out)
    assert (tmp_path / ".build-staging-abcd1234").is_file() and (tmp_path / ".build.old-7").is_symlink()
    assert not out.exists()


def test_staging_sits_beside_the_out_folder(tmp_path):
    staging = pipeline.staging.new_staging(tmp_path / "site-out")
    assert staging.parent == tmp_path and staging.is_dir()
    assert staging.name.startswith(".site-out-staging-") and len(staging.name) == len(".site-out-staging-") + 8


def test_the_manifest_is_read_or_empty(tmp_path):
    assert pipeline.staging.read_manifest(tmp_path) == {}
    (tmp_path / pipeline.staging.MANIFEST).write_text("{not json")
    assert pipeline.staging.read_manifest(tmp_path) == {}
    (tmp_path / pipeline.staging.MANIFEST).write_text(json.dumps({"a.pdf": "k1"}))
    assert pipeline.staging.read_manifest(tmp_path) == {}  # no MAC: shipped, or copied from elsewhere
    pipeline.staging.write_manifest(tmp_path, {"a.pdf": "k1"})
    assert pipeline.staging.read_manifest(tmp_path) == {"a.pdf": "k1"}


def test_a_manifest_someone_else_wrote_names_nothing_to_reuse(tmp_path):
    pipeline.staging.write_manifest(tmp_path, {"a.pdf": "k1"})
    (tmp_path / pipeline.staging.MANIFEST).write_text(json.dumps({"a.pdf": "k2"}))  # edited after this machine signed it
    assert pipeline.staging.read_manifest(tmp_path) == {}


def test_a_folder_marked_read_only_is_not_writable(tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    assert pipeline.guard.writable(folder)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert not pipeline.guard.writable(folder)
    finally:
        folder.chmod(stat.S_IRWXU)


def test_link_or_copy_gives_the_same_bytes(tmp_path):
    source = tmp_path / "a"
    source.write_text("bytes")
    pipeline.staging.link_or_copy(source, tmp_path / "b")
    assert (tmp_path / "b").read_text() == "bytes" and os.stat(source).st_nlink == 2


def test_the_swap_replaces_the_out_folder_whole(tmp_path):
    out, staging = tmp_path / "build", tmp_path / "staged"
    out.mkdir()
    (out / "old.txt").write_text("old")
    staging.mkdir()
    (staging / "new.txt").write_text("new")
    pipeline.staging.swap(staging, out)
    assert [p.name for p in out.iterdir()] == ["new.txt"] and not staging.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_the_lock_names_its_holder_and_refuses_a_second(tmp_path):
    out = tmp_path / "build"
    with pipeline.guard.build_lock(out):
        lock = tmp_path / pipeline.guard.CACHE_DIR / "build.lock"
        assert lock.read_text() == str(os.getpid())
        with pytest.raises(pipeline.guard.BuildLocked, match=f"pid {os.getpid()}"):
            with pipeline.guard.build_lock(out):
                pass
    assert lock.read_text() == ""
    with pipeline.guard.build_lock(tmp_path / "other"):
        assert (tmp_path / pipeline.guard.CACHE_DIR / "other.lock").read_text() == str(os.getpid())


def test_a_bad_source_date_epoch_refuses_the_build(tmp_path, monkeypatch, capsys):
    (tmp_path / "rules_src").mkdir()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    assert pipeline.build.run_build(BuildRequest(tmp_path)) == 2
    assert "SOURCE_DATE_EPOCH='yesterday' is not a number" in capsys.readouterr().err
    assert not (tmp_path / "build").exists()


def test_a_build_with_broken_rules_fails_and_writes_nothing(tmp_path, capsys):
    (tmp_path / "rules_src" / "x").mkdir(parents=True)
    (tmp_path / "rules_src" / "x" / "ruleset.yaml").write_text("id: [")
    assert pipeline.build.run_build(BuildRequest(tmp_path)) == 1
    assert "build failed: 2 errors" in capsys.readouterr().err
    assert not (tmp_path / "build").exists()


def test_of_several_half_swapped_builds_the_first_by_name_comes_back(tmp_path):
    for pid in (5, 3, 1, 4, 2):
        (tmp_path / f".build.old-{pid}").mkdir()
        (tmp_path / f".build.old-{pid}" / "pid").write_text(str(pid))
    pipeline.staging.clean_stale(tmp_path / "build")
    assert (tmp_path / "build" / "pid").read_text() == "1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_a_stray_file_before_a_stale_folder_does_not_stop_the_cleaning(tmp_path):
    (tmp_path / ".a-stray-file").write_text("x")  # sorts before the staging folder
    (tmp_path / ".build-staging-abcd1234").mkdir()
    pipeline.staging.clean_stale(tmp_path / "build")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".a-stray-file"]
