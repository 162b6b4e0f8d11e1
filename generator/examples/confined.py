"""Rules code runs here only: worked examples and a ruleset's own mechanics, in a confined child process.

``check`` and ``build`` never run a line of a ruleset's Python in their own process. For each ruleset a
child is forked; before any rules code runs it gets

- a wall-clock time limit for the ruleset (``RULEPRESS_EXAMPLE_SECONDS``, default 10 s, held to 0.1-600 s;
  the parent kills it when the time is up) and a CPU limit just above it, so a child whose parent died ends too;
- a memory limit (``RLIMIT_AS``: its size at the fork plus ``RULEPRESS_EXAMPLE_MEMORY_MB``, default 1024,
  held to 64 MB-1 TiB);
- a scratch folder (removed afterwards) as its working folder, an empty environment, /dev/null as its
  standard streams, and no other file descriptor of the parent than the pipe its results go back on;
- an audit hook, installed before any rules code runs and never removable, that refuses: opening a file
  outside the ruleset's folder (and its bases'), the scratch folder and the Python installation; any write,
  rename or removal outside the scratch folder; listing a folder outside those; sockets and the network;
  starting, forking, replacing or signalling processes; ``ctypes``, ``mmap``, ``sqlite3``; changing its
  limits; and importing the modules that do those things.

The parent decides success only from what the child sends back: one JSON line per step (mechanics
loaded, each example started and its failures, the names examples can use, done). A child that ends
without saying ``done`` (``os._exit``, a crash, a kill, a timeout, memory exhaustion) gives a located
``example-failed`` at the example it was running (or ``mechanic-error`` at the mechanics file), and the
examples after it still run in a new child while the ruleset's time lasts.

An audit hook is not a wall an expert cannot climb (it is Python watching Python); the limits above are
enforced by the operating system, and the child holds nothing of the parent's but the rules themselves.
"""

from __future__ import annotations

import functools
import json
import os
import select
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import settings, wall
from ..diagnostics import Code, Diagnostic, Location
from ..model import reads
from ..model.ruleset import HouseResult
from . import names as listing  # not `names`: the child is asked for them by a flag of that name
from .judge import OPTIONS, Mismatch, Recording, mismatches
from .namespace import mechanics_namespace, namespace_for
from .own_mechanics import MechanicsError

MESSAGE_CAP = 2000  # characters of one failure message sent back
OUTPUT_CAP = 8 * 1024 * 1024  # bytes a child may send back in all
FILE_CAP = 64 * 1024 * 1024  # bytes a child may write into one scratch file


def seconds_allowed() -> float:
    """The time a ruleset's examples and mechanics may take together (``RULEPRESS_EXAMPLE_SECONDS``)."""
    return settings.seconds("RULEPRESS_EXAMPLE_SECONDS", 10)


def memory_allowed() -> int:
    """The bytes a child may hold (``RULEPRESS_EXAMPLE_MEMORY_MB``)."""
    return settings.megabytes("RULEPRESS_EXAMPLE_MEMORY_MB", 1024) * 1024 * 1024


@dataclass(frozen=True)
class Outcome:
    mechanics: tuple[Diagnostic, ...] = ()  # the ruleset's own mechanics did not load
    failures: tuple[Diagnostic, ...] = ()  # examples that failed, crashed or did not finish
    names: tuple | None = None  # (kind, name with signature, one line) for the names reference
    reads: frozenset = frozenset()  # (path, line, column) of each entry the examples read, when asked (``coverage``)
    changed: tuple[HouseResult, ...] = ()  # an overlay's: examples of the text its house values give other results
    unrun: int = 0  # examples after one that used up the time left: never run, and no failure of their own


def chain(ruleset) -> list:
    found = []
    while ruleset is not None:
        found.append(ruleset)
        ruleset = ruleset.base
    return found


def folder_ids(ruleset) -> list[str]:
    """The rulesets whose folders the examples of ``ruleset`` read: it, its bases, and what an overlay changes."""
    found: list[str] = []
    for each in chain(ruleset):
        found.append(each.id)
        if each.original is not None:
            found += folder_ids(each.original)
    return list(dict.fromkeys(found))


def mechanics_files(ruleset) -> list[str]:
    return [shown for r in reversed(chain(ruleset)) for shown in r.mechanics]


