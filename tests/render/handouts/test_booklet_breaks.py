"""A booklet's rules run on across pages as in a printed rulebook: a rule of a third of a page starts where the page
before it has room and continues overleaf, rather than being kept whole and leaving the foot of the page blank; its
heading is never left alone at a page's foot, and at least two of its lines stand on each page it spans.

Measured on a real render (WeasyPrint) of a small project of a chapter of such rules, read back with pypdfium2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_project
from pdf_layout import Word, read_layout

from generator.render.handouts.jobs import handout_jobs
from generator.render.pdf import render_pdf
from generator.source.project import load_project

RULES = 9
SENTENCES = 12  # two paragraphs of these (a rule) fill about a third of an A4 page, in under 1,600 characters
LINE = 4.0  # points: words whose tops are nearer than this stand on one line
BLANK_FOOT = 0.12  # of the deepest a page's text reaches: more left blank at a page's foot is paper wasted


def paragraph(number: int, part: str) -> str:
    return " ".join(f"Sentence {i} of order {number} {part}, about the column on the march." for i in range(SENTENCES))


def project(root: Path) -> Path:
    rules = "".join(
        f"  order_{n}:\n    title: Order {n}\n    chapter: marching\n    body: |\n"
        f"      Begin{n} {paragraph(n, 'opening')}\n\n      {paragraph(n, 'closing')} Finish{n}\n"
        for n in range(1, RULES + 1)
    )
    return make_project(
        root,
        column=f"ruleset:\n  title: Column Drill\n\nchapters:\n  marching: {{title: Marching}}\n\nrules:\n{rules}",
    )


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    root = project(tmp_path_factory.mktemp("column"))
    loaded, diagnostics = load_project(root)
    assert not diagnostics.errors, [d.format() for d in diagnostics]
    (job,) = [j for j in handout_jobs(loaded, root / "out", "player") if j.target.name.endswith("-handout-a4.pdf")]
    return read_layout(render_pdf(job, root / "out"))


def page_of(pages, text: str) -> int:
    (found,) = [index for index, page in enumerate(pages) for word in page.words if word.text.startswith(text)]
    return found


def lines(words: list[Word]) -> list[list[Word]]:
    """Words grouped into lines, top to bottom, each line's words left to right."""
    found: list[list[Word]] = []
    for word in sorted(words, key=lambda w: w.box.top):
        if found and word.box.top - found[-1][0].box.top < LINE:
            found[-1].append(word)
        else:
            found.append([word])
    return [sorted(line, key=lambda w: w.box.left) for line in found]


def rule_lines(page, number: int) -> list[list[Word]]:
    """The lines of one rule's body on a page: those with a word of its sentences ("order N")."""
    return [
        line
        for line in lines(list(page.words))
        if any(a.text == "order" and b.text.rstrip(".") == str(number) for a, b in zip(line, line[1:], strict=False))
    ]


@pytest.mark.build
def test_a_rule_of_a_third_of_a_page_starts_where_the_page_has_room_and_continues_overleaf(pages):
    spanning = [n for n in range(1, RULES + 1) if page_of(pages, f"Begin{n}") != page_of(pages, f"Finish{n}")]
    assert spanning, "every rule kept whole on one page"
    for n in spanning:
        first, last = page_of(pages, f"Begin{n}"), page_of(pages, f"Finish{n}")
        assert last == first + 1, f"Order {n} runs from page {first + 1} to page {last + 1}"
        # its heading has lines of the rule under it, and the rule leaves at least two lines on each page
        assert len(rule_lines(pages[first], n)) >= 2, f"Order {n}: under two lines at the foot of page {first + 1}"
        assert len(rule_lines(pages[last], n)) >= 2, f"Order {n}: under two lines at the top of page {last + 1}"


@pytest.mark.build
def test_the_pages_of_a_chapter_of_such_rules_are_filled_to_their_foot(pages):
    first, last = page_of(pages, "Begin1"), page_of(pages, f"Finish{RULES}")
    assert last > first + 1, "the chapter fits a page or two: too short to measure"

    def deepest(page) -> float:
        return max(word.box.bottom for word in page.words if word.text.startswith(("Sentence", "Begin", "Finish")))

    top = min(word.box.top for word in pages[first + 1].words)
    foot = max(deepest(pages[index]) for index in range(first, last + 1))
    blank = {index + 1: (foot - deepest(pages[index])) / (foot - top) for index in range(first, last)}
    assert all(share < BLANK_FOOT for share in blank.values()), f"blank at the foot, by page: {blank}"
