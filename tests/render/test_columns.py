"""Balanced columns (generator/render/columns.py) are laid out exactly as WeasyPrint's own search lays them out.

WeasyPrint's own ``columns_layout`` is the oracle: every document below is laid out with it and with ours, and every
line of text must stand on the same page at the same place. The documents are what makes WeasyPrint's search long
(blocks kept whole, where it grows the columns a pixel at a time) and what keeps it short (lines that break
anywhere), on one page and across several, in two and three columns.
"""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.build  # lays out with WeasyPrint
# WeasyPrint is imported by each test (through the fixtures below), not by the module: pytest imports every module to
# collect it, in each worker, and `make test-fast` runs none of these.


@pytest.fixture
def weasyprint():
    import weasyprint

    return weasyprint


@pytest.fixture
def weasyprint_block():
    from weasyprint.layout import block

    return block


@pytest.fixture
def weasyprint_column():
    from weasyprint.layout import column

    return column


@pytest.fixture
def columns():
    from generator.render import columns

    return columns


WORDS = "charge the wood at dusk roll two dice and add the bonus a model that falls back loses its nerve".split()


def document(seed: int, count: int, kept_whole: bool, blocks: int, longest: int = 12) -> str:
    """Blocks of a line to ``longest``, some tables, headings kept with what follows, in ``count`` columns."""
    rng = random.Random(seed)
    parts = []
    for index in range(blocks):
        lines = rng.randint(1, longest)
        text = " ".join(rng.choice(WORDS) for _ in range(lines * 9))
        if rng.random() < 0.25:
            rows = "".join(f"<tr><td>{n}</td><td>{rng.choice(WORDS)}</td></tr>" for n in range(rng.randint(1, longest)))
            inner = f"<table>{rows}</table>"
        else:
            inner = f"<p>{text}</p>"
        parts.append(f'<div class="block"><h3>Part {index}</h3>{inner}</div>')
    whole = "break-inside: avoid;" if kept_whole else ""
    return f"""<html><head><style>
        @page {{ size: A5; margin: 12mm; }}
        body {{ font-family: "DejaVu Sans", sans-serif; font-size: 8pt; }}
        .columns {{ columns: {count}; column-gap: 4mm; column-fill: balance; }}
        .block {{ {whole} margin: 0 0 2mm; }}
        h3 {{ font-size: 9pt; margin: 0 0 1mm; break-after: avoid; }}
        p {{ margin: 0; }}
        </style></head><body><h1>Quick reference</h1><div class="columns">{"".join(parts)}</div>
        <p>After the columns.</p></body></html>"""


def lines(html: str) -> list[tuple[int, float, float, str]]:
    """Every piece of text of the laid-out document: its page, where it stands, what it says."""
    import weasyprint
    from weasyprint.formatting_structure import boxes

    found = []
    for number, page in enumerate(weasyprint.HTML(string=html).render().pages):
        stack = [page._page_box]
        while stack:
            box = stack.pop()
            if isinstance(box, boxes.TextBox):
                found.append((number, round(box.position_x, 3), round(box.position_y, 3), box.text))
            stack.extend(getattr(box, "children", ()))
    return sorted(found)


@pytest.fixture
def weasyprint_own(columns):
    """``laid_out(html)`` with WeasyPrint's own search, then with ours again."""

    def laid_out(html: str):
        columns.uninstall()
        try:
            return lines(html)
        finally:
            assert columns.install()

    assert columns.install()
    yield laid_out
    columns.install()


# (columns, blocks kept whole, how many, the longest in lines): short blocks kept whole are where WeasyPrint grows
# the columns a pixel at a time, and where a height found a few pixels off would move one
SHAPES = [(2, True, 8, 12), (2, True, 14, 12), (2, True, 30, 12), (3, True, 12, 12), (2, False, 10, 12)]
SHAPES += [(2, False, 40, 12), (3, False, 25, 12), (2, True, 11, 12), (2, True, 23, 12)]
SHAPES += [(2, True, n, 3) for n in (12, 20, 31, 45, 70)] + [(3, True, 40, 2)]
CASES = [(seed, *shape) for seed, shape in enumerate(SHAPES)]


@pytest.mark.parametrize("seed, count, kept_whole, blocks, longest", CASES)
def test_balanced_columns_stand_where_weasyprints_own_search_puts_them(
    weasyprint_own, seed, count, kept_whole, blocks, longest
):
    html = document(seed, count, kept_whole, blocks, longest)
    ours = lines(html)
    assert ours, "nothing laid out"
    assert ours == weasyprint_own(html)


def test_the_documents_make_weasyprint_search_long_and_short(columns, weasyprint_block, weasyprint_column):
    """The cases above reach both of our paths: WeasyPrint's own few steps, and its pixel steps we replace (columns
    laid out a hundred times and more)."""
    taken = []
    original = weasyprint_column.columns_layout

    def counting(context, box, *args):
        counted = {"layouts": 0}
        real = weasyprint_block.block_box_layout

        def layout(context, laid_out, *a, **k):
            counted["layouts"] += getattr(laid_out, "is_column", False)  # a column, not the blocks inside
            return real(context, laid_out, *a, **k)

        weasyprint_block.block_box_layout = layout
        try:
            return original(context, box, *args)
        finally:
            weasyprint_block.block_box_layout = real
            taken.append(counted["layouts"])

    columns.uninstall()
    weasyprint_block.columns_layout = counting
    try:
        for case in CASES:
            lines(document(*case))
    finally:
        assert columns.install()
    assert min(taken) < 10 and max(taken) > 100, taken


def test_another_weasyprint_keeps_its_own_search(monkeypatch, weasyprint, columns, weasyprint_block, weasyprint_column):
    monkeypatch.setattr(weasyprint, "__version__", "71.0")
    columns.uninstall()
    try:
        assert columns.install() is False
        assert weasyprint_block.columns_layout is weasyprint_column.columns_layout
    finally:
        monkeypatch.undo()
        assert columns.install()
    assert weasyprint_block.columns_layout is columns.columns_layout
