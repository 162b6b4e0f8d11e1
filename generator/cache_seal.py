"""What this machine wrote into a project's ``.rulepress-cache/``, told apart from what came with the project.

A project folder is someone else's: everything in it, ``.rulepress-cache/`` too, may have been written by
the contributor, on their own machine or by hand. So a cache is trusted only when it carries a MAC
(HMAC-SHA256) made with a key that lives outside every project, in the user's state folder
(``$XDG_STATE_HOME/rulepress/cache-key``, else ``~/.local/state/rulepress/cache-key``), created 0600 on
first use. The contributor cannot hold it, so they cannot forge a slot; and a key found inside the
project it would vouch for is not used.

* ``sign(label, data)`` / ``unsign(label, blob)``: one file's bytes with their MAC in front; ``unsign``
  gives None for anything it cannot vouch for (no MAC, another key, another label, no key at all).
* ``seal(folder)`` / ``verify_or_wipe(folder)``: a folder another program writes (Sphinx's pickled
  environment, Jinja's compiled templates, sphinx-tippy's files): after it was written here, a manifest of
  every file's path and SHA-256, with its MAC, goes beside it (``<folder>.seal``); before the folder is
  handed to that program again, it must match the manifest exactly, or it is removed whole (a miss: that
  program starts afresh). A link anywhere inside is a mismatch.

Failing is always a miss, never an error: no key (an unwritable home), a corrupt file, a folder
that changed. Signing and checking happen in the process that runs the command (``rulepress``
itself), never in a worker that renders what the project holds, so a worker can be run without the key.
Only the standard library is imported: the check cache uses this module on every check.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import shutil
import tempfile
from pathlib import Path

KEY_FILE = "cache-key"
SEAL_SUFFIX = ".seal"
_MAC_BYTES = 64  # hex digits of an HMAC-SHA256


def key_folder() -> Path:
    """The per-user folder the key lives in (``XDG_STATE_HOME`` honoured, as the XDG spec says)."""
    state = os.environ.get("XDG_STATE_HOME", "")
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "rulepress"


def machine_key(project: Path | None = None) -> bytes | None:
    """This machine's cache key, made on first use; None when there is none to be had (an unwritable
    home) or when it would lie inside ``project``, whose contributor could then have written it. Read each
    time (a few dozen bytes): nothing is kept between calls."""
    path = key_folder() / KEY_FILE
    if project is not None and _inside(path, Path(project)):
        return None
    return _read_key(path) or _create_key(path)


def _inside(path: Path, folder: Path) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder)) or Path(
        os.path.abspath(path)
    ).is_relative_to(os.path.abspath(folder))


def _read_key(path: Path) -> bytes | None:
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(handle, "rb") as file:
        key = file.read(256).strip()
    return key if len(key) >= 32 else None


def _create_key(path: Path) -> bytes | None:
    """Write a new key 0600 under a 0700 folder; a key another process wrote meanwhile wins (a hard link
    fails on an existing name, so no half-written key is ever read)."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".key-", dir=path.parent)  # mkstemp makes it 0600
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(secrets.token_hex(32).encode())
            os.link(temporary, path)
        except FileExistsError:
            pass
        finally:
            Path(temporary).unlink(missing_ok=True)
    except OSError:
        return None
    return _read_key(path)


def mac(data: bytes, project: Path | None = None) -> str | None:
    """HMAC-SHA256 of ``data`` with this machine's key, in hex; None without a key."""
    key = machine_key(project)
    return None if key is None else hmac.new(key, data, hashlib.sha256).hexdigest()


# -- one file ---------------------------------------------------------------------------------------------
def sign(label: str, data: bytes, project: Path | None = None) -> bytes | None:
    """``data`` with its MAC in front (bound to ``label``, so a slot cannot stand in for another); None
    without a key (then nothing is written)."""
    tag = mac(_labelled(label, data), project)
    return None if tag is None else tag.encode() + b"\n" + data


def unsign(label: str, blob: bytes, project: Path | None = None) -> bytes | None:
    """The data ``sign(label, data)`` made, or None when ``blob`` is not exactly that."""
    tag, newline, data = blob.partition(b"\n")
    if not newline or len(tag) != _MAC_BYTES:
        return None
    expected = mac(_labelled(label, data), project)
    if expected is None or not hmac.compare_digest(expected.encode(), tag):
        return None
    return data


def _labelled(label: str, data: bytes) -> bytes:
    return f"rulepress-cache\0{label}\0".encode("utf-8", "surrogateescape") + data


# -- a folder another program writes -----------------------------------------------------------------------
def seal_path(folder: Path) -> Path:
    return folder.with_name(folder.name + SEAL_SUFFIX)


def seal(folder: Path, project: Path | None = None) -> bool:
    """Vouch for ``folder`` as it is now (call it after this machine wrote it); False when it cannot be
    sealed (no key, a link inside): then the next ``verify_or_wipe`` removes it."""
    folder = Path(folder)
    listing = _listing(folder)
    blob = sign(f"folder {folder.name}", listing, project) if listing is not None else None
    target = seal_path(folder)
    if blob is None:
        _remove(target)
        return False
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}-", dir=folder.parent)
        with os.fdopen(handle, "wb") as file:
            file.write(blob)
        os.replace(temporary, target)
    except OSError:
        _remove(target)
        return False
    return True


def verify_or_wipe(folder: Path, project: Path | None = None) -> bool:
    """Whether ``folder`` is exactly as this machine sealed it; if not, it and its seal are removed
    (a link is removed as a link, never followed), so what was in it is never read."""
    folder = Path(folder)
    target = seal_path(folder)
    try:
        stored = None if target.is_symlink() else target.read_bytes()
    except OSError:
        stored = None
    if stored is not None and folder.is_dir() and not folder.is_symlink():
        vouched = unsign(f"folder {folder.name}", stored, project)
        if vouched is not None and hmac.compare_digest(vouched, _listing(folder) or b"\0unsealable"):
            return True
    _remove(folder)
    _remove(target)
    return False


def _listing(folder: Path) -> bytes | None:
    """Every file under ``folder`` by path and SHA-256, sorted; None when anything in it is not a plain
    file or folder (a link, a socket), which no program the cache serves writes."""
    if folder.is_symlink() or not folder.is_dir():
        return None
    rows = []
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(top) / name
            if path.is_symlink() or not (path.is_dir() or path.is_file()):
                return None
        for name in files:
            path = Path(top) / name
            try:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                return None
            rows.append([path.relative_to(folder).as_posix(), digest])
    return json.dumps(sorted(rows), ensure_ascii=True).encode()


def wipe(folder: Path) -> None:
    """Remove ``folder`` and its seal: what was in it is never read."""
    _remove(Path(folder))
    _remove(seal_path(Path(folder)))


def _remove(path: Path) -> None:
    """Remove ``path`` whatever it is; a link goes, never what it leads to."""
    try:
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)
    except OSError:
        shutil.rmtree(path, ignore_errors=True)


def real_folder(folder: Path, top: Path) -> Path:
    """Make ``folder`` and every folder between ``top`` (excluded) and it real folders: a link or a file
    standing where one of them goes (shipped with the project, to lead writes elsewhere) is removed."""
    folder, top = Path(folder), Path(top)
    current = top
    for part in folder.relative_to(top).parts:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            _remove(current)
        current.mkdir(exist_ok=True)
    return folder
