"""Worked examples and mechanics behind the wall: one walled host per command, asked once per ruleset.

The host is ``python -m generator.examples.host ROOT`` (this module's ``main``) started inside the wall
(``generator.wall``): it reads the project read-only, loads it itself, and answers each request (a ruleset's
examples, its mechanics, its names) with ``confined.run_here``, so rules code still runs only in the host's
confined children, behind the audit hook as well. The host itself runs no rules code; it cannot be read or
written by its children (it is not dumpable), and after each child it ends every other process in its
namespace, so nothing an example started outlives it. The command's own process only reads the host's answers.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .. import wall
from ..check_cache import dump_diagnostics, load_diagnostics
from ..diagnostics import Code, Diagnostic, Location
from ..model.ruleset import HouseResult
from ..source.project import LoadMemo, load_project
from .confined import Outcome, memory_allowed, places_claimed, run_here

HOST_MODULE = "generator.examples.host"  # the module the wall runs: it calls ``main`` below
ANSWER_MARGIN = 60.0  # seconds a host may take beyond a ruleset's own time: starting, loading the project
_HOSTS: dict[tuple[int, str, int], Host] = {}  # live hosts per process, project and lane: started on first use


def host_for(root: Path, lane: int = 0) -> Host:
    """This process's host for ``root``; a check daemon keeps a second ``lane`` so two rulesets run at once."""
    key = (os.getpid(), str(root.resolve()), lane)  # a forked worker starts its own: the pipes are not shared
    found = _HOSTS.get(key)
    if found is None or not found.alive():
        found = _HOSTS[key] = Host(root.resolve())
    return found


def _live(root: Path) -> list[Host]:
    """This process's live hosts for ``root``, lane by lane."""
    mine = (os.getpid(), str(Path(root).resolve()))
    return [host for key, host in sorted(_HOSTS.items()) if key[:2] == mine and host.alive()]


def asked_of(root: Path, ruleset, **run) -> Host:
    """The host a run was asked of ahead (``prefetch``), else the first lane's."""
    text = request_text(ruleset, **run)
    found = next((host for host in _live(root) if host.holds(text)), None)
    return found if found is not None else host_for(root)


def loaded_by_examples(root: Path, ruleset, seconds: float) -> Outcome | None:
    """What loading ``ruleset``'s mechanics gave, taken from the run of its examples asked of a host ahead
    (``prefetch``): that run loads them first, exactly as a run of the mechanics alone would, so one child does
    both. Its answer stays for the examples' own turn. None when no such run was asked.

    A host that failed on that run (stopped, out of time) tells the examples' turn so, at once; what loading the
    mechanics gives is then no more known than after a failed run of the mechanics alone: nothing is said of them."""
    text = request_text(ruleset, examples=True, names=False, seconds=seconds)
    host = next((host for host in _live(root) if host.holds(text)), None)
    if host is None:
        return None
    answer = host._answer(text, seconds + ANSWER_MARGIN, stopped_after=seconds, keep=True)
    found = _outcome(answer) if isinstance(answer, dict) else None
    return Outcome(found.mechanics if found is not None else ())


def close_hosts(keep=()) -> None:
    """End this process's walled hosts, but those of the project folders in ``keep``: a process that checks many
    projects in turn (a test session) ends each host when it is done with that project, not at its own exit."""
    kept = {str(Path(root).resolve()) for root in keep}
    for key, host in list(_HOSTS.items()):
        if key[1] not in kept:
            host.close()
            del _HOSTS[key]


def load_ahead(root: Path) -> None:
    """A check begins: this process's live hosts for ``root`` (a daemon's) load the files now, while the check
    loads them here, rather than when the first run is asked for."""
    for host in _live(root):
        host.ask_ahead({"load": True})


def forget(root: Path) -> None:
    """The end of a command's runs: what this process's hosts for ``root`` were asked for and nobody used is dropped."""
    for host in _live(root):
        host.forget()


def request_text(ruleset, *, examples: bool, names: bool, seconds: float, coverage: bool = False) -> str:
    """One run asked of a host, as the line sent."""
    request = {"ruleset": ruleset.id, "examples": examples, "names": names, "seconds": seconds, "coverage": coverage}
    return json.dumps(request, sort_keys=True)


