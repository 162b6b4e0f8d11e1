"""When a ruleset's files last changed, for the date its printouts say their rules are of.

In a git work tree whose last commit holds the files' folders as they are on disk, that is the time of the last
commit touching those folders: a fresh clone, a CI job on any day, an incremental and a clean build all print the
same date. Otherwise (no git, files edited, added or deleted since the last commit) it is the newest file's
modification time, so a printout made after an edit says it is newer.

The project may be one its reader did not write, so git is run as on a repository of a stranger: never through
a shell, with a time limit, in an environment of its own (no system or user configuration, no optional locks, no
lazy fetch, literal paths), with every setting of the repository that could run a command or reach the network
overridden (`core.fsmonitor`, hooks, signatures, the pager, transports), and behind the operating-system wall
whenever the run uses it (``--untrusted`` always does). It only reads the commit graph and trees (``log`` and
``ls-tree``), never the index or the work tree: whether a file is as committed is told here, by hashing it as git
does, so no filter or attribute of the repository is ever run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from . import wall

GIT_SECONDS = 20  # one git command's time; past it the files' times are used
GIT_MEMORY = 1024**3
_SETTINGS = (  # the repository's settings that could run a command or reach the network, overridden
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.sshCommand=false",
    "core.askPass=false",
    "credential.helper=",
    "log.showSignature=false",
    "protocol.allow=never",
    "safe.bareRepository=explicit",
)
_ENVIRONMENT = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_LITERAL_PATHSPECS": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "LC_ALL": "C",
}
_PLAIN_FILES = ("100644", "100755")
_HELD: ContextVar[dict | None] = ContextVar("rulepress_history_held", default=None)


@contextmanager
def read_once() -> Iterator[None]:
    """Within, what :func:`last_changed` finds for a set of files is found once (a build asks for each ruleset's
    date for its keys and again for every printout)."""
    token = _HELD.set({})
    try:
        yield
    finally:
        _HELD.reset(token)


def last_changed(root: Path, files: list[Path]) -> float | None:
    """Seconds since 1970 when ``files`` (of the project at ``root``) last changed: the time of the last commit
    touching their folders when those are committed as they are, else the newest file's modification time; None
    for no files."""
    if not files:
        return None
    held = _HELD.get()
    key = (str(root), tuple(str(path) for path in files))
    if held is not None and key in held:
        return held[key]
    found = committed(Path(root), files)
    if found is None:
        found = max(path.stat().st_mtime for path in files)
    if held is not None:
        held[key] = found
    return found


def committed(root: Path, files: list[Path]) -> float | None:
    """The time of the last commit touching the folders of ``files``, when ``root`` is in a git work tree whose
    HEAD holds every file of those folders as it is on disk, ``files`` among them; else None."""
    root = root.resolve()
    try:
        names = [Path(path).resolve().relative_to(root).as_posix() for path in files]
    except ValueError:
        return None  # a file outside the project: not this project's history
    folders = _outermost({name.rpartition("/")[0] or "." for name in names})
    repository = _repository(root)
    if repository is None:
        return None
    listing = _git(root, repository, ["ls-tree", "-r", "-z", "HEAD", "--", *folders])
    if listing is None or not _as_committed(root, listing, names):
        return None
    said = _git(root, repository, ["log", "-1", "--format=%ct", "--", *folders])
    text = said.decode("ascii", "replace").strip() if said is not None else ""
    return float(text) if text.isdigit() else None


def _outermost(folders: set[str]) -> list[str]:
    """``folders`` without those inside another of them."""
    return sorted(
        folder
        for folder in folders
        if not any(other != folder and (other == "." or folder.startswith(other + "/")) for other in folders)
    )


def _as_committed(root: Path, listing: bytes, names: list[str]) -> bool:
    """Whether every file of ``ls-tree``'s ``listing`` is on disk as committed, and each of ``names`` is one."""
    tracked = {}
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        about, _tab, name = entry.partition(b"\t")
        parts = about.decode("ascii", "replace").split(" ")
        if len(parts) != 3:
            return False
        mode, kind, object_id = parts
        if kind != "blob" or mode not in _PLAIN_FILES:
            return False  # a link or a submodule: not told apart here, so not vouched for
        tracked[os.fsdecode(name)] = object_id
    if not tracked or any(name not in tracked for name in names):
        return False
    return all(_blob_id(root / name, len(object_id)) == object_id for name, object_id in tracked.items())


def _blob_id(path: Path, length: int) -> str | None:
    """The id git gives ``path``'s bytes as a blob (SHA-1, or SHA-256 in a repository of 64-digit ids); None when
    it is not a plain file."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        data = path.read_bytes()
    except OSError:
        return None
    digest = hashlib.sha256() if length == 64 else hashlib.sha1(usedforsecurity=False)
    digest.update(b"blob %d\0" % len(data) + data)
    return digest.hexdigest()


def _repository(root: Path) -> tuple[Path, list[Path]] | None:
    """The work tree holding ``root`` (the nearest folder with a ``.git``) and what git reads of it; None outside
    one. A ``.git`` file (a linked work tree, a submodule) names its git folder, and that one its common folder;
    under ``--untrusted`` only inside the work tree (the project may have written that file)."""
    for folder in (root, *root.parents):
        marker = folder / ".git"
        if marker.is_dir():
            return folder, [folder]
        if marker.is_file():
            try:
                said = marker.read_text(encoding="utf-8", errors="replace").strip()
            except OSError:
                return None
            if not said.startswith("gitdir:"):
                return None
            gitdir = (folder / said.removeprefix("gitdir:").strip()).resolve()
            read = [folder, gitdir]
            common = gitdir / "commondir"
            if common.is_file():
                read.append((gitdir / common.read_text(encoding="utf-8", errors="replace").strip()).resolve())
            if wall.policy() == "required" and not all(path.is_relative_to(folder) for path in read):
                return None  # rules one did not write point the wall at a folder outside: it is not opened for them
            return folder, read
    return None


def _git(root: Path, repository: tuple[Path, list[Path]], arguments: list[str]) -> bytes | None:
    """What ``git arguments`` prints, run in ``root`` as described above; None when it fails, is stopped by its
    time limit, or git is not there."""
    program = shutil.which("git")
    if program is None:
        return None
    top, read = repository
    settings = [part for setting in _SETTINGS for part in ("-c", setting)]
    argv = [program, "--no-pager", "--no-replace-objects", *settings, *arguments]
    environment = {**_ENVIRONMENT, **({"GIT_CEILING_DIRECTORIES": str(top.parent)} if top.parent != top else {})}
    try:
        walled = wall.in_use()
    except wall.WallMissing:
        return None
    if walled:
        line, cwd, environment = wall.command(argv, read=read, env=environment, cwd=root), "/", None
    else:
        line, cwd = argv, root
        environment = {**environment, "PATH": os.environ.get("PATH", os.defpath), "HOME": os.devnull}
    try:
        with wall.interrupts_held():
            process = subprocess.Popen(
                line,
                cwd=cwd,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                preexec_fn=wall.limits(GIT_MEMORY, max(1, round(GIT_SECONDS))),
                close_fds=True,
            )
    except (OSError, subprocess.SubprocessError):
        return None
    try:
        out, _ = process.communicate(timeout=GIT_SECONDS)
    except subprocess.TimeoutExpired:
        return None
    finally:
        if process.poll() is None:  # stopped by its time limit, or by Ctrl-C here
            if walled:
                wall.end(process)
            else:
                process.kill()
            process.wait()
    return out if process.returncode == 0 else None
