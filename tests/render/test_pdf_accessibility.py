"""Every printout is a tagged PDF that a screen reader reads as a blind reader would want it: read back with pypdf.

* Every PDF of the samples' build is marked as tagged (``/MarkInfo /Marked true``), with a structure tree that
  holds its headings, paragraphs and tables (rows of header and data cells), its language and a title the reader
  shows instead of the file name.
* A gap (a value the source does not give: an empty write-in box in print) reads "not given in the source" where it
  stands, so "Light riders, not given in the source, 3 hexes" is not heard as "Light riders, 3 hexes" (3 as the
  points); on paper the box stays empty.

What a screen reader reads is taken from the structure tree, in its order: an element's alternate description
(``/Alt``) where it has one, else its marked content, found by its marked content identifier (MCID) in its page's
content stream.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pdf_layout import read_once
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NumberObject

HEADINGS = {"H", "H1", "H2", "H3", "H4", "H5", "H6"}


@pytest.fixture(scope="module")
def printouts(sample_build) -> list[Path]:
    """Every PDF of the samples' build: sheets and handouts, both audiences and papers."""
    found = sorted((sample_build / "sheets").glob("*.pdf")) + sorted((sample_build / "handouts").glob("*.pdf"))
    assert len(found) >= 40, [path.name for path in found]  # the samples make some fifty
    return found


@dataclass
class Element:
    """A structure element: its type (``P``, ``H1``, ``TD``...) and, in reading order, its child elements and the
    text of the marked content it holds directly."""

    kind: str
    kids: list[Element | str] = field(default_factory=list)
    id: str = ""  # a header cell's, which the data cells under it name in their Headers
    alt: str = ""  # its alternate description, which a screen reader reads in place of its content
    headers: tuple[str, ...] = ()  # a data cell's: the IDs of its header cells

    def walk(self):
        yield self
        for kid in self.kids:
            if isinstance(kid, Element):
                yield from kid.walk()

    def text(self) -> str:
        if self.alt:
            return self.alt
        return " ".join(" ".join(kid.text() if isinstance(kid, Element) else kid for kid in self.kids).split())

    def kinds(self) -> set[str]:
        return {element.kind for element in self.walk()}


def marked_texts(reader: PdfReader, number: int) -> dict[int, str]:
    """MCID -> the text a page's content stream shows inside that marked content."""
    stack: list[int | None] = []
    texts: dict[int, list[str]] = {}

    def before(operator, operands, cm, tm):
        if operator == b"BDC":
            properties = operands[1] if len(operands) > 1 else None
            stack.append(properties.get("/MCID") if isinstance(properties, DictionaryObject) else None)
        elif operator == b"BMC":
            stack.append(None)
        elif operator == b"EMC" and stack:
            stack.pop()

    def shown(text, cm, tm, font, size):
        mcid = next((m for m in reversed(stack) if m is not None), None)
        if mcid is not None:
            texts.setdefault(int(mcid), []).append(text)

    reader.pages[number].extract_text(visitor_operand_before=before, visitor_text=shown)
    return {mcid: "".join(parts) for mcid, parts in texts.items()}


@functools.cache
def structure(path: Path, with_text: bool = False) -> Element:
    """The PDF's structure tree from its StructTreeRoot, with the text of each marked content when asked."""
    return read_structure(PdfReader(path), with_text)


def read_structure(reader: PdfReader, with_text: bool = False) -> Element:
    pages = {page.indirect_reference.idnum: number for number, page in enumerate(reader.pages)}
    texts: dict[int, dict[int, str]] = {}

    def text(page: int, mcid: int) -> str:
        if page not in texts:
            texts[page] = marked_texts(reader, page)
        return texts[page].get(mcid, "")

    def build(node: DictionaryObject, page: int | None) -> Element:
        raw_page = node.raw_get("/Pg") if "/Pg" in node else None
        page = pages[raw_page.idnum] if isinstance(raw_page, IndirectObject) else page
        attributes = node.get("/A", {})
        element = Element(
            str(node.get("/S", "/StructTreeRoot"))[1:],
            id=str(node.get("/ID", "")),
            alt=str(node.get("/Alt", "")),
            headers=tuple(str(h) for h in attributes.get("/Headers", ())) if isinstance(attributes, dict) else (),
        )
        kids = node.get("/K")
        for kid in kids if isinstance(kids, ArrayObject) else [] if kids is None else [kids]:
            kid = kid.get_object()
            if isinstance(kid, NumberObject):
                element.kids.append(text(page, int(kid)) if with_text else "")
            elif isinstance(kid, DictionaryObject) and kid.get("/Type") == "/MCR":
                element.kids.append(text(page, int(kid["/MCID"])) if with_text else "")
            elif isinstance(kid, DictionaryObject) and "/S" in kid:
                element.kids.append(build(kid, page))
        return element

    catalog = reader.trailer["/Root"]
    return build(catalog["/StructTreeRoot"], None) if "/StructTreeRoot" in catalog else Element("StructTreeRoot")


def true(value) -> bool:
    """Whether a PDF value is the boolean true (pypdf's BooleanObject(False) is truthy as an object)."""
    return getattr(value, "value", None) is True


def rows(table: Element) -> list[list[Element]]:
    """A table's rows, each as its cells."""
    return [[cell for cell in row.walk() if cell.kind in ("TH", "TD")] for row in table.walk() if row.kind == "TR"]


def read(row: list[Element]) -> list[tuple[str, str]]:
    """A row as a screen reader reads it: each cell's type and text."""
    return [(cell.kind, cell.text()) for cell in row]


