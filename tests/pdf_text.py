"""What pypdf reads from a PDF, read once per run however many test modules read the same file.

pypdf takes seconds for a booklet, and the sample build's PDFs are read by the handout, booklet, sheet,
play-aid, phone and player-output tests alike: each file's reading (its metadata title, and per page the
size, the text `extract_text()` returns and every piece of text pypdf's text visitor is given) is kept in the
run's temporary folder under the SHA-256 of the file's bytes, so a cached reading is always of those very
bytes, and a player file hard-linked from the full build is read once for both.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class Piece:
    """One piece of text as pypdf's ``visitor_text`` is given it: its current and text matrices, font size."""

    text: str
    cm: tuple[float, ...]
    tm: tuple[float, ...]
    size: float


@dataclasses.dataclass(frozen=True)
class Page:
    text: str  # what ``page.extract_text()`` returns
    pieces: tuple[Piece, ...]  # every piece that is not white space, in the order pypdf visits them
    width: float  # the media box, in points
    height: float


@dataclasses.dataclass(frozen=True)
class Pdf:
    title: str | None
    pages: tuple[Page, ...]


def read_pdf(path: Path, cache: Path | None) -> Pdf:
    """``path`` as pypdf reads it; from ``cache`` (a folder) when this run has read the same bytes before."""
    data = Path(path).read_bytes()
    if cache is None:
        return _from_json(_read(data))
    cache.mkdir(parents=True, exist_ok=True)
    stored = cache / (hashlib.sha256(data).hexdigest() + ".json")
    with open(stored.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another xdist worker reading the same file waits, then uses it
        if not stored.exists():
            temporary = stored.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(_read(data)), encoding="utf-8")
            temporary.replace(stored)
    return _from_json(json.loads(stored.read_text(encoding="utf-8")))


def read_pdfs(paths: list[Path], cache: Path | None) -> dict[Path, Pdf]:
    """Each of ``paths`` as `read_pdf` reads it, those not yet read in parallel (one process per core)."""
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1, mp_context=multiprocessing.get_context("fork")) as pool:
        return dict(zip(paths, pool.map(read_pdf, paths, [cache] * len(paths))))


def _read(data: bytes) -> dict:
    from io import BytesIO

    from pypdf import PdfReader

    reader = PdfReader(BytesIO(data))
    pages = []
    for page in reader.pages:
        pieces = []

        def visit(text, cm, tm, _font, size, pieces=pieces):
            if text.strip():
                pieces.append([text, [float(v) for v in cm], [float(v) for v in tm], float(size)])

        text = page.extract_text(visitor_text=visit) or ""
        box = page.mediabox
        pages.append({"text": text, "pieces": pieces, "width": float(box.width), "height": float(box.height)})
    title = reader.metadata.title if reader.metadata else None
    return {"title": title, "pages": pages}


def _from_json(read: dict) -> Pdf:
    return Pdf(
        title=read["title"],
        pages=tuple(
            Page(
                text=page["text"],
                pieces=tuple(Piece(text, tuple(cm), tuple(tm), size) for text, cm, tm, size in page["pieces"]),
                width=page["width"],
                height=page["height"],
            )
            for page in read["pages"]
        ),
    )
