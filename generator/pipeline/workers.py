"""The process pool that renders a build's sites and PDFs, and workers that end with the build.

Every site is built in a fresh process (Sphinx and MyST register roles process-wide, so two Sphinx
applications must not share one); every worker dies with the build (``PR_SET_PDEATHSIG`` on Linux, else
a thread that watches it), and a Ctrl-C or a failed task stops them all at once (``run_tasks``). With the
wall in use the pool is walled workers instead (``generator.pool``).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from .. import wall
from ..pool import run_walled
from ..render.pdf import RenderRefused, _warm_worker, all_refused
from ..render.site.pages import build_site, load_site_modules
from ..render.site.state import checked_project
from ..source.project import load_project


def run_tasks(tasks: list, workers: int | None, advance, walled: tuple | None = None) -> list:
    """Run (function, args) tasks in a process pool; results in task order. With ``walled`` (what the
    tasks read, what they write) and the wall in use, the pool is walled workers (``pool``)."""
    if not tasks:
        return []
    if walled is not None and wall.in_use():
        read, write = walled
        for folder in write:
            Path(folder).mkdir(parents=True, exist_ok=True)
        sites = any(function is site_worker for function, _args in tasks)
        count = workers or min(len(tasks), os.cpu_count() or 1)
        return run_walled(tasks, count, advance, read=read, write=write, sites=sites)
    context = multiprocessing.get_context("forkserver")  # workers import WeasyPrint/Sphinx themselves, in parallel
    workers = workers or min(len(tasks), os.cpu_count() or 1)
    before = set(multiprocessing.active_children())  # this process's other children, never the pool's to stop
    threads_before = set(threading.enumerate())
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),)
    )
    # After a Ctrl-C the tasks still queued for the ended workers are read by no one: the queue's feeder thread
    # would wait for ever on the full pipe, and the executor's shutdown at exit with it. Such tasks need no
    # flushing (multiprocessing's way to not wait for a queue's feeder; the executor keeps it as `_call_queue`).
    pool._call_queue.cancel_join_thread()
    try:
        # Children start with Ctrl-C blocked (a mask they inherit), so none is interrupted halfway through
        # starting Python; here a Ctrl-C meanwhile waits, then arrives, and this process stops them itself.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            futures = [pool.submit(_call, task) for task in tasks]
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        for index, future in enumerate(futures):
            future.add_done_callback(_advancing(advance, index))
        results, refused = [], []  # renders refused (a sheet too long for its page): each told once all are done
        for future in futures:
            try:
                results.append(future.result())
            except RenderRefused as refusal:
                results.append(None)
                refused.append(refusal)
        if refused:
            raise all_refused(refused)
    except BaseException:  # Ctrl-C, a failed task: stop every worker now rather than wait for the rest
        _stop(pool, _started_since(before), [t for t in threading.enumerate() if t not in threads_before])
        raise
    pool.shutdown()
    return results


def _advancing(advance, index: int):
    """A future's callback telling progress its task is done: rendered, or refused (told once all are done), as the
    walled pool tells it. A task cancelled or failed is not done: a Ctrl-C, which ends every task, said each was."""

    def done(future) -> None:
        if not future.cancelled() and (future.exception() is None or isinstance(future.exception(), RenderRefused)):
            advance(index)

    return done


def _started_since(before: set) -> list:
    """The pool's workers: the executor names them nowhere public, so they are the children of this process
    (``multiprocessing.active_children``) that were not there before it started; nothing else in the
    process starts one while a build renders."""
    return [process for process in multiprocessing.active_children() if process not in before]


def _stop(pool, processes: list, threads: list = ()) -> None:
    """End the pool now: no task waiting starts, and its worker ``processes`` are terminated (killed if they
    linger). Then the pool's ``threads`` (those started since it began) are waited for, a little: on Python 3.11
    the executor's exit hook wakes its manager thread while that thread closes the same pipe, and a Ctrl-C would
    end in a traceback (`Bad file descriptor`); a thread that has ended races nothing."""
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
    deadline = time.monotonic() + 5
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))


def _call(task):
    function, args = task
    start = time.perf_counter()
    result = function(args)
    if os.environ.get("RULEPRESS_TIMINGS"):
        print(f"  {time.perf_counter() - start:6.2f}s {function.__name__} {str(args)[:90]}", file=sys.stderr)
    return result


def _worker_init(build: int) -> None:
    """A pool worker: ignore Ctrl-C (the build handles it and ends the pool), end with the build."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()  # the forkserver
    # ...which does not end with the build: every worker holds its "build alive" pipe open. So
    # each worker watches the build itself.
    try:
        os.kill(build, 0)
    except ProcessLookupError:
        os._exit(1)
    watch(build)
    _warm_worker()


@contextmanager
def progress(description: str, total: int, labels: list[str] | None = None):
    """A rich progress bar on a terminal; elsewhere (a CI log, a pipe) plain lines on stderr (``Plain``). Yields
    ``advance(index=None)``, called as each task is done (``index``: which of ``labels`` it was, when known)."""
    if not sys.stderr.isatty():
        if not getattr(sys.stderr, "progress_lines", True):  # a stream that says it wants none (serve's copy)
            yield lambda *_: None
            return
        plain = Plain(description, total, labels)
        try:
            yield plain.advance
        finally:
            plain.stop()
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )  # deferred: only a terminal draws it

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task(description, total=total or None)
        yield lambda *_: bar.advance(task)


