"""Every printout is free of the layout defects a reader sees, measured on the PDFs' own glyph and path boxes
(tests/pdf_layout.py, pypdfium2): on the samples' build and on the fixtures' (tests/fixtures/homebrew, frontier).

* no glyph printed over another glyph, no drawn rule (a border, a divider, a crop mark) through a word;
* no heading left as the last line of its page, and no booklet ending on a page of a line or two;
* on a sheet of cards, every card of one kind in one type size;
* a chart sheet uses its page: no empty band across it of more than `EMPTY_BAND` of what it prints.

What counts as a defect is stated here, in points and fractions, not taken from the renderer: the renderer's own
plans (its type sizes, its row heights) are what these tests check.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from pdf_layout import Box, PageLayout, Word, overlapping_words, read_layout, read_once, words_across_rules
from pypdf import PdfReader

EMPTY_BAND = 0.15  # of a chart sheet's printed height: a wider empty band leaves the page unused
LAST_PAGE = 0.1  # of a booklet page's text height: a last page printing less holds a stray line or two
LINE = 4.0  # points: words whose tops are nearer than this stand on one line (type sizes differ)
CARD = (63 * 72 / 25.4, 88 * 72 / 25.4)  # a card's size in points: its border is how a card is found on a sheet
BUILDS = ("sample_build", "homebrew_build", "frontier_build")


@dataclasses.dataclass(frozen=True)
class Reading:
    """A printout as these tests read it: where its words and rules lie (pypdfium2), and its bookmarks (pypdf)."""

    pages: tuple[PageLayout, ...]
    bookmarks: tuple[tuple[str, int, float], ...]
    openings: tuple[tuple[str, int, float, int], ...]


def read_printout(path: Path) -> Reading:
    """Its outline only where `booklets` looks for one, in a document of more than two pages (pypdf takes seconds
    over a booklet's catalog: one reader for both readings of it)."""
    pages = read_layout(path)
    if len(pages) <= 2:
        return Reading(pages, (), ())
    reader = PdfReader(path)
    return Reading(pages, tuple(read_bookmarks(reader)), tuple(read_chapter_openings(reader)))


READ: dict[Path, Reading] = {}  # this process's readings, each made once per run (`read_once`)


@pytest.fixture(scope="session")
def readings(tmp_path_factory) -> Path:
    """The folder where this run keeps its printouts' readings, for both xdist workers."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "pdf-layout"


@pytest.fixture(params=BUILDS)
def printouts(request, renders, readings) -> list[Path]:
    """Every PDF of one build, sheets and handouts, both audiences and papers, each read once per run. (``renders``:
    the build it asks for by name is one, and the tests using this are `build` tests, left out of `make test-fast`.)"""
    built = request.getfixturevalue(request.param)
    folder = built / "build" if (built / "build").is_dir() else built
    found = sorted(folder.glob("sheets/*.pdf")) + sorted(folder.glob("handouts/*.pdf"))
    assert found, f"no PDFs in {folder}"
    # workers reading at once start apart in the list, and each loads what the other has read
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    first = len(found) * worker // int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    for path in found[first:] + found[:first]:
        if path not in READ:
            READ[path] = read_once(path, readings, read_printout)
    return found


def reading(path: Path) -> Reading:
    if path not in READ:
        READ[path] = read_printout(path)
    return READ[path]


def layout(path: Path) -> tuple[PageLayout, ...]:
    return reading(path).pages


def where(path: Path, number: int, box: Box) -> str:
    return f"{path.name} page {number} at ({box.left:.0f}, {box.top:.0f}) pt"


def test_no_glyph_prints_over_another(printouts):
    found = [
        f"{where(path, number, first.box)}: {first.text!r} over {second.text!r}"
        for path in printouts
        for number, page in enumerate(layout(path), 1)
        for first, second in overlapping_words(page)
    ]
    assert not found, "\n".join(found)


PRINTER_EDGE = 5 * 72 / 25.4  # points: the edge of the paper a home printer leaves blank


def test_no_word_prints_in_the_edge_a_printer_leaves_blank_or_off_the_paper(printouts):
    """A house rule's note called from a number cell took the cell's "never wrap" and ran off the paper's right
    edge as one line: its reason was lost in print."""
    found = [
        f"{where(path, number, word.box)}: {word.text!r}"
        for path in printouts
        for number, page in enumerate(layout(path), 1)
        for word in page.words
        if not word.box.inside(Box(PRINTER_EDGE, PRINTER_EDGE, page.width - PRINTER_EDGE, page.height - PRINTER_EDGE))
    ]
    assert not found, "\n".join(found)


def test_no_drawn_rule_runs_through_a_word(printouts):
    found = [
        f"{where(path, number, word.box)}: {word.text!r} crossed by a rule at ({rule.outer.left:.0f}, "
        f"{rule.outer.top:.0f}) {rule.outer.width:.1f} x {rule.outer.height:.1f} pt"
        for path in printouts
        for number, page in enumerate(layout(path), 1)
        for word, rule in words_across_rules(page)
    ]
    assert not found, "\n".join(found)


# -- booklets: the documents with bookmarks ----------------------------------------------------------------------
def read_bookmarks(reader: PdfReader) -> list[tuple[str, int, float]]:
    """(title, page index, distance from the page's top in points) of every bookmark, at every depth."""
    found = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                height = float(reader.pages[reader.get_destination_page_number(item)].mediabox.height)
                found.append((item.title, reader.get_destination_page_number(item), height - float(item.top)))

    walk(reader.outline)
    return found


def bookmarks(path: Path) -> tuple[tuple[str, int, float], ...]:
    return reading(path).bookmarks


def running_bands(pages: tuple[PageLayout, ...]) -> tuple[float, float]:
    """How far down the running head reaches and where the running foot starts, in points: the first and the last
    line of most pages stand at the same height (a line is its words within `LINE` of each other). Where no line
    repeats so, nothing is running: (-inf, inf)."""
    heads, feet = Counter(), Counter()
    for page in pages:
        if page.words:
            heads[round(min(word.box.top for word in page.words))] += 1
            feet[round(max(word.box.top for word in page.words))] += 1
    (head, head_count), (foot, foot_count) = heads.most_common(1)[0], feet.most_common(1)[0]
    half = len(pages) / 2
    return (head + LINE if head_count >= half else -math.inf), (foot - LINE if foot_count >= half else math.inf)


def body(page: PageLayout, running: tuple[float, float]):
    return [word for word in page.words if running[0] < word.box.top < running[1]]


def booklets(printouts: list[Path]) -> list[Path]:
    """The documents with bookmarks and running text: not the sheets of cards."""
    return [
        path
        for path in printouts
        if len(layout(path)) > 2 and bookmarks(path) and not any(cards_on(page) for page in layout(path))
    ]


def lines(words: list[Word]) -> list[list[Word]]:
    """Words grouped into lines, top to bottom."""
    found: list[list[Word]] = []
    for word in sorted(words, key=lambda w: w.box.top):
        if found and word.box.top - found[-1][0].box.top < LINE:
            found[-1].append(word)
        else:
            found.append([word])
    return found


def heading_end(words: list[Word], top: float) -> float:
    """Where a heading that starts at ``top`` ends: after its first line, and the lines after it in its type."""
    following = [line for line in lines(words) if line[0].box.top >= top - LINE]
    if not following:
        return top
    kind = {(round(w.size, 1), w.bold) for w in following[0]}
    end = max(w.box.bottom for w in following[0])
    for line in following[1:]:
        if {(round(w.size, 1), w.bold) for w in line} != kind:
            break
        end = max(w.box.bottom for w in line)
    return end


def test_no_heading_is_the_last_line_of_its_page(printouts):
    stranded = []
    for path in booklets(printouts):
        pages = layout(path)
        running = running_bands(pages)
        for title, index, top in bookmarks(path):
            words = body(pages[index], running)
            end = heading_end(words, top)
            if not any(word.box.top > end for word in words):
                stranded.append(f"{path.name} page {index + 1}: {title!r}")
    assert not stranded, "\n".join(stranded)


def read_chapter_openings(reader: PdfReader) -> list[tuple[str, int, float, int]]:
    """(title, page index, distance from the top, page index of its first entry) of every top-level bookmark with
    entries under it: a chapter."""
    outline, found = reader.outline, []
    for item, after in zip(outline, [*outline[1:], None]):
        if isinstance(item, list) or not isinstance(after, list) or not after:
            continue
        first = after[0] if not isinstance(after[0], list) else after[0][0]
        page = reader.get_destination_page_number(item)
        height = float(reader.pages[page].mediabox.height)
        found.append((item.title, page, height - float(item.top), reader.get_destination_page_number(first)))
    return found


def chapter_openings(path: Path) -> tuple[tuple[str, int, float, int], ...]:
    return reading(path).openings


OPENING_LINES = 3  # lines of a chapter's opening (its intro) a page may end on before its first entry


def test_no_chapter_opening_is_left_at_the_foot_of_a_page_apart_from_its_first_entry(printouts):
    """A chapter's title and a line of intro at the foot of a page, its first rule on the next: the contents then
    give the chapter a page before its rules (the trial's booklet: "About these rules ... 3", its index "4")."""
    stranded = []
    for path in booklets(printouts):
        pages = layout(path)
        running = running_bands(pages)
        for title, index, top, first in chapter_openings(path):
            if first == index:
                continue
            under = [
                word
                for word in body(pages[index], running)
                if word.box.top > heading_end(body(pages[index], running), top)
            ]
            if len(lines(under)) < OPENING_LINES:
                stranded.append(f"{path.name} page {index + 1}: {title!r}, its first entry on page {first + 1}")
    assert not stranded, "\n".join(stranded)


def segments(line: list[Word]) -> list[list[Word]]:
    """A line's runs of words, split where a gap wider than three letters' size parts two columns or cells."""
    line = sorted(line, key=lambda w: w.box.left)
    found = [[line[0]]]
    for word in line[1:]:
        if word.box.left - found[-1][-1].box.right > 3 * word.size:
            found.append([word])
        else:
            found[-1].append(word)
    return found


PARAGRAPH_END = (".", ",", ";", ":", "!", "?", "\u201d", '"', ")")  # a word that ends a sentence, or a quote


def runts(page: PageLayout) -> list[tuple[str, str]]:
    """Paragraphs ending on a line of one word under a full line: (the word, the end of the line above). The word ends
    a sentence (a lone word of a list, an index or a heading does not); a full line is at least four fifths of the
    widest run that starts at its left edge, and four times the word's width."""
    runs = [run for line in lines(list(page.words)) for run in segments(line)]
    widest: dict[int, float] = {}
    for run in runs:
        key = round(run[0].box.left)
        widest[key] = max(widest.get(key, 0), run[-1].box.right - run[0].box.left)
    found = []
    for index, run in enumerate(runs):
        if len(run) != 1 or run[0].bold or not run[0].text.endswith(PARAGRAPH_END):
            continue
        word = run[0]
        above = next(
            (
                r
                for r in reversed(runs[:index])
                if abs(r[0].box.left - word.box.left) < 1 and r[0].box.top < word.box.top
            ),
            None,
        )
        if above is None or word.box.top - above[0].box.top > 1.6 * word.size or above[0].bold:
            continue
        width = above[-1].box.right - above[0].box.left
        if abs(above[0].size - word.size) < 0.2 and width >= 0.8 * widest[round(above[0].box.left)]:
            if width >= 4 * word.box.width:
                found.append((word.text, " ".join(w.text for w in above[-4:])))
    return found


def lone_first_words(page: PageLayout) -> list[tuple[str, str]]:
    """Paragraphs whose first line is one short word under no line of theirs, over a full line of the same type:
    (the word, the start of the line below). A line a paragraph could have filled was broken after its first word."""
    runs = [run for line in lines(list(page.words)) for run in segments(line)]
    widest: dict[int, float] = {}
    for run in runs:
        key = round(run[0].box.left)
        widest[key] = max(widest.get(key, 0), run[-1].box.right - run[0].box.left)
    found = []
    for run in runs:
        word = run[0]
        if len(run) != 1 or word.bold or len(word.text) > 4 or not word.text.isalpha():
            continue  # a number, a sign or a bold label alone is a cell or a key, not a paragraph's start
        same_edge = [r for r in runs if abs(r[0].box.left - word.box.left) < 1 and r is not run]
        above = [r for r in same_edge if 0 < word.box.top - r[0].box.top <= 1.6 * word.size]
        below = [r for r in same_edge if 0 < r[0].box.top - word.box.top <= 1.6 * word.size]
        if not below or any(not r[-1].text.endswith(PARAGRAPH_END) for r in above):
            continue  # no line under it, or a line above it that the sentence runs on from
        line = below[0]
        width = line[-1].box.right - line[0].box.left
        words = sum(w.text.strip(".,;:").isalpha() for w in line)
        goes_on = words >= 5 and line[0].text[:1].islower()  # the sentence the word began (not a new one, a leader)
        if goes_on and abs(line[0].size - word.size) < 0.2 and width >= 0.8 * widest[round(word.box.left)]:
            found.append((word.text, " ".join(w.text for w in line[:4])))
    return found


def test_no_paragraph_starts_with_a_line_of_one_short_word(printouts):
    """The booklet printed "The" alone above a full line: WeasyPrint broke after the first word of a paragraph
    ending in a no-break space and a space before the (invisible) checked mark."""
    found = [
        f"{path.name} page {number}: {word!r} above {below!r}"
        for path in printouts
        for number, page in enumerate(layout(path), 1)
        for word, below in lone_first_words(page)
    ]
    assert not found, "\n".join(found)


def test_no_paragraph_ends_on_a_line_of_one_short_word(printouts):
    """Measured on the booklets' pages: a line of one word under a full line of the same type and left edge is a
    paragraph's runt (26 in the Rampant Hex handout before its last two words were kept together)."""
    found = [
        f"{path.name} page {number}: {word!r} after {above!r}"
        for path in booklets(printouts)
        for number, page in enumerate(layout(path), 1)
        for word, above in runts(page)
    ]
    assert not found, "\n".join(found[:20])


def test_no_booklet_ends_on_a_page_of_a_line_or_two(printouts):
    short = []
    for path in booklets(printouts):
        pages = layout(path)
        running = running_bands(pages)
        spans = [
            max(word.box.bottom for word in words) - min(word.box.top for word in words)
            for page in pages
            if (words := body(page, running))
        ]
        last = body(pages[-1], running)
        printed = max(word.box.bottom for word in last) - min(word.box.top for word in last) if last else 0
        if printed < LAST_PAGE * max(spans):
            short.append(f"{path.name}: its last page prints {printed:.0f} pt of a page's {max(spans):.0f} pt")
    assert not short, "\n".join(short)


# -- cards ------------------------------------------------------------------------------------------------------
def cards_on(page: PageLayout) -> list[Box]:
    """The cards on a page, found by their frames: bordered boxes of a playing card's proportions, most of its size."""
    return [
        rule.outer
        for rule in page.rules
        if rule.holes
        and abs(rule.outer.width / rule.outer.height - CARD[0] / CARD[1]) < 0.03
        and rule.outer.height > 0.8 * CARD[1]
    ]


def running_text_sizes(words: list[Word]) -> set[float]:
    """The type sizes of a card's running text: its lines of three words or more but the last (the source line);
    labels, numbers and badges are no running text."""
    return {round(word.size, 1) for line in lines(words)[:-1] if len(line) >= 3 for word in line}


def test_cards_of_one_kind_share_one_type_scale_on_a_sheet(printouts):
    """A card's kind is the first word on it (SPELL, HERO, TROOP ...). The cards of a kind on one sheet print their
    running text in one scale: some card uses every size the others use, so no card's text is set larger or smaller
    than its neighbours'. Backs (a dozen words at most) print the ruleset and the kind."""
    mixed = []
    for path in (p for p in printouts if "-cards-" in p.name):
        for number, page in enumerate(layout(path), 1):
            scales: dict[str, list[set[float]]] = {}
            for card in cards_on(page):
                words = [w for w in page.words if w.box.inside(card)]
                if len(words) > 12:
                    first = min(words, key=lambda w: (round(w.box.top), w.box.left))
                    scales.setdefault(first.text, []).append(running_text_sizes(words))
            for kind, sets in scales.items():
                every = set().union(*sets)
                if every not in sets:
                    mixed.append(f"{path.name} page {number}: {kind} cards in {sorted(every)}")
    assert not mixed, "\n".join(mixed)


def body_size(words: list[Word]) -> float | None:
    """A card's body type: the largest size set in eight words or more of running text (not bold, lines of three
    words or more between the kind and the source line, none a fact led by its label, "Special rules: …"), when it is
    larger than the card's small print (its notes); None for a card whose running text is all small print (a
    profile card: its stats are its body)."""
    running = Counter(
        round(word.size, 1)
        for line in lines(words)[1:-1]
        if len(line) >= 3 and not any(word.text.endswith(":") for word in line[:2])
        for word in line
        if not word.bold
    )
    body = max((size for size, count in running.items() if count >= 8), default=None)
    return body if body and body > min(running) else None


def test_neighbouring_cards_print_their_text_at_most_a_step_apart(printouts):
    """Whatever their kind, the cards of one sheet set their text within one step of a type scale: the largest body
    at most 1.6 times the smallest (17 pt heroes beside 10 pt spells were 1.7 apart)."""
    apart = []
    for path in (p for p in printouts if "-cards-" in p.name):
        for number, page in enumerate(layout(path), 1):
            sizes = [body_size([w for w in page.words if w.box.inside(card)]) for card in cards_on(page)]
            sizes = [size for size in sizes if size]
            if sizes and max(sizes) > 1.6 * min(sizes):
                apart.append(f"{path.name} page {number}: {sorted(set(sizes))}")
    assert not apart, "\n".join(apart)


# -- chart sheets -----------------------------------------------------------------------------------------------
def largest_empty_band(page: PageLayout) -> tuple[float, float, float]:
    """(height, top) of the tallest band across the page with nothing printed in it, and the printed height."""
    boxes = sorted([w.box for w in page.words] + [r.outer for r in page.rules], key=lambda b: b.top)
    reach, band, at = boxes[0].bottom, 0.0, 0.0
    for box in boxes[1:]:
        if box.top - reach > band:
            band, at = box.top - reach, reach
        reach = max(reach, box.bottom)
    return band, at, reach - boxes[0].top


def test_chart_sheets_use_their_page(printouts):
    charts = [p for p in printouts if p.parent.name == "sheets" and "quick-reference" not in p.name]
    empty = []
    for path in charts:
        band, at, printed = largest_empty_band(layout(path)[0])
        if band > EMPTY_BAND * printed:
            empty.append(f"{path.name}: {band:.0f} pt empty from {at:.0f} pt, of {printed:.0f} pt printed")
    assert not empty, "\n".join(empty)


def test_a_chart_with_room_to_spare_prints_its_numbers_larger(sample_build, renders):
    """A chart sheet whose rows grew into its page grows its numbers too (in 10 pt cells 22 mm tall they looked lost):
    Ordo Ineptus's shooting chart, eleven modifier columns in rows grown to fill A4 and Letter, sets its targets
    (4+) at least 1.4 times its notes' type (1.25 before)."""
    folder = sample_build / "build" if (sample_build / "build").is_dir() else sample_build
    sheets = sorted(folder.glob("sheets/ordo_ineptus-shooting-*.pdf"))
    assert len(sheets) == 2, sheets
    for path in sheets:
        page = layout(path)[0]
        targets = Counter(round(w.size, 1) for w in page.words if re.fullmatch(r"\d+\+", w.text)).most_common(1)
        note = next(w.size for w in page.words if w.text == "needed")  # "The roll needed is 7 minus the BS"
        assert targets and targets[0][0] >= 1.4 * note, (path.name, targets, note)


# -- signs ------------------------------------------------------------------------------------------------------
HYPHEN_NUMBER = re.compile(r"(?<![\w.\-\u2212])-\d")  # "-1" as a word, not "2-6" nor "D6-1"


def test_a_negative_number_prints_with_one_sign_throughout_a_printout(printouts):
    """The engine prints a modifier as "−1" (a minus sign); the rules' prose beside it says "-1" as typed: one
    printout, one sign."""
    both = []
    for path in printouts:
        words = [word.text for page in layout(path) for word in page.words]
        hyphens = [w for w in words if HYPHEN_NUMBER.search(w)]
        if hyphens and any("\u2212" in w for w in words):
            both.append(f"{path.name}: {hyphens[:5]} beside \u2212")
    assert not both, "\n".join(both)
