"""Where a PDF's words and drawn rules lie, read from the file's own glyph and path boxes (pypdfium2).

The print tests measure layout defects a reader sees: words printed over other words, a word crossed by a
drawn rule (a border, a divider, a Cost rule), a heading left as the last line of its page, a last page
holding a line or two, type sizes that jump between neighbouring cards. Positions are in points with the
origin at the page's top left, as a reader looks at it.

A word is a run of glyphs without a space between them on one baseline. A rule is the ink of a filled or
stroked path at most `RULE_WIDTH` thick: a thin rectangle, or the ring a border draws (WeasyPrint fills a
box's border as an outer rectangle minus an inner one, even-odd); a wider fill is a background, and text on a
background is no defect.
"""

from __future__ import annotations

import ctypes
import dataclasses
import fcntl
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar

T = TypeVar("T")

RULE_WIDTH = 3.0  # points: thicker ink is a background or a block, not a line
GLYPH_SLACK = 0.2  # of a glyph's height (or width) kept off each side before asking what it touches


class Box(NamedTuple):  # a tuple: made for every glyph, and a frozen dataclass is several times slower to make
    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def meets(self, other: Box) -> bool:
        """Whether the two boxes share some area (touching edges do not count)."""
        return min(self.right, other.right) > max(self.left, other.left) and min(self.bottom, other.bottom) > max(
            self.top, other.top
        )

    def inside(self, other: Box) -> bool:
        return (
            self.left >= other.left
            and self.right <= other.right
            and self.top >= other.top
            and self.bottom <= other.bottom
        )

    def shrunk(self, fraction: float) -> Box:
        dx, dy = self.width * fraction, self.height * fraction
        return Box(self.left + dx, self.top + dy, self.right - dx, self.bottom - dy)

    def union(self, other: Box) -> Box:
        return Box(
            min(self.left, other.left),
            min(self.top, other.top),
            max(self.right, other.right),
            max(self.bottom, other.bottom),
        )


@dataclasses.dataclass(frozen=True)
class Word:
    text: str
    box: Box
    glyphs: tuple[Box, ...]
    size: float  # the font size of its first glyph, in points
    bold: bool


@dataclasses.dataclass(frozen=True)
class Rule:
    """The ink of one thin path: inside ``outer`` and outside every hole."""

    outer: Box
    holes: tuple[Box, ...]

    def crosses(self, box: Box) -> bool:
        return self.outer.meets(box) and not any(box.inside(hole) for hole in self.holes)


@dataclasses.dataclass(frozen=True)
class PageLayout:
    width: float
    height: float
    words: tuple[Word, ...]
    rules: tuple[Rule, ...]


