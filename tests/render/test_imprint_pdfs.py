"""Every sheet and handout says which rules it was printed from and, when the project sets its site's address, leads
back to its page there: read back from the real PDFs of the run's shared builds.

* tests/fixtures/homebrew (``homebrew_build``) sets `site: url:` in its rulepress.yaml and is built without
  SOURCE_DATE_EPOCH: each page carries "<title> · rules as of <the day its files last changed>", the address of its
  page as text and a QR code that decodes to it (zxing-cpp reads the page as pypdfium2 draws it) and is the very matrix
  segno makes of that address.
* The samples (``sample_build``) set no address: the same line, and no address and no image anywhere.

Expected titles, dates and addresses come from the fixture's and the samples' files (their YAML, their last commit
as `git log` tells it when `git status` finds them committed as they are, else their files' times, the fixture's
rulepress.yaml), never from the code under test. Where the imprint is, nothing else is: its lines
and its QR code are measured against every other glyph on the page (pypdfium2's character boxes), and it keeps clear of
the paper's edge.
"""

from __future__ import annotations

import functools
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
import segno
import yaml
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
MM = 72 / 25.4
SAMPLE_EPOCH = os.environ.get("SOURCE_DATE_EPOCH", "").strip()  # the sample build runs in this process's environment
EDGE = 4.5 * MM  # nothing printed nearer the paper's edge: home printers leave about 5 mm blank


