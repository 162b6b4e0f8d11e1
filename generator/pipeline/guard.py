"""The output folder a build may replace, and the lock that lets one build at a time write it."""

from __future__ import annotations

import fcntl
import os
import stat
from contextlib import contextmanager
from pathlib import Path

from ..cache_seal import real_folder, wipe
from ..render.export import is_export
from .staging import MANIFEST

CACHE_DIR = ".rulepress-cache"


class BuildLocked(Exception):
    pass


class OutRefused(Exception):
    """``--out`` names a folder a build must not replace."""


def check_out(root: Path, out: Path, default: Path) -> None:
    """Refuse an output folder whose replacement would lose data: the project or a folder above it
    or inside rules_src/, or a folder holding files this tool did not write. The default folder
    (``build/``), a folder holding a manifest, one `rulepress export` wrote, a new folder and an empty one are
    fine."""
    root, out = root.resolve(), out.resolve()
    label, shown = "--out", str(out)
    if out == default.resolve():
        if not default.is_symlink():
            return
        # a project's build/ that links elsewhere came with the project (a contributor's): following it would write
        # outside the project, or replace another project's build with this one's
        raise OutRefused(
            f"the project's {default.name}/ is a link to {out}: a build writes its output inside the project; "
            f"remove the link (or name another folder with --out)"
        )
    if out == root:
        raise OutRefused(f"{label} {shown} is the project folder; a build replaces its output folder whole")
    if root.is_relative_to(out):
        raise OutRefused(f"{label} {shown} holds the project; a build replaces its output folder whole")
    if out.is_relative_to(root / "rules_src"):
        raise OutRefused(f"{label} {shown} is inside rules_src/; write builds elsewhere")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise OutRefused(f"{label} {shown} is not a folder")
    if out.is_dir() and not (out / MANIFEST).is_file() and not is_export(out) and any(out.iterdir()):
        raise OutRefused(
            f"{label} {shown} holds files rulepress did not write; "
            "name a new or empty folder, or one an earlier build wrote"
        )


def writable(folder: Path) -> bool:
    """Whether a build may replace ``folder``: writable by us, and not marked read-only by its owner
    (``chmod a-w``, which root would otherwise ignore)."""
    return os.access(folder, os.W_OK) and bool(folder.stat().st_mode & stat.S_IWUSR)


@contextmanager
def build_lock(out: Path):
    """Hold an exclusive lock for builds into ``out``; raise BuildLocked if another build has it."""
    lock_dir = real_folder(out.parent / CACHE_DIR, out.parent)  # never a shipped link leading elsewhere
    path = lock_dir / f"{out.name}.lock" if out.name != "build" else lock_dir / "build.lock"
    with _open_lock(path) as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            owner = handle.read().strip() or "another process"
            raise BuildLocked(
                f"another rulepress build is writing {out} (pid {owner}); try again when it has finished"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)


def _open_lock(path: Path):
    """The lock file, opened for writing without following a link: a shipped ``build.lock`` linking to
    another file would have that file truncated; such a link is removed."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW
    try:
        handle = os.open(path, flags, 0o644)
    except OSError:
        wipe(path)
        handle = os.open(path, flags, 0o644)
    return os.fdopen(handle, "r+")
