"""What tells the check daemon a file was saved: inotify where the kernel offers it (told at once, costs nothing
while nothing changes), else a look at every file's name, size, time and inode fifty times a second.

Either is only a hint to check ahead: what a check found is always keyed by the files' content.
"""

from __future__ import annotations

import ctypes
import os
import select
from pathlib import Path

POLL_SECONDS = 0.02  # without inotify: how often every file is looked at
# a file written and closed, moved in or out, made, removed, its mode changed; not each write, which would
# start a check on a half-written file
_EVENTS = 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x4 | 0x400 | 0x800  # CLOSE_WRITE MOVED_* CREATE DELETE ATTRIB *_SELF
_NONBLOCK, _CLOEXEC = 0o4000, 0o2000000


def watched_paths(root: Path) -> list[Path]:
    """Every folder a check reads files from: the project (for rulepress.yaml), rules_src/ and templates/ down."""
    found = [root]
    for top in (root / "rules_src", root / "templates"):
        if top.is_dir():
            found += [Path(folder) for folder, _dirs, _files in os.walk(top)]
    return found


def fingerprint(root: Path) -> tuple:
    """Each file and folder a check reads (rules_src/, templates/, rulepress.yaml), by name, size, time and inode."""
    found = []
    for top in (root / "rules_src", root / "templates", root / "rulepress.yaml"):
        for folder, dirs, files in os.walk(top) if top.is_dir() else [(str(top.parent), [], [top.name])]:
            for name in dirs + files:
                try:
                    seen = os.lstat(os.path.join(folder, name))
                except OSError:
                    continue
                found.append((folder, name, seen.st_mtime_ns, seen.st_size, seen.st_ino))
    return tuple(found)


class Watch:
    """``changed(seconds)``: wait up to ``seconds`` for a sign that a file was saved; True when there was one."""

    def __init__(self, root: Path):
        self.root = root
        self._seen = fingerprint(root)
        self._fd = _inotify()
        if self._fd is not None:
            self._add_watches()

    def changed(self, seconds: float, also=None) -> bool:
        """Waits on the watch and on ``also`` (a socket that may be asked meanwhile); True when a file changed."""
        if self._fd is None:
            ready = select.select([also] if also is not None else [], [], [], POLL_SECONDS)[0]
            if ready:
                return False
            return self._looked()
        ready = select.select([self._fd] + ([also] if also is not None else []), [], [], seconds)[0]
        if self._fd not in ready:
            return False
        self._drain()
        self._add_watches()  # a folder made since is watched too
        return self._looked()

    def _looked(self) -> bool:
        now = fingerprint(self.root)
        if now == self._seen:
            return False
        self._seen = now
        return True

    def _add_watches(self) -> None:
        add = _libc().inotify_add_watch
        for folder in watched_paths(self.root):
            add(self._fd, os.fsencode(folder), _EVENTS)  # a folder watched already keeps its watch

    def _drain(self) -> None:
        try:
            while os.read(self._fd, 1 << 16):
                pass
        except BlockingIOError:
            pass

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _libc():
    # the interpreter's own C library (dlopen of no file): naming it with find_library runs ldconfig, even gcc
    return ctypes.CDLL(None, use_errno=True)


def _inotify() -> int | None:
    try:
        fd = _libc().inotify_init1(_NONBLOCK | _CLOEXEC)
    except (OSError, AttributeError):
        return None
    return fd if fd >= 0 else None
