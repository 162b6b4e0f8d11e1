"""Content keys: the generator's code hash, the key of everything a ruleset's checks read, and the build's
keys of a PDF (``job_key``) and of one ruleset's PDFs of a kind (``inputs_key``).

Every cache (the check cache, serve's warm state, the build's PDFs and sites) keys by these, so
one change to what they hash reaches all of them alike.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

from . import __version__
from .render.assets import PROJECT_TEMPLATES, asset_names, default_templates, template_path

GENERATOR = Path(__file__).resolve().parent
_CODE_SUFFIXES = (".py", ".css", ".js", ".html", ".j2")  # .j2: the default templates a project's extend


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
    project's templates (their names under templates/ and bytes) and the generator's code. Nothing of where the
    project is or when its files were written: a copy or a clone elsewhere has the same keys."""
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
                digest.update(f"{path.relative_to(templates).as_posix()}:{file_digest(path)}".encode())
    if ruleset.base is not None:
        digest.update(ruleset_key(root, ruleset.base, code).encode())
    return digest.hexdigest()


_FILE_DIGESTS: dict[tuple, str] = {}  # (path, size, time, inode) -> digest of its bytes: a file is read once


def file_digest(path: Path) -> str:
    """The SHA-256 of ``path``'s bytes, read again only when its size, time or inode changed."""
    stat = path.stat()
    seen = (str(path), stat.st_size, stat.st_mtime_ns, stat.st_ino)
    if seen not in _FILE_DIGESTS:
        if len(_FILE_DIGESTS) > 4096:  # a long-lived serve: old entries go
            _FILE_DIGESTS.clear()
        _FILE_DIGESTS[seen] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _FILE_DIGESTS[seen]


def _templates_named(root: Path, path: Path) -> str:
    """Which templates folder ``path`` is from, as a key names it: the project's or the defaults', never where."""
    return "project" if Path(path).is_relative_to(Path(root) / PROJECT_TEMPLATES) else "default"


# -- the build's keys: what a PDF, and a ruleset's PDFs of one kind, are made from ---------------------------
def job_key(job, code: str, root: Path) -> str:
    """A hash of one PDF's inputs: the generator's ``code``, its HTML, fitted text, growing rows and tighter
    layouts, its stylesheets and the assets they link (the project's, else the defaults)."""
    digest = hashlib.sha256(code.encode())
    digest.update(job.html.encode("utf-8"))
    for text in job.fit:
        digest.update(b"\0fit\0" + text.encode("utf-8"))
    if job.fill is not None:  # how its rows grow into the room left (the same job with other rows prints otherwise)
        digest.update(b"\0fill\0" + repr(job.fill).encode("utf-8"))
    for name in job.tighter:
        digest.update(b"\0tighter\0" + name.encode("utf-8"))
    for sheet in job.stylesheets:
        digest.update(Path(sheet).read_bytes())
    linked = linked_assets(job, root)
    # the files this job's HTML and stylesheets link (the project's, else the defaults); every asset
    # when one link cannot be named, so a change is never missed
    for name in linked if linked is not None else asset_names(root):
        path = template_path(root, name)
        digest.update(name.encode() + b"\0" + _templates_named(root, path).encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"missing")
    return digest.hexdigest()


_CSS_LINK = re.compile(r"""@import\s+["']([^"']+)["']|url\(\s*["']?([^"')]+?)["']?\s*\)""")
_HTML_LINK = re.compile(
    r"""(?:\bsrc|<link\b[^>]*?\bhref)\s*=\s*["']([^"']+)["']"""
)  # what the renderer fetches; <a href> it does not


