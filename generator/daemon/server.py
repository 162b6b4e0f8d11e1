"""The check daemon itself (see ``client`` for what it is and why it is trusted): a warm process that answers
one request at a time on its socket, and ``rulepress daemon start | stop | status``."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

from ..check_cache import WarmCache, environment
from .client import ask, ask_alive, daemon_key, read_line, same_user, socket_path
from .watch import Watch, fingerprint

IDLE_SECONDS = 3600.0  # a daemon nobody asks for this long ends
LOOK_SECONDS = 10.0  # how often an idle daemon looks whether its generator or its project went
SAVE_SECONDS = 0.25  # a check's findings are written once nobody asked for this long (the asker is answered first)


# -- the daemon's side ------------------------------------------------------------------------------------------
class Daemon:
    """One project's warm checker: answers requests one at a time on its socket."""

    def __init__(self, root: Path, path: Path):
        from ..source.project import LoadMemo  # deferred: only the daemon itself loads the model

        self.root, self.path = root, path
        self.key = daemon_key(root)
        self.memo = LoadMemo()
        self.cache = WarmCache(root)  # written when nobody waits (``save``)
        self.last: dict | None = None  # what the check ahead found, for the check that comes next
        self.running = True

    def answer(self, request: dict) -> dict:
        op = request.get("op")
        if request.get("daemon") != self.key:
            return {"refused": "another project, generator or setting"}
        if op == "ping":
            return {"pid": os.getpid(), "root": str(self.root)}
        if op == "stop":
            self.running = False
            return {"stopped": os.getpid()}
        if op == "check":
            known = request.get("key") if isinstance(request.get("key"), str) else None
            return self.check(request.get("only"), bool(request.get("examples", True)), known)
        return {"refused": f"no such request: {op!r}"}

    def check(self, only, examples: bool, known: str | None = None) -> dict:
        """A check's answer; ``known``: the hash of the files as the asker saw them (what was checked ahead for
        exactly those files is the answer, with no need to hash them again here)."""
        from .. import report  # deferred: the check itself, with the model (a daemon only)

        if only is not None and not isinstance(only, str):
            return {"refused": "`only` names a ruleset"}
        ahead, self.last = self.last, None
        for _attempt in range(3):  # files that change while they are checked are checked again
            before = fingerprint(self.root)
            if (
                ahead is not None
                and (only, examples) == (None, True)
                and ahead["key"] == (known or report.project_key(self.root, only, examples))
            ):
                return ahead  # checked ahead a moment ago, these very files (a failing example too, not stored)
            self.cache.fresh()
            found = report.check_into(self.root, only, examples, self.memo, cache=self.cache)
            if fingerprint(self.root) == before:
                return found
        return {"refused": "the files kept changing while they were checked"}

    def ahead(self) -> None:
        """Check the project as it now is, before anyone asks: a file was saved, and the author's `rulepress check`
        is likely on its way. What it finds is stored like any check's (the check cache), so the check that
        comes finds it there, or finds this daemon about done with it."""
        try:
            found = self.check(None, True)
            self.last = found if "key" in found else None
        except Exception:  # noqa: BLE001 - the check that comes runs it again and tells what went wrong
            pass

    def save(self) -> None:
        """Write what the checks found to the check cache, for the cold checks that may come later."""
        self.cache.flush()

    def stale(self) -> bool:
        """Whether this daemon may no longer answer: its generator changed under it, or its project went."""
        from ..keys import code_hash  # deferred: read again here, unlike the cached hash every key starts with

        return not (self.root / "rules_src").is_dir() or not environment().startswith(code_hash())


def run_daemon(root: Path, idle: float = IDLE_SECONDS) -> int:
    """`rulepress daemon run`: serve ``root``'s checks on its socket until stopped, idle or stale."""
    import time

    from ..examples.walled import close_hosts  # deferred: a daemon's own walled host, ended with it

    path = socket_path(root)
    if path is None:
        print("rulepress: error: no private folder for the daemon's socket", file=sys.stderr)
        return 2
    daemon = Daemon(root, path)
    daemon.check(None, True)  # warm before it answers: the engine imported, the walled host started, the project loaded
    listener = _listen(path)
    if listener is None:
        return 2
    bound = os.lstat(path).st_ino
    last = looked = time.monotonic()
    watch = Watch(root)
    try:
        while daemon.running and time.monotonic() - last < idle:
            unwritten = daemon.cache.unwritten
            if watch.changed(SAVE_SECONDS if unwritten else LOOK_SECONDS, also=listener):
                daemon.ahead()
                continue
            listener.settimeout(0)
            try:
                connection, _address = listener.accept()
            except (BlockingIOError, TimeoutError):
                if unwritten:
                    daemon.save()
                elif time.monotonic() - looked > LOOK_SECONDS:
                    looked = time.monotonic()
                    if daemon.stale():
                        break
                continue
            with connection:
                connection.setblocking(True)
                _serve_one(daemon, connection)
            last = time.monotonic()
    finally:
        daemon.save()
        watch.close()
        _remove_own(path, listener, bound)
        close_hosts()
    return 0