class Plain:
    """Progress as plain lines on stderr, for a log no bar is drawn in: one line saying what is rendered, one as all
    the tasks of a label are done (a site; a ruleset's sheets or handouts), and one after each ``QUIET`` seconds
    without another, so a log of a long build never looks hung and never floods (a line an output, not a PDF)."""

    QUIET = 60.0

    def __init__(self, description: str, total: int, labels: list[str] | None = None):
        self.description, self.total, self.done = description, total, 0
        self.labels = list(labels) if labels is not None and len(labels) == total else None
        self.left = {}  # label -> its tasks not done yet
        for label in self.labels or ():
            self.left[label] = self.left.get(label, 0) + 1
        self.started = time.monotonic()
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.said = self.started
        self.watch = None
        if total:
            what = f": {', '.join(self.left)}" if self.left else ""
            self.say(f"{description} {total} output{'s' if total != 1 else ''}{what}")
            self.watch = threading.Thread(target=self._heartbeat, name="rulepress-progress", daemon=True)
            self.watch.start()

    def advance(self, index: int | None = None) -> None:
        with self.lock:
            self.done += 1
            label = self.labels[index] if self.labels is not None and index is not None else None
            if label is not None:
                self.left[label] -= 1
                if self.left[label] == 0:
                    self.say(f"[{self.done}/{self.total}] {label} done")

    def stop(self) -> None:
        self.stopped.set()
        if self.watch is not None:
            self.watch.join(timeout=5)

    def _heartbeat(self) -> None:
        while not self.stopped.wait(max(1.0, self.said + self.QUIET - time.monotonic())):
            with self.lock:
                if time.monotonic() - self.said >= self.QUIET and self.done < self.total:
                    self.say(f"[{self.done}/{self.total}] {self.description}")

    def say(self, text: str) -> None:
        self.said = time.monotonic()
        elapsed = int(self.said - self.started)
        try:
            print(f"rulepress: {text} ({elapsed // 60}m{elapsed % 60:02d}s)", file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass  # a log that went away tells no one


# -- one site, in a fresh process ----------------------------------------------------------------------------
def site_worker(args) -> str:
    """Build one site in a fresh process forked from the worker: Sphinx and MyST register roles
    process-wide, so two Sphinx applications must not share a process (with ``--jobs 1`` one
    worker builds both sites). What the build imports is imported here first, once a worker: each child has it."""
    load_site_modules()
    return _in_fresh_process(_build_one_site, args)


def _build_one_site(args) -> str:
    root, cache, outdir, audience, downloads, pages = args[:6]
    # the build checked the project a moment ago: loaded again here (the same files give the same model), and
    # Sphinx's extension uses this project rather than checking it once more
    project = with_site_house_results(load_project(Path(root))[0], args)
    with checked_project(project):
        return str(build_site(project, Path(cache), Path(outdir), audience, downloads, pages=pages).outdir)


def with_site_house_results(project, args):
    """The project a site task builds: what the build's examples found of its overlays, which a project
    loaded again from the files does not know, is in the task's seventh argument."""
    return project.with_house_results(args[6]) if len(args) > 6 and isinstance(args[6], dict) else project


def _in_fresh_process(function, args):
    """``function(args)`` in a child process; its result or its exception, raised here."""
    if not hasattr(os, "fork"):  # pragma: no cover - not Linux or macOS
        return function(args)
    reader, writer = multiprocessing.get_context("fork").Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=_fresh_child, args=(writer, function, args))
    child.start()
    writer.close()
    try:
        outcome = reader.recv()
    except EOFError:
        child.join()
        raise RuntimeError(f"the site build process ended without a result (exit status {child.exitcode})") from None
    finally:
        reader.close()
    child.join()
    status, value = outcome
    if status == "error":
        raise pickle.loads(value)
    return value


def _fresh_child(writer, function, args) -> None:
    die_with_parent()
    try:
        outcome = ("ok", function(args))
    except BaseException as error:  # noqa: BLE001 - handed to the parent, which raises it
        try:
            outcome = ("error", pickle.dumps(error))
        except Exception:  # noqa: BLE001 - an exception that does not pickle
            outcome = ("error", pickle.dumps(RuntimeError(f"{type(error).__name__}: {error}")))
    writer.send(outcome)
    writer.close()


# -- ending with the build -----------------------------------------------------------------------------------
def die_with_parent(parent: int | None = None) -> None:
    """End this process when its parent ends (a kill -9 of the build leaves no worker behind):
    ``PR_SET_PDEATHSIG`` on Linux; elsewhere a thread that watches ``parent``."""
    parent = parent or os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent ended before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass
    watch(parent)


def watch(pid: int, every: float = 0.5) -> None:
    """End this process soon after process ``pid`` has ended (a thread that polls it)."""

    def poll() -> None:
        while True:
            time.sleep(every)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:
                pass

    threading.Thread(target=poll, name=f"watch-{pid}", daemon=True).start()
