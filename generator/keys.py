"""Content keys: the generator's code hash and the key of everything a ruleset's checks read.

Every cache (the check cache, serve's warm state, the build's PDFs and sites) keys by these, so
one change to what they hash reaches all of them alike.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from . import __version__

GENERATOR = Path(__file__).resolve().parent
_CODE_SUFFIXES = (".py", ".css", ".js", ".html")


def code_digest() -> str:
    """A hash of the generator's code and static files, read now (a long-lived ``serve`` re-reads it)."""
    digest = hashlib.sha256()
    package = GENERATOR.parent
    for path in sorted(GENERATOR.rglob("*")):
        if path.suffix in _CODE_SUFFIXES and path.is_file():
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def code_hash() -> str:
    """The generator's version and its code, read now: any change re-renders."""
    return f"{__version__}-{code_digest()}"


@functools.cache
def generator_hash() -> str:
    """:func:`code_hash` once per process: a one-shot command reads its own code once."""
    return code_hash()


def ruleset_key(root: Path, ruleset, code: str) -> str:
    """A hash of everything a ruleset's checks read: its files, prose sources and mechanics, its base's, the
    project's templates (names, sizes, times) and the generator's code."""
    digest = hashlib.sha256(f"{code}\n{ruleset.id}\n".encode())
    for name in (*ruleset.files, *ruleset.mechanics):
        path = Path(root) / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"(missing)"))
    for name, text in sorted(ruleset.sources.items()):
        digest.update(name.encode() + b"\0" + text.encode())
    templates = Path(root) / "templates"
    if templates.is_dir():
        for path in sorted(templates.rglob("*")):
            if path.is_file():
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    if ruleset.base is not None:
        digest.update(ruleset_key(root, ruleset.base, code).encode())
    return digest.hexdigest()