def run_here(
    ruleset, root, *, examples: bool, names: bool, seconds: float, sweep=None, coverage: bool = False
) -> Outcome:
    """``run.run_confined`` in children of this process (the walled host's, or the fence alone). ``sweep``,
    called after each child, ends whatever process it left (the walled host can: it owns its namespace)."""
    deadline = time.monotonic() + seconds
    listed = list(ruleset.examples) if examples else []
    mechanics: list[Diagnostic] = []
    failures: list[Diagnostic] = []
    changed: list[HouseResult] = []
    found_names = None
    found_reads: set = set()
    unrun = 0
    start = 0  # the first example the next child runs (each example runs in its own copy of its entry's
    # namespace, as doctest copies it, so the examples after a crash need nothing run again)
    first = True
    while True:
        result = _one_child(ruleset, root, start, examples, names and found_names is None, deadline, seconds, coverage)
        if sweep is not None:
            sweep()
        mechanics += [d for d in result.mechanics if first or not mechanics]
        failures += result.failures
        found_reads |= result.reads
        changed += result.changed
        unrun += result.unrun
        found_names = result.names if result.names is not None else found_names
        first = False
        if result.resume is None or result.resume >= len(listed):
            break
        if time.monotonic() >= deadline:
            example = listed[result.resume]
            failures.append(
                _diagnostic_at(
                    example,
                    ruleset,
                    f"{example.entry}: not run: the examples of `{ruleset.id}` used up their {seconds:g} s",
                )
            )
            unrun += len(listed) - result.resume - 1  # the one named fails; those after it are not run
            break
        start = result.resume  # the examples after the one that ended the process run on
    return Outcome(
        tuple(dict.fromkeys(mechanics)), tuple(failures), found_names, frozenset(found_reads), tuple(changed), unrun
    )


@dataclass
class _Result:
    mechanics: list
    failures: list
    names: tuple | None
    resume: int | None  # the first example still to run, after a crash
    reads: set = field(default_factory=set)  # where the entries the examples read were written
    changed: list = field(default_factory=list)
    unrun: int = 0  # the examples after one that ran out of time


