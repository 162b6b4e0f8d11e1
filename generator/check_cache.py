"""The check cache: what `rulepress check` found, kept by content hash between runs.

Kept under ``.rulepress-cache/check/`` in the project, in six kinds of slot:

* ``output-…``: the whole printed output of a check (its diagnostics, summary lines and exit
  status), keyed by every file under rules_src/ and templates/ (a check reads the project's
  templates too). An unchanged project prints it back without loading the model or any renderer.
* ``rules-<ruleset>``: a ruleset's diagnostics (its checks and its mechanics), keyed by the
  files of its folder and of the bases it extends.
* ``examples-<ruleset>``: a ruleset's example run, keyed the same way.
* ``names-<ruleset>``: the names its worked examples can use (its mechanics' among them), keyed the same way.
* ``calculators-<ruleset>``: its odds calculators, as the site shows them, keyed by what they are made from
  (``render.calculators.computed_key``: the ruleset but its rules' prose and examples), written by a build.
* ``memo-<kind>``: what one costly check of one item found (``formulas``: a formula tried with
  every input; ``charts``: every cell of a chart computed; ``prose``: a text judged for what prose
  may hold), by a hash of exactly what that check reads (``validate.memo`` says what: a formula's
  definition and every value, table, lookup and formula it reaches; a chart's and its formulas';
  a text). A ruleset whose files changed is checked again, but each item whose content did not
  change gives back what it found, wherever it now stands in its file: what is stored holds no
  location, and the diagnostic is located anew. An overlay's items that are its base's share
  their entries. Entries the last check did not use are kept up to a limit, oldest dropped.

Every key also holds the generator's version and code and the Python version, so a new
generator never trusts an old entry. Most of a key is what anyone holding the project can compute, so
a key proves nothing about who wrote a slot: each slot also carries a MAC made with this machine's
key, kept outside the project (``cache_seal``), and a slot without this machine's MAC (one shipped
with the project, written elsewhere or edited) is a miss. A slot is one JSON file written atomically
(a temporary file renamed over it); a missing, unreadable, corrupt or unauthenticated slot, or one
with another key, is a miss and is rebuilt, so the folder is safe to delete at any time. Results that may depend on
the machine rather than the files (an example or a mechanic that failed, perhaps by running
out of time) are never stored: they run again on the next check.

This module imports only the standard library and the small modules every check loads (``diagnostics``,
``keys``, ``cache_seal``): a check served from the cache pays for hashing the files and reading one slot,
nothing else.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import tempfile
from pathlib import Path

from .cache_seal import sign, unsign
from .diagnostics import Code, Diagnostic, Location, Severity, TextLocation
from .keys import generator_hash

CHECK_DIR = Path(".rulepress-cache") / "check"
RULES_DIR = "rules_src"
TEMPLATES_DIR = "templates"
SETTINGS_FILE = "rulepress.yaml"  # as generator/source/project.py reads it
SETTINGS = (
    "RULEPRESS_MAX_FILE_BYTES",
    "RULEPRESS_EXAMPLE_SECONDS",
    "RULEPRESS_EXAMPLE_MEMORY_MB",
)  # limits a check obeys
LARGE = 64 * 1024 * 1024  # a rules file this large is refused by its size alone: hashed by size, never read


def environment() -> str:
    """What every key starts with: the generator, the Python that ran the check and the limits it obeyed."""
    settings = "|".join(f"{name}={os.environ.get(name)}" for name in SETTINGS)
    return f"{generator_hash()}|{sys.version}|{sys.implementation.cache_tag}|{settings}"


def tree_digest(top: Path, root: Path, digest=None):
    """Hash every name, link and file under ``top`` as the loader reads them: links inside the project
    ``root`` followed (once), a link leading outside hashed by its text alone (the check refuses it
    without reading it, so what it leads to must not be read here either)."""
    digest = digest or hashlib.sha256()
    digest.update(f"\0top {top.name}".encode("utf-8", "surrogateescape"))
    if top.is_symlink():
        digest.update(f"\0link {os.readlink(top)}".encode("utf-8", "surrogateescape"))
        if not _inside(top, root):
            return digest
    if not top.is_dir():
        digest.update(_file(top))
        return digest
    seen: set[str] = set()
    for folder, dirs, files in os.walk(top, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:  # a loop of links: the loader refuses it; its names are hashed already
            dirs[:] = []
            continue
        seen.add(real)
        here = Path(real).is_relative_to(root)  # a file that is no link is where its folder really is
        dirs[:] = sorted(name for name in dirs if _inside(Path(folder) / name, root))
        for name in sorted(files + dirs):
            path = Path(folder) / name
            digest.update(f"\0{path.relative_to(top).as_posix()}".encode("utf-8", "surrogateescape"))
            link = path.is_symlink()
            if link:
                digest.update(f"\0link {os.readlink(path)}".encode("utf-8", "surrogateescape"))
            if name in files:
                digest.update(_file(path) if (_inside(path, root) if link else here) else b"\0outside")
    return digest


def _number(text: str | None) -> int:
    try:
        return int((text or "0")[:12])
    except ValueError:
        return 0


def _inside(path: Path, root: Path) -> bool:
    try:
        return Path(os.path.realpath(path)).is_relative_to(root)
    except (OSError, ValueError):
        return False


def _file(path: Path) -> bytes:
    """A regular file's content hash (its size alone when too large to be read); anything else says what it is."""
    try:
        if not path.is_file():
            return b"\0not a file" if path.exists() else b"\0none"
        size = path.stat().st_size
        if size > max(LARGE, _number(os.environ.get("RULEPRESS_MAX_FILE_BYTES"))):
            return f"\0large {size}".encode()
        return b"\0file" + hashlib.sha256(path.read_bytes()).digest()
    except OSError as error:  # unreadable now: the check reports it; the key just says so
        return f"\0unreadable {error.errno}".encode()