def _listen(path: Path) -> socket.socket | None:
    """A socket bound at ``path``; a socket file left by a dead daemon is replaced, a live one is not."""
    if path.exists() or path.is_symlink():
        if ask_alive(path):
            print(f"rulepress: a check daemon already answers at {path}", file=sys.stderr)
            return None
        path.unlink(missing_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o077)
    try:
        listener.bind(str(path))
    except OSError as error:
        print(f"rulepress: error: cannot listen at {path}: {error.strerror or error}", file=sys.stderr)
        return None
    finally:
        os.umask(old)
    listener.listen(16)
    return listener


def _serve_one(daemon: Daemon, connection: socket.socket) -> None:
    try:
        connection.settimeout(5.0)
        if not same_user(connection):
            return
        line = read_line(connection)
        request = json.loads(line) if line else None
        if not isinstance(request, dict):
            return
        connection.settimeout(None)
        answer = {**daemon.answer(request), "daemon": daemon.key}
        connection.sendall((json.dumps(answer) + "\n").encode())
    except (OSError, ValueError):
        pass  # a client that went away, or sent nonsense: nothing to answer
    except Exception as error:  # noqa: BLE001 - the check failed inside: the client checks itself and tells it
        try:
            connection.sendall((json.dumps({"failed": f"{type(error).__name__}: {error}"}) + "\n").encode())
        except OSError:
            pass


def _remove_own(path: Path, listener: socket.socket, bound: int) -> None:
    """Close, and remove the socket file if it is still the one this daemon bound (not a later daemon's)."""
    listener.close()
    try:
        if os.lstat(path).st_ino == bound:
            path.unlink()
    except OSError:
        pass


# -- daemon start, stop, status ----------------------------------------------------------------------------------
def start(root: Path, seconds: float = 60.0) -> int:
    """Start ``root``'s daemon in its own session (it outlives this command) and wait until it answers."""
    import subprocess  # deferred: only `daemon start` starts processes
    import tempfile
    import time

    from .. import wall  # deferred: likewise

    found = ask(root, {"op": "ping"})
    if found is not None:
        print(f"rulepress: a check daemon already answers for {root} (pid {found.get('pid')})")
        return 0
    if wall.policy() not in ("off", "inside") and not wall.status().usable:
        print(
            f"rulepress: error: the check daemon runs rules code behind the wall, and {wall.status().reason}",
            file=sys.stderr,
        )
        return 2
    if socket_path(root) is None:
        print(
            "rulepress: error: no private folder for the daemon's socket, or a path to it too long for a socket "
            "(XDG_RUNTIME_DIR or /tmp/rulepress-<uid>, a folder only you can enter)",
            file=sys.stderr,
        )
        return 2
    said = tempfile.TemporaryFile()
    # The daemon runs this very generator: from the project folder `-m generator` would find whichever one is
    # installed (or none), whose answers this command does not take (they are keyed by the generator's code).
    here = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join([here, *filter(None, [os.environ.get("PYTHONPATH")])])
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "-C", str(root), "daemon", "run"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=said,
        start_new_session=True,  # not ended by the terminal's Ctrl-C or hang-up, as a daemon should not be
        cwd=str(root),
        env={**os.environ, "PYTHONPATH": path},
    )
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = ask(root, {"op": "ping"})
        if found is not None:
            print(f"rulepress: check daemon started for {root} (pid {found.get('pid')})")
            return 0
        if process.poll() is not None:
            said.seek(0)
            sys.stderr.write(said.read().decode(errors="replace"))
            print("rulepress: error: the check daemon did not start", file=sys.stderr)
            return 1
        time.sleep(0.05)
    process.kill()
    print(f"rulepress: error: the check daemon did not answer in {seconds:.0f} s", file=sys.stderr)
    return 1


def stop(root: Path) -> int:
    found = ask(root, {"op": "stop"}, seconds=30.0)
    if found is None:
        print(f"rulepress: no check daemon answers for {root}")
        return 0
    print(f"rulepress: check daemon stopped (pid {found.get('stopped')})")
    return 0


def status(root: Path) -> int:
    """0 and its pid when a daemon answers for ``root`` with this generator and these settings, else 1."""
    found = ask(root, {"op": "ping"}, seconds=30.0)
    if found is None:
        print(f"rulepress: no check daemon answers for {root}")
        return 1
    print(f"rulepress: a check daemon answers for {root} (pid {found.get('pid')})")
    return 0
