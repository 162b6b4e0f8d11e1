"""The render worker's side of the pool (`python -m generator.pool_process`): tasks in as pickles from the command,
answers out as JSON lines, each failure a renderer can raise told by its kind, and read back here as the same exception.

The worker runs here without the wall (the wall's own tests put it behind bubblewrap): what is tested is its protocol.
"""

from __future__ import annotations

import json
import os
import pickle
import struct
import subprocess
import sys

import pytest
from helpers import ROOT, TESTS, exiting, raising, worker_process

from generator.diagnostics import Code, Diagnostic, Location
from generator.pool import RenderFailed, rebuilt
from generator.render.pdf import ResourceOutside, SheetOverflow
from generator.render.site.pages import SiteFailed, SiteWarnings
from generator.render.site.search import SearchIndexError

OUTSIDE = Diagnostic(Code.RESOURCE_OUTSIDE, "`file:///etc/hostname` is outside the project", Location("t.j2", 4, 7))
OVERFLOW = Diagnostic(Code.SHEET_OVERFLOW, "the sheet takes 2 pages", Location("rules_src/g/sheets.yaml", 2, 3))


def worker_answers(*tasks) -> tuple[list[dict], subprocess.CompletedProcess]:
    """What one worker answers to ``tasks`` (function, argument), in order, and how it ended once its input did."""
    sent = b"".join(struct.pack(">Q", len(p)) + p for p in map(pickle.dumps, tasks))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)]), "RULEPRESS_WALL": "inside"}
    done = subprocess.run(
        [sys.executable, "-m", "generator.pool_process"],
        input=sent,
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    return [json.loads(line) for line in done.stdout.decode().splitlines()], done


FAILURES = [
    (ResourceOutside([OUTSIDE]), "resource-outside", ResourceOutside),
    (SheetOverflow([OVERFLOW]), "sheet-overflow", SheetOverflow),
    (SiteWarnings("page.md:3: WARNING: unknown target"), "site-warnings", SiteWarnings),
    (SiteFailed("Sphinx stopped"), "site-failed", SiteFailed),
    (SearchIndexError("Pagefind indexed no page"), "search-index", SearchIndexError),
    (ValueError("boom"), "internal", RenderFailed),
]


@pytest.fixture(scope="module")
def one_worker():
    """One worker given good tasks, then each failure followed by a good task (a worker starts in about a second)."""
    tasks = [(str.upper, "hex"), (print, "a library's chatter"), (len, [1, 2, 3])]
    for error, _answer, _kind in FAILURES:
        tasks += [(raising, error), (str.lower, "ON")]
    return worker_answers(*tasks)


def test_a_worker_answers_each_task_in_order_and_ends_with_its_input(one_worker):
    answers, done = one_worker
    assert answers[:3] == [{"ok": "HEX"}, {"ok": None}, {"ok": 3}]  # what a task prints never joins the answers
    assert answers[4::2] == [{"ok": "on"}] * len(FAILURES)  # after a failure the worker goes on to the next task
    assert len(answers) == 3 + 2 * len(FAILURES) and done.returncode == 0 and done.stderr == b""


@pytest.mark.parametrize(("at", "failure"), list(enumerate(FAILURES)), ids=[answer for _e, answer, _k in FAILURES])
def test_each_failure_is_told_by_its_kind_and_read_back_as_the_same_exception(one_worker, at, failure):
    error, answer, kind = failure
    told = one_worker[0][3 + 2 * at]
    assert told["error"] == answer
    back = rebuilt(told)
    assert type(back) is kind
    if isinstance(error, (ResourceOutside, SheetOverflow)):
        assert back.diagnostics == error.diagnostics  # located as the worker found them, not only their text
    else:
        assert str(back) == ("ValueError: boom" if kind is RenderFailed else str(error))


def test_an_answer_that_does_not_read_back_is_a_render_failure_with_the_workers_words():
    assert type(rebuilt({"error": "resource-outside", "diagnostics": [["Nowhere"]]})) is RenderFailed
    assert str(rebuilt({"error": "something new", "text": "what it said"})) == "what it said"
    assert str(rebuilt({})) == "a render worker ended without an answer"


def forked_workers_answer(*channels: list, options: tuple[str, ...] = ()) -> tuple[list[list[dict]], subprocess.Popen]:
    """What each worker of one `python -m generator.pool_process TASKS,ANSWERS,... *options` answers, channel by channel
    (each channel's tasks written whole before the process starts, its answers read once the process has ended),
    and the process, ended."""
    inside, ours = [], []
    for tasks in channels:
        task_read, task_write = os.pipe()
        answer_read, answer_write = os.pipe()
        os.write(task_write, b"".join(struct.pack(">Q", len(p)) + p for p in map(pickle.dumps, tasks)))
        os.close(task_write)  # a few small tasks: the pipe holds them
        inside += [task_read, answer_write]
        ours.append(answer_read)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)]), "RULEPRESS_WALL": "inside"}
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "generator.pool_process", ",".join(map(str, inside)), *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
            pass_fds=inside,
        )
    finally:
        for fd in inside:
            os.close(fd)
    process.communicate(timeout=120)
    answers = []
    for fd in ours:
        with os.fdopen(fd, "rb") as stream:
            answers.append([json.loads(line) for line in stream.read().splitlines() if line.strip()])
    return answers, process


@pytest.fixture(scope="module")
def three_workers():
    """One process with three channels, for sites: two workers say who they are, one of them then ends midway."""
    return forked_workers_answer(
        [(worker_process, LOADED), (str.upper, "one")],
        [(worker_process, LOADED), (exiting, 3), (str.upper, "never")],
        [(len, "ab")] * 3,
        options=("sites",),
    )


LOADED = ("weasyprint", "sphinx_tippy")  # the PDFs' renderer, and an extension only a site build loads


def test_each_channel_is_answered_by_a_worker_of_its_own_forked_by_the_process_started(three_workers):
    answers, process = three_workers
    assert process.returncode == 0
    (first, one), (second, *_), third = answers
    assert one == {"ok": "ONE"} and third == [{"ok": 2}] * 3
    assert first["ok"][0] != second["ok"][0] and process.pid not in (first["ok"][0], second["ok"][0])
    assert first["ok"][1:] == second["ok"][1:] == [process.pid, True, True]  # forked by the process started
    # the renderers were loaded by that process, before the fork: no task of theirs asked for them


def test_a_worker_that_ends_midway_is_told_with_its_exit_status_and_the_others_go_on(three_workers):
    answers, _process = three_workers
    text = "a render worker ended without an answer (exit status 3: the memory or time limit, or a crash)"
    assert answers[1][1:] == [{"error": "ended", "text": text}]  # and nothing after it
    assert str(rebuilt(answers[1][1])) == text
    assert answers[2] == [{"ok": 2}] * 3


def test_a_task_this_side_cannot_send_is_answered_as_a_failure_not_waited_for():
    """The serving thread's every task gets an answer: one it cannot pickle (a local function) is a render failure,
    where a thread that died with it would leave the build waiting for an answer for ever."""
    import io
    import queue

    from generator.pool import Worker

    jobs, done = queue.Queue(), queue.Queue()
    jobs.put((0, (lambda value: value, 1)))
    jobs.put((1, (str.upper, "never asked")))
    Worker(None, io.BytesIO(), io.BytesIO()).serve(jobs, done)
    index, answer = done.get_nowait()
    assert index == 0 and done.empty() and jobs.qsize() == 1  # the first failure ends this worker's serving
    failure = rebuilt(answer)
    assert isinstance(failure, RenderFailed)
    assert str(failure).startswith("a render task could not be sent: ")
