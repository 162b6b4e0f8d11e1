"""A build that keeps the last build's PDFs (`--only site`) says which of them are out of date: those that print
what changed, no others.

The project is the homebrew fixture (`melee`, its overlay `melee_house`), its sheets and handouts made for real as
HTML; the stand-ins (tests/pipeline/stand_ins.py) render them and build the sites. What each PDF prints, read from
the fixture's YAML: the rule `melee` (body "A cavalryman scores {value}`cavalry_score`.") is printed in the booklets
(`handout`) of both rulesets, the overlay's inheriting it, and on no sheet (the sheets print the wound chart, and on
the quick reference the values and lookups marked for it). `cavalry_score` is marked `quick_reference: true`: both
quick references print it, the overlay's as its house value beside the text's ("2 (house rule; the text: 1½)"),
and so do both booklets; the wound sheets do not.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from stand_ins import build, summary_line

import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import pipeline
from generator.render.handouts.jobs import handout_jobs
from generator.render.sheets.jobs import sheet_jobs
from generator.source.project import load_project

FIXTURE = Path(__file__).parents[1] / "fixtures" / "homebrew"
PAPERS = ("a4", "letter")
BOOKLETS = (
    "the handouts `melee-handout-a4.pdf`, `melee-handout-letter.pdf`, `melee_house-handout-a4.pdf` and "
    "`melee_house-handout-letter.pdf`"
)
QUICK_REFERENCES = (
    "the sheets `melee-quick-reference-a4.pdf`, `melee-quick-reference-letter.pdf`, "
    "`melee_house-quick-reference-a4.pdf` and `melee_house-quick-reference-letter.pdf`"
)


def note(outputs: str, kind: str) -> str:
    return (
        f"note: {outputs} kept from the last build are out of date (their rules, templates or Rulepress changed "
        f"since): `rulepress build --only {kind}` makes them anew"
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> dict:
    """Where the module's tests build the club, one after another, and a copy of it as its first build left it."""
    return {"folder": tmp_path_factory.mktemp("club"), "built": None}


@pytest.fixture
def project(home) -> Path:
    """The project folder of stand_ins, empty, at the same path for every test of the module: a build's keys name
    its project's files by path, so a copy of a build made there is the build a test would make there."""
    root = home["folder"] / "project"
    shutil.rmtree(root, ignore_errors=True)
    (root / "rules_src").mkdir(parents=True)
    return root


