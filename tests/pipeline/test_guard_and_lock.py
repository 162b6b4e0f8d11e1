"""What guards a build: the output-folder guard, the lock-and-refuse wrapper around a build, and what refuses
a build before it starts (a bad SOURCE_DATE_EPOCH, broken rules, a read-only out folder, Ctrl-C). On folders
made by hand; expected messages and file names written by hand."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import generator.pipeline.build  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.guard  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import pipeline
from generator.pipeline.request import BuildRequest
from generator.pipeline.staging import MANIFEST

# -- check_out: an output folder whose replacement would lose data is refused -------------------


def _refusal(root: Path, out: Path, default: Path | None = None) -> str:
    with pytest.raises(pipeline.guard.OutRefused) as refused:
        pipeline.guard.check_out(root, out, default or root / "build")
    return str(refused.value)


def test_the_default_and_new_empty_or_own_folders_are_accepted(tmp_path):
    root = tmp_path / "project"
    (root / "build").mkdir(parents=True)
    (root / "build" / "stray.txt").write_text("the default folder is ours whatever it holds")
    pipeline.guard.check_out(root, root / "build", root / "build")
    pipeline.guard.check_out(root, tmp_path / "new", root / "build")
    (tmp_path / "empty").mkdir()
    pipeline.guard.check_out(root, tmp_path / "empty", root / "build")
    (tmp_path / "ours").mkdir()
    (tmp_path / "ours" / ".manifest.json").write_text("{}")
    (tmp_path / "ours" / "index.html").write_text("an earlier build")
    pipeline.guard.check_out(root, tmp_path / "ours", root / "build")


def test_the_project_and_folders_above_or_inside_its_sources_are_refused(tmp_path):
    root = tmp_path / "project"
    (root / "rules_src" / "x").mkdir(parents=True)
    assert _refusal(root, root) == f"--out {root} is the project folder; a build replaces its output folder whole"
    assert _refusal(root, tmp_path) == f"--out {tmp_path} holds the project; a build replaces its output folder whole"
    inside = root / "rules_src" / "x"
    assert _refusal(root, inside) == f"--out {inside} is inside rules_src/; write builds elsewhere"


def test_a_file_or_a_folder_of_other_files_is_refused(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "a-file").write_text("x")
    assert _refusal(root, tmp_path / "a-file") == f"--out {tmp_path / 'a-file'} is not a folder"
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "cat.jpg").write_text("x")
    assert _refusal(root, tmp_path / "photos") == (
        f"--out {tmp_path / 'photos'} holds files rulepress did not write; "
        "name a new or empty folder, or one an earlier build wrote"
    )


@pytest.mark.parametrize("target", ["the project", "an empty folder", "a folder yet to be", "another build"])
def test_a_default_folder_that_links_anywhere_is_refused(tmp_path, target):
    """A project's build/ linking elsewhere came with the project: the club's trial linked it to an empty folder
    outside (the build wrote there), to nothing (the build made it) and to another project's build (the build
    replaced that project's site). Whatever it links to, a build refuses it."""
    root = tmp_path / "project"
    root.mkdir()
    other = tmp_path / "other" / "build"
    other.mkdir(parents=True)
    (other / MANIFEST).write_text("an earlier build's\n")
    places = {
        "the project": root,
        "an empty folder": tmp_path / "empty",
        "a folder yet to be": tmp_path / "nothing",
        "another build": other,
    }
    (tmp_path / "empty").mkdir()
    (root / "build").symlink_to(places[target])
    assert _refusal(root, root / "build") == (
        f"the project's build/ is a link to {places[target].resolve()}: a build writes its output inside the "
        "project; remove the link (or name another folder with --out)"
    )
    assert not (tmp_path / "nothing").exists()


# -- _locked: refuse, lock, clean, and turn failures into one line -----------------------------


def _work_recorder(calls: list, result=0):
    def work(request, out, started):
        calls.append((request.root, out, request, started > 0))
        return result

    return work