def normalise(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


# -- what the project's own files say --------------------------------------------------------------------------
def declared(project: Path) -> dict[str, dict]:
    """Ruleset id -> its `ruleset:` section, as YAML reads it."""
    found = {}
    for folder in sorted((project / "rules_src").iterdir()):
        meta = folder / "ruleset.yaml"
        if folder.is_dir() and meta.is_file():
            found[folder.name] = yaml.safe_load(meta.read_text(encoding="utf-8"))["ruleset"]
    return found


def last_commit(project: Path, folders: list[Path]) -> float | None:
    """When the last commit touching ``folders`` was made, if ``project`` is in a git work tree where `git status`
    finds them as committed (nothing changed, added or deleted); else None."""
    names = [str(folder.relative_to(project)) for folder in folders]
    status = subprocess.run(
        ["git", "status", "--porcelain", "--", *names], cwd=project, capture_output=True, text=True, check=False
    )
    if status.returncode != 0 or status.stdout.strip():
        return None
    said = subprocess.run(
        ["git", "log", "-1", "--format=%ct", "--", *names], cwd=project, capture_output=True, text=True, check=False
    ).stdout.strip()
    return float(said) if said.isdigit() else None


@functools.cache  # one printout of a ruleset after another: git asked once a ruleset
def expected_label(project: Path, ruleset: str, epoch: str = "") -> str:
    """The line `<short title> · rules as of <date>`: the day of ``epoch`` (the build's SOURCE_DATE_EPOCH) when it
    had one, else of the last commit touching the ruleset's folder and those of the rulesets it extends while they
    are committed as they are, else of the newest file of those folders."""
    metas = declared(project)
    meta = metas[ruleset]
    folders, current = [], ruleset
    while current:
        folders.append(project / "rules_src" / current)
        current = metas[current].get("extends", "")
    committed = None if epoch else last_commit(project, folders)
    if epoch:
        day = datetime.fromtimestamp(int(epoch), tz=UTC)
    elif committed is not None:
        day = datetime.fromtimestamp(committed, tz=UTC)
    else:
        newest, current = 0.0, ruleset
        while current:
            for folder, dirs, files in os.walk(project / "rules_src" / current):
                dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
                newest = max([newest] + [os.stat(Path(folder) / f).st_mtime for f in files if not f.startswith(".")])
            current = metas[current].get("extends", "")
        day = datetime.fromtimestamp(newest, tz=UTC)
    return f"{meta.get('short_title') or meta['title']} · rules as of {day:%Y-%m-%d}"


def ruleset_of(pdf: Path, ids) -> str:
    return max((i for i in ids if pdf.name.startswith(i + "-")), key=len)


def page_of(pdf: Path, ruleset: str) -> str:
    """The site page a printout leads back to: a sheet's own page (its name without the paper, and the game-master's
    version's page is the players' one), a handout's ruleset's page."""
    stem = pdf.stem.rsplit("-", 1)[0]
    if pdf.parent.name == "sheets":
        return f"sheets/{stem.removesuffix('-gm')}.html"
    return f"{ruleset}/index.html"


def printouts(build: Path) -> list[Path]:
    return sorted((build / "sheets").glob("*.pdf")) + sorted((build / "handouts").glob("*.pdf"))


# -- what a page shows, measured ----------------------------------------------------------------------------------
def glyphs(page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every printed character of a page with its box (left, bottom, right, top in points), as pypdfium2 reads it."""
    text = page.get_textpage()
    count = text.count_chars()
    chars = text.get_text_range(0, count)
    return [(c, text.get_charbox(i)) for i, c in enumerate(chars[:count]) if not c.isspace()]


def line_box(found, line: str) -> tuple[list[int], tuple[float, float, float, float]]:
    """The indices (among ``found``) of the characters of ``line`` and the box around them."""
    letters = "".join(c for c in line if not c.isspace())
    printed = "".join(c for c, _ in found)
    start = printed.find(letters)
    assert start >= 0, f"`{line}` is not on the page"
    indices = list(range(start, start + len(letters)))
    boxes = [found[i][1] for i in indices]
    return indices, (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def overlaps(a, b, slack: float = 0.3) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def images(page) -> list[tuple[float, float, float, float]]:
    return [obj.get_bounds() for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])]


def check_clear(pdf: Path, lines: list[str]) -> int:
    """On every page: each line of the imprint printed whole, no other glyph inside its box or the QR code's, all of
    it clear of the paper's edge. Returns how many pages show a QR code."""
    document = pypdfium2.PdfDocument(str(pdf))
    with_code = 0
    try:
        for number, page in enumerate(document, 1):
            width, height = page.get_size()
            found = glyphs(page)
            own, boxes = set(), []
            for line in lines:
                indices, box = line_box(found, line)
                own.update(indices)
                boxes.append(box)
            codes = images(page)
            with_code += bool(codes)
            for box in boxes + codes:
                assert box[0] >= EDGE and box[1] >= EDGE and box[2] <= width - EDGE and box[3] <= height - EDGE, (
                    f"{pdf.name} p. {number}: the imprint at {box} is nearer the paper's edge than 4.5 mm"
                )
            for index, (char, box) in enumerate(found):
                if index in own:
                    continue
                for mine in boxes + codes:
                    assert not overlaps(box, mine), f"{pdf.name} p. {number}: `{char}` at {box} runs into the imprint"
    finally:
        document.close()
    return with_code


# -- the fixture: its site's address set --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fixture_site(homebrew_build) -> str:
    url = yaml.safe_load((homebrew_build / "rulepress.yaml").read_text(encoding="utf-8"))["site"]["url"]
    return url if url.endswith("/") else url + "/"


def test_every_page_of_every_printout_says_which_rules_and_where_its_page_is(homebrew_build, fixture_site, read_pdfs):
    build = homebrew_build / "build"
    ids = declared(homebrew_build)
    pdfs = printouts(build)
    assert {p.parent.name for p in pdfs} == {"sheets", "handouts"}
    assert {p.name.split("-")[1] for p in pdfs if p.parent.name == "handouts"} == {"handout", "roster", "cards"}
    for pdf, read in read_pdfs(pdfs).items():
        ruleset = ruleset_of(pdf, ids)
        label, url = expected_label(homebrew_build, ruleset), fixture_site + page_of(pdf, ruleset)
        for number, page in enumerate(read.pages, 1):
            text = normalise(page.text)
            assert label in text, f"{pdf.name} p. {number} does not say `{label}`"
            assert url in text, f"{pdf.name} p. {number} does not give `{url}`"


def test_the_qr_code_is_the_pages_address(homebrew_build, fixture_site):
    """The code decodes to the address, and is the matrix segno makes of it, one pixel per module with a quiet zone
    of two. Cards on US Letter have no margin that holds a code clear of the cut marks and the paper's edge: they
    give the address as text only."""
    zxingcpp = pytest.importorskip("zxingcpp")
    build = homebrew_build / "build"
    ids = declared(homebrew_build)
    for pdf in printouts(build):
        url = fixture_site + page_of(pdf, ruleset_of(pdf, ids))
        page = PdfReader(pdf).pages[0]
        if pdf.name.endswith("-cards-letter.pdf"):
            assert not page.images, pdf.name
            continue
        (image,) = page.images
        matrix = segno.make(url, error="m", micro=False).matrix
        pixels = image.image.convert("L")
        size = len(matrix) + 4
        assert pixels.size == (size, size), pdf.name
        drawn = [[pixels.getpixel((x + 2, y + 2)) < 128 for x in range(len(matrix))] for y in range(len(matrix))]
        assert drawn == [[bool(m) for m in row] for row in matrix], pdf.name
        document = pypdfium2.PdfDocument(str(pdf))
        try:
            seen = [code.text for code in zxingcpp.read_barcodes(document[0].render(scale=300 / 72).to_pil())]
        finally:
            document.close()
        assert seen == [url], pdf.name


def _figures(node, found: list) -> list:
    """The /Alt of every /Figure under a structure element (pypdf's objects, followed through their /K)."""
    node = node.get_object()
    if isinstance(node, list):
        for kid in node:
            _figures(kid, found)
    elif hasattr(node, "get"):
        if node.get("/S") == "/Figure":
            found.append(str(node.get("/Alt", "")))
        if "/K" in node:
            _figures(node["/K"], found)
    return found


def test_a_tagged_printout_says_what_its_qr_code_is(homebrew_build, fixture_site):
    """A screen reader met the code as a figure with no name (its alt was empty): it is the page's address."""
    build = homebrew_build / "build"
    ids = declared(homebrew_build)
    for pdf in printouts(build):
        if pdf.name.endswith("-cards-letter.pdf"):
            continue  # no code: the address as text only
        url = fixture_site + page_of(pdf, ruleset_of(pdf, ids))
        figures = _figures(PdfReader(pdf).trailer["/Root"]["/StructTreeRoot"], [])
        in_the_page = pdf.parent.name == "sheets" or "-cards-" in pdf.name  # a booklet's is in its margin: no figure
        assert figures == ([f"QR code of {url}"] * len(figures) if in_the_page else []), (pdf.name, figures)
        assert figures or not in_the_page, pdf.name


def test_the_imprint_runs_into_nothing_and_stays_off_the_papers_edge(homebrew_build, fixture_site, read_pdfs):
    build = homebrew_build / "build"
    ids = declared(homebrew_build)
    for pdf, read in read_pdfs(printouts(build)).items():
        ruleset = ruleset_of(pdf, ids)
        with_code = check_clear(pdf, [expected_label(homebrew_build, ruleset), fixture_site + page_of(pdf, ruleset)])
        pages = len(read.pages)
        assert with_code == (0 if pdf.name.endswith("-cards-letter.pdf") else pages), pdf.name


# -- the samples: no address set -----------------------------------------------------------------------------------
def test_without_a_site_address_the_samples_print_the_rules_date_and_no_link(sample_build, read_pdfs):
    assert not (ROOT / "rulepress.yaml").exists()  # the samples have no published site
    ids = declared(ROOT)
    pdfs = printouts(sample_build)
    assert len(pdfs) > 40
    for pdf, read in read_pdfs(pdfs).items():
        label = expected_label(ROOT, ruleset_of(pdf, ids), SAMPLE_EPOCH)
        for number, page in enumerate(read.pages, 1):
            text = normalise(page.text)
            assert label in text, f"{pdf.name} p. {number} does not say `{label}`"
            assert ".html" not in text and "index.html" not in text, f"{pdf.name} p. {number} prints a link"


def test_without_a_site_address_no_qr_code_and_the_date_runs_into_nothing(sample_build):
    ids = declared(ROOT)
    for pdf in printouts(sample_build):
        assert check_clear(pdf, [expected_label(ROOT, ruleset_of(pdf, ids), SAMPLE_EPOCH)]) == 0, (
            f"{pdf.name} has an image"
        )