@pytest.fixture
def club(project, renderers, monkeypatch, home):
    """The homebrew project, its PDFs' pages made by the real sheets and handouts, loaded anew each build, and built
    once with every output: by the module's first test, the others given a copy of that build (project and all)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the date the printouts give: not the day of an edit
    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", sheet_jobs)
    monkeypatch.setattr("generator.pipeline.plan.handout_jobs", handout_jobs)

    def checker(root):
        loaded, diagnostics = load_project(root)
        renderers.project = loaded
        return SimpleNamespace(ok=True, diagnostics=diagnostics, project=loaded), []

    renderers.checker = checker
    if home["built"] is None:
        shutil.copytree(FIXTURE, project, dirs_exist_ok=True)
        assert build(project, renderers) == 0
        home["built"] = shutil.copytree(project, home["folder"] / "built", symlinks=True)
    else:
        shutil.rmtree(project)
        shutil.copytree(home["built"], project, symlinks=True)
    return project


def edit(project: Path, old: str, new: str) -> None:
    path = project / "rules_src" / "melee" / "ruleset.yaml"
    source = path.read_text(encoding="utf-8")
    assert source.count(old) == 1, old
    path.write_text(source.replace(old, new), encoding="utf-8")


def notes(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("note:")]


def test_a_rule_printed_on_no_sheet_leaves_the_kept_sheets_up_to_date(club, renderers, capsys, monkeypatch):
    judged, judging = [], pipeline.plan.Builder._keys_now
    monkeypatch.setattr(
        pipeline.plan.Builder,
        "_keys_now",
        lambda self, kind, ids: judged.append((kind, sorted(ids))) or judging(self, kind, ids),
    )
    edit(club, "A cavalryman scores", "A mounted man scores")
    capsys.readouterr()
    assert build(club, renderers, only=["site"], audience="player") == 0
    assert notes(capsys.readouterr().out) == [note(BOOKLETS, "handouts")]
    assert judged == [("sheets", ["melee", "melee_house"]), ("handouts", ["melee", "melee_house"])]
    judged.clear()
    assert build(club, renderers, only=["site"], audience="player") == 0  # said again: they are still kept
    assert notes(capsys.readouterr().out) == [note(BOOKLETS, "handouts")]
    # the sheets, found up to date, took the new rules' key: only the handouts, still out of date, are judged again
    assert judged == [("handouts", ["melee", "melee_house"])]
    assert build(club, renderers) == 0  # what the note said, a build that makes them finds
    out = capsys.readouterr().out
    assert "sheets: 0 written, 8 unchanged; handouts: 4 written, 8 unchanged" in summary_line(out)
    assert notes(out) == []


def test_a_value_printed_on_a_sheet_leaves_that_sheet_out_of_date(club, renderers, capsys):
    edit(club, "value: 1½, label: What a cavalryman", "value: 2½, label: What a cavalryman")
    capsys.readouterr()
    assert build(club, renderers, only=["site"], audience="player") == 0
    assert notes(capsys.readouterr().out) == [note(BOOKLETS, "handouts"), note(QUICK_REFERENCES, "sheets")]
    assert build(club, renderers, only=["sheets"]) == 0
    assert sorted(renderers.pdfs) == sorted(
        f"sheets/{ruleset}-quick-reference-{paper}.pdf" for ruleset in ("melee", "melee_house") for paper in PAPERS
    )
    assert notes(capsys.readouterr().out) == [note(BOOKLETS, "handouts")]  # the sheets made, the handouts kept


def test_a_new_site_address_makes_every_printout_anew(club, renderers, capsys):
    """Every printout prints its page's address on the site (the fixture's rulepress.yaml `url:`): a build after
    the address changed kept every PDF with the old one, as its rules were unchanged, where a clean build prints the
    new."""
    settings = club / "rulepress.yaml"
    text = settings.read_text(encoding="utf-8")
    assert text.count("https://club.example.org/rules") == 1
    settings.write_text(text.replace("https://club.example.org/rules", "https://club.example.org/games"), "utf-8")
    capsys.readouterr()
    assert build(club, renderers) == 0
    assert "sheets: 8 written, 0 unchanged; handouts: 12 written, 0 unchanged" in summary_line(capsys.readouterr().out)


def test_a_newer_rulepress_leaves_every_kept_printout_out_of_date(club, renderers, capsys, monkeypatch):
    """Nothing of the rules changed, but the generator that lays them out did: every PDF kept is said out of date."""
    monkeypatch.setattr("generator.pipeline.plan.code_hash", lambda: "a newer Rulepress")
    capsys.readouterr()
    assert build(club, renderers, only=["site"], audience="player") == 0
    handouts = [f"`melee-{kind}-{paper}.pdf`" for kind in ("cards", "handout", "roster") for paper in PAPERS]
    sheets = [f"`{id}-{sheet}-{paper}.pdf`" for id, sheet in QUICK_AND_WOUND for paper in PAPERS]
    assert notes(capsys.readouterr().out) == [  # 12 handouts and 8 sheets: the fixture's whole build, six named
        note(f"the handouts {', '.join(handouts)} and 6 more", "handouts"),
        note(f"the sheets {', '.join(sheets)} and 2 more", "sheets"),
    ]


QUICK_AND_WOUND = (("melee", "quick-reference"), ("melee", "wound-sheet"), ("melee_house", "quick-reference"))
