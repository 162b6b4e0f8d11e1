"""Rendering behind the wall: a pool of walled workers that build the sites and lay out the PDFs.

Sphinx, docutils, MyST and WeasyPrint read what a contributor wrote, so with the wall in use (see
``generator.wall``) the workers are one long-lived ``python -m generator.pool_process`` inside bubblewrap, which
forks one worker for each channel: they read the project, Python and the default templates, write only the
build's staging folder and the project's cache folder, and have their own ``/tmp``, no network, no other
process and no environment but the run's own settings. Tasks go in as pickles (from this process, which the
worker trusts); answers come back as JSON lines, which this process reads as data: nothing a worker writes is
ever unpickled here.
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import queue
import struct
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path

from . import wall
from .check_cache import dump_diagnostics, load_diagnostics
from .render.pdf import RenderRefused, ResourceOutside, SheetOverflow, _warm_worker, all_refused
from .render.site.pages import SiteFailed, SiteWarnings, load_site_modules
from .render.site.search import SearchIndexError

PROCESS_MODULE = "generator.pool_process"  # the module the wall runs: it calls ``main`` below
MEMORY = 6 * 1024**3  # bytes of address space a render worker may map
# A render worker's young objects are collected after 50,000 net allocations, not CPython's 700: a render makes a
# doctree or a document's boxes, millions of objects that all live until its file is written, and at 700 the
# collector walks them again and again to free almost nothing. On the sample build: about 9% less CPU in all.
COLLECTION_THRESHOLDS = (50_000, 20, 100)
CPU_SECONDS = 3600  # of a worker's whole life: a layout that never ends is ended
ENDED = "a render worker ended without an answer"  # what the build says of one, with its exit status if known


class RenderFailed(Exception):
    """A walled worker ended without an answer (a limit, a crash)."""


def run_walled(tasks: list, workers: int, advance, *, read: list[Path], write: list[Path], sites: bool = False) -> list:
    """Run ``(function, args)`` tasks in ``workers`` walled workers; results in task order. The first
    failure stops every worker and is raised here, rebuilt from what the worker said. ``sites``: some task
    builds a site (the workers are forked with Sphinx's modules loaded too)."""
    jobs: queue.Queue = queue.Queue()
    for index, task in enumerate(tasks):
        jobs.put((index, task))
    done: queue.Queue = queue.Queue()
    results: list = [None] * len(tasks)
    walled = None
    try:
        with wall.interrupts_held():
            walled = Workers(max(1, min(workers, len(tasks))), read, write, sites=sites)
        for worker in walled.workers:
            threading.Thread(target=worker.serve, args=(jobs, done), daemon=True).start()
        refused = []  # renders refused (a sheet too long for its page): each told, once every render is done
        for _ in tasks:
            index, answer = done.get()
            if "ok" not in answer:
                failure = rebuilt(answer)
                if not isinstance(failure, RenderRefused):
                    raise failure
                refused.append(failure)
            else:
                results[index] = _tupled(answer["ok"])
            advance(index)
    finally:
        if walled is not None:
            walled.stop()
    if refused:
        raise all_refused(refused)
    return results


def _tupled(value):
    return tuple(value) if isinstance(value, list) else value


REFUSALS = ("resource-outside", "sheet-overflow")  # a render refused with diagnostics: the worker goes on


def rebuilt(answer: dict) -> Exception:
    """The exception a worker reported, as this process's own type (the worker's text, never its objects)."""
    kind, text = answer.get("error"), str(answer.get("text", ""))[:20000]
    if kind in REFUSALS:
        found = load_diagnostics(answer.get("diagnostics"))
        if found:
            return (ResourceOutside if kind == "resource-outside" else SheetOverflow)(found)
    kinds = {"site-warnings": SiteWarnings, "site-failed": SiteFailed, "search-index": SearchIndexError}
    return kinds.get(kind, RenderFailed)(text or ENDED)


def exit_status(code: int) -> str:
    """What a worker's exit status says: for a worker that ended before its answer, a limit or a crash."""
    return f"exit status {code}: the memory or time limit, or a crash"


class Workers:
    """``count`` render workers behind one wall. One walled process imports the renderers, then forks a worker
    for each of its channels (a pipe of tasks and a pipe of answers each): a build pays for starting Python and
    WeasyPrint once, not once a worker. The channels are descriptors of their own, not the standard streams,
    which bwrap's init (pid 1 inside) holds open."""

    def __init__(self, count: int, read: list[Path], write: list[Path], sites: bool = False):
        self.errors = tempfile.TemporaryFile()
        ends = [(os.pipe(), os.pipe()) for _ in range(count)]  # (tasks, answers), each (read end, write end)
        inside = [fd for tasks, answers in ends for fd in (tasks[0], answers[1])]
        argv = [sys.executable, "-m", PROCESS_MODULE, ",".join(map(str, inside)), *(["sites"] if sites else [])]
        try:
            self.process = subprocess.Popen(
                wall.command(argv, read=read, write=write, env={"RULEPRESS_WALL": "inside"}),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self.errors,
                pass_fds=inside,
                close_fds=True,
                cwd="/",
                preexec_fn=wall.limits(MEMORY, CPU_SECONDS),
            )
        except BaseException:  # no wall (bwrap missing), no process: this side's ends closed too
            for tasks, answers in ends:
                os.close(tasks[1])
                os.close(answers[0])
            raise
        finally:
            for fd in inside:
                os.close(fd)
        self.workers = [Worker(self, os.fdopen(tasks[1], "wb"), os.fdopen(answers[0], "rb")) for tasks, answers in ends]

    def said(self) -> str:
        """How the walled process ended (if it did) and the last line it wrote to its standard error."""
        self.process.poll()
        status = self.process.returncode
        how = f" ({exit_status(status)})" if status is not None else ""
        self.errors.seek(0)
        lines = [line for line in self.errors.read()[-4000:].decode(errors="replace").splitlines() if line.strip()]
        return how + (f": {lines[-1].strip()[:300]}" if lines else "")

    def stop(self) -> None:
        wall.end(self.process)
        self.process.wait()
        for worker in self.workers:
            worker.close()


class Worker:
    """The command's side of one walled worker: a task out, its answer (a JSON line) back."""

    def __init__(self, group: Workers, tasks, answers):
        self.group, self.tasks, self.answers = group, tasks, answers

    def serve(self, jobs: queue.Queue, done: queue.Queue) -> None:
        """Ask this worker the jobs' tasks until none are left or one fails; every task gets an answer in ``done``,
        a task this side cannot even send included: a thread that died would leave the build waiting for ever."""
        while True:
            try:
                index, task = jobs.get_nowait()
            except queue.Empty:
                return
            try:
                answer = self.ask(task)
            except Exception as error:  # noqa: BLE001 (any failure here is the task's answer)
                answer = {
                    "error": "unsent",
                    "text": f"a render task could not be sent: {type(error).__name__}: {error}",
                }
            done.put((index, answer))
            if "ok" not in answer and answer.get("error") not in REFUSALS:
                return

    def ask(self, task) -> dict:
        try:
            payload = pickle.dumps(task)
            self.tasks.write(struct.pack(">Q", len(payload)) + payload)
            self.tasks.flush()
            line = self.answers.readline()
            while line == b"\n":  # the line a failed worker's answer starts with (``_wait_for``)
                line = self.answers.readline()
            answer = json.loads(line) if line else None
        except (OSError, ValueError):
            answer = None
        if not isinstance(answer, dict):
            return {"error": "ended", "text": f"{ENDED}{self.group.said()}"}
        return answer

    def close(self) -> None:
        for stream in (self.tasks, self.answers):
            try:
                stream.close()
            except OSError:
                pass


# ---------------------------------------------------------------------------------------------------------
# Inside the wall


def main(argv: list[str] | None = None) -> int:
    """A render worker. With no argument, one on standard input and output; with the channels' descriptors
    (``tasks,answers,tasks,answers...``), one forked for each channel once the renderers are imported (Sphinx's
    modules too, after them, with ``sites``)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        replies = os.fdopen(os.dup(1), "wb")
        os.dup2(os.open(os.devnull, os.O_RDWR), 1)  # what a library prints never joins the answers
        _warm_worker()
        gc.freeze()
        gc.set_threshold(*COLLECTION_THRESHOLDS)
        gc.enable()  # off while the renderers were imported (generator.pool_process)
        return serve(sys.stdin.buffer, replies)
    fds = [int(fd) for fd in argv[0].split(",")]
    channels = list(zip(fds[::2], fds[1::2]))
    os.dup2(os.open(os.devnull, os.O_RDWR), 1)
    _warm_worker()  # before forking: every worker has WeasyPrint loaded
    if "sites" in argv[1:]:
        load_site_modules()
    workers = {}
    held = {fd for channel in channels for fd in channel}  # the channels' descriptors open in this process
    gc.freeze()  # what the renderers' imports made: left out of the workers' collections (generator.pool_process)
    for tasks, answers in channels:
        pid = os.fork()
        if pid == 0:  # a worker: serves its own channel, never returns
            gc.set_threshold(*COLLECTION_THRESHOLDS)
            gc.enable()
            code = 70
            try:
                for fd in held - {tasks, answers}:
                    os.close(fd)
                code = serve(os.fdopen(tasks, "rb"), os.fdopen(answers, "wb"))
            except BaseException:  # noqa: BLE001 - its last line is told with the failure (Workers.said)
                traceback.print_exc()
            finally:
                os._exit(code)
        os.close(tasks)
        held.discard(tasks)
        workers[pid] = answers  # kept open until the worker ends: a worker that fails is told of here
    return _wait_for(workers)


def _wait_for(workers: dict[int, int]) -> int:
    """Wait for every worker; one that ended otherwise than at the end of its tasks gets its answer said for it
    (its tasks' reader would otherwise see only the end of its answers)."""
    while workers:
        pid, status = os.wait()
        answers = workers.pop(pid, None)
        if answers is None:
            continue
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            text = f"{ENDED} ({exit_status(code)})"
            try:  # on a line of its own: the worker may have ended halfway through writing one
                os.write(answers, ("\n" + json.dumps({"error": "ended", "text": text}) + "\n").encode())
            except OSError:
                pass
        os.close(answers)
    return 0


def serve(tasks, replies) -> int:
    """Answer each task read from ``tasks`` on ``replies`` (a JSON line each) until ``tasks`` ends."""
    while True:
        header = tasks.read(8)
        if len(header) < 8:
            return 0
        function, args = pickle.loads(tasks.read(struct.unpack(">Q", header)[0]))  # sent by the command itself
        replies.write((json.dumps(_answer(function, args), default=str) + "\n").encode())
        replies.flush()


def _answer(function, args) -> dict:
    try:
        return {"ok": function(args)}
    except ResourceOutside as refused:
        return {"error": "resource-outside", "diagnostics": dump_diagnostics(refused.diagnostics)}
    except SheetOverflow as refused:
        return {"error": "sheet-overflow", "diagnostics": dump_diagnostics(refused.diagnostics)}
    except SiteWarnings as warned:
        return {"error": "site-warnings", "text": str(warned)}
    except SiteFailed as failed:
        return {"error": "site-failed", "text": str(failed)}
    except SearchIndexError as failed:
        return {"error": "search-index", "text": str(failed)}
    except Exception as error:  # noqa: BLE001 - told to the command, which stops the build
        return {"error": "internal", "text": f"{type(error).__name__}: {error}"}