def _one_child(
    ruleset, root, start: int, examples: bool, names: bool, deadline: float, seconds: float, coverage: bool = False
) -> _Result:
    listed = list(ruleset.examples) if examples else []
    _prepared()
    scratch = tempfile.mkdtemp(prefix="rulepress-examples-")
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 70
        try:
            os.close(read)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
            _die_with(parent)
            _child(ruleset, root, scratch, write, start, examples, names, seconds, coverage)
            code = 0
        except BaseException:  # noqa: BLE001 - whatever happens, the parent only trusts what was sent
            code = 70
        finally:
            os._exit(code)
    os.close(write)
    messages, status, timed_out, too_much, finished = [], None, False, False, False
    try:
        buffer = b""
        received = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([read], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(read, 65536)
            if not chunk:
                break
            received += len(chunk)
            if received > OUTPUT_CAP:
                too_much = True
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                try:
                    messages.append(json.loads(line))
                except ValueError:
                    too_much = True
        finished = True
    finally:  # on Ctrl-C (or any error here) the child is killed at once
        os.close(read)
        status, late = _reap(pid, deadline, kill=timed_out or too_much or not finished)
        timed_out = timed_out or late
        shutil.rmtree(scratch, ignore_errors=True)
    return _judge(ruleset, listed, messages, status, timed_out, too_much, seconds, start)


def _reap(pid: int, deadline: float, kill: bool) -> tuple[int | None, bool]:
    """Wait for the child (killing it when asked or when its time is up): its status, and whether it ran out of time."""
    late = False
    try:
        while not kill:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status, False
            if time.monotonic() >= deadline:
                kill = late = True
                break
            time.sleep(0.001)
        os.kill(pid, signal.SIGKILL)
        return os.waitpid(pid, 0)[1], late
    except (ProcessLookupError, ChildProcessError):
        return None, late


def _how_it_ended(status, timed_out: bool, too_much: bool, seconds: float, lingering: bool = False) -> str:
    if lingering:
        return "left a thread running after it ended, so its result was not taken"
    if timed_out:
        return (
            f"did not finish in {seconds:g} s (the time limit for a ruleset's examples and mechanics, "
            "RULEPRESS_EXAMPLE_SECONDS)"
        )
    if too_much:
        return "sent back more or other than its results, so it was stopped"
    if status is not None and os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        extra = " (the memory or CPU limit, or a kill)" if name in ("SIGKILL", "SIGXCPU", "SIGSEGV") else ""
        return f"ended the process (signal {name}{extra}) before its result was sent"
    code = os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else "unknown"
    return f"ended the process (exit status {code}) before its result was sent"


ENDED_HINT = (
    "an example must finish within the time and memory limits and send its result: no endless loop, "
    "no huge number, no ending the process"
)
# a statement that raised reads a name, a value or an argument the model has not: most often the example's own slip
RAISED_HINT = (
    "fix the example's code (a name, a value, an argument), or the model if the rules give what the example reads"
)
LOAD_HINT = "the mechanics must load within the time and memory limits, without ending the process"


def _diagnostic_at(example, ruleset, message: str) -> Diagnostic:
    if example is None:
        return Diagnostic(
            Code.EXAMPLE_FAILED, message, Location(f"rules_src/{ruleset.id}/ruleset.yaml", 1, 1), ENDED_HINT
        )
    return Diagnostic(
        Code.EXAMPLE_FAILED, message, Location(example.path, example.line, example.indent + 1), ENDED_HINT
    )


def _judge(ruleset, listed, messages, status, timed_out, too_much, seconds, start) -> _Result:
    files = mechanics_files(ruleset)
    mechanics: list[Diagnostic] = []
    failures: list[Diagnostic] = []
    changed: list[HouseResult] = []
    names = None
    reads: set = set()
    loaded = done = False
    running = None  # index of the example started and not finished
    told: list[int] = []
    lingering = False
    for message in messages:
        if not isinstance(message, dict):
            continue
        if "mechanics" in message:
            shown, line, column, text = _fields(message["mechanics"], 4)
            if shown is not None:
                shown = shown if shown in files else (files[0] if files else f"rules_src/{ruleset.id}/ruleset.yaml")
                mechanics.append(
                    Diagnostic(Code.MECHANIC_ERROR, _capped(text), Location(shown, _int(line), _int(column)))
                )
        elif message.get("loaded") is True:
            loaded = True
        elif isinstance(message.get("start"), int) and 0 <= message["start"] < len(listed):
            if running is not None or message["start"] in told:
                too_much = True  # two examples at once, or one twice: more than its results
                break
            running = message["start"]
        elif isinstance(message.get("lingering"), int):
            lingering = message["lingering"] == running
            too_much = too_much or not lingering
            break
        elif isinstance(message.get("example"), int) and 0 <= message["example"] < len(listed):
            if message["example"] != running:
                too_much = True  # a result for an example that is not the one running
                break
            example = listed[running]
            error = message.get("error")
            problems = (
                [Mismatch(0, 0, error, "", None)]
                if isinstance(error, str)
                else mismatches(example.source, message.get("events"))
            )
            if problems is None:
                too_much = True
                break
            if problems and ruleset.meta.overlay and not isinstance(error, str):
                changed.append(_house_result(example, problems))  # the text's example, true of the text, not here
                problems = []
            for problem in problems:
                failures.append(
                    Diagnostic(
                        Code.EXAMPLE_FAILED,
                        f"{example.entry}: {_capped(problem.problem)}",
                        Location(example.path, example.line + problem.line, example.indent + problem.indent + 1),
                        RAISED_HINT if problem.got is None and not isinstance(error, str) else None,
                    )
                )
            reads |= places_claimed(message.get("read"))
            told.append(running)
            running = None
        elif "names" in message and isinstance(message["names"], list):
            names = tuple(
                tuple(str(part) for part in item[:3])
                for item in message["names"]
                if isinstance(item, list) and len(item) >= 3
            )
        elif message.get("done") is True:
            done = running is None
    if done and not timed_out and not too_much:
        return _Result(mechanics, failures, names, None, reads, changed)
    how = _how_it_ended(status, timed_out, too_much, seconds, lingering)
    if not loaded or (running is None and not listed):
        shown = files[0] if files else None
        if shown is not None:
            if not mechanics:
                mechanics.append(
                    Diagnostic(
                        Code.MECHANIC_ERROR, f"the mechanics of `{ruleset.id}` {how}", Location(shown, 1, 1), LOAD_HINT
                    )
                )
        else:
            failures.append(
                _diagnostic_at(
                    ruleset.examples[0] if ruleset.examples else None, ruleset, f"the examples of `{ruleset.id}` {how}"
                )
            )
        return _Result(mechanics, failures, names, None, reads, changed)
    if running is None:  # between two examples, or while naming: at the next example not yet told
        running = min(len(listed) - 1, max([start] + [i + 1 for i in told]))
    example = listed[running]
    after = len(listed) - running - 1
    unrun = f"; the {after} example{'s' if after != 1 else ''} after it did not run" if timed_out and after else ""
    failures.append(_diagnostic_at(example, ruleset, f"{example.entry}: this example {how}{unrun}"))
    resume = None if timed_out else running + 1
    return _Result(mechanics, failures, names, resume, reads, changed, after if timed_out else 0)


def places_claimed(claimed) -> set:
    """The (path, line, column) places a child says its example read, as far as they are well formed."""
    if not isinstance(claimed, list):
        return set()
    return {
        (path, line, column)
        for path, line, column in (_fields(item, 3) for item in claimed[:100_000])
        if isinstance(path, str) and len(path) < 1000 and all(type(n) is int and 0 < n < 10**9 for n in (line, column))
    }


def _house_result(example, problems: list[Mismatch]) -> HouseResult:
    """What an overlay's values make of an example of the text: the text's result and theirs, per statement."""
    return HouseResult(
        example.entry,
        example.source,
        example.path,
        example.line,
        tuple((_capped(p.want), None if p.got is None else _capped(p.got)) for p in problems),
    )


def _fields(item, count: int):
    if not isinstance(item, list) or len(item) != count:
        return (None,) * count
    return tuple(item)


def _int(value, low: int = 1) -> int:
    return max(low, value) if isinstance(value, int) and not isinstance(value, bool) and value < 10**9 else low


def _capped(text) -> str:
    text = str(text)
    return text if len(text) <= MESSAGE_CAP else text[:MESSAGE_CAP] + "…"


# ---------------------------------------------------------------------------------------------------------
# In the child


def _child(
    ruleset,
    root,
    scratch: str,
    write: int,
    start: int,
    examples: bool,
    names: bool,
    seconds: float,
    coverage: bool = False,
) -> None:
    import doctest
    import io

    root_path = Path(root).resolve() if root is not None else None

    def send(message) -> None:
        data = (json.dumps(message, default=str) + "\n").encode("utf-8", "replace")
        while data:
            data = data[os.write(write, data) :]

    read_dirs = list(wall.python_dirs())
    if root_path is not None:
        read_dirs += [os.path.realpath(root_path / "rules_src" / id) for id in folder_ids(ruleset)]
    _confine(scratch, write, seconds)
    _guard(read_dirs, os.path.realpath(scratch))
    _without_chance()

    # rules code from here on
    try:
        fresh = namespace_for(ruleset, root_path)
    except MechanicsError as error:
        where = error.diagnostic.location
        send({"mechanics": [where.path, where.line, where.column, error.diagnostic.message]})
        send({"done": True})
        return
    send({"loaded": True})
    if names:
        send({"names": _names(listing, ruleset, fresh)})
    if examples:
        parser = doctest.DocTestParser()
        shared: dict[str, dict] = {}
        places = _value_places(ruleset)
        if coverage:
            reads.start()
        for index, example in enumerate(ruleset.examples):
            if index < start:
                continue
            send({"start": index})
            globs = shared.setdefault(example.entry, dict(fresh))
            try:
                test = parser.get_doctest(example.source, globs, example.entry, example.path, example.line - 1)
                runner = Recording(optionflags=OPTIONS)
                runner.run(test, out=io.StringIO().write, clear_globs=False)
                globs.update(test.globs)  # doctest ran on a copy: the entry's next block sees what this one set
                result = {"events": [[part if isinstance(part, str) else "" for part in e] for e in runner.events]}
            except Exception as error:  # noqa: BLE001 - a malformed example is that example's failure
                result = {"error": _capped(f"could not run: {type(error).__name__}: {error}")}
            if not _alone():  # what it started could still change what the next example prints
                send({"lingering": index})
                return
            read = _read_places(places) if coverage else []
            send({"example": index, **result, "read": read})
    send({"done": True})


def _value_places(ruleset) -> dict:
    """Each value id the examples of ``ruleset`` can read, with where it was written (its own or its bases')."""
    return {value.id: value.loc for value in ruleset.reachable("values")}


def _read_places(value_places: dict) -> list:
    """Where each entry read since the last call was written, as [path, line, column]."""
    entries, names = reads.taken()
    found = [entry.loc for entry in entries if getattr(entry, "loc", None) is not None]
    found += [value_places[name] for name in names if name in value_places]
    return sorted({(where.path, where.line, where.column) for where in found})


def _alone(wait: float = 0.2) -> bool:
    """Whether this process is down to one thread, waiting a little: a joined thread's join returns
    just before the kernel ends it, so a count taken at once may still see it."""
    end = time.monotonic() + wait
    while _threads() > 1:
        if time.monotonic() >= end:
            return False
        time.sleep(0.002)
    return True


def _threads() -> int:
    """Threads of this process, as the kernel counts them (a thread made with ``_thread`` included)."""
    try:
        return os.stat("/proc/self/task").st_nlink - 2
    except OSError:
        import threading

        return threading.active_count()


def _names(listing, ruleset, namespace) -> list:
    try:
        return [list(row) for row in listing.names_in(ruleset, namespace)]
    except Exception as error:  # noqa: BLE001
        return [["object", "(names)", f"the names could not be listed: {type(error).__name__}"]]


def _die_with(parent: int) -> None:
    """Linux: the child is killed when the parent ends (even by kill -9), so no child outlives a check."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError, ImportError):
        pass  # elsewhere the CPU limit ends a child whose parent died
    if os.getppid() != parent:
        os._exit(70)


CHANCE = (
    "draw random numbers: a worked example must give the same result on every run (roll dice in a formula: its "
    "odds are exact)"
)


def _without_chance() -> None:
    """Random numbers refused to rules code, as files and sockets are: an example that drew one passed on some runs
    and failed on others, and an overlay's run of it was told as a result its house values change."""
    import random
    import secrets

    def refused(*args, **kwargs):
        raise PermissionError(f"worked examples and mechanics may not {CHANCE}")

    class Refused:
        def __init__(self, *args, **kwargs):
            refused()

    for name in [n for n in vars(random) if not n.startswith("_") and callable(getattr(random, n))]:
        setattr(random, name, Refused if isinstance(getattr(random, name), type) else refused)
    for name in ("choice", "randbelow", "randbits", "token_bytes", "token_hex", "token_urlsafe", "SystemRandom"):
        setattr(secrets, name, refused)
    os.urandom = refused


@functools.cache
def _prepared() -> None:
    """What a child needs before rules code runs, imported and computed once in the parent (our code only)."""
    import ctypes  # noqa: F401 - for _die_with
    import doctest  # noqa: F401
    import inspect  # noqa: F401
    import io  # noqa: F401
    import random  # noqa: F401 - refused to rules code in the child (_without_chance)
    import secrets  # noqa: F401

    import icepool  # noqa: F401 - deferred: only a run with examples or mechanics needs it

    mechanics_namespace()
    wall.python_dirs()


def _confine(scratch: str, keep: int, seconds: float) -> None:
    import resource

    os.chdir(scratch)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    try:
        top = os.sysconf("SC_OPEN_MAX")
    except (ValueError, OSError):
        top = 4096
    os.closerange(3, keep)
    os.closerange(keep + 1, max(top, keep + 2))
    os.environ.clear()
    tempfile.tempdir = scratch
    size = _memory_now()
    limits = [
        (resource.RLIMIT_AS, size + memory_allowed()),
        (resource.RLIMIT_CPU, int(seconds) + 2),
        (resource.RLIMIT_FSIZE, FILE_CAP),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, 0),
    ]
    for kind, value in limits:
        try:
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):
            pass