def read_once(path: Path, cache: Path, read: Callable[[Path], T]) -> T:
    """``read(path)``, kept in ``cache`` (the run's folder, which both xdist workers share) under the SHA-256 of the
    file's bytes and the reading's name: a worker that asks after another has read the same bytes loads that reading
    (pickle) instead of measuring every glyph again."""
    data = Path(path).read_bytes()
    cache.mkdir(parents=True, exist_ok=True)
    stored = cache / f"{hashlib.sha256(data).hexdigest()}.{read.__name__}.pickle"
    with open(stored.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker reading the same file waits, then loads it
        if not stored.exists():
            temporary = stored.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_bytes(pickle.dumps(read(path), protocol=pickle.HIGHEST_PROTOCOL))
            temporary.replace(stored)
    return pickle.loads(stored.read_bytes())  # noqa: S301 - written by this run's own tests


def read_layout(path: Path) -> tuple[PageLayout, ...]:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:
        return tuple(_page_layout(document[index]) for index in range(len(document)))
    finally:
        document.close()


def _page_layout(page) -> PageLayout:
    width, height = page.get_size()
    return PageLayout(width, height, tuple(_words(page, height)), tuple(_rules(page, height)))


def _words(page, height: float):
    import pypdfium2.raw as pdfium

    text = page.get_textpage()
    raw, box_of = text.raw, text.get_charbox
    word: list[tuple[str, Box]] = []
    size, bold = 0.0, False  # of the word's first glyph: read once a word (each is a call into pdfium)
    for index in range(text.count_chars()):
        char = chr(pdfium.FPDFText_GetUnicode(raw, index))
        if char.isspace() or pdfium.FPDFText_IsGenerated(raw, index) == 1:
            yield from _word(word, size, bold)
            word = []
            continue
        left, bottom, right, top = box_of(index)
        box = Box(left, height - top, right, height - bottom)
        if word and not _next_in_word(word[-1][1], box):
            yield from _word(word, size, bold)
            word = []
        if not word:
            size = pdfium.FPDFText_GetFontSize(raw, index)
            bold = pdfium.FPDFText_GetFontWeight(raw, index) >= 600
        word.append((char, box))
    yield from _word(word, size, bold)


def _next_in_word(before: Box, after: Box) -> bool:
    """Whether a glyph follows the one before in the same word: on its line and not back to its left."""
    on_line = min(before.bottom, after.bottom) > max(before.top, after.top)
    return on_line and before.left - 0.5 <= after.left


def _word(glyphs: list[tuple[str, Box]], size: float, bold: bool):
    if not glyphs:
        return
    boxes = tuple(glyph for _char, glyph in glyphs)
    box = Box(
        min(b.left for b in boxes), min(b.top for b in boxes), max(b.right for b in boxes), max(b.bottom for b in boxes)
    )
    yield Word("".join(char for char, _glyph in glyphs), box, boxes, size, bold)


def _rules(page, height: float):
    import pypdfium2.raw as pdfium

    for obj in page.get_objects(filter=[pdfium.FPDF_PAGEOBJ_PATH], max_depth=8):
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
        if not fill.value and not stroke.value:
            continue  # a clip or an invisible path
        rects = [rect for rect in _subpath_boxes(obj, height) if rect.width > 0.05 and rect.height > 0.05]
        if stroke.value and not fill.value:
            rects = [_stroke_box(obj, height)]
        yield from _thin_rules(rects)


def _subpath_boxes(obj, height: float) -> list[Box]:
    """The bounding box, on the page, of each subpath of a path object."""
    import pypdfium2.raw as pdfium

    matrix = obj.get_matrix()
    boxes, points = [], []
    for index in range(pdfium.FPDFPath_CountSegments(obj.raw)):
        segment = pdfium.FPDFPath_GetPathSegment(obj.raw, index)
        x, y = ctypes.c_float(), ctypes.c_float()
        pdfium.FPDFPathSegment_GetPoint(segment, x, y)
        if pdfium.FPDFPathSegment_GetType(segment) == pdfium.FPDF_SEGMENT_MOVETO and points:
            boxes.append(_bounds(points, height))
            points = []
        points.append(matrix.on_point(x.value, y.value))
    if points:
        boxes.append(_bounds(points, height))
    return boxes


def _bounds(points, height: float) -> Box:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Box(min(xs), height - max(ys), max(xs), height - min(ys))


def _stroke_box(obj, height: float) -> Box:
    left, bottom, right, top = obj.get_bounds()  # a stroke's bounds include its width
    return Box(left, height - top, right, height - bottom)


def _thin_rules(rects: list[Box]):
    """The rules among one path's subpath boxes: a thin box alone, or a box with holes leaving a thin ring."""
    rects = sorted(rects, key=lambda r: -(r.width * r.height))
    used: set[int] = set()
    for index, outer in enumerate(rects):
        if index in used:
            continue
        holes = tuple(
            inner
            for other, inner in enumerate(rects[index + 1 :], index + 1)
            if inner.inside(outer) and other not in used
        )
        used.update(other for other, inner in enumerate(rects) if inner in holes)
        if holes:
            ring = max(
                max(hole.left - outer.left, outer.right - hole.right, hole.top - outer.top, outer.bottom - hole.bottom)
                for hole in holes
            )
            if ring <= RULE_WIDTH:
                yield Rule(outer, holes)
        elif min(outer.width, outer.height) <= RULE_WIDTH:
            yield Rule(outer, ())


def overlapping_words(page: PageLayout) -> list[tuple[Word, Word]]:
    """Pairs of words (or a word with itself) with glyphs printed over other glyphs.

    Glyph boxes are tight, and kerning or an italic lets neighbours touch: each box loses `GLYPH_SLACK` of its
    size on every side first, so only ink printed over ink is counted. A ligature is one glyph that pdfium
    reports once per letter, with one box: a box met again is that glyph, not a second one."""
    cells: dict[tuple[int, int], list[tuple[Box, Word]]] = {}
    pairs: list[tuple[Word, Word]] = []
    for word in page.words:
        for glyph in dict.fromkeys(word.glyphs):
            core = glyph.shrunk(GLYPH_SLACK)
            for cell in _cells(core):
                for other, other_word in cells.setdefault(cell, []):
                    if core.meets(other) and (other_word, word) not in pairs:
                        pairs.append((other_word, word))
                cells[cell].append((core, word))
    return pairs


def _cells(box: Box, size: float = 24.0):
    """The squares of a `size`-point grid a box lies on: only glyphs sharing one can overlap."""
    for column in range(int(box.left // size), int(box.right // size) + 1):
        for row in range(int(box.top // size), int(box.bottom // size) + 1):
            yield column, row


def words_across_rules(page: PageLayout) -> list[tuple[Word, Rule]]:
    """Words a drawn rule runs through (through the ink of one of its glyphs)."""
    cells: dict[tuple[int, int], list[Rule]] = {}
    for rule in page.rules:
        for cell in _cells(rule.outer):
            cells.setdefault(cell, []).append(rule)
    found = []
    for word in page.words:
        crossing = next(
            (
                rule
                for glyph in word.glyphs
                for cell in _cells(glyph.shrunk(GLYPH_SLACK))
                for rule in cells.get(cell, ())
                if rule.crosses(glyph.shrunk(GLYPH_SLACK))
            ),
            None,
        )
        if crossing is not None:
            found.append((word, crossing))
    return found


def squares(page: PageLayout, smallest: float, largest: float) -> list[Box]:
    """The drawn boxes (a ring of ink around a hole) that are square, their side in points between the two sizes:
    the tick boxes of a printout."""
    return [
        rule.outer
        for rule in page.rules
        if rule.holes
        and smallest <= rule.outer.width <= largest
        and abs(rule.outer.width - rule.outer.height) <= 0.05 * rule.outer.width
    ]
