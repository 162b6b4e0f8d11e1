"""The workers a build runs its renderers in: fresh processes, the pool and its tasks, and the watchers that end
a worker with its build or its parent. No renderer runs: the tasks are small functions defined here."""

from __future__ import annotations

import io
import os
import re
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

import generator.pipeline.workers  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import pipeline


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


def said(text: str) -> list[str]:
    """The lines of plain progress, without the time each ends with."""
    return [re.sub(r" \([0-9]+m[0-9]{2}s\)$", "", line) for line in text.splitlines()]


def test_off_a_terminal_progress_is_a_line_for_what_is_built_and_one_as_each_output_is_done(monkeypatch):
    log = io.StringIO()
    monkeypatch.setattr("sys.stderr", log)
    labels = ["site", "sheets of mill", "handouts of mill", "sheets of mill"]
    with pipeline.workers.progress("building", 4, labels) as advance:
        advance(1)  # one of mill's two sheets: mill's sheets are not done yet
        advance(0)
        advance(3)
        advance(2)
    assert said(log.getvalue()) == [
        "rulepress: building 4 outputs: site, sheets of mill, handouts of mill",
        "rulepress: [2/4] site done",
        "rulepress: [3/4] sheets of mill done",
        "rulepress: [4/4] handouts of mill done",
    ]


def test_off_a_terminal_a_long_quiet_render_says_it_is_still_going(monkeypatch):
    log = io.StringIO()
    monkeypatch.setattr("sys.stderr", log)
    monkeypatch.setattr(pipeline.workers.Plain, "QUIET", 0.05)
    with pipeline.workers.progress("building", 2, ["site", "site-gm"]):
        assert "rulepress-progress" in [thread.name for thread in threading.enumerate()]
        for _ in range(500):
            if len(log.getvalue().splitlines()) > 1:
                break
            threading.Event().wait(0.01)
    assert said(log.getvalue())[:2] == ["rulepress: building 2 outputs: site, site-gm", "rulepress: [0/2] building"]
    assert "rulepress-progress" not in [thread.name for thread in threading.enumerate()]  # ended with the build


class _Clock:
    """A build's clock and its progress's wait, stood in for: each wait moves the clock on by what is scripted."""

    def __init__(self, start: float, script):
        self.now, self.script, self.waits = start, list(script), []

    def monotonic(self) -> float:
        return self.now

    def wait(self, timeout: float) -> bool:
        """The progress thread's sleep: False (not stopped) while the script has a step, which moves the clock."""
        self.waits.append(timeout)
        if not self.script:
            return True
        step = self.script.pop(0)
        self.now += timeout if step == "all of it" else step[0]
        if step != "all of it":
            step[1]()
        return False


def test_a_quiet_build_is_said_still_going_once_each_quiet_minute_and_not_once_it_is_done(monkeypatch):
    """The progress thread's loop, step by step on a stood-in clock: an early wake-up says nothing and sleeps the
    rest of the minute; a whole quiet minute says the count; once every task is done it says nothing more, and
    sleeps a second at least."""
    log = io.StringIO()
    monkeypatch.setattr("sys.stderr", log)
    plain = pipeline.workers.Plain("building", 0)  # no thread: the loop is run here, by hand
    plain.total = 2
    clock = _Clock(plain.started, [(30, lambda: None), "all of it", (60, lambda: setattr(plain, "done", 2))])
    monkeypatch.setattr(pipeline.workers, "time", SimpleNamespace(monotonic=clock.monotonic))
    plain.stopped = SimpleNamespace(wait=clock.wait)
    plain._heartbeat()
    assert clock.waits == [60.0, 30.0, 60.0, 1.0]
    assert log.getvalue().splitlines() == ["rulepress: [0/2] building (1m00s)"]


def test_a_progress_line_ends_with_the_minutes_and_seconds_since_the_build_began(monkeypatch):
    log = io.StringIO()
    monkeypatch.setattr("sys.stderr", log)
    clock = _Clock(5000.0, [])
    monkeypatch.setattr(pipeline.workers, "time", SimpleNamespace(monotonic=clock.monotonic))
    plain = pipeline.workers.Plain("building", 1, ["site"])  # one output: no plural
    plain.stop()
    for elapsed in (61.9, 125.0, 3599.0, 3600.0):
        clock.now = 5000.0 + elapsed
        plain.say("still")
    assert log.getvalue().splitlines() == [
        "rulepress: building 1 output: site (0m00s)",
        "rulepress: still (1m01s)",
        "rulepress: still (2m05s)",
        "rulepress: still (59m59s)",
        "rulepress: still (60m00s)",
    ]


def test_a_task_done_without_labels_counts_and_says_nothing(monkeypatch):
    log = io.StringIO()
    monkeypatch.setattr("sys.stderr", log)
    with pipeline.workers.progress("building", 2, ["only one label"]) as advance:  # labels that do not fit: none
        advance(0)
        advance(1)
    assert said(log.getvalue()) == ["rulepress: building 2 outputs"]