def test_locked_runs_the_work_on_the_resolved_default_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".build-staging-abcd1234").mkdir()  # a killed build's: cleaned first
    calls = []
    request = BuildRequest(tmp_path)
    assert pipeline.build._locked(request, _work_recorder(calls, 7)) == 7
    assert calls == [(tmp_path, tmp_path / "build", request, True)]
    assert not (tmp_path / ".build-staging-abcd1234").exists()
    assert (tmp_path / ".rulepress-cache" / "build.lock").read_text() == ""
    calls.clear()
    assert pipeline.build._locked(BuildRequest(tmp_path, out=Path("deep/er/out")), _work_recorder(calls)) == 0
    assert calls[0][1] == tmp_path / "deep" / "er" / "out"


def test_locked_refuses_a_bad_out_folder(tmp_path, capsys):
    calls = []
    assert pipeline.build._locked(BuildRequest(tmp_path, out=tmp_path), _work_recorder(calls)) == 2
    assert capsys.readouterr().err == (
        f"rulepress: error: --out {tmp_path} is the project folder; a build replaces its output folder whole\n"
    )
    assert calls == []


def test_an_empty_source_date_epoch_is_unset_and_a_padded_number_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "  ")
    assert pipeline.build._locked(BuildRequest(tmp_path, out=None), _work_recorder([])) == 0
    assert "SOURCE_DATE_EPOCH" not in os.environ
    monkeypatch.setenv("SOURCE_DATE_EPOCH", " 1700000000 ")
    assert pipeline.build._locked(BuildRequest(tmp_path, out=None), _work_recorder([])) == 0
    assert os.environ["SOURCE_DATE_EPOCH"] == " 1700000000 "


def test_a_read_only_out_folder_is_left_as_it_was(tmp_path, capsys):
    out = tmp_path / "build"
    out.mkdir()
    out.chmod(0o555)
    try:
        calls = []
        assert pipeline.build._locked(BuildRequest(tmp_path, out=None), _work_recorder(calls)) == 1
    finally:
        out.chmod(0o755)
    assert capsys.readouterr().err == (
        f"rulepress: error: {out} is read-only; it is left as it was (make it writable, or pass --out)\n"
    )
    assert calls == []


def test_a_second_build_while_one_holds_the_lock_says_so(tmp_path, capsys):
    with pipeline.guard.build_lock(tmp_path / "build"):
        assert pipeline.build._locked(BuildRequest(tmp_path, out=None), _work_recorder([])) == 1
    assert capsys.readouterr().err == (
        f"rulepress: another rulepress build is writing {tmp_path / 'build'} (pid {os.getpid()}); "
        "try again when it has finished\n"
    )


def test_ctrl_c_and_a_disk_error_end_the_build_in_one_line(tmp_path, capsys):
    def interrupted(*_):
        raise KeyboardInterrupt

    def full(*_):
        raise OSError(28, "No space left on device")

    out = tmp_path / "build"
    assert pipeline.build._locked(BuildRequest(tmp_path, out=None), interrupted) == 130
    assert capsys.readouterr().err == f"rulepress: interrupted; nothing is written to {out}\n"  # a first build
    assert pipeline.build._locked(BuildRequest(tmp_path, out=None), full) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulepress: error: cannot write the build: ") and err.endswith(
        f"; nothing is written to {out}\n"
    )
    assert "No space left on device" in err


# -- the fresh process a site is built in, and the worker pool's helpers -----------------------


# The lock, and what refuses a build before it starts.


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


def test_the_lock_is_a_plain_file_its_owner_writes_and_others_only_read(tmp_path):
    """Made under the usual umask (022): rw-r--r--, never executable, never writable by another user."""
    old_mask = os.umask(0o022)
    try:
        with pipeline.guard.build_lock(tmp_path / "build"):
            pass
    finally:
        os.umask(old_mask)
    assert stat.S_IMODE((tmp_path / pipeline.guard.CACHE_DIR / "build.lock").stat().st_mode) == 0o644


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
    assert "build failed: 1 error;" in capsys.readouterr().err
    assert not (tmp_path / "build").exists()