def linked_assets(job, root: Path) -> list[str] | None:
    """The names under templates/ of every file the job's HTML and stylesheets link (``src``,
    ``href``, ``url()``, ``@import``, followed through the stylesheets they import), sorted;
    None when a link names something that is not such a file."""
    bases = (Path(root).resolve() / PROJECT_TEMPLATES, default_templates())
    found: set[str] = set()
    pending = [(url, Path(job.base_dir)) for url in _HTML_LINK.findall(job.html)]
    pending += [(a or b, Path(job.base_dir)) for a, b in _CSS_LINK.findall(job.html)]
    pending += [(a or b, Path(sheet).parent) for sheet in job.stylesheets for a, b in _CSS_LINK.findall(_text(sheet))]
    while pending:
        url, folder = pending.pop()
        if url.startswith(("#", "data:")):
            continue  # a place in the page, or the bytes themselves: in the HTML already
        if ":" in url.split("/")[0]:
            return None  # file:, http: and the like: the renderer refuses or fetches them; key by everything
        target = (folder / url.split("#")[0].split("?")[0]).resolve()
        name = next((target.relative_to(base).as_posix() for base in bases if target.is_relative_to(base)), None)
        if name is None:
            return None
        if name not in found:
            found.add(name)
            if name.endswith(".css"):
                path = template_path(root, name)
                pending += [(a or b, path.parent) for a, b in _CSS_LINK.findall(_text(path))]
    return sorted(found)


def _text(path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def templates_digest(root: Path) -> bytes:
    """A hash of every file under the project's templates/ and the default templates, by folder (the project's or
    the defaults'), name and content: where the project or Rulepress is changes nothing."""
    digest = hashlib.sha256()
    for label, folder in (("project", Path(root).resolve() / PROJECT_TEMPLATES), ("default", default_templates())):
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.is_file():
                name = f"{label}/{path.relative_to(folder).as_posix()}"
                digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


def inputs_key(
    kind: str,
    audiences: list[str],
    audience: str | None,
    epoch: str,
    ruleset: str,
    templates: bytes,
    dated: str,
    settings: bytes,
) -> str:
    """A hash of everything one ruleset's PDFs of ``kind`` are made from: the audiences a build makes (and the
    one it was asked for), SOURCE_DATE_EPOCH (``epoch``), the ruleset's key (``ruleset_key``), the
    templates (``templates_digest``), the date its printouts give its rules (``dated``: not in its files' bytes,
    so a build that keeps its PDFs never keeps a date a clean build would not print) and the project's settings
    (``settings``: the site's address every printout prints)."""
    digest = hashlib.sha256(f"{kind}\0{audiences}\0{audience}\0{epoch}\0".encode())
    digest.update(ruleset.encode())
    digest.update(templates)
    return _printed_apart(digest, dated, settings)


def rules_key(ruleset: str, templates: bytes, dated: str, settings: bytes) -> str:
    """A hash of what one ruleset's PDFs print, whatever a build asked for: the ruleset's key (``ruleset_key``),
    the templates, the date of its rules (``dated``) and the project's settings. PDFs kept from a build under
    another key were made from older rules."""
    digest = hashlib.sha256(b"rules\0" + ruleset.encode())
    digest.update(templates)
    return _printed_apart(digest, dated, settings)


def _printed_apart(digest, dated: str, settings: bytes) -> str:
    """``digest`` with what printouts print from outside the ruleset's files: its rules' date and the project's
    settings, each only when there is one (so the keys of a project without them stay as they were)."""
    if dated:
        digest.update(b"\0dated\0" + dated.encode())
    if settings:
        digest.update(b"\0settings\0" + hashlib.sha256(settings).digest())
    return digest.hexdigest()


def site_inputs_key(
    audience: str, epoch: str, rulesets: list[str], settings: bytes, downloads: list, house: str, templates: bytes
) -> str:
    """A hash of everything one audience's site is made from (see ``pipeline.plan``), each part apart from the next."""
    digest = hashlib.sha256(f"site\0{audience}\0{epoch}\0{rulesets}\0".encode())
    for part in (settings, repr(downloads).encode(), house.encode(), templates):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()