def prestart(project) -> None:
    """Start the walled host for a loaded ``project`` now, so that it loads while the checks run: when this
    run uses the wall and a ruleset has worked examples or mechanics (a project with neither starts none;
    a host asked for later starts then)."""
    if not any(ruleset.examples or ruleset.mechanics for ruleset in project.rulesets):
        return
    try:
        if wall.in_use():
            host_for(project.root)
    except wall.WallMissing:
        pass  # said where the wall is first needed


class Host:
    """The command's side of a walled host: requests in, outcomes out, a host that fails ended."""

    def __init__(self, root: Path):
        self.root = root
        # set before the host starts: `close` (at exit, after a Ctrl-C in the middle of this) reads them
        self._pending: list[str] = []  # requests sent whose answers are not read yet, in the order asked
        self._answers: dict[str, object] = {}  # answers read before their request's turn
        self._buffer = b""  # what the host wrote past the answer last read
        self.errors = tempfile.TemporaryFile()
        # What bubblewrap itself says when it cannot raise the wall (`Can't mount proc`): only ever a failure's reason
        self.wall_said = tempfile.TemporaryFile()
        # The host talks on descriptors of its own, not bwrap's standard streams: bwrap's init (pid 1
        # inside) keeps those open and is readable there, so /proc/1/fd/1 would reach the replies.
        asked, self.requests = _pipe()
        self.replies, answered = _pipe()
        channels = (asked.fileno(), answered.fileno(), self.errors.fileno())
        argv = [sys.executable, "-m", HOST_MODULE, str(root), ",".join(map(str, channels))]
        with wall.interrupts_held():
            self.process = subprocess.Popen(
                wall.command(argv, read=[root]),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self.wall_said,
                pass_fds=channels,
                preexec_fn=wall.limits(memory_allowed() + 3 * 1024**3, 24 * 3600),
                close_fds=True,
                cwd="/",
            )
            atexit.register(self.close)
        asked.close()
        answered.close()

    def alive(self) -> bool:
        return self.process.poll() is None

    def run(self, ruleset, *, examples: bool, names: bool, seconds: float, coverage: bool = False) -> Outcome:
        text = self.send(ruleset, examples=examples, names=names, seconds=seconds, coverage=coverage)
        answer = self._answer(text, seconds + ANSWER_MARGIN, stopped_after=seconds) if text is not None else None
        found = _outcome(answer) if isinstance(answer, dict) else None
        if found is None:
            self.close()
            message = f"the wall around the examples of `{ruleset.id}` {self._why(answer)}"
            return _failed(ruleset, examples, message, STOPPED_HINT if answer == "stopped" else WALL_HINT)
        return found

    def send(self, ruleset, *, examples: bool, names: bool, seconds: float, coverage: bool = False) -> str | None:
        """Ask for a run without waiting for it (a run asked for again later reads this one's answer): the host
        works while the command checks. The request's text, or None when the host cannot be asked."""
        return self._send(request_text(ruleset, examples=examples, names=names, seconds=seconds, coverage=coverage))

    def holds(self, text: str) -> bool:
        """Whether the run ``text`` was asked of this host and its answer not read by its asker yet."""
        return text in self._pending or text in self._answers

    def ask_ahead(self, request: dict) -> str | None:
        """Send ``request`` now; its answer is read when asked for (``_answer``) or dropped (``forget``)."""
        return self._send(json.dumps(request, sort_keys=True))

    def _send(self, text: str) -> str | None:
        if text in self._answers or text in self._pending:
            return text
        try:
            self.requests.write((text + "\n").encode())
            self.requests.flush()
        except (BrokenPipeError, OSError, ValueError):
            return None
        self._pending.append(text)
        return text

    def _answer(self, text: str, seconds: float, stopped_after: float, keep: bool = False):
        """The answer to the request ``text``; those the host gives before it are kept for their own turn, and this
        one too with ``keep`` (it is asked for again)."""
        while text not in self._answers:
            if not self._pending:
                return None
            answer = self._read(seconds, stopped_after)
            if not isinstance(answer, dict):
                if keep:  # its own turn is told the same at once, not made to wait for the failed host again
                    self._answers[text] = answer
                return answer  # the host failed (on an earlier run): this one is no more to be had (it is closed)
            self._answers[self._pending.pop(0)] = answer
        return self._answers[text] if keep else self._answers.pop(text)

    def forget(self, seconds: float = 1.0) -> None:
        """Drop what was asked for and not used (a ruleset the checks then found errors in): the next command's
        runs must see the files as they are then. Answers still coming are waited for a moment, then the host
        is ended (the next run starts another) rather than let a long one delay this command."""
        self._answers.clear()
        deadline = time.monotonic() + seconds
        while self._pending:
            if deadline - time.monotonic() <= 0:
                self.close()
                return
            answer = self._read(deadline - time.monotonic(), seconds)
            if not isinstance(answer, dict):
                self.close()
                return
            self._pending.pop(0)

    def _read(self, seconds: float, stopped_after: float):
        """The host's next one-line answer; "timeout" after ``seconds``, or "stopped" once the host has been seen
        stopped (SIGSTOP from what it runs) on two looks a second apart, past its own ``stopped_after``
        seconds: a stopped host never answers, and waiting out the margin for it only delays the verdict."""
        started, seen_stopped = time.monotonic(), 0
        deadline = started + seconds
        out = self.replies.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            if not select.select([out], [], [], min(left, 1.0))[0]:
                past_its_time = time.monotonic() - started > stopped_after
                seen_stopped = seen_stopped + 1 if past_its_time and _stopped(self.process.pid) else 0
                if seen_stopped >= 2:
                    return "stopped"
                continue
            chunk = os.read(out, 1 << 20)
            if not chunk:
                return None
            self._buffer += chunk
        line, _end, self._buffer = self._buffer.partition(b"\n")
        try:
            return json.loads(line)
        except ValueError:
            return None

    def _why(self, answer) -> str:
        if answer == "timeout":
            return "did not answer in time"
        if answer == "stopped":
            return "was stopped by what it ran"
        said = _last_line(self.errors) or _last_line(self.wall_said)
        return "ended without an answer" + (f" ({said})" if said else "")

    def close(self) -> None:
        self._pending.clear()
        self._answers.clear()
        atexit.unregister(self.close)  # once closed, nothing is left to end at exit (nor kept alive for it)
        wall.end(self.process)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.requests, self.replies):
            try:
                stream.close()
            except OSError:
                pass


