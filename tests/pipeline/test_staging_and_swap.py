"""Staging and the swap: what a killed build left is cleaned or brought back, the manifest, pages and files
carried from the previous build by link or copy, and the swap that replaces the out folder whole, under signals
and failures. On folders made by hand, without rendering anything."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import generator.pipeline.guard  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.staging  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import pipeline


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
        ".build-staging-short",
        ".build.old-x",
        ".other-staging-abcd_123",
        "build",
    ]
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


def test_a_staging_name_taken_is_drawn_again_and_a_hundred_taken_are_an_error(tmp_path, monkeypatch):
    """Beside the out folder another build's staging folder may hold the name drawn: another is drawn; where every
    one of a hundred draws is taken (something else made them), the error says so, nothing is overwritten."""
    (tmp_path / ".build-staging-taken000").mkdir()
    drawn = iter(["taken000", "taken000", "free0000"])
    monkeypatch.setattr(pipeline.staging.secrets, "token_hex", lambda n: next(drawn))
    assert pipeline.staging.new_staging(tmp_path / "build") == tmp_path / ".build-staging-free0000"
    draws = []
    monkeypatch.setattr(pipeline.staging.secrets, "token_hex", lambda n: draws.append(n) or "taken000")
    with pytest.raises(FileExistsError, match=f"^no free name for a staging folder beside {tmp_path / 'build'}$"):
        pipeline.staging.new_staging(tmp_path / "build")
    assert draws == [4] * 100


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
    (tmp_path / pipeline.staging.MANIFEST).write_text(
        json.dumps({"a.pdf": "k2"})
    )  # edited after this machine signed it
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


# Pages carried from the previous build, and the swap under signals and failures.


def test_a_page_with_the_same_bytes_is_the_previous_builds_file(tmp_path):
    built, previous, staging = tmp_path / "html", tmp_path / "site", tmp_path / "staged"
    for folder in (built, previous, staging):
        folder.mkdir()
    (built / "same.html").write_text("same")
    (previous / "same.html").write_text("same")
    (built / "changed.html").write_text("new!")
    (previous / "changed.html").write_text("old!")  # same size, other bytes
    (built / "longer.html").write_text("longer")
    (previous / "longer.html").write_text("long")
    (built / "fresh.html").write_text("fresh")
    for name in ("same.html", "changed.html", "longer.html", "fresh.html"):
        pipeline.staging.keep_if_same(str(built / name), staging / name, previous, built)
    assert os.path.samefile(staging / "same.html", previous / "same.html")
    for name, text in (("changed.html", "new!"), ("longer.html", "longer"), ("fresh.html", "fresh")):
        assert (staging / name).read_text() == text
        assert not os.path.samefile(staging / name, built / name)  # a copy: Sphinx rewrites its own in place
    assert not os.path.samefile(staging / "changed.html", previous / "changed.html")


def test_a_page_the_previous_build_cannot_read_is_copied(tmp_path, monkeypatch):
    built, previous = tmp_path / "html", tmp_path / "site"
    built.mkdir()
    previous.mkdir()
    (built / "a.html").write_text("a")
    (previous / "a.html").write_text("a")
    monkeypatch.setattr(Path, "read_bytes", lambda self: (_ for _ in ()).throw(PermissionError(13, "denied")))
    pipeline.staging.keep_if_same(str(built / "a.html"), tmp_path / "staged.html", previous, built)
    assert not os.path.samefile(tmp_path / "staged.html", previous / "a.html")


def test_link_or_copy_copies_where_no_link_can_be_made(tmp_path, monkeypatch):
    (tmp_path / "a").write_text("bytes")

    def no_links(*_):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_links)
    pipeline.staging.link_or_copy(tmp_path / "a", tmp_path / "b")
    assert (tmp_path / "b").read_text() == "bytes" and os.stat(tmp_path / "a").st_nlink == 1


def test_the_swap_holds_ctrl_c_and_term_until_both_renames_are_done(tmp_path, monkeypatch):
    import signal

    masks = []
    monkeypatch.setattr(signal, "pthread_sigmask", lambda how, signals: masks.append((how, set(signals))))
    (tmp_path / "staged").mkdir()
    pipeline.staging.swap(tmp_path / "staged", tmp_path / "build")
    assert masks == [
        (signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM}),
        (signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM}),
    ]


def test_a_swap_that_fails_puts_the_previous_build_back(tmp_path):
    out = tmp_path / "build"
    out.mkdir()
    (out / "index.html").write_text("previous")
    with pytest.raises(FileNotFoundError) as failed:
        pipeline.staging.swap(tmp_path / "no-staging", out)
    assert failed.value.filename == str(tmp_path / "no-staging")
    assert (out / "index.html").read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_a_first_swap_that_fails_leaves_nothing(tmp_path):
    with pytest.raises(FileNotFoundError) as failed:
        pipeline.staging.swap(tmp_path / "no-staging", tmp_path / "build")
    assert failed.value.filename == str(tmp_path / "no-staging")
    assert list(tmp_path.iterdir()) == []


def test_the_manifests_mac_is_this_machines_hmac_of_the_manifest_labelled_as_one(tmp_path, monkeypatch):
    import hashlib
    import hmac

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    staged = tmp_path / "staged"
    staged.mkdir()
    pipeline.staging.write_manifest(staged, {"b.pdf": "k2", "a.pdf": "k1"})
    data = b'{\n "a.pdf": "k1",\n "b.pdf": "k2"\n}'
    assert (staged / ".manifest.json").read_bytes() == data
    key = (tmp_path / "state" / "rulepress" / "cache-key").read_bytes().strip()
    mac = hmac.new(key, b"rulepress-cache\0build manifest\0" + data, hashlib.sha256).hexdigest()
    assert (staged / ".manifest.mac").read_bytes() == mac.encode() + b"\n"


def test_a_signed_manifest_that_is_no_json_object_names_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    (tmp_path / "build").mkdir()
    pipeline.staging.write_manifest(tmp_path / "build", ["a.pdf"])
    assert pipeline.staging.read_manifest(tmp_path / "build") == {}


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o755), (0o027, 0o750), (0o077, 0o700)])
def test_the_staging_folder_that_becomes_the_build_has_the_mode_mkdir_gives(tmp_path, umask, mode):
    """A web server reading `build/site` passes through `build/`: it is made as `mkdir` makes a folder."""
    before = os.umask(umask)
    try:
        staging = pipeline.staging.new_staging(tmp_path / "build")
    finally:
        os.umask(before)
    pipeline.staging.swap(staging, tmp_path / "build")
    assert stat.S_IMODE((tmp_path / "build").stat().st_mode) == mode