# -- every printout ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tagging:
    """What a reader finds in a printout's catalog: its marks, its structure tree (without text), language, title."""

    marked: object
    tree: Element | None  # None: no StructTreeRoot
    language: str
    title: str | None
    shows_title: bool


def read_tagging(path: Path) -> Tagging:
    reader = PdfReader(path)  # one reader: pypdf takes seconds over a booklet's catalog
    catalog = reader.trailer["/Root"]
    mark = catalog.get("/MarkInfo", {})
    title = reader.metadata.title if reader.metadata else None
    return Tagging(
        marked=str(mark) if not true(mark.get("/Marked")) else True,
        tree=read_structure(reader) if "/StructTreeRoot" in catalog else None,
        language=str(catalog.get("/Lang", "")),
        title=None if title is None else str(title),
        shows_title=true(catalog.get("/ViewerPreferences", {}).get("/DisplayDocTitle")),
    )


@pytest.fixture(scope="module")
def taggings(printouts, tmp_path_factory) -> dict[Path, Tagging]:
    """Each printout's tagging, read once per run for both xdist workers."""
    base = tmp_path_factory.getbasetemp()
    cache = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "pdf-tagging"
    return {path: read_once(path, cache, read_tagging) for path in printouts}


def test_every_printout_is_marked_tagged_with_its_language_and_a_title_shown(taggings):
    """A PDF without a structure tree (no StructTreeRoot, not Marked) reads to a screen reader as one run of
    words, or nothing: every one of the build's is tagged, says its language and shows its title."""
    found = []
    for path, tagging in taggings.items():
        if tagging.marked is not True:
            found.append(f"{path.name}: not marked as tagged ({tagging.marked})")
        if tagging.tree is None:
            found.append(f"{path.name}: no structure tree")
        elif tagging.tree.kids[:1] and tagging.tree.kids[0].kind != "Document":
            found.append(f"{path.name}: its structure tree does not start with the document")
        if not re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]+)*", tagging.language):
            found.append(f"{path.name}: no language ({tagging.language!r})")
        if not (tagging.title or "").strip():
            found.append(f"{path.name}: no title")
        if not tagging.shows_title:
            found.append(f"{path.name}: a reader shows its file name, not its title")
    assert not found, "\n".join(found)


def test_every_printout_reads_as_headings_paragraphs_and_tables(taggings):
    """Its words sit in headings and paragraphs (a sheet, a booklet and a sheet of cards each has both); every
    table's rows hold cells; every rulebook and roster has tables whose header cells are tagged as headers (TH)
    above data cells (TD), so a reader hears a cell with its column's name."""
    found = []
    for path, tagging in taggings.items():
        tree = tagging.tree or Element("StructTreeRoot")
        kinds = tree.kinds()
        if not kinds & HEADINGS or "P" not in kinds:
            found.append(f"{path.name}: no heading or no paragraph ({sorted(kinds)})")
        for table in (element for element in tree.walk() if element.kind == "Table"):
            if not all(row for row in rows(table)) or not rows(table):
                found.append(f"{path.name}: a table without rows of cells")
        if re.search(r"-(handout|roster)-", path.name) and not {"Table", "TR", "TH", "TD"} <= kinds:
            found.append(f"{path.name}: no table of header and data cells ({sorted(kinds)})")
    assert not found, "\n".join(found)


# -- the gap -------------------------------------------------------------------------------------------------------
GAP = "not given in the source"  # what the printouts' keys say an empty box is


@pytest.fixture(scope="module")
def blank_roster(sample_build) -> Path:
    return sample_build / "handouts" / "rampant_hex-roster-a4.pdf"


def troop_types(roster: Path) -> list[list[Element]]:
    tables = [rows(t) for t in structure(roster, with_text=True).walk() if t.kind == "Table"]
    found = next((table for table in tables if table and read(table[0])[:1] == [("TH", "Troop type")]), None)
    assert found, f"no table of troop types with its header cells in {[read(t[0]) for t in tables if t]}"
    return found


def test_a_gap_in_a_rosters_table_reads_not_given_in_its_cell_under_its_header(blank_roster):
    """rules_src/rampant_hex/troops.yaml gives Light riders no points and a move of 3 hexes, Artillery neither
    points nor a move of its own: in the blank roster's troop types the empty box of their points reads "not given
    in the source", in the cell that names the PTS header as its own, so the 3 is heard as the move it is."""
    table = troop_types(blank_roster)
    assert read(table[0]) == [("TH", "Troop type"), ("TH", "PTS"), ("TH", "Move")]
    cells = {row[0].text(): row for row in table[1:]}
    assert read(cells["Light riders"]) == [("TD", "Light riders"), ("TD", GAP), ("TD", "3 hexes")]
    assert read(cells["Artillery"]) == [("TD", "Artillery"), ("TD", GAP), ("TD", "2 hexes")]
    assert read(cells["Levy"]) == [("TD", "Levy"), ("TD", "2"), ("TD", "2 hexes")]  # a value given reads as itself
    points, move = table[0][1].id, table[0][2].id
    assert points and points in cells["Light riders"][1].headers and move in cells["Light riders"][2].headers


def test_a_gap_reads_in_order_where_its_box_stands(blank_roster):
    """Read through from the top, as a screen reader goes, the row says its gap between its name and its move."""
    reading = structure(blank_roster, with_text=True).text()
    assert f"Light riders {GAP} 3 hexes Artillery {GAP} 2 hexes" in reading


def test_a_gaps_box_still_prints_empty(blank_roster):
    """What the reader hears is not printed: on paper the box stays empty, for the players to write in."""
    printed = " ".join(PdfReader(blank_roster).pages[0].extract_text().split())
    assert "Light riders 3 hexes Artillery 2 hexes" in printed
    assert "not given" not in printed