def _stopped(root: int) -> bool:
    """Whether the wall around the host or the host itself is stopped (state T or t): bwrap at ``root``, its
    init, and the first host process below them. What the host runs is not looked at:
    the host ends that itself, at the ruleset's time limit."""
    table = wall.processes()
    tree, edge = set(), {root}
    while edge:
        tree |= edge
        edge = {pid for pid, (_state, parent) in table.items() if parent in edge and not _is_host(parent)} - tree
    return any(table[pid][0] in ("T", "t") for pid in tree if pid in table)


def _is_host(pid: int) -> bool:
    """Whether ``pid`` runs ``python -m generator.examples.host`` (bwrap's own arguments end with those words)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[1:3] == [b"-m", HOST_MODULE.encode()]
    except OSError:
        return False


def _pipe():
    """A pipe as (reading end, writing end) binary files."""
    read, write = os.pipe()
    return os.fdopen(read, "rb", buffering=0), os.fdopen(write, "wb")


WALL_HINT = "run the check again; if it keeps failing, check that bubblewrap works on this machine"
STOPPED_HINT = "an example or a mechanic stopped the process that runs it (SIGSTOP); take out what sends that signal"


def _last_line(written) -> str:
    """The last line of what was written to a file (trimmed), or ''."""
    written.seek(0)
    said = [line for line in written.read()[-4000:].decode(errors="replace").splitlines() if line.strip()]
    return said[-1].strip()[:300] if said else ""


def _failed(ruleset, examples: bool, message: str, hint: str = WALL_HINT) -> Outcome:
    where = ruleset.examples[0] if examples and ruleset.examples else None
    location = (
        Location(where.path, where.line, where.indent + 1)
        if where is not None
        else Location(ruleset.mechanics[0] if ruleset.mechanics else f"rules_src/{ruleset.id}/ruleset.yaml", 1, 1)
    )
    code = Code.EXAMPLE_FAILED if where is not None or not ruleset.mechanics else Code.MECHANIC_ERROR
    return Outcome(
        failures=(
            Diagnostic(
                code,
                message,
                location,
                hint,
            ),
        )
    )


def _outcome(answer: dict) -> Outcome | None:
    mechanics, failures = load_diagnostics(answer.get("mechanics")), load_diagnostics(answer.get("failures"))
    names = answer.get("names")
    changed = load_house_results(answer.get("changed", []))
    if mechanics is None or failures is None or changed is None or not (names is None or isinstance(names, list)):
        return None
    shown = (
        None
        if names is None
        else tuple(tuple(str(part) for part in row[:3]) for row in names if isinstance(row, list) and len(row) >= 3)
    )
    unrun = answer.get("unrun", 0)
    unrun = unrun if type(unrun) is int and 0 <= unrun < 10**6 else 0  # the host's word: a count, nothing else
    reads = frozenset(places_claimed(answer.get("reads")))
    return Outcome(tuple(mechanics), tuple(failures), shown, reads, changed, unrun)


def dump_house_results(results) -> list:
    return [[r.entry, r.source, r.path, r.line, [list(pair) for pair in r.results]] for r in results]


def load_house_results(data) -> tuple[HouseResult, ...] | None:
    """What ``dump_house_results`` wrote, or None when it is anything else (the answer is then refused)."""
    if not isinstance(data, list):
        return None
    found = []
    for item in data:
        if not (
            isinstance(item, list)
            and len(item) == 5
            and all(isinstance(part, str) for part in item[:3])
            and type(item[3]) is int
            and isinstance(item[4], list)
        ):
            return None
        pairs = item[4]
        if not all(
            isinstance(pair, list)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and (pair[1] is None or isinstance(pair[1], str))
            for pair in pairs
        ):
            return None
        found.append(HouseResult(item[0], item[1], item[2], item[3], tuple(tuple(pair) for pair in pairs)))
    return tuple(found)


# ---------------------------------------------------------------------------------------------------------
# Inside the wall


def main(argv: list[str]) -> int:
    if not inside():
        print(f"{HOST_MODULE} runs only inside the wall (see generator.wall)", file=sys.stderr)
        return 2
    root = Path(argv[0])
    asked, answered, errors = (int(fd) for fd in argv[1].split(","))
    requests = os.fdopen(asked, "r", encoding="utf-8")
    replies = os.fdopen(answered, "w", encoding="utf-8")
    os.dup2(errors, 2)  # what goes wrong here is told in the command's message
    os.close(errors)
    _not_dumpable()
    loaded = Loaded(root)
    loaded.project()  # while the command checks: the first request finds it loaded
    gc.freeze()  # what the imports and the first load made: left out of the collections of the children forked here
    gc.enable()  # off while the host started (generator.examples.host)
    for line in requests:
        request = json.loads(line)
        if request.get("load"):  # load the files as they now are, ahead of the runs a check is about to ask for
            loaded.project()
            replies.write(json.dumps({"loaded": True}) + "\n")
            replies.flush()
            continue
        ruleset = loaded.project().ruleset(request["ruleset"])
        outcome = run_here(
            ruleset,
            root,
            examples=bool(request["examples"]),
            names=bool(request["names"]),
            seconds=float(request["seconds"]),
            sweep=_sweep,
            coverage=bool(request.get("coverage")),
        )
        replies.write(
            json.dumps(
                {
                    "mechanics": dump_diagnostics(outcome.mechanics),
                    "failures": dump_diagnostics(outcome.failures),
                    "names": None if outcome.names is None else [list(n) for n in outcome.names],
                    "reads": [list(place) for place in sorted(outcome.reads)],
                    "changed": dump_house_results(outcome.changed),
                    "unrun": outcome.unrun,
                }
            )
            + "\n"
        )
        replies.flush()
    return 0


class Loaded:
    """The project as the files now say, for each request: a folder whose files did not change (by content, not by
    time stamp) is not built again, so a host that lives as long as the check daemon stays quick."""

    def __init__(self, root: Path):
        self.root = root
        self._memo = LoadMemo()

    def project(self):
        return load_project(self.root, memo=self._memo)[0]


def inside() -> bool:
    """Whether this process is in a namespace of its own that bwrap started (then it may end the others)."""
    try:
        return Path("/proc/1/comm").read_text().strip() == "bwrap" and os.getppid() == 1
    except OSError:
        return False


def _not_dumpable() -> None:
    """No child may read the host's memory or open its descriptors through /proc."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(4, 0)  # PR_SET_DUMPABLE, 0


def _sweep() -> None:
    """End every process of the namespace but its init and this host: whatever a child left behind."""
    me = os.getpid()
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in (1, me):
            try:
                os.kill(int(name), signal.SIGKILL)
            except OSError:
                pass
