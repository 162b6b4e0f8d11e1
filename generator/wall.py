"""The wall: rules code and renderers run in an operating-system sandbox (bubblewrap), not only behind a fence.

What runs behind the wall sees a read-only copy of the project and of the Python that runs Rulepress, a
size-capped ``/tmp``, the folders it was given to write and nothing else of this machine: no network (its
own network namespace), no other process (its own PID namespace, ended with its parent), no environment
but what is passed on purpose, no capabilities, and resource limits set before it starts. The audit hook
in ``examples.confined`` stays inside as a second fence.

Where the wall is used is the machine owner's choice, never the project's: ``RULEPRESS_WALL`` is
``auto`` (the default: the wall where ``bwrap`` works, said once when it does not), ``required`` (what
``--untrusted`` sets: nothing runs without it) or ``off``; the wall itself sets ``inside`` for what it runs
(a walled renderer runs the fence alone, quietly). ``RULEPRESS_BWRAP`` names the ``bwrap`` to use.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "bubblewrap"  # Debian's package that brings bwrap
SCRATCH_BYTES = 512 * 1024 * 1024  # the size of the walled /tmp
SPARE_SCRATCH = "/var/tmp"  # the scratch instead, where a folder the wall lets in is /tmp itself (or holds it)
PASSED_ON = (
    "RULEPRESS_",
    "SOURCE_DATE_EPOCH",
    "LANG",
    "LC_ALL",
    "TZ",
    "PAGEFIND_BINARY_PATH",
)  # the machine owner's settings
_ENV = shutil.which("env") or "/usr/bin/env"
_SYSTEM = ("/usr", "/etc/fonts", "/etc/ld.so.cache", "/etc/alternatives", "/var/cache/fontconfig")


class WallMissing(Exception):
    """The wall is required (``--untrusted``) and this machine cannot raise it."""


@dataclass(frozen=True)
class Status:
    usable: bool
    reason: str = ""  # why not, in one line, with what to install


def policy() -> str:
    chosen = os.environ.get("RULEPRESS_WALL", "auto").strip().lower() or "auto"
    return chosen if chosen in ("auto", "required", "off", "inside") else "required"  # a typo never lowers the wall


def require() -> None:
    """``--untrusted``: from here on, this process and its children run nothing without the wall."""
    os.environ["RULEPRESS_WALL"] = "required"


def bwrap() -> str | None:
    named = os.environ.get("RULEPRESS_BWRAP")
    return (named if named and os.access(named, os.X_OK) else None) if named else shutil.which("bwrap")


@functools.cache
def _probe(program: str | None) -> Status:
    if program is None:
        return Status(False, f"bubblewrap (bwrap) is not installed: apt-get install {PACKAGE}")
    try:
        run = subprocess.run(  # with the /proc and /dev the wall mounts: a container may allow namespaces, not those
            [program, *_namespaces(), "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "/bin/true"],
            capture_output=True,
            timeout=20,
            env={},
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return Status(False, f"bubblewrap ({program}) cannot start: {error}")
    if run.returncode != 0:
        said = (run.stderr.decode(errors="replace").strip().splitlines() or ["no reason given"])[-1]
        return Status(
            False, f"bubblewrap cannot make a sandbox here ({said}): user namespaces may be off, or /proc not mountable"
        )
    return Status(True)


def status() -> Status:
    return _probe(bwrap())


def in_use() -> bool:
    """Whether rules code and renderers go behind the wall in this run (``WallMissing`` when it is
    required and cannot be had; a note, once, when it is only missing)."""
    chosen = policy()
    if chosen in ("off", "inside"):
        return False
    found = status()
    if found.usable:
        return True
    if chosen == "required":
        raise WallMissing(f"--untrusted needs the operating-system wall, and {found.reason}")
    _note_once(found.reason)
    return False


def _note_once(reason: str) -> None:
    if not os.environ.get("RULEPRESS_WALL_NOTED"):
        os.environ["RULEPRESS_WALL_NOTED"] = "1"  # workers and later calls of this run stay quiet
        print(
            f"rulepress: note: rules code runs behind the audit-hook fence only, without the wall ({reason})",
            file=sys.stderr,
            flush=True,
        )


def _namespaces() -> list[str]:
    return ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]


@functools.cache
def python_dirs() -> tuple[str, ...]:
    """What Python needs to read to run Rulepress: its installation, its packages and Rulepress itself."""
    import sysconfig

    import icepool  # deferred: the dice library loads only in a run that raises the wall

    found = set()
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            try:
                found.add(
                    sysconfig.get_path(
                        key,
                        vars={
                            "base": prefix,
                            "platbase": prefix,
                            "installed_base": prefix,
                            "installed_platbase": prefix,
                        },
                    )
                )
            except KeyError:
                pass
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        found.add(sysconfig.get_path(key))
    found.add(str(Path(__file__).parent))  # the generator package, which holds this module
    found.add(str(Path(icepool.__file__).parent))
    found.update(p for p in sys.path if p.endswith(".zip"))
    return tuple(os.path.realpath(p) for p in found if p)


def _interpreter() -> list[str]:
    """The interpreter and the venv around it (``pyvenv.cfg`` tells it where its packages are)."""
    found = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    return sorted(p for p in found if p and p != "/usr")


def command(
    argv: list[str],
    *,
    read: list[Path] = (),
    write: list[Path] = (),
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> list[str]:
    """``argv`` run behind the wall: it reads ``read`` (the project, say) and Python, writes ``write`` and
    its own ``/tmp``, and sees only the environment in ``env`` (plus a neutral PATH and HOME)."""
    # bwrap starts with no environment: its init (pid 1 inside) is readable there, /proc/1/environ too.
    # /proc/sys read-only: a sysctl's write permission is the euid's alone, and root is mapped to root.
    line = [
        _ENV,
        "-i",
        bwrap() or "bwrap",
        *_namespaces(),
        "--clearenv",
        "--proc",
        "/proc",
        "--ro-bind",
        "/proc/sys",
        "/proc/sys",
        "--dev",
        "/dev",
        "--size",
        str(SCRATCH_BYTES),
        "--tmpfs",
        "/tmp",
    ]
    for name in ("bin", "lib", "lib64", "sbin"):
        target = Path("/") / name
        if target.is_symlink():
            line += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            line += ["--ro-bind", str(target), str(target)]
    for path in _SYSTEM:
        if Path(path).exists():
            line += ["--ro-bind", path, path]
    for path in dict.fromkeys(
        [*_interpreter(), *python_dirs(), *_named_tools(), *(str(Path(p).resolve()) for p in read)]
    ):
        if not Path(path).exists():
            continue
        line += ["--ro-bind", path, path]
    for path in dict.fromkeys(str(Path(p).resolve()) for p in write):
        line += ["--bind", path, path]
    scratch = "/tmp"
    if any(Path("/tmp").resolve().is_relative_to(Path(p).resolve()) for p in (*read, *write)):
        scratch = SPARE_SCRATCH  # a project in /tmp itself: it covers the scratch, read-only
        line += ["--size", str(SCRATCH_BYTES), "--tmpfs", scratch]
    variables = {
        **passed_on(),
        "PATH": "/usr/bin:/bin",
        "HOME": scratch,
        **({"TMPDIR": scratch} if scratch != "/tmp" else {}),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
        "RULEPRESS_WALL": "inside",
        **(env or {}),
    }
    for name, value in variables.items():
        line += ["--setenv", name, value]
    if cwd is not None:
        line += ["--chdir", str(Path(cwd).resolve())]
    line += ["--remount-ro", "/", "--remount-ro", "/dev"]  # their tmpfs are not capped: /tmp is the scratch
    return [*line, "--", *argv]


def _named_tools() -> list[str]:
    """The folder of a tool the machine owner names in the environment (Pagefind's binary), to run it inside."""
    named = os.environ.get("PAGEFIND_BINARY_PATH")
    return [str(Path(named).resolve().parent)] if named else []


def passed_on() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name.startswith(PASSED_ON)}


