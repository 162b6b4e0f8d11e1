"""Rendering behind the wall: a pool of walled workers that build the sites and lay out the PDFs.

Sphinx, docutils, MyST and WeasyPrint read what a contributor wrote, so with the wall in use (see
``generator.wall``) each worker is a long-lived ``python -m generator.pool`` inside bubblewrap: it reads
the project, Python and the default templates, writes only the build's staging folder and the project's
cache folder, and has its own ``/tmp``, no network, no other process and no environment but the run's own
settings. Tasks go in as pickles (from this process, which the worker trusts); answers come back as JSON
lines, which this process reads as data: nothing a worker writes is ever unpickled here.
"""

from __future__ import annotations

import json
import os
import pickle
import queue
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from . import wall
from .check_cache import dump_diagnostics, load_diagnostics
from .render.pdf import ResourceOutside, SheetOverflow, _warm_worker
from .render.site.pages import SiteFailed, SiteWarnings
from .render.site.search import SearchIndexError

MEMORY = 6 * 1024**3  # bytes of address space a render worker may map
CPU_SECONDS = 3600  # of a worker's whole life: a layout that never ends is ended


class RenderFailed(Exception):
    """A walled worker ended without an answer (a limit, a crash)."""


def run_walled(tasks: list, workers: int, advance, *, read: list[Path], write: list[Path]) -> list:
    """Run ``(function, args)`` tasks in ``workers`` walled workers; results in task order. The first
    failure stops every worker and is raised here, rebuilt from what the worker said."""
    jobs: queue.Queue = queue.Queue()
    for index, task in enumerate(tasks):
        jobs.put((index, task))
    done: queue.Queue = queue.Queue()
    started: list[Worker] = []
    results: list = [None] * len(tasks)
    try:
        for _ in range(max(1, min(workers, len(tasks)))):
            with wall.interrupts_held():
                started.append(Worker(read, write))
        for worker in started:
            threading.Thread(target=worker.serve, args=(jobs, done), daemon=True).start()
        for _ in tasks:
            index, answer = done.get()
            if "ok" not in answer:
                raise rebuilt(answer)
            results[index] = _tupled(answer["ok"])
            advance()
    finally:
        for worker in started:
            worker.stop()
    return results


def _tupled(value):
    return tuple(value) if isinstance(value, list) else value


def rebuilt(answer: dict) -> Exception:
    """The exception a worker reported, as this process's own type (the worker's text, never its objects)."""
    kind, text = answer.get("error"), str(answer.get("text", ""))[:20000]
    if kind in ("resource-outside", "sheet-overflow"):
        found = load_diagnostics(answer.get("diagnostics"))
        if found:
            return (ResourceOutside if kind == "resource-outside" else SheetOverflow)(found)
    kinds = {"site-warnings": SiteWarnings, "site-failed": SiteFailed, "search-index": SearchIndexError}
    return kinds.get(kind, RenderFailed)(text or "a render worker ended without an answer")


class Worker:
    def __init__(self, read: list[Path], write: list[Path]):
        self.errors = tempfile.TemporaryFile()
        argv = [sys.executable, "-m", "generator.pool"]
        self.process = subprocess.Popen(
            wall.command(argv, read=read, write=write, env={"RULEPRESS_WALL": "inside"}),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            close_fds=True,
            cwd="/",
            preexec_fn=wall.limits(MEMORY, CPU_SECONDS),
        )

    def serve(self, jobs: queue.Queue, done: queue.Queue) -> None:
        while True:
            try:
                index, task = jobs.get_nowait()
            except queue.Empty:
                return
            answer = self.ask(task)
            done.put((index, answer))
            if "ok" not in answer:
                return

    def ask(self, task) -> dict:
        try:
            payload = pickle.dumps(task)
            self.process.stdin.write(struct.pack(">Q", len(payload)) + payload)
            self.process.stdin.flush()
            line = self.process.stdout.readline()
            answer = json.loads(line) if line else None
        except (OSError, ValueError):
            answer = None
        if not isinstance(answer, dict):
            return {"error": "ended", "text": f"a render worker ended without an answer{self._said()}"}
        return answer

    def _said(self) -> str:
        self.process.poll()
        status = self.process.returncode
        how = f" (exit status {status}: the memory or time limit, or a crash)" if status is not None else ""
        self.errors.seek(0)
        lines = [line for line in self.errors.read()[-4000:].decode(errors="replace").splitlines() if line.strip()]
        return how + (f": {lines[-1].strip()[:300]}" if lines else "")

    def stop(self) -> None:
        wall.end(self.process)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


# ---------------------------------------------------------------------------------------------------------
# Inside the wall


def main() -> int:
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(os.open(os.devnull, os.O_RDWR), 1)  # what a library prints never joins the answers
    _warm_worker()
    tasks = sys.stdin.buffer
    while True:
        header = tasks.read(8)
        if len(header) < 8:
            return 0
        function, args = pickle.loads(tasks.read(struct.unpack(">Q", header)[0]))  # sent by the command itself
        try:
            answer = {"ok": function(args)}
        except ResourceOutside as refused:
            answer = {"error": "resource-outside", "diagnostics": dump_diagnostics(refused.diagnostics)}
        except SheetOverflow as refused:
            answer = {"error": "sheet-overflow", "diagnostics": dump_diagnostics(refused.diagnostics)}
        except SiteWarnings as warned:
            answer = {"error": "site-warnings", "text": str(warned)}
        except SiteFailed as failed:
            answer = {"error": "site-failed", "text": str(failed)}
        except SearchIndexError as failed:
            answer = {"error": "search-index", "text": str(failed)}
        except Exception as error:  # noqa: BLE001 - told to the command, which stops the build
            answer = {"error": "internal", "text": f"{type(error).__name__}: {error}"}
        replies.write(json.dumps(answer, default=str) + "\n")
        replies.flush()


if __name__ == "__main__":
    sys.exit(main())
