"""The check daemon: `rulepress check` answered by a process that stays warm, as ``dmypy`` answers mypy.

``rulepress daemon start`` starts one for the project; from then on `rulepress check` asks it and prints what
it answers, which is what a check in a fresh process prints, byte for byte: the daemon runs the very same
check (``report.check_into``), only with the engine imported already, the walled host for examples and
mechanics running already, and each ruleset folder whose files did not change loaded already
(``source.project.LoadMemo``; the check cache and its memo do the rest, as they do for a cold check).

A daemon is never trusted when in doubt; the check then runs in its own process, as if there were none:

* **Whose**: its socket lives in a folder only this user can enter (``$XDG_RUNTIME_DIR/rulepress``, else
  ``/tmp/rulepress-<uid>``), which must be a real folder owned by this user with no access for anyone else;
  each side asks the kernel who is at the other end of the socket (``SO_PEERCRED``) and talks only to this user.
* **For what**: the socket's name is a hash of the project folder, the generator (its version and code), the
  Python running it and every ``RULEPRESS_`` setting, so a check finds only a daemon that would run the same
  check it would; the daemon's answer repeats that key and the hash of the files it checked, and the check
  uses it only when both are its own.
* **Alive**: a daemon that does not accept, answers nothing or ends the connection is ignored (its socket left
  to the next ``daemon start``, which replaces a dead one); one whose generator changed under it ends itself.

It ends by ``rulepress daemon stop``, after an hour with no request, or when its project folder goes.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import struct
from pathlib import Path

from ..check_cache import environment

ANSWER_SECONDS = 1800.0  # a check's answer waited for this long at most; then the check runs here
LINE_LIMIT = 1 << 16  # a request is one short JSON line
_PEER = struct.Struct("3i")  # struct ucred: pid, uid, gid


# -- where, and whose -----------------------------------------------------------------------------------------
def runtime_folder() -> Path | None:
    """This user's private folder for sockets (made if missing), or None when the one found is not private."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    folder = Path(base) / "rulepress" if base and Path(base).is_absolute() else Path(f"/tmp/rulepress-{os.getuid()}")
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        found = os.lstat(folder)
    except OSError:
        return None
    private = stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & 0o077
    return folder if private else None


def settings() -> str:
    """Every ``RULEPRESS_`` setting this process runs with (the wall's among them), in one text."""
    return "|".join(
        f"{name}={value}"
        for name, value in sorted(os.environ.items())
        if name.startswith("RULEPRESS_") and name != "RULEPRESS_WALL_NOTED"
    )


def daemon_key(root: Path) -> str:
    """What a daemon must share with a check to answer it: project, generator, Python and settings."""
    text = f"{root}\0{environment()}\0{settings()}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


SOCKET_PATH_LIMIT = 107  # bytes a Unix socket's path may have (sun_path), its end included


def socket_path(root: Path) -> Path | None:
    """Where ``root``'s daemon listens; None when there is no private folder, or its path is too long for a socket."""
    folder = runtime_folder()
    if folder is None:
        return None
    path = folder / f"check-{daemon_key(root)[:32]}.sock"
    return path if len(os.fsencode(path)) < SOCKET_PATH_LIMIT else None


def same_user(connection: socket.socket) -> bool:
    try:
        _pid, uid, _gid = _PEER.unpack(connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEER.size))
    except OSError:
        return False
    return uid == os.getuid()


# -- the check's side -------------------------------------------------------------------------------------------
def ask(root: Path, request: dict, seconds: float = ANSWER_SECONDS) -> dict | None:
    """The daemon's answer to ``request``, or None when there is no daemon to trust for this check."""
    path = socket_path(root)
    if path is None:
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.settimeout(2.0)
        connection.connect(str(path))
        if not same_user(connection):
            return None
        connection.settimeout(seconds)
        connection.sendall((json.dumps({**request, "daemon": daemon_key(root)}) + "\n").encode())
        answer = json.loads(read_line(connection) or b"null")
    except (OSError, ValueError):
        return None  # none there, a dead one's socket, one that hung or answered nonsense
    finally:
        connection.close()
    if not isinstance(answer, dict) or answer.get("daemon") != daemon_key(root):
        return None
    return answer


def checked(root: Path, only: str | None, examples: bool, key: str) -> tuple[str, str, int] | None:
    """What a check of ``root`` prints (stderr, stdout) and its status, from the daemon, when it checked exactly
    the files whose hash is ``key`` (the check cache's project key); None: check here."""
    answer = ask(root, {"op": "check", "only": only, "examples": examples, "key": key})
    if answer is None or answer.get("key") != key:
        return None
    errors, out, status = answer.get("stderr"), answer.get("stdout"), answer.get("status")
    if not (isinstance(errors, str) and isinstance(out, str) and type(status) is int and status in (0, 1)):
        return None
    return errors, out, status


def read_line(connection: socket.socket) -> bytes | None:
    """One line read from ``connection`` (without its end), or None when it ends or grows past the limit first."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = connection.recv(1 << 16)
        if not chunk:
            return None
        data += chunk
        if len(data) > LINE_LIMIT and b"\n" not in data:
            return None
    return data.rstrip(b"\n")


def ask_alive(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(2.0)
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()