class CheckCache:
    """The slots of one project. ``reading=False`` (``check --all``) computes everything again
    and stores it, so the next check is served from what this one found."""

    def __init__(self, root: Path, reading: bool = True):
        self.root = Path(root).resolve()
        self.folder = self.root / CHECK_DIR
        self.reading = reading
        self._folders: dict[str, str] = {}

    # -- keys -------------------------------------------------------------------------------------------
    def project_key(self, only: str | None, examples: bool) -> str:
        digest = tree_digest(self.root / RULES_DIR, self.root)
        digest = tree_digest(self.root / TEMPLATES_DIR, self.root, digest)
        settings = self.root / SETTINGS_FILE  # the project's settings: `check` reports what is wrong there too
        if settings.exists() or settings.is_symlink():
            digest = tree_digest(settings, self.root, digest)
        digest.update(
            f"\0{environment()}\0only={only}\0examples={examples}\0root={self.root}".encode("utf-8", "surrogateescape")
        )
        return digest.hexdigest()

    def ruleset_key(self, ruleset, others=()) -> str:
        """Keyed by the folders of ``ruleset`` and of every base it extends, by name (an overlay holds its
        base applied, not attached). A base whose own base cannot be told from ``others`` (the project's
        rulesets) keys by every folder of rules_src/: rarely reused, never stale."""
        known = {other.id: other for other in others}
        digest = hashlib.sha256(environment().encode())
        current, seen = ruleset, {ruleset.id}
        digest.update(f"\0ruleset {ruleset.id}\0{self._folder_digest(ruleset.id)}".encode())
        while current.meta.extends:
            base = current.meta.extends
            if base in seen:
                break  # a loop: every folder in it is hashed already
            seen.add(base)
            digest.update(f"\0base {base}\0{self._folder_digest(base)}".encode("utf-8", "surrogateescape"))
            following = current.base if current.base is not None and current.base.id == base else known.get(base)
            if following is None:
                digest.update(f"\0every folder\0{self._folder_digest('')}".encode())
                break
            current = following
        return digest.hexdigest()

    def _folder_digest(self, id: str) -> str:
        """The digest of rules_src/<id> (of rules_src/ itself for ""); a name that is no plain folder name
        (``extends: ../..``) is hashed as text, never followed."""
        if id in (".", "..") or "/" in id or "\0" in id:
            return f"<no folder {id}>"
        if id not in self._folders:
            self._folders[id] = tree_digest(self.root / RULES_DIR / id, self.root).hexdigest()
        return self._folders[id]

    # -- slots ------------------------------------------------------------------------------------------
    def get(self, slot: str, key: str):
        """What ``slot`` holds for ``key``, or None (not reading, missing, corrupt or another key)."""
        if not self.reading or not self._own_folder():
            return None
        try:
            data = unsign(f"check {slot}", (self.folder / f"{slot}.json").read_bytes(), self.root)
            stored = json.loads(data.decode("utf-8")) if data is not None else None
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        if not isinstance(stored, dict) or stored.get("key") != key or "value" not in stored:
            return None
        return stored["value"]

    def put(self, slot: str, key: str, value) -> None:
        """Store atomically; a cache that cannot be written is no error (the next check computes again)."""
        try:
            blob = sign(f"check {slot}", json.dumps({"key": key, "value": value}).encode("utf-8"), self.root)
            if blob is None or not self._own_folder():
                return  # no key: nothing this machine could vouch for later
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=f".{slot}-", suffix=".tmp", dir=self.folder)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(blob)
                os.replace(temporary, self.folder / f"{slot}.json")
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except (OSError, ValueError):
            pass

    def memo(self) -> Memo:
        """The memo one check reads and fills (a fresh one: read from the slots, saved at the check's end)."""
        return Memo(self)

    def _own_folder(self) -> bool:
        """Whether the cache folder is the project's own: a `.rulepress-cache` or `check` that is a link
        (shipped with rules from elsewhere) could lead anywhere, so it is neither read nor written."""
        return not (self.folder.is_symlink() or self.folder.parent.is_symlink())