def test_serves_copy_of_what_a_build_said_gets_no_progress_lines(monkeypatch):
    """`rulepress serve` shows on the page what a build said: its progress is none of that."""
    from generator.serve import _Tee

    log = io.StringIO()
    tee = _Tee(log)
    monkeypatch.setattr("sys.stderr", tee)
    with pipeline.workers.progress("building", 2, ["site", "site-gm"]) as advance:
        advance(0)
        advance(1)
    assert log.getvalue() == tee.copy.getvalue() == ""


def test_off_a_terminal_nothing_to_render_says_nothing_and_a_count_alone_counts(monkeypatch):
    log = io.StringIO()
    monkeypatch.setattr("sys.stderr", log)
    with pipeline.workers.progress("building", 0, []):
        pass
    assert log.getvalue() == ""
    with pipeline.workers.progress("building", 2) as advance:  # no labels: what was done is not known
        advance()
        advance()
    assert said(log.getvalue()) == ["rulepress: building 2 outputs"]


def test_the_pool_runs_each_task_gives_results_in_task_order_and_tells_progress_of_each_task_done():
    """A failed task stops the pool (as a Ctrl-C does, which ends every task): neither it nor the task it cut short
    is said to be done, where each was said done before."""
    done = []
    assert pipeline.workers.run_tasks([(abs, -3), (len, "abcd"), (str.upper, "x")], 1, done.append) == [3, 4, "X"]
    assert sorted(done) == [0, 1, 2]
    done = []
    with pytest.raises(ValueError, match="invalid literal"):
        pipeline.workers.run_tasks([(int, "seven"), (time.sleep, 60)], 2, done.append)
    assert done == []


def test_with_the_wall_in_use_the_tasks_go_to_walled_workers_with_the_progress_and_whether_a_site_is_built(
    monkeypatch, tmp_path
):
    asked = []

    def walled_pool(tasks, count, advance, *, read, write, sites):
        asked.append((len(tasks), count, read, write, sites))
        return [advance() or function.__name__ for function, _args in tasks]

    monkeypatch.setattr(pipeline.workers.wall, "in_use", lambda: True)
    monkeypatch.setattr(pipeline.workers, "run_walled", walled_pool)
    done, read, write = [], [tmp_path / "rules_src"], [tmp_path / "out" / "pdf"]
    tasks = [(abs, -1), (pipeline.workers.site_worker, ())]
    assert pipeline.workers.run_tasks(tasks, 3, lambda *_: done.append(1), walled=(read, write)) == [
        "abs",
        "site_worker",
    ]
    assert pipeline.workers.run_tasks([(abs, -1)], None, lambda *_: done.append(1), walled=(read, write)) == ["abs"]
    # each task finished is told to the progress bar; a site among the tasks asks for workers with Sphinx loaded
    assert len(done) == 3 and write[0].is_dir()
    assert asked == [(2, 3, read, write, True), (1, 1, read, write, False)]


def test_a_failed_run_leaves_no_thread_of_its_pool_running():
    """A failure (or Ctrl-C) ends the pool's own threads before it is raised: on Python 3.11 one still running at
    exit races the executor's exit hook for a pipe, and the command would end in a traceback."""
    import threading

    before = set(threading.enumerate())
    with pytest.raises(ValueError, match="invalid literal"):
        pipeline.workers.run_tasks([(int, "seven")] + [(abs, -n) for n in range(400)], 2, lambda: None)
    assert [thread for thread in threading.enumerate() if thread not in before] == []


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
    monkeypatch.setattr(
        pipeline.workers,
        "build_site",
        lambda project, cache, outdir, audience, downloads, pages=None: (
            built.append((project, cache, outdir, audience, downloads, pages))
            or SimpleNamespace(outdir=outdir / "html")
        ),
    )
    args = (str(tmp_path), "/c/site", "/c/site-html", "gm", {"x": []}, "the pages")
    assert pipeline.workers._build_one_site(args) == "/c/site-html/html"
    assert checked == [tmp_path]  # loaded, not checked again: the build checked it a moment ago
    assert built == [(checked_project, Path("/c/site"), Path("/c/site-html"), "gm", {"x": []}, "the pages")]
    ran = []
    monkeypatch.setattr(
        pipeline.workers, "_in_fresh_process", lambda function, given: ran.append((function, given)) or "out"
    )
    assert pipeline.workers.site_worker(args) == "out" and ran == [(pipeline.workers._build_one_site, args)]


def test_a_site_is_built_with_what_the_builds_examples_found_of_its_overlays(monkeypatch, tmp_path):
    found = {"club": ("7", "hostile")}
    loaded = SimpleNamespace(
        root=tmp_path, with_house_results=lambda results: SimpleNamespace(root=tmp_path, house_results=results)
    )
    monkeypatch.setattr(pipeline.workers, "load_project", lambda root: (loaded, []))
    built = []
    monkeypatch.setattr(
        pipeline.workers,
        "build_site",
        lambda project, cache, outdir, audience, downloads, pages=None: (
            built.append(project) or SimpleNamespace(outdir=outdir / "html")
        ),
    )
    args = (str(tmp_path), "/c/site", "/c/site-html", "player", {}, "the pages", found)
    assert pipeline.workers._build_one_site(args) == "/c/site-html/html"
    assert [project.house_results for project in built] == [found]  # not known to the project loaded again


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