def _memory_now() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 2 * 1024 * 1024 * 1024


# audit events (Python 3.11) refused outright: by module, and by name
REFUSED_MODULES = frozenset(
    {
        "socket",
        "subprocess",
        "pty",
        "ctypes",
        "mmap",
        "sqlite3",
        "webbrowser",
        "urllib",
        "http",
        "ftplib",
        "smtplib",
        "imaplib",
        "poplib",
        "nntplib",
        "telnetlib",
        "winreg",
        "_winapi",
        "fcntl",
        "msvcrt",
        "resource",
    }
)
REFUSED_NAMES = frozenset(
    {
        "os.system",
        "os.exec",
        "os.spawn",
        "os.posix_spawn",
        "os.fork",
        "os.forkpty",
        "os.kill",
        "os.killpg",
        "os.setns",
        "os.unshare",
        "os.startfile",
        "os.add_dll_directory",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "sys.addaudithook",
        "signal.pthread_kill",
        "code.__new__",
        "sys.remote_exec",
    }
)
REFUSED_IMPORTS = frozenset(
    {
        "ctypes",
        "_ctypes",
        "subprocess",
        "_posixsubprocess",
        "socket",
        "_socket",
        "ssl",
        "_ssl",
        "multiprocessing",
        "_multiprocessing",
        "concurrent",
        "asyncio",
        "pty",
        "mmap",
        "sqlite3",
        "_sqlite3",
        "webbrowser",
        "resource",
        "_xxsubinterpreters",
        "_posixshmem",
        "socketserver",
    }
)
WRITE_EVENTS = frozenset(
    {
        "os.remove",
        "os.rename",
        "os.rmdir",
        "os.mkdir",
        "os.chmod",
        "os.chown",
        "os.link",
        "os.symlink",
        "os.truncate",
        "os.utime",
        "os.chflags",
        "os.lchflags",
        "os.setxattr",
        "os.removexattr",
        "os.mkfifo",
        "os.mknod",
        "shutil.copyfile",
        "shutil.copymode",
        "shutil.copystat",
        "shutil.copytree",
        "shutil.move",
        "shutil.rmtree",
        "shutil.chown",
        "shutil.make_archive",
        "shutil.unpack_archive",
        "tempfile.mkstemp",
        "tempfile.mkdtemp",
    }
)
READ_EVENTS = frozenset(
    {"os.listdir", "os.scandir", "glob.glob", "glob.glob/2", "os.chdir", "os.getxattr", "os.listxattr", "os.chroot"}
)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def _guard(read_dirs: list[str], scratch: str) -> None:
    """Install the audit hook: from here on, the process may read the ruleset's folders, the scratch
    folder and the Python installation, write only in the scratch folder, and do nothing else outside."""
    realpath, fsdecode, fspath, sep, isdir = os.path.realpath, os.fsdecode, os.fspath, os.sep, os.path.isdir
    readable = tuple(dict.fromkeys([scratch, *read_dirs]))
    writable = (scratch,)
    refused_modules, refused_names, refused_imports = REFUSED_MODULES, REFUSED_NAMES, REFUSED_IMPORTS
    write_events, read_events, write_flags = WRITE_EVENTS, READ_EVENTS, _WRITE_FLAGS
    copy_events = frozenset({"shutil.copyfile", "shutil.copymode", "shutil.copystat", "shutil.copytree"})
    busy = []

    def within(path, folders) -> bool:
        try:
            if isinstance(path, int):
                return True  # a descriptor already opened under these rules
            real = realpath(fsdecode(fspath(path)))
        except (TypeError, ValueError):
            return False
        return any(real == folder or real.startswith(folder + sep) for folder in folders)

    def refuse(what: str, path=None):
        shown = "" if path is None else f" {fsdecode(path) if isinstance(path, (str, bytes)) else path!s}"
        raise PermissionError(f"worked examples and mechanics may not {what}{shown} (they run confined)")

    def check(event: str, args) -> None:
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            writing = bool((flags or 0) & write_flags) or any(c in (mode or "") for c in "wax+")
            if not within(path, writable if writing else readable):
                refuse("write" if writing else "open a file outside the ruleset folder:", path)
            if not isinstance(path, int) and isdir(path):
                refuse("open a folder as a file:", path)
        elif event == "import":
            if str(args[0]).partition(".")[0] in refused_imports:
                refuse("import", args[0])
        elif event in write_events:
            paths = [a for a in args if isinstance(a, (str, bytes, os.PathLike))]
            if event in copy_events and paths and not within(paths[0], readable):  # (source, destination)
                refuse("open a file outside the ruleset folder:", paths[0])
            for path in paths[1:] if event in copy_events else paths:
                if not within(path, writable):
                    refuse(f"change files outside their scratch folder ({event}):", path)
        elif event in read_events:
            for path in args[:1]:
                if isinstance(path, (str, bytes, os.PathLike)) and not within(path, readable):
                    refuse(f"look outside the ruleset folder ({event}):", path)

    watched = frozenset({"open", "import", *write_events, *read_events})

    def hook(event: str, args) -> None:
        if event in refused_names or event.partition(".")[0] in refused_modules:
            refuse(f"use {event}")
        if event in watched and not busy:
            busy.append(1)
            try:
                check(event, args)
            finally:
                busy.clear()

    sys.addaudithook(hook)
    for name in list(sys.modules):  # what was imported before must be imported (and refused) again
        if name.partition(".")[0] in refused_imports:
            del sys.modules[name]