def limits(memory_bytes: int, cpu_seconds: int, file_bytes: int = 256 * 1024 * 1024):
    """A ``preexec_fn`` setting the walled process's limits before bwrap starts (they pass through exec)."""

    def apply() -> None:
        import resource

        for kind, value in (
            (resource.RLIMIT_AS, memory_bytes),
            (resource.RLIMIT_CPU, cpu_seconds),
            (resource.RLIMIT_FSIZE, file_bytes),
            (resource.RLIMIT_CORE, 0),
        ):
            try:
                resource.setrlimit(kind, (value, value))
            except (ValueError, OSError):
                pass
        # Started under ``interrupts_held``: bwrap gets Ctrl-C as this process had it before the hold (ignored
        # stays ignored), and a Ctrl-C held meanwhile ends this child here, before bwrap runs.
        before = _BEFORE_HOLD.get(threading.get_ident())  # the forking thread's: this child is a copy of it
        if before is not None:
            mask, handler = before
            signal.signal(signal.SIGINT, signal.SIG_IGN if handler is signal.SIG_IGN else signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    return apply


def end(process: subprocess.Popen) -> None:
    """Kill a process started with ``command`` and everything behind its wall. bwrap killed alone can leave
    its namespace's init (pid 1 inside) waiting for ever: killed after making it and before it is told to die
    with its parent, bwrap told it nothing (14 of 200 kills in a walled process's first 10 ms). So bwrap is
    stopped first, which keeps it from making another child, then its children are killed, then it."""
    if process.poll() is not None:
        return
    try:
        os.kill(process.pid, signal.SIGSTOP)
        _signal_until(process.pid, None, ("T", "t", "Z", "X"))
        for child in _children(process.pid):
            _signal_until(child, signal.SIGKILL, ("Z", "X"))
    except ProcessLookupError:
        pass  # ended meanwhile: it leaves nothing, or its init's parent-death signal ends what it made
    process.kill()


def _signal_until(pid: int, number: int | None, states: tuple[str, ...], seconds: float = 2.0) -> None:
    """Send ``number`` to ``pid`` until it is in one of ``states`` (or gone): a signal arrives on the process's
    next way out of the kernel, so ``kill`` returning says nothing about it having landed."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = _stat(pid)
        if state is None or state[0] in states:
            return
        if number is not None:
            os.kill(pid, number)
        time.sleep(0.001)


def processes() -> dict[int, tuple[str, int]]:
    """Every process's (state, parent) from ``/proc``, as it reads now."""
    found = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            found[int(entry.name)] = stat
    return found


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent) of ``pid`` from ``/proc``; None when it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1])


def _children(pid: int) -> list[int]:
    return [child for child, (_state, parent) in processes().items() if parent == pid]


@contextmanager
def interrupts_held():
    """Hold Ctrl-C while a walled process starts: arriving in the middle of the fork, it would leave a
    child this process has no handle on, or a traceback from the child's Python before it runs bwrap.
    The interrupt is raised as soon as the block ends."""
    # The mask keeps it from this thread and from the child, which inherits the mask; the handler
    # keeps it from reaching this thread through another one (a progress bar's, a watcher's).
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.getsignal(signal.SIGINT)
    _BEFORE_HOLD[threading.get_ident()] = (held, handler)
    caught: list[int] = []
    swapped = threading.current_thread() is threading.main_thread() and callable(handler)
    if swapped:
        signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        del _BEFORE_HOLD[threading.get_ident()]
        if swapped:
            signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    if caught:
        signal.raise_signal(signal.SIGINT)


_BEFORE_HOLD: dict[int, tuple] = {}  # per thread in a hold: its signal mask and Ctrl-C handler before it