class WarmCache(CheckCache):
    """The check cache of a long-lived process (the check daemon): one memo kept in memory across its checks, and
    every slot written later (``flush``), when nobody waits for an answer. What it has yet to write, it reads back
    as it would from the disk; a slot is still written whole, sealed and atomically, so a cold check that comes
    after finds what the daemon found. Call ``fresh`` before each check: the files may have changed since."""

    def __init__(self, root: Path):
        super().__init__(root)
        self._held = Memo(self)
        self._unwritten: dict[str, tuple[str, object]] = {}

    def fresh(self) -> None:
        self._folders.clear()  # folder digests are of the files as they were

    def memo(self) -> Memo:
        return self._held

    def get(self, slot: str, key: str):
        if slot in self._unwritten:
            written_key, value = self._unwritten[slot]
            return value if written_key == key else None
        return super().get(slot, key)

    def put(self, slot: str, key: str, value) -> None:
        self._unwritten[slot] = (key, value)

    @property
    def unwritten(self) -> bool:
        return bool(self._unwritten)

    def flush(self) -> None:
        while self._unwritten:
            slot, (key, value) = self._unwritten.popitem()
            super().put(slot, key, value)


class Memo:
    """The ``memo-<kind>`` slots of one check: read once, written once (``save``) with what this check
    used, then up to ``OLDER`` entries earlier checks left (an edit undone, the rulesets a `check
    --ruleset` did not load), so a slot grows with the project, not with its history. Not reading
    (``check --all``) starts empty, so every item is checked again, and is saved for the next check."""

    OLDER = 5000

    def __init__(self, cache: CheckCache):
        self.cache = cache
        self.key = hashlib.sha256(f"memo\0{environment()}".encode("utf-8", "surrogateescape")).hexdigest()
        self._stored: dict[str, dict] = {}
        self._used: dict[str, dict] = {}

    def get(self, kind: str, key: str):
        """What ``kind``'s check found for ``key``, or None."""
        if kind not in self._stored:
            stored = self.cache.get(f"memo-{kind}", self.key)
            self._stored[kind] = stored if isinstance(stored, dict) else {}
        found = self._used.get(kind, {}).get(key, self._stored[kind].get(key))
        if found is not None:
            self._used.setdefault(kind, {})[key] = found
        return found

    def put(self, kind: str, key: str, value) -> None:
        self._used.setdefault(kind, {})[key] = value

    def save(self) -> None:
        for kind, used in self._used.items():
            if used.keys() - self._stored.get(kind, {}).keys():
                kept = dict(used)
                older = (item for item in self._stored.get(kind, {}).items() if item[0] not in used)
                for key, value in itertools.islice(older, self.OLDER):
                    kept[key] = value
                self.cache.put(f"memo-{kind}", self.key, kept)
                self._stored[kind] = kept


def rules_slot(ruleset_id: str) -> str:
    return f"rules-{ruleset_id}"


def examples_slot(ruleset_id: str) -> str:
    return f"examples-{ruleset_id}"


def names_slot(ruleset_id: str) -> str:
    return f"names-{ruleset_id}"


def output_slot(only: str | None, examples: bool) -> str:
    return f"output-{only or 'all'}{'' if examples else '-no-examples'}"


# -- diagnostics to and from JSON -------------------------------------------------------------------------
def dump_diagnostics(diagnostics) -> list:
    return [
        [
            type(d.location).__name__,
            d.location.path,
            d.location.line,
            d.location.column,
            d.code.value,
            d.message,
            d.hint,
            d.severity.value,
        ]
        for d in diagnostics
    ]


def load_diagnostics(rows) -> list | None:
    """The diagnostics ``rows`` hold, or None when they do not read back (a corrupt slot)."""
    kinds = {"Location": Location, "TextLocation": TextLocation}
    try:
        return [
            Diagnostic(Code(code), message, kinds[kind](path, line, column), hint, Severity(severity))
            for kind, path, line, column, code, message, hint, severity in rows
        ]
    except (KeyError, ValueError, TypeError):
        return None
