"""Fast tests of the pipeline's own steps, called directly on folders made by hand (issue 14).

The full-build tests (tests/test_pipeline.py, tests/test_pdf_builds.py) take minutes; mutation
testing runs these instead: the output-folder guard, the PDF cache key and the files it follows,
the lock-and-refuse wrapper around a build, the staging of Sphinx's output, the fresh process a
site is built in, and the small helpers of the worker pool. Expected values are written by hand
(messages, file names) or follow the documented recipe with hashlib itself (the PDF key).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

import generator.pipeline.build
import generator.pipeline.guard
import generator.pipeline.plan
import generator.pipeline.staging
import generator.pipeline.workers
from generator import __version__, keys, pipeline
from generator.pipeline.request import BuildRequest
from generator.render.assets import default_templates
from generator.render.pdf import PdfJob


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
        "name a new or empty folder, or one an earlier build wrote")


def test_a_default_folder_linking_to_the_project_is_refused_by_where_it_links(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "build").symlink_to(root)
    assert _refusal(root, root / "build") == (
        f"the output folder {root} (where build/ links) is the project folder; "
        "a build replaces its output folder whole")


def test_a_default_folder_linking_elsewhere_is_checked_like_any_other(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "notes.txt").write_text("someone's")
    (root / "build").symlink_to(tmp_path / "elsewhere")
    assert _refusal(root, root / "build") == (
        f"the output folder {tmp_path / 'elsewhere'} (where build/ links) holds files rulepress did not write; "
        "name a new or empty folder, or one an earlier build wrote")


# -- where caches and keys live ----------------------------------------------------------------

def test_the_site_cache_is_one_folder_per_out_folder_inside_the_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    digest = hashlib.sha256(str(out).encode()).hexdigest()[:16]
    assert pipeline.plan.site_cache(Path("."), Path("out"), "site-gm") == tmp_path / ".rulepress-cache" / f"out-{digest}" / "site-gm"
    assert pipeline.plan.site_cache(tmp_path, tmp_path / "other", "site") != pipeline.plan.site_cache(tmp_path, out, "site")


def test_the_code_hash_starts_with_the_version():
    code = pipeline.plan.code_hash()
    assert code.startswith(f"{__version__}-") and len(code) > len(__version__) + 8


def _job(tmp_path: Path, html: str, stylesheets=(), fit=(), base=None) -> PdfJob:
    return PdfJob(html=html, target=tmp_path / "out.pdf", base_dir=base or tmp_path / "templates",
                  stylesheets=tuple(stylesheets), fit=tuple(fit))


def test_the_pdf_key_hashes_code_html_fit_and_stylesheets_in_that_order(tmp_path):
    sheet = tmp_path / "plain.css"
    sheet.write_text("p { color: black }")
    job = _job(tmp_path, "<p>x</p>", [sheet], fit=["a", "b"])
    expected = hashlib.sha256(b"code-1")
    for part in (b"<p>x</p>", b"\0fit\0a", b"\0fit\0b", b"p { color: black }"):
        expected.update(part)
    assert keys.job_key(job, "code-1", tmp_path) == expected.hexdigest()


def test_the_pdf_key_hashes_each_linked_asset_by_name_path_and_bytes(tmp_path):
    (tmp_path / "templates").mkdir()
    logo = tmp_path / "templates" / "logo.png"
    logo.write_bytes(b"PNG1")
    job = _job(tmp_path, '<img src="logo.png"><img src="gone.png">')
    expected = hashlib.sha256(b"c")
    expected.update(job.html.encode())
    expected.update(b"gone.png\0" + str(default_templates() / "gone.png").encode() + b"\0")
    expected.update(b"missing")
    expected.update(b"logo.png\0" + str(logo).encode() + b"\0")
    expected.update(b"PNG1")
    assert keys.job_key(job, "c", tmp_path) == expected.hexdigest()


def test_the_pdf_key_follows_what_the_page_links_and_nothing_else(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "logo.png").write_bytes(b"PNG1")
    (tmp_path / "templates" / "unused.png").write_bytes(b"x")
    job = _job(tmp_path, '<img src="logo.png">')
    key = keys.job_key(job, "c", tmp_path)
    (tmp_path / "templates" / "unused.png").write_bytes(b"y")
    assert keys.job_key(job, "c", tmp_path) == key
    (tmp_path / "templates" / "logo.png").write_bytes(b"PNG2")
    assert keys.job_key(job, "c", tmp_path) != key


def test_a_link_the_key_cannot_name_makes_it_follow_every_asset(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "unused.png").write_bytes(b"x")
    job = _job(tmp_path, '<img src="https://example.org/a.png">')
    key = keys.job_key(job, "c", tmp_path)
    (tmp_path / "templates" / "unused.png").write_bytes(b"y")
    assert keys.job_key(job, "c", tmp_path) != key


def test_linked_assets_follows_src_link_href_url_and_imports(tmp_path):
    templates = tmp_path / "templates"
    (templates / "css").mkdir(parents=True)
    (templates / "css" / "main.css").write_text('@import "parts.css"; body { background: url(../paper.png) }')
    (templates / "css" / "parts.css").write_text("h1 { background: url('head.png#top') }")
    html = ('<img src="first.png"><img src="a.png?v=2"><link rel="stylesheet" href="css/main.css"><a href="not-fetched.html">x</a>'
            '<p style=\'x: url("b.png")\'></p>'
            '<img src="#place"><img src="data:image/png;base64,AAAA"><img src="a.png">')
    job = _job(tmp_path, html)
    assert keys.linked_assets(job, tmp_path) == [
        "a.png", "b.png", "css/head.png", "css/main.css", "css/parts.css", "first.png", "paper.png"]


def test_linked_assets_follows_the_stylesheets_given_beside_the_html(tmp_path):
    templates = tmp_path / "templates"
    (templates / "sheets").mkdir(parents=True)
    sheet = templates / "sheets" / "sheet.css"
    sheet.write_text("@import 'base.css';")
    (templates / "sheets" / "base.css").write_text("")
    job = _job(tmp_path, "<p>no links</p>", [sheet])
    assert keys.linked_assets(job, tmp_path) == ["sheets/base.css"]


def test_linked_assets_is_none_for_a_scheme_or_a_file_outside_the_templates(tmp_path):
    (tmp_path / "templates").mkdir()
    assert keys.linked_assets(_job(tmp_path, '<img src="file:///etc/passwd">'), tmp_path) is None
    assert keys.linked_assets(_job(tmp_path, '<img src="http://x/y.png">'), tmp_path) is None
    assert keys.linked_assets(_job(tmp_path, '<img src="../secret.png">'), tmp_path) is None
    assert keys.linked_assets(_job(tmp_path, '<img src="a/b:c.png">'), tmp_path) == ["a/b:c.png"]


def test_linked_assets_names_the_default_templates_too(tmp_path):
    job = _job(tmp_path, '<img src="x.png">', base=default_templates() / "sheets")
    assert keys.linked_assets(job, tmp_path) == ["sheets/x.png"]


def test_a_stylesheet_that_cannot_be_read_is_empty_text(tmp_path):
    assert keys._text(tmp_path / "missing.css") == ""
    (tmp_path / "bad.css").write_bytes(b"a\xffb")
    assert keys._text(str(tmp_path / "bad.css")) == "a\ufffdb"


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
        f"rulepress: error: --out {tmp_path} is the project folder; a build replaces its output folder whole\n")
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
        f"rulepress: error: {out} is read-only; it is left as it was (make it writable, or pass --out)\n")
    assert calls == []


def test_a_second_build_while_one_holds_the_lock_says_so(tmp_path, capsys):
    with pipeline.guard.build_lock(tmp_path / "build"):
        assert pipeline.build._locked(BuildRequest(tmp_path, out=None), _work_recorder([])) == 1
    assert capsys.readouterr().err == (
        f"rulepress: another rulepress build is writing {tmp_path / 'build'} (pid {os.getpid()}); "
        "try again when it has finished\n")


def test_ctrl_c_and_a_disk_error_end_the_build_in_one_line(tmp_path, capsys):
    def interrupted(*_):
        raise KeyboardInterrupt

    def full(*_):
        raise OSError(28, "No space left on device")

    out = tmp_path / "build"
    assert pipeline.build._locked(BuildRequest(tmp_path, out=None), interrupted) == 130
    assert capsys.readouterr().err == f"rulepress: interrupted; {out} is left as it was\n"
    assert pipeline.build._locked(BuildRequest(tmp_path, out=None), full) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulepress: error: cannot write the build: ") and err.endswith(f"; {out} is left as it was\n")
    assert "No space left on device" in err


# -- staging Sphinx's output -------------------------------------------------------------------

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


# -- the fresh process a site is built in, and the worker pool's helpers -----------------------

def _double(value):
    return value * 2


def _fail(value):
    raise ValueError(f"bad {value}")


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("no pickling")


def _fail_unpicklably(value):
    raise _Unpicklable(f"odd {value}")


def _vanish(value):
    os._exit(value)


def test_a_fresh_process_returns_the_result_or_raises_the_error_here():
    assert pipeline.workers._in_fresh_process(_double, 21) == 42
    with pytest.raises(ValueError, match="^bad 3$"):
        pipeline.workers._in_fresh_process(_fail, 3)
    with pytest.raises(RuntimeError, match="^_Unpicklable: odd 4$"):
        pipeline.workers._in_fresh_process(_fail_unpicklably, 4)
    with pytest.raises(RuntimeError, match=r"^the site build process ended without a result \(exit status 3\)$"):
        pipeline.workers._in_fresh_process(_vanish, 3)


class _Pipe:
    def __init__(self):
        self.sent, self.closed = [], False

    def send(self, value):
        self.sent.append(value)

    def close(self):
        self.closed = True


def test_the_fresh_child_sends_ok_or_the_pickled_error(monkeypatch):
    import pickle

    watched = []
    monkeypatch.setattr(pipeline.workers, "die_with_parent", lambda: watched.append(True))
    pipe = _Pipe()
    pipeline.workers._fresh_child(pipe, _double, 5)
    assert pipe.sent == [("ok", 10)] and pipe.closed and watched == [True]
    pipe = _Pipe()
    pipeline.workers._fresh_child(pipe, _fail, 6)
    status, value = pipe.sent[0]
    assert status == "error" and repr(pickle.loads(value)) == repr(ValueError("bad 6"))
    pipe = _Pipe()
    pipeline.workers._fresh_child(pipe, _fail_unpicklably, 7)
    status, value = pipe.sent[0]
    assert status == "error" and repr(pickle.loads(value)) == repr(RuntimeError("_Unpicklable: odd 7"))


def test_a_task_is_its_function_on_its_arguments_and_times_itself_on_request(monkeypatch, capsys):
    monkeypatch.delenv("RULEPRESS_TIMINGS", raising=False)
    assert pipeline.workers._call((_double, 4)) == 8
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("RULEPRESS_TIMINGS", "1")
    assert pipeline.workers._call((_double, "x" * 100)) == "x" * 200
    assert re.fullmatch(r"  [ \d]{2}\d\.\d\ds _double " + "x" * 90 + "\n", capsys.readouterr().err)


def test_no_tasks_start_no_pool():
    assert pipeline.workers.run_tasks([], None, lambda: None) == []


class _Process:
    def __init__(self, alive_after_join: bool):
        self.alive, self.alive_after_join, self.calls = True, alive_after_join, []

    def is_alive(self):
        return self.alive

    def terminate(self):
        self.calls.append("terminate")

    def join(self, timeout=None):
        self.calls.append(("join", timeout))
        self.alive = self.alive_after_join

    def kill(self):
        self.calls.append("kill")


def test_stopping_the_pool_terminates_then_kills_what_is_left():
    stubborn, polite = _Process(True), _Process(False)
    shutdowns = []
    pool = SimpleNamespace(shutdown=lambda **kw: shutdowns.append(kw))
    pipeline.workers._stop(pool, [stubborn, polite])
    assert shutdowns == [{"wait": False, "cancel_futures": True}]
    assert stubborn.calls == ["terminate", ("join", 5), "kill"]
    assert polite.calls == ["terminate", ("join", 5)]
    pipeline.workers._stop(SimpleNamespace(shutdown=lambda **kw: None), [])  # a pool that never started


def test_the_progress_bar_is_silent_off_a_terminal(monkeypatch):
    monkeypatch.setattr("sys.stderr", SimpleNamespace(isatty=lambda: False))
    with pipeline.workers.progress("building", 3) as advance:
        assert advance() is None and advance("ignored") is None


def test_the_pool_runs_each_task_and_gives_results_in_task_order():
    done = []
    assert pipeline.workers.run_tasks([(abs, -3), (len, "abcd"), (str.upper, "x")], 1, lambda: done.append(1)) == [3, 4, "X"]
    assert len(done) == 3
    with pytest.raises(ValueError, match="invalid literal"):
        pipeline.workers.run_tasks([(int, "seven"), (abs, 1)], None, lambda: None)


def test_a_worker_ignores_ctrl_c_ends_with_the_build_and_warms_up(monkeypatch):
    import signal

    calls = []
    monkeypatch.setattr(pipeline.workers, "die_with_parent", lambda *args: calls.append(("die_with_parent", args)))
    monkeypatch.setattr(pipeline.workers, "watch", lambda *args: calls.append(("watch", args)))
    monkeypatch.setattr("generator.pipeline.workers._warm_worker", lambda: calls.append(("warm", ())))
    previous = signal.getsignal(signal.SIGINT)
    try:
        pipeline.workers._worker_init(os.getpid())
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    assert calls == [("die_with_parent", ()), ("watch", (os.getpid(),)), ("warm", ())]


def _ended_pid() -> int:
    import subprocess

    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_worker_whose_build_already_ended_exits_at_once(monkeypatch):
    import signal

    monkeypatch.setattr(pipeline.workers, "die_with_parent", lambda *args: None)
    monkeypatch.setattr(pipeline.workers, "watch", lambda *args: pytest.fail("watched an ended build"))

    def exit_(code):
        raise SystemExit(code)

    monkeypatch.setattr(os, "_exit", exit_)
    previous = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as exited:
            pipeline.workers._worker_init(_ended_pid())
    finally:
        signal.signal(signal.SIGINT, previous)
    assert exited.value.code == 1


def test_the_watcher_exits_once_the_watched_process_has_ended(monkeypatch):
    import threading
    import time

    exits, never = [], threading.Event()

    def exit_(code):
        exits.append(code)
        never.wait()  # the watching thread stops here for good (a daemon: it ends with the tests)

    monkeypatch.setattr(os, "_exit", exit_)
    ended = _ended_pid()
    pipeline.workers.watch(ended, every=0.01)
    deadline = time.monotonic() + 5
    while not exits and time.monotonic() < deadline:
        time.sleep(0.01)
    assert exits == [1]
    assert [t.daemon for t in threading.enumerate() if t.name == f"watch-{ended}"] == [True]


def _pdeathsig() -> int:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    signal_number = ctypes.c_int(0)
    assert libc.prctl(2, ctypes.byref(signal_number), 0, 0, 0) == 0  # PR_GET_PDEATHSIG
    return signal_number.value


def test_a_process_asks_the_kernel_to_end_it_with_its_parent(monkeypatch):
    import ctypes
    import signal

    monkeypatch.setattr(pipeline.workers, "watch", lambda *args: pytest.fail("watched although the kernel will end it"))
    before = _pdeathsig()
    try:
        pipeline.workers.die_with_parent(os.getppid())
        assert _pdeathsig() == signal.SIGKILL
    finally:
        ctypes.CDLL(None).prctl(1, before, 0, 0, 0)  # PR_SET_PDEATHSIG back as it was
    assert _pdeathsig() == before


def test_a_process_whose_parent_already_changed_exits(monkeypatch):
    import ctypes

    def exit_(code):
        raise SystemExit(code)

    monkeypatch.setattr(os, "_exit", exit_)
    before = _pdeathsig()
    try:
        with pytest.raises(SystemExit) as exited:
            pipeline.workers.die_with_parent(os.getppid() + 100000)
    finally:
        ctypes.CDLL(None).prctl(1, before, 0, 0, 0)
    assert exited.value.code == 1


def test_without_the_kernels_help_a_thread_watches_the_parent(monkeypatch):
    import ctypes

    watched = []
    monkeypatch.setattr(pipeline.workers, "watch", lambda pid: watched.append(pid))
    monkeypatch.setattr(pipeline.workers.sys, "platform", "darwin")
    pipeline.workers.die_with_parent(4242)
    monkeypatch.setattr(pipeline.workers.sys, "platform", "linux")

    def no_libc(*args, **kwargs):
        raise OSError("no libc")

    monkeypatch.setattr(ctypes, "CDLL", no_libc)
    pipeline.workers.die_with_parent(4343)
    pipeline.workers.die_with_parent()
    assert watched == [4242, 4343, os.getppid()]


def test_a_site_is_built_from_the_project_loaded_again_in_a_fresh_process(monkeypatch, tmp_path):
    checked, built = [], []
    checked_project = SimpleNamespace(root=tmp_path)
    monkeypatch.setattr(pipeline.workers, "load_project", lambda root: checked.append(root) or (checked_project, []))
    monkeypatch.setattr(pipeline.workers, "build_site", lambda project, cache, outdir, audience, downloads, pages=None: built.append(
        (project, cache, outdir, audience, downloads, pages)) or SimpleNamespace(outdir=outdir / "html"))
    args = (str(tmp_path), "/c/site", "/c/site-html", "gm", {"x": []}, "the pages")
    assert pipeline.workers._build_one_site(args) == "/c/site-html/html"
    assert checked == [tmp_path]  # loaded, not checked again: the build checked it a moment ago
    assert built == [(checked_project, Path("/c/site"), Path("/c/site-html"), "gm", {"x": []}, "the pages")]
    ran = []
    monkeypatch.setattr(pipeline.workers, "_in_fresh_process", lambda function, given: ran.append((function, given)) or "out")
    assert pipeline.workers.site_worker(args) == "out" and ran == [(pipeline.workers._build_one_site, args)]


def test_check_with_examples_runs_the_examples_of_every_ruleset_the_errors_do_not_reach(monkeypatch, tmp_path):
    import generator.examples.run as example_runs
    from generator.diagnostics import Code, Diagnostic, Diagnostics, Location
    from generator.validate import CheckResult

    class Cache:
        def __init__(self, root):
            self.root = root

    def ruleset(id):
        return SimpleNamespace(id=id, examples=(1, 2), meta=SimpleNamespace(extends="", overlay=False))

    rulesets = [ruleset("a"), ruleset("b")]
    project = SimpleNamespace(root=tmp_path / "resolved", rulesets=rulesets, with_house_results=lambda found: project)
    asked = []
    monkeypatch.setattr(pipeline.build, "CheckCache", Cache)

    def examples(ruleset, root, cache, every):
        asked.append((ruleset.id, root, type(cache), every))
        return SimpleNamespace(failures=[f"{ruleset.id}1", f"{ruleset.id}2"], changed=(), ruleset=ruleset.id)

    monkeypatch.setattr(example_runs, "run_examples_cached", examples)
    good = CheckResult(project, Diagnostics([]))
    monkeypatch.setattr(pipeline.build, "check_project", lambda root, cache: asked.append(("check", root, cache.root)) or good)
    assert pipeline.build.check_with_examples(tmp_path)[1] == ["a1", "a2", "b1", "b2"]
    assert asked == [("check", tmp_path, tmp_path), ("a", tmp_path / "resolved", Cache, rulesets),
                     ("b", tmp_path / "resolved", Cache, rulesets)]
    asked.clear()
    error = Diagnostic(Code.TABLE_GAP, "gap", Location("rules_src/b/tables.yaml", 3, 1))
    bad = CheckResult(project, Diagnostics([error]))
    monkeypatch.setattr(pipeline.build, "check_project", lambda root, cache: bad)
    assert pipeline.build.check_with_examples(tmp_path)[1] == ["a1", "a2"]  # b's errors reach b's examples alone
    assert asked == [("a", tmp_path / "resolved", Cache, rulesets)]


def test_stopping_a_pool_without_workers_does_nothing_more():
    shutdowns = []
    pipeline.workers._stop(SimpleNamespace(shutdown=lambda **kw: shutdowns.append(kw)), [])
    assert shutdowns == [{"wait": False, "cancel_futures": True}]


def test_the_workers_to_stop_are_the_children_started_since_the_pool_began():
    import multiprocessing
    import time

    context = multiprocessing.get_context("fork")
    earlier, later = (context.Process(target=time.sleep, args=(30,)) for _ in range(2))
    earlier.start()
    try:
        before = set(multiprocessing.active_children())
        assert pipeline.workers._started_since(before) == []
        later.start()
        assert pipeline.workers._started_since(before) == [later]  # never a child this process had before
    finally:
        for child in (earlier, later):
            if child.pid is not None:
                child.kill()
                child.join()


def test_the_swap_holds_ctrl_c_and_term_until_both_renames_are_done(tmp_path, monkeypatch):
    import signal

    masks = []
    monkeypatch.setattr(signal, "pthread_sigmask", lambda how, signals: masks.append((how, set(signals))))
    (tmp_path / "staged").mkdir()
    pipeline.staging.swap(tmp_path / "staged", tmp_path / "build")
    assert masks == [(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM}), (signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})]


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


def test_watching_a_live_process_sends_it_no_signal(monkeypatch):
    import subprocess
    import threading
    import time

    exits, never = [], threading.Event()

    def exit_(code):
        exits.append(code)
        never.wait()  # the watching thread stops here for good (a daemon: it ends with the tests)

    monkeypatch.setattr(os, "_exit", exit_)
    child = subprocess.Popen(["sleep", "30"])
    try:
        pipeline.workers.watch(child.pid, every=0.01)
        time.sleep(0.2)
        assert child.poll() is None and exits == []  # still running: the watcher only asks whether it exists
    finally:
        child.kill()
        child.wait()
    deadline = time.monotonic() + 5
    while not exits and time.monotonic() < deadline:  # it has ended: the watcher exits (here, it stops)
        time.sleep(0.01)
    assert exits == [1]
