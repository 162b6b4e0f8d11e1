"""`rulepress new`, then a full build (every output, both audiences) in an empty folder, both run from inside it
as an author would (not from the repository), read back for real: the PDFs with pypdf, the site's HTML as written.
Raw HTML is put into the new project's data first, so the same build shows that the site prints it as text.
Expected names and strings are written here by hand.
"""

from __future__ import annotations

import hashlib
import io
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pypdf
import pytest
from helpers import ROOT

from generator.cli import main

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"
SIZES = ("a4", "letter")
# What `rulepress new sample` must lead to: every sheet and handout of the sample and its house-rules overlay.
SHEETS = ("quick-reference", "to-wound", "victory-points", "victory-points-gm")
HANDOUTS = ("handout", "handout-gm", "roster", "cards")
RULESETS = ("sample", "sample_house_rules")


def expected(folder: str, kinds: tuple[str, ...]) -> set[str]:
    return {f"{folder}/{ruleset}-{kind}-{size}.pdf" for ruleset in RULESETS for kind in kinds for size in SIZES}


_READERS: dict[str, pypdf.PdfReader] = {}  # by the SHA-256 of the PDF's bytes
_TEXTS: dict[str, str] = {}


def reader(path: Path) -> pypdf.PdfReader:
    """``path`` opened by pypdf: once a worker for the same bytes, however many pages link it and tests read it (a
    site's copy of a printout is the build's own file, byte for byte)."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _READERS:
        _READERS[digest] = pypdf.PdfReader(io.BytesIO(data))
    return _READERS[digest]


def pdf_text(path: Path) -> str:
    """Every page's text, spaces collapsed: extracted once a worker for the same bytes."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _TEXTS:
        _TEXTS[digest] = " ".join(" ".join(page.extract_text().split()) for page in reader(path).pages)
    return _TEXTS[digest]


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def repository() -> tuple:
    """Modification time and content hash of every default template, and the names at the repository's top."""
    templates = ROOT / "templates"
    return {
        p.relative_to(templates).as_posix(): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(templates.rglob("*"))
        if p.is_file()
    }, sorted(p.name for p in ROOT.iterdir())


@pytest.fixture(scope="module")
def project(once_a_run, renders) -> Path:
    """The new project, built once a run for every test here, whichever xdist worker runs them."""

    def make(shared: Path) -> None:
        folder = shared / "project"
        shutil.rmtree(folder, ignore_errors=True)  # what a failed first try left
        folder.mkdir()
        before = repository()
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(folder)
            assert main(["-C", str(folder), "new", "sample"]) == 0
            sample = folder / "rules_src" / "sample"
            replace_once(sample / "magic.yaml", "result: No spell}", f'result: "{IMG} No spell"}}')
            replace_once(sample / "melee.yaml", "label: Roll needed to hit,", f'label: "Roll {SCRIPT} needed to hit",')
            assert main(["-C", str(folder), "build"]) == 0
        assert repository() == before  # the package's default templates were read, never written

    return once_a_run("new-sample", make) / "project"


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.downloads: list[str] = []
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "a" and "pdf-download" in (attrs.get("class") or "").split():
            self.downloads.append(attrs["href"])


def parsed(page: Path) -> _Links:
    links = _Links()
    links.feed(page.read_text(encoding="utf-8"))
    return links


def test_new_then_a_full_build_writes_every_output(project):
    build = project / "build"
    assert (build / "site" / "index.html").is_file() and (build / "site-gm" / "index.html").is_file()
    written = {p.relative_to(build).as_posix() for p in build.glob("*/*.pdf")}
    assert written == expected("sheets", SHEETS) | expected("handouts", HANDOUTS)
    for name in written:
        assert len(reader(build / name).pages) >= 1
    quick = pdf_text(build / "sheets/sample-quick-reference-a4.pdf")
    assert "Quick reference Sample" in quick
    assert "worked out exactly from the rules" in quick  # the default sheet footer
    assert "Sample" in pdf_text(build / "handouts/sample-handout-a4.pdf")
    assert "Sample" in (build / "site" / "index.html").read_text(encoding="utf-8")
    assert not (project / "templates").exists()  # the defaults were read, not copied in


@pytest.mark.parametrize("site, audience", [("site", "player"), ("site-gm", "gm")])
def test_every_pdf_download_link_opens_a_pdf_of_its_audience(project, site, audience):
    build = project / "build"
    linked = set()
    for page in (build / site).rglob("*.html"):
        for href in parsed(page).downloads:
            target = (page.parent / href).resolve()
            assert target.is_file(), f"{page.relative_to(build)} links {href}, which the build did not write"
            assert reader(target).pages
            inside = target.relative_to((build / site).resolve() / "printouts").as_posix()  # the site's own copy
            assert target.read_bytes() == (build / inside).read_bytes()
            linked.add(inside)
    everything = expected("sheets", SHEETS) | expected("handouts", HANDOUTS)
    players = {name for name in everything if "-gm-" not in name}
    assert linked == (players if audience == "player" else everything)


@pytest.mark.parametrize("site", ["site", "site-gm"])
def test_raw_html_in_the_data_is_printed_as_text_never_as_markup(project, site):
    pages = sorted((project / "build" / site).rglob("*.html"))
    text = "".join(page.read_text(encoding="utf-8") for page in pages)
    assert IMG not in text and SCRIPT not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in text
    for page in pages:
        tags = parsed(page).tags
        assert not [attrs for tag, attrs in tags if "onerror" in attrs], page


def test_a_target_column_prints_its_rolls_with_their_plus_on_every_output(project):
    """The sample's armour column is a `target`: its source writes "armour 4+" and "armour 5+", and so does every
    output, though the model keeps the numbers 4 and 5 to compute with."""
    build = project / "build"
    page = " ".join(re.sub(r"<[^>]+>", " ", (build / "site/sample/warriors.html").read_text(encoding="utf-8")).split())
    assert "Warrior 2 4+ 5" in page and "Archer 1 5+ 6" in page
    assert "Warrior 2 4+ 5" in pdf_text(build / "sheets/sample-quick-reference-a4.pdf")
    assert "Warrior 2 4+ 5" in pdf_text(build / "handouts/sample-handout-a4.pdf")
    cards = pdf_text(build / "handouts/sample-cards-a4.pdf")
    assert "Warrior A 2 Armour 4+" in cards and "Archer A 1 Armour 5+" in cards
    builder = (build / "site/sample/army-builder.html").read_text(encoding="utf-8")
    assert '"stats": ["2", "4+"]' in builder and '"stats": ["1", "5+"]' in builder
