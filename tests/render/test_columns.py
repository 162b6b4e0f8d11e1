"""Balanced columns (generator/render/columns.py) are laid out exactly as WeasyPrint's own search lays them out.

WeasyPrint's own ``columns_layout`` is the oracle: every document below is laid out with it and with ours, and every
line of text must stand on the same page at the same place. The documents are what makes WeasyPrint's search long
(blocks kept whole, where it grows the columns a pixel at a time) and what keeps it short (lines that break
anywhere), on one page and across several, in two and three columns.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
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


def own_search(html: str) -> dict:
    """The document laid out with WeasyPrint's own search: its ``lines``, and how many columns each of the search's
    calls ``laid_out`` (a column, not the blocks inside)."""
    from weasyprint.layout import block, column

    from generator.render import columns

    original, taken = column.columns_layout, []

    def counting(context, box, *args):
        counted, real = 0, block.block_box_layout

        def layout(context, laid_out, *a, **k):
            nonlocal counted
            counted += getattr(laid_out, "is_column", False)
            return real(context, laid_out, *a, **k)

        block.block_box_layout = layout
        try:
            return original(context, box, *args)
        finally:
            block.block_box_layout = real
            taken.append(counted)

    columns.uninstall()
    block.columns_layout = counting
    try:
        return {"lines": lines(html), "laid_out": taken}
    finally:
        assert columns.install()


@pytest.fixture(scope="session")
def weasyprint_own(tmp_path_factory):
    """``laid_out(html)``: `own_search` of the document, made once per run for both xdist workers (WeasyPrint's own
    search is most of these tests' time, and both tests below ask it of every document)."""
    base = tmp_path_factory.getbasetemp()
    cache = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "own-columns"
    cache.mkdir(parents=True, exist_ok=True)

    def laid_out(html: str) -> dict:
        stored = cache / (hashlib.sha256(html.encode()).hexdigest() + ".json")
        with open(stored.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker laying out the same document waits, then reads it
            if not stored.exists():
                temporary = stored.with_suffix(f".{os.getpid()}.tmp")
                temporary.write_text(json.dumps(own_search(html)), encoding="utf-8")
                temporary.replace(stored)
        found = json.loads(stored.read_text(encoding="utf-8"))
        return {"lines": [tuple(line) for line in found["lines"]], "laid_out": found["laid_out"]}

    return laid_out


# (columns, blocks kept whole, how many, the longest in lines): short blocks kept whole are where WeasyPrint grows
# the columns a pixel at a time, and where a height found a few pixels off would move one
SHAPES = [(2, True, 8, 12), (2, True, 14, 12), (2, True, 30, 12), (3, True, 12, 12), (2, False, 10, 12)]
SHAPES += [(2, False, 40, 12), (3, False, 25, 12), (2, True, 11, 12), (2, True, 23, 12)]
SHAPES += [(2, True, n, 3) for n in (12, 20, 31, 45, 70)] + [(3, True, 40, 2)]
CASES = [(seed, *shape) for seed, shape in enumerate(SHAPES)]


@pytest.mark.parametrize("seed, count, kept_whole, blocks, longest", CASES)
def test_balanced_columns_stand_where_weasyprints_own_search_puts_them(
    weasyprint_own, columns, seed, count, kept_whole, blocks, longest
):
    html = document(seed, count, kept_whole, blocks, longest)
    assert columns.install()  # ours
    ours = lines(html)
    assert ours, "nothing laid out"
    assert ours == weasyprint_own(html)["lines"]


def test_the_documents_make_weasyprint_search_long_and_short(weasyprint_own):
    """The cases above reach both of our paths: WeasyPrint's own few steps, and its pixel steps we replace (columns
    laid out a hundred times and more)."""
    taken = [count for case in CASES for count in weasyprint_own(document(*case))["laid_out"]]
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
