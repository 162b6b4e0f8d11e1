"""A row that carries one thing onto a further page shows its "continued" label there (generator/render/pdf.py).

The labels are shown in the layout as it stands, with no second layout; the oracle is that second layout, which
shows them by CSS (``#row .continued { visibility: visible }``): both PDFs must be the same bytes. Which labels show
is known from how the document is built: every row is the same height and a page holds a known number of them.
"""

from __future__ import annotations

import re

import pypdf
import pytest

from generator.render import pdf
from generator.render.pdf import PdfJob, render_pdf

pytestmark = pytest.mark.build  # lays out with WeasyPrint

ROWS_A_PAGE = 4  # an A6 page of 148 mm, 10 mm margins: 128 mm, four rows of 30 mm
GROUPS = (("Heavy foot", 6), ("Levy", 7), ("Skirmishers", 1))  # each group's name and rows, in order


def roster(inside: str = "") -> str:
    """A table of GROUPS' rows, one group's rows after the next; each row after a group's first holds the group's
    label (laid out hidden by the stylesheet), with ``inside`` in it after the name."""
    rows = []
    for group, (name, count) in enumerate(GROUPS, 1):
        for row in range(count):
            label = f'<span class="continued"><b>{name}</b>, continued{inside}</span>' if row else f"{count}x {name}"
            rows.append(f'<tr id="rp-row-{group}-{row}"><td>{label}</td></tr>')
    return f"<html><head></head><body><table>{''.join(rows)}</table></body></html>"


def stylesheet(label_style: str = "", more: str = "") -> str:
    """The roster's stylesheet, given as a template's is (not in the HTML): the CSS that shows the labels again is
    given so too, and outweighs it (a style in the HTML would outweigh both)."""
    return (
        "@page { size: A6; margin: 10mm } body { margin: 0; font-size: 9pt }"
        " table { border-collapse: collapse } td { height: 30mm; padding: 0; vertical-align: top; border: 0 }"
        f" tr {{ break-inside: avoid }} .continued {{ visibility: hidden; display: block; {label_style} }} {more}"
    )


def expected_labels() -> list[list[str]]:
    """Per page, the labels it shows: the name of a group whose rows started on an earlier page, where its first
    row on this page stands."""
    owners = [(name, row) for name, count in GROUPS for row in range(count)]
    pages = [owners[start : start + ROWS_A_PAGE] for start in range(0, len(owners), ROWS_A_PAGE)]
    return [
        [name for index, (name, row) in enumerate(page) if row and name not in [n for n, _ in page[:index]]]
        for page in pages
    ]


def rendered(tmp_path, html, name, monkeypatch=None, in_place=True, label_style="", more="") -> bytes:
    if not in_place:
        monkeypatch.setattr(pdf, "labels_shown_in_place", lambda _rendered, _rows: False)
    css = tmp_path / f"{name}.css"
    css.write_text(stylesheet(label_style, more), encoding="utf-8")
    job = PdfJob(html=html, target=tmp_path / f"{name}.pdf", base_dir=tmp_path, stylesheets=(css,))
    target = render_pdf(job, tmp_path)
    if monkeypatch:
        monkeypatch.undo()
    return target.read_bytes()


def labels(data: bytes, path) -> list[list[str]]:
    path.write_bytes(data)
    return [re.findall(r"([A-Z]\w+(?: \w+)?), continued", page.extract_text()) for page in pypdf.PdfReader(path).pages]


def test_a_row_continuing_its_group_on_a_page_shows_the_label_the_second_layout_shows(tmp_path, monkeypatch):
    html = roster()
    shown = rendered(tmp_path, html, "in-place")
    again = rendered(tmp_path, html, "again", monkeypatch, in_place=False)
    assert expected_labels() == [[], ["Heavy foot"], ["Levy"], ["Levy"]]  # the oracle's own sense, by hand
    assert labels(shown, tmp_path / "shown.pdf") == expected_labels()
    assert shown == again


def test_a_label_with_a_background_of_its_own_is_laid_out_again(tmp_path, monkeypatch):
    """A hidden box lays out no background: the flip would leave it out, so the document is laid out again."""
    html, grey = roster(), "background: #ddd;"
    asked = []
    real = pdf.labels_shown_in_place
    monkeypatch.setattr(pdf, "labels_shown_in_place", lambda *args: asked.append(real(*args)) or asked[-1])
    shown = rendered(tmp_path, html, "in-place", label_style=grey)
    monkeypatch.undo()
    assert asked == [False]
    assert labels(shown, tmp_path / "shown.pdf") == expected_labels()
    assert shown == rendered(tmp_path, html, "again", monkeypatch, in_place=False, label_style=grey)


def test_a_part_of_a_label_hidden_by_its_own_style_stays_hidden(tmp_path, monkeypatch):
    """An element in the label, and a label's ::after, that set their own visibility keep it, as with the CSS."""
    html = roster(inside=' <i style="visibility: hidden">secret</i> <u>kept</u>')
    more = '.continued::after { content: " unsaid"; visibility: hidden }'
    shown = rendered(tmp_path, html, "in-place", more=more)
    text = "".join(page.extract_text() for page in pypdf.PdfReader(tmp_path / "in-place.pdf").pages)
    assert "secret" not in text and "unsaid" not in text
    assert text.count("kept") == sum(map(len, expected_labels()))
    assert shown == rendered(tmp_path, html, "again", monkeypatch, in_place=False, more=more)


def test_another_weasyprint_lays_the_document_out_again(monkeypatch):
    monkeypatch.setattr(pdf.weasyprint_module(), "__version__", "71.0")
    assert pdf.labels_shown_in_place(object(), ["rp-row-1-1"]) is False
