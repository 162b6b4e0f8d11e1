"""`papers:` in rulepress.yaml: a project that prints on US Letter alone gets every printout on US Letter alone, and
its site links those and names that size. `rulepress new sample`, `papers: [letter]`, a build for the players, read
back: the PDFs' pages with pypdf, the site's HTML as written. Expected names and sizes are written here by hand."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdf
import pytest

from generator.cli import main

RULESETS = ("sample", "sample_house_rules")
SHEETS = ("quick-reference", "to-wound", "victory-points")  # the players' sheets of `rulepress new sample`
HANDOUTS = ("handout", "roster", "cards")
LETTER_PT = (612, 792)  # 8.5 by 11 inches
TURN = "      Each turn has two phases: first every model may move, then the models in contact fight.\n"
QUICK_REFERENCE_LINK = "      Print {pdf}`the quick reference <sheets/sample-quick-reference-letter.pdf>` first."


@pytest.fixture(scope="module")
def letter_alone(once_a_run, renders) -> Path:
    """The new project on US Letter alone, built for the players once a run; only read."""

    def make(shared: Path) -> None:
        folder = shared / "project"
        shutil.rmtree(folder, ignore_errors=True)  # what a failed first try left
        folder.mkdir()
        assert main(["-C", str(folder), "new", "sample"]) == 0
        (folder / "rulepress.yaml").write_text("papers: [letter]\n", encoding="utf-8")
        rules = folder / "rules_src" / "sample" / "rules.yaml"
        text = rules.read_text(encoding="utf-8")
        assert TURN in text
        rules.write_text(text.replace(TURN, TURN + QUICK_REFERENCE_LINK + "\n", 1), encoding="utf-8")
        assert main(["-C", str(folder), "build", "--audience", "player"]) == 0

    return once_a_run("letter-alone", make) / "project" / "build"


def test_every_printout_is_made_on_us_letter_alone(letter_alone):
    made = {path.relative_to(letter_alone).as_posix() for path in letter_alone.glob("*/*.pdf")}
    assert made == {
        f"{folder}/{ruleset}-{kind}-letter.pdf"
        for folder, kinds in (("sheets", SHEETS), ("handouts", HANDOUTS))
        for ruleset in RULESETS
        for kind in kinds
    }
    for name in sorted(made):
        pages = pypdf.PdfReader(letter_alone / name).pages
        assert {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in pages} == {LETTER_PT}, name


def test_the_site_links_the_us_letter_printouts_and_names_that_size_alone(letter_alone):
    site = letter_alone / "site"
    for ruleset in RULESETS:
        page = (site / ruleset / "index.html").read_text(encoding="utf-8")
        linked = set(re.findall(r'href="\.\./printouts/([a-z]+/[a-z_-]+\.pdf)"', page))
        assert linked == {
            f"{folder}/{ruleset}-{kind}-letter.pdf"
            for folder, kinds in (("sheets", SHEETS), ("handouts", HANDOUTS))
            for kind in kinds
        }
        assert page.count(">US Letter (PDF)</a>") == len(linked) and "A4" not in page
        builder = (site / ruleset / "army-builder.html").read_text(encoding="utf-8")
        assert f'"href": "../printouts/handouts/{ruleset}-cards-letter.pdf"' in builder
    sheets = (site / "sheets" / "index.html").read_text(encoding="utf-8")
    assert "Each sheet fits one page of US Letter." in sheets


def test_a_rule_links_the_us_letter_printout_it_names(letter_alone):
    page = (letter_alone / "site" / "sample" / "turn.html").read_text(encoding="utf-8")
    href = "../printouts/sheets/sample-quick-reference-letter.pdf"
    assert f'href="{href}">the quick reference (PDF)</a>' in page
    assert (letter_alone / "site" / "sample" / href).is_file()
