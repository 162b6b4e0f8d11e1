"""Handouts: booklets, rosters and cards rendered to PDF and read back.

Every handout is rendered once per run (both audiences, both paper sizes, by the
shared `rulepress build`: tests/conftest.py ``sample_build``), then read back with pypdf: page counts and sizes, the
contents' page numbers against the pages where the parts really start, roster
totals against ``army_points``, and game-master material present in the gm
handout and absent from every player output. Broken army lists are refused by the
checks before anything renders; resources outside the project are refused with a
located diagnostic; two renders of the same sources are byte-identical.
"""

from __future__ import annotations

import hashlib
import html
import math
import os
import re
import shutil
from pathlib import Path

import pytest
from helpers import make_project, sample_check, sample_project
from pypdf import PdfReader

from generator.cli import main
from generator.diagnostics import Code, Location
from generator.mechanics.armies import army_points
from generator.model.entries import visible_to
from generator.render.handouts.cards import PAPERS, cards, sheet_layout
from generator.render.handouts.content import handout_context, visible
from generator.render.handouts.jobs import handout_jobs, output_name
from generator.render.pdf import ResourceOutside, render_all, render_pdf
from generator.render.present import gm_only
from generator.render.prose import Prose
from generator.source.project import Project
from generator.validate import check_project

ROOT = Path(__file__).resolve().parents[3]
POINTS_PER_MM = 72 / 25.4
PAGE_SIZES = {"a4": (210, 297), "letter": (215.9, 279.4)}


def normalise(text: str) -> str:
    return " ".join(text.replace("\u2010", "-").replace("\u00ad", "").split())


def page_texts(path: Path) -> list[str]:
    return [normalise(page.extract_text()) for page in PdfReader(path).pages]


def loadable_project() -> Project:
    """Every sample ruleset as the process loaded it (helpers.sample_project: the model `rulepress check` reads, and
    gives back as its project), without the project's settings, as the other process of
    test_html_has_nothing_time_or_order_dependent makes it. A ruleset that does not load is an error here."""
    loaded, diagnostics = sample_project()
    assert not diagnostics.errors, [d.format() for d in diagnostics.errors]
    assert any(r.id == "rampant_hex" for r in loaded.rulesets), "rampant_hex must load for these tests"
    return Project(ROOT.resolve(), loaded.rulesets)


@pytest.fixture(scope="module")
def project() -> Project:
    return loadable_project()


@pytest.fixture(scope="module")
def made(project) -> dict[str, list]:
    """audience -> every handout job of the project for it, its HTML made (no PDF) without SOURCE_DATE_EPOCH: once
    for the tests that read it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("SOURCE_DATE_EPOCH", raising=False)
        return {audience: handout_jobs(project, Path("/out"), audience) for audience in ("player", "gm")}


@pytest.fixture(scope="module")
def rendered(project, sample_build) -> dict[str, dict[str, Path]]:
    """audience -> file name -> rendered PDF, for every job of every loadable ruleset, as `rulepress build`
    rendered it (both audiences' handouts share one folder there: a game-master's file is named -gm-)."""
    found = {}
    for audience in ("player", "gm"):
        jobs = handout_jobs(project, sample_build / "handouts", audience)
        assert all(job.target.is_file() for job in jobs), [job.target.name for job in jobs if not job.target.is_file()]
        found[audience] = {job.target.name: job.target for job in jobs}
    return found


@pytest.fixture(scope="module")
def read(rendered, read_pdfs) -> dict:
    """File name -> what pypdf reads from it (tests/pdf_text.py: once per run)."""
    paths = [path for files in rendered.values() for path in files.values()]
    return {path.name: pdf for path, pdf in read_pdfs(paths).items()}


@pytest.fixture(scope="module")
def texts(read) -> dict[str, list[str]]:
    """File name -> normalised text of each page."""
    return {name: [normalise(page.text) for page in pdf.pages] for name, pdf in read.items()}


# -- which files ----------------------------------------------------------------------------------
# the only outputs where the game-master sees more than the players (written by hand from rules_src:
# ordo_ineptus alone has gm-only entries, a hidden task and gm notes, and none of them is on a roster or card)
GM_OUTPUTS = {"ordo_ineptus": ["handout"]}


def test_every_ruleset_gets_a_booklet_and_rosters_and_cards_where_it_has_them(project, rendered):
    for ruleset in project.rulesets:
        kinds = (
            ["handout"]
            + (["roster"] if ruleset.armies or ruleset.profiles else [])
            + (["cards"] if cards(ruleset, "player") else [])
        )
        for kind in kinds:
            for paper in PAPERS:
                assert output_name(ruleset.id, kind, "player", paper) in rendered["player"]
    assert sorted(rendered["gm"]) == sorted(
        output_name(id, kind, "gm", paper)
        for id, kinds in GM_OUTPUTS.items()
        if id in [r.id for r in project.rulesets]
        for kind in kinds
        for paper in PAPERS
    )
    assert "rampant_hex-roster-a4.pdf" in rendered["player"]
    assert "rampant_hex-cards-letter.pdf" in rendered["player"]
    assert "ordo_ineptus-handout-gm-a4.pdf" in rendered["gm"] or "ordo_ineptus" not in [r.id for r in project.rulesets]
    assert all("-gm-" in name for name in rendered["gm"])
    assert not any("-gm" in name for name in rendered["player"])


def test_page_sizes_and_counts(project, rendered, read, texts):
    for files in rendered.values():
        for name in files:
            paper = name.removesuffix(".pdf").rsplit("-", 1)[1]
            width, height = read[name].pages[0].width, read[name].pages[0].height
            assert (round(width / POINTS_PER_MM, 1), round(height / POINTS_PER_MM, 1)) == PAGE_SIZES[paper], name
    for ruleset in project.rulesets:
        for audience in ("player", "gm"):
            for paper in PAPERS:
                found = cards(ruleset, audience)
                if output_name(ruleset.id, "cards", audience, paper) in texts:
                    sheet = texts[output_name(ruleset.id, "cards", audience, paper)]
                    notes = sheet[-1].startswith(NOTES_PAGE)  # a page of house rules' reasons, after the cards
                    assert len(sheet) == 2 * math.ceil(len(found) / 9) + notes  # each sheet of fronts, then its backs
    rampant = texts["rampant_hex-cards-a4.pdf"]
    assert (
        len(rampant) == 6
    )  # 6 spells, 8 heroes and 7 troop types: 21 cards, nine to a sheet, each sheet with its backs


NOTES_PAGE = "Notes to these cards"
# rules_src/rampant_hex_house/ruleset.yaml: the one house value a card prints (riders' move), and why it changed
RIDERS_REASON = (
    "The club plays on a board of 14 x 10 smaller hexes rather than the author's 10 x 8 of 7 cm hexes, so riders move "
    "one hex further to keep their edge over foot across the wider board. Foot keep the text's move."
)


def test_a_house_rule_s_reason_prints_after_the_cards_called_by_number(texts):
    """At the foot of a card sheet the reason would run over the crop marks (and, on US Letter, past the margin a
    printer prints): the card calls it by number and a page after the cards gives it, once. (pypdf reads a list's
    numbers after its text.)"""
    for paper in PAPERS:
        pages = texts[output_name("rampant_hex_house", "cards", "player", paper)]
        notes = f"{NOTES_PAGE} Blood, Guts and Rampant Hex — club house rules {RIDERS_REASON}"
        assert pages[-1].startswith(notes) and pages[-1].endswith(" 1."), paper.key  # and the imprint between
        assert [RIDERS_REASON[:40] in page for page in pages].count(True) == 1
        assert sum("Riders move up to 4 hexes (house rule; the text: 3 hexes)1, other units" in p for p in pages) == 1
        base = texts[output_name("rampant_hex", "cards", "player", paper)]
        assert not any(NOTES_PAGE in page for page in base)  # the text's own rules: no house reasons, no notes


def test_a_booklet_gives_a_house_rule_s_reason_once_and_later_calls_name_its_page(texts):
    """The riders' house move is printed six times in the house booklet: its reason was a footnote six times, twice
    on one page. It is a footnote once; every later mark says on which page it is."""
    for audience, paper in [(a, p) for a in ("player", "gm") for p in PAPERS]:
        name = output_name("rampant_hex_house", "handout", audience, paper)
        if name not in texts:
            continue
        pages = texts[name]
        given = [number for number, page in enumerate(pages, 1) if RIDERS_REASON[:40] in page]
        once = sum(page.count("(house rule; the text: 3 hexes)1") for page in pages)  # its footnote's call
        referred = [int(n) for page in pages for n in re.findall(r"the text: 3 hexes; reason on p\. (\d+)\)", page)]
        assert once == len(given) == 1 and referred == [given[0]] * 5, (name, given, referred)


def test_every_roster_sheet_keeps_to_its_own_page_on_both_papers(project, texts):
    """A blank roster per troop table and a roster per army list, each on one page with its reference: the US
    Letter blank roster once spilled its reference onto a second page. Counted from rules_src: Rampant Hex has one
    troop table and one army list (`a 30 point force`)."""
    rosters = {name: pages for name, pages in texts.items() if "-roster-" in name}
    assert len(rosters) >= 4  # the base and its house rules, A4 and US Letter
    for name, pages in rosters.items():
        ruleset = project.ruleset(name.split("-roster-")[0])
        audience = "gm" if "-roster-gm-" in name else "player"
        sheets = len([m for m in (*ruleset.profiles, *ruleset.armies) if visible_to(m, audience)])
        assert len(pages) == sheets, name
        head = f"{ruleset.title.upper()} · ARMY ROSTER"
        assert all(page.startswith(head) for page in pages), (name, [page[:60] for page in pages])


# -- contents -------------------------------------------------------------------------------------
def contents_pages(pages: list[str]) -> int:
    """The index of the contents' last page: the one before the introduction, the first part they list (a booklet
    with no gaps, examples or source text has no note closing them)."""
    listed = re.search(r"Introduction[ .]*?(\d+)", pages[1])
    return int(listed[1]) - 2


def test_contents_page_numbers_are_where_the_parts_start(project, texts):
    for ruleset in project.rulesets:
        for audience in ("player", "gm"):
            context = handout_context(ruleset, audience)
            for paper in PAPERS:
                if output_name(ruleset.id, "handout", audience, paper) not in texts:
                    continue  # no game-master's version where the game-master sees nothing more
                pages = texts[output_name(ruleset.id, "handout", audience, paper)]
                last = contents_pages(pages)
                contents = " ".join(pages[1 : last + 1])
                expected = [("", "Introduction")] + [(p["number"], p["title"]) for p in context["parts"]]
                labels = [""] + [p["label"] for p in context["parts"]]
                for (number, title), label in zip(expected, labels):
                    prefix = f"{re.escape(number)} " if number else ""
                    listed = re.search(rf"{prefix}{re.escape(normalise(title))}[ .]*?(\d+)", contents)
                    assert listed, (ruleset.id, title)
                    page = int(listed[1])
                    marker = re.compile(rf"\b{re.escape(label)}(?!\w)", re.I) if label else re.compile(re.escape(title))
                    start = next(i for i in range(last + 1, len(pages)) if marker.search(pages[i])) + 1
                    assert start == page, (
                        f"{ruleset.id} {audience} {paper.key}: {title} listed on {page}, starts on {start}"
                    )
                    assert normalise(title) in pages[page - 1]


def test_parts_run_in_play_order_with_spells_after_their_table(project):
    rules = project.ruleset("rampant_hex")
    parts = handout_context(rules, "player")["parts"]
    assert [p["title"] for p in parts] == [c.title for c in rules.chapters] + [
        "Numbers",
        "Glossary",
        "Roll tables",
        "Index",
    ]  # the values, as an appendix
    magic = next(p for p in parts if p["key"] == "magic")
    kinds = [(b["kind"], b.get("anchor", "")) for b in magic["blocks"]]
    spells_table = kinds.index(("tables", "tables-spells"))
    assert [k for k, _ in kinds[spells_table + 1 : spells_table + 7]] == ["spells"] * 6
    assert kinds.index(("rules", "rules-using-magic")) < kinds.index(("tables", "tables-scroll-appeal"))


def test_tables_print_exact_chances_gaps_and_checked_examples(texts):
    rampant = " ".join(texts["rampant_hex-handout-a4.pdf"])
    assert "1/3 (33.3%)" in rampant and "1/6 (16.7%)" in rampant  # activations: 1-2 is a third
    assert "5/6 (83.3%)" in rampant  # faulty scroll: 2+ works
    assert "not given" in rampant and "not given in the source" in rampant
    # a worked example prints as its sentence, marked checked; its code never prints
    assert "Three attack dice against ARMOUR 4 hit exactly once four times in nine." in rampant
    assert "✓" not in rampant  # the booklet says once that its examples are checked
    assert "hits_distribution" not in rampant and ">>>" not in rampant
    assert "Source: Blood, Guts and Rampant Hex, CHOOSING AN ARMY" in rampant
    assert "Move The unit moves in any direction" in rampant  # MyST definition list, not ": The unit"


# -- rosters --------------------------------------------------------------------------------------
def test_roster_totals_are_the_army_points(project, texts):
    for ruleset in project.rulesets:
        for army in ruleset.armies:
            for audience in ("player", "gm"):
                if not visible(army, audience) or output_name(ruleset.id, "roster", audience, PAPERS[0]) not in texts:
                    continue  # no gm roster where the gm sees nothing more
                for paper in PAPERS:
                    text = " ".join(texts[output_name(ruleset.id, "roster", audience, paper)])
                    total = army_points(ruleset, army)
                    assert f"Total {total} points Agreed {army.agreed_points} points" in text
                    assert f"Left unspent {army.agreed_points - total} points" in text
    rampant = " ".join(texts["rampant_hex-roster-a4.pdf"])
    assert "2× Light foot (4 pts)" in rampant and "Total 30 points" in rampant
    assert "Never more heroes than half the units in the force, rounding down" in rampant
    assert (
        "The special rules of Light foot, Heavy foot, Skirmishers, Monsters, Levy: not given in the source." in rampant
    )


def copy_project(tmp_path: Path, ruleset: str = "rampant_hex") -> Path:
    root = tmp_path / "project"
    shutil.copytree(ROOT / "rules_src" / ruleset, root / "rules_src" / ruleset)
    shutil.copytree(ROOT / "templates", root / "templates")
    return root


ARMY_WITH_EVERYTHING = """\
armies:
  thirty_point_force:
    title: A 30 point force
    matrix: troops
    chapter: army
    agreed_points: 30
    units:
      - {troop: light_foot, count: 2, points: 8}
      - {troop: heavy_foot, count: 2, points: 10}
      - {troop: skirmishers, count: 1, points: 4}
      - {troop: monsters, count: 1, points: 6}
      - {troop: levy, count: 1, points: 2}
    source: {section: CHOOSING AN ARMY, quote: "For example a 30 point force may comprise"}
  warband:
    title: A 50 point warband
    matrix: troops
    agreed_points: 50
    units:
      - {troop: heavy_foot, count: 2, heroes: [warrior_hero], spells: [dolcivanians_domee]}
      - {troop: monsters, count: 1, upgrades: [command_unit], heroes: [brave_commander]}
      - {troop: light_foot, count: 3}
      - {troop: levy, count: 1}
    extras: [scroll_appeal]
"""


@pytest.mark.build  # renders for real in its body
def test_a_roster_with_heroes_scrolls_and_upgrades(tmp_path):
    root = copy_project(tmp_path)
    (root / "rules_src/rampant_hex/armies.yaml").write_text(ARMY_WITH_EVERYTHING, encoding="utf-8")
    result = check_project(root, only="rampant_hex")
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    rules = result.project.ruleset("rampant_hex")
    warband = rules.get("armies", "warband")
    assert army_points(rules, warband) == 2 * (5 + 2) + (6 + 3 + 2) + 3 * 4 + 2 + 4 == 43
    job = next(
        j
        for j in handout_jobs(result.project, tmp_path / "out", "player")
        if j.target.name == "rampant_hex-roster-a4.pdf"
    )
    render_all([job], root, workers=2)
    text = " ".join(page_texts(job.target))
    assert "Total 43 points Agreed 50 points Left unspent 7 points" in text
    for shown in (
        "+ Command unit (3 pts)",
        "+ Warrior hero, low level hero (2 pts)",
        "Scrolls: Dolcivanians domee of protectieon",
        "Appeal to the S.T.P.W.T. for scrolls",
        "SPELL Dolcivanians domee of protectieon",
        "HERO The brave Commander",
        "The unit adds 1 to its Armour stat.",
    ):
        assert shown in text, shown
    assert "✔ Never more heroes than half the units in the force, rounding down" in text  # 3 heroes, 7 units
    assert "✔ One command unit per 30 full points of troops" in text  # 30 points of troops


BROKEN_ARMIES = {  # case -> (replacements in armies.yaml, the line the error points at: the value, or the last part
    # of the list the limit counts)
    "over-points": ([("agreed_points: 30", "agreed_points: 25")], "agreed_points: 25"),
    "too-many-heroes": (
        [
            ("light_foot, count: 2, points: 8}", "light_foot, count: 2, heroes: [warrior_hero]}"),
            ("heavy_foot, count: 2, points: 10}", "heavy_foot, count: 2, heroes: [brave_commander]}"),
        ],
        "- {troop: heavy_foot, count: 2, heroes: [brave_commander]}",
    ),
    "second-appeal": (
        [("    units:", "    extras: [scroll_appeal, scroll_appeal]\n    units:")],
        "extras: [scroll_appeal, scroll_appeal]",
    ),
}


ERROR_LINE = re.compile(r"^(\S+):(\d+):\d+: error\[([a-z-]+)\]", re.MULTILINE)


@pytest.mark.parametrize("case", BROKEN_ARMIES)
def test_a_list_that_breaks_a_limit_is_refused_before_rendering(tmp_path, capsys, case):
    replacements, located = BROKEN_ARMIES[case]
    root = copy_project(tmp_path)
    armies = root / "rules_src/rampant_hex/armies.yaml"
    text = armies.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new)
    if case != "over-points":  # make room in the points, so only the limit is broken
        text = text.replace("agreed_points: 30\n    total: 30", "agreed_points: 50")
    armies.write_text(text, encoding="utf-8")
    line = text.splitlines().index(next(l for l in text.splitlines() if l.strip() == located)) + 1
    out = tmp_path / "build"
    assert main(["-C", str(root), "build", "--only", "handouts", "--out", str(out)]) == 1
    told = capsys.readouterr().err  # the build's check: every error it found, `path:line:col: error[code]: ...`
    errors = [(Code(code), path, int(at)) for path, at, code in ERROR_LINE.findall(told)]
    code = Code.OVER_POINTS if case == "over-points" else Code.LIMIT_BROKEN
    assert errors == [(code, "rules_src/rampant_hex/armies.yaml", line)], told
    assert not list(out.rglob("*.pdf"))


# -- audiences ------------------------------------------------------------------------------------
def plain(markdown_html) -> str:
    return normalise(html.unescape(re.sub(r"<[^>]+>", " ", str(markdown_html))))


def gm_strings(ruleset) -> list[str]:
    """What only the game-master may read: names of gm entries, hidden victory points, gm notes."""
    found = []
    for _section, entry in ruleset.all_entries():
        if gm_only(entry):
            found.append(next(getattr(entry, f) for f in ("title", "name", "term") if getattr(entry, f, "")))
    for matrix in ruleset.profiles:
        found += [row.name for row in matrix.rows if gm_only(row)]
    prose = Prose(ruleset, "gm")
    found += [plain(prose.html(rule.gm_note)) for rule in ruleset.rules if rule.gm_note]
    return [normalise(s) for s in found if s]


def test_gm_material_is_in_the_gm_handout_and_in_no_player_output(project, texts):
    checked = 0
    for ruleset in project.rulesets:
        secrets = gm_strings(ruleset)
        if not secrets:
            assert output_name(ruleset.id, "handout", "gm", PAPERS[0]) not in texts
            continue
        gm_text = " ".join(texts[output_name(ruleset.id, "handout", "gm", PAPERS[0])])
        players = {n: " ".join(t) for n, t in texts.items() if n.startswith(ruleset.id + "-") and "-gm-" not in n}
        assert players
        for secret in secrets:
            assert secret in gm_text, (ruleset.id, secret)
            for name, text in players.items():
                assert secret not in text, (name, secret)
            checked += 1
    if any(r.id == "ordo_ineptus" for r in project.rulesets):
        assert checked >= 3  # Hidden tasks, and two game-master's notes


GM_ENTRIES = """\
rules:
  secret_rule:
    title: The cellar door
    chapter: magic
    audience: gm
    body: Behind the cellar door waits the Ogre of Brunsfeld.
glossary:
  secret_term:
    term: Brunsfeld curse
    audience: gm
    definition: Whoever opens the cellar door is cursed.
spells:
  secret_spell:
    name: Whisper of Brunsfeld
    audience: gm
    effect: The Ogre wakes.
victory_points:
  secret_vp:
    name: Opening the cellar door
    kind: task
    hidden: true
    audience: gm
    points: 3
    condition: A unit ends a move in the cellar.
"""


@pytest.mark.build  # renders for real in its body
def test_gm_entries_of_every_kind_stay_out_of_player_outputs(tmp_path):
    root = copy_project(tmp_path)
    (root / "rules_src/rampant_hex/secrets.yaml").write_text(GM_ENTRIES, encoding="utf-8")
    text = (root / "rules_src/rampant_hex/rules.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "the {table}`spells` table for each scroll that arrives.",
        "the {table}`spells` table for each scroll that arrives (and see {rule}`secret_rule`).",
    )
    text = text.replace("    see_also: [ranged_attacks]", "    see_also: [ranged_attacks, secret_rule]")
    (root / "rules_src/rampant_hex/rules.yaml").write_text(text, encoding="utf-8")
    result = check_project(root, only="rampant_hex")
    # `check` refuses player text that names gm-only entries at the source...
    assert {d.code.code for d in result.diagnostics.errors} == {"gm-reference"}
    assert len(result.diagnostics.errors) == 2
    # ...and the renderers mask such names even so, should a project get this far.
    rules = result.project.ruleset("rampant_hex")
    secrets = gm_strings(rules) + [
        "Ogre",
        "Brunsfeld",
        "secret_rule",
        "secret-rule",
        "secret_vp",
        "secret-vp",
        "A unit ends a move in the cellar",
    ]
    assert {"The cellar door", "Brunsfeld curse", "Whisper of Brunsfeld", "Opening the cellar door"} <= set(secrets)
    player = handout_jobs(result.project, tmp_path / "player", "player")
    gm = handout_jobs(result.project, tmp_path / "gm", "gm")
    for job in player:
        shown = html.unescape(job.html)
        for secret in secrets:
            assert secret not in shown, (job.target.name, secret)
    gm_handout = html.unescape(next(j.html for j in gm if j.target.name == "rampant_hex-handout-gm-a4.pdf"))
    gm_cards = html.unescape(next(j.html for j in gm if j.target.name == "rampant_hex-cards-gm-a4.pdf"))
    for secret in (
        "The cellar door",
        "Brunsfeld curse",
        "Whisper of Brunsfeld",
        "Opening the cellar door",
        "the Ogre of Brunsfeld",
    ):
        assert secret in gm_handout, secret
    assert "Whisper of Brunsfeld" in gm_cards
    handout = next(j for j in player if j.target.name == "rampant_hex-handout-a4.pdf")
    assert "[game-master material]" in handout.html
    render_all([handout], root, workers=2)
    pdf_text = " ".join(page_texts(handout.target))
    assert not any(secret in pdf_text for secret in secrets)


# -- determinism and the sandbox ------------------------------------------------------------------
def rampant_jobs(out: Path) -> list:
    """The A4 player outputs and the gm handout of Rampant Hex."""
    project = sample_check("rampant_hex").project
    jobs = handout_jobs(project, out, "player") + handout_jobs(project, out, "gm")[:1]
    return [j for j in jobs if j.target.name.endswith("-a4.pdf")]


SAMPLE_EPOCH = os.environ.get("SOURCE_DATE_EPOCH", "").strip() or None  # the sample build runs in this environment


@pytest.mark.parametrize("epoch", [None, "1700000000"])
@pytest.mark.build  # renders for real in its body
def test_two_renders_are_byte_identical(tmp_path, monkeypatch, request, epoch):
    """Where the run's sample build had this SOURCE_DATE_EPOCH (none under `make test`), its files are the first
    render, made by another process at another time: the second is rendered here."""
    if epoch:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    else:
        monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    first, second = rampant_jobs(tmp_path / "1"), rampant_jobs(tmp_path / "2")
    assert [j.html for j in first] == [j.html for j in second]
    if epoch == SAMPLE_EPOCH:
        built = request.getfixturevalue("sample_build") / "handouts"
        render_all(second, ROOT, workers=2)
        firsts = [built / j.target.name for j in first]
    else:
        render_all(first + second, ROOT, workers=2)
        firsts = [j.target for j in first]
    for a, b in zip(firsts, second, strict=True):
        assert a.read_bytes() == b.target.read_bytes(), a.name
    created = PdfReader(firsts[0]).metadata.get("/CreationDate")
    assert created == ("D:20231114221320Z" if epoch else None)


# The same rulesets, by id, loaded in the other process (checked here: only those that pass are in `project`)
HTML_DIGESTS = """
import sys, time
from pathlib import Path
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests/render/handouts"]
from handout_digests import html_digests
from generator.source.project import Project, load_project
loaded = load_project(Path(sys.argv[1]))[0]
project = Project(loaded.root, tuple(loaded.ruleset(id) for id in sys.argv[2:]))
time.sleep(max(0.0, float(sys.stdin.readline()) - time.time()))
print(html_digests(project))
"""


def test_html_has_nothing_time_or_order_dependent(project, made, monkeypatch):
    """A process with another hash seed, a second later, writes the same HTML as this one."""
    import subprocess
    import sys
    import time

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    ours = os.environ.get("PYTHONHASHSEED", "")
    other = str(int(ours) + 1) if ours.isdigit() else "1"  # a random seed here is 1 once in 2**32
    # This process's HTML is made (`made`) before the other starts, which makes its own a second after this test
    # starts it: every clock read in the making is a second later there.
    there = subprocess.Popen(
        [sys.executable, "-c", HTML_DIGESTS, str(ROOT), *(ruleset.id for ruleset in project.rulesets)],
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": other},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # each handout's file name and the SHA-256 of its HTML, as handout_digests.html_digests writes them there
    here = "\n".join(
        f"{job.target.name} {hashlib.sha256(job.html.encode()).hexdigest()}"
        for audience in ("player", "gm")
        for job in made[audience]
    )
    out, err = there.communicate(f"{time.time() + 1}\n", timeout=300)
    assert there.returncode == 0, err
    assert out.strip() == here
    assert "rampant_hex-handout-a4.pdf " in here


@pytest.mark.build  # renders for real in its body
def test_an_image_outside_the_project_is_refused_with_its_location(tmp_path):
    root = copy_project(tmp_path)
    template = root / "templates/handouts/handout.html.j2"
    lines = template.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, l in enumerate(lines) if '<section class="title-page">' in l) + 1
    lines.insert(at, '  <img class="logo" src="file:///etc/hostname" alt="">\n')
    template.write_text("".join(lines), encoding="utf-8")
    project = check_project(root, only="rampant_hex").project
    job = next(
        j for j in handout_jobs(project, tmp_path / "out", "player") if j.target.name == "rampant_hex-handout-a4.pdf"
    )
    with pytest.raises(ResourceOutside) as refused:
        render_pdf(job, root)
    [diagnostic] = refused.value.diagnostics
    assert diagnostic.code is Code.RESOURCE_OUTSIDE
    assert diagnostic.location == Location("templates/handouts/handout.html.j2", at + 1, lines[at].index("file://") + 1)
    assert "file:///etc/hostname" in diagnostic.message
    assert not job.target.exists()


@pytest.mark.build  # renders for real in its body
def test_a_stylesheet_naming_a_file_outside_is_refused_with_its_location(tmp_path):
    root = copy_project(tmp_path)
    css = root / "templates/handouts/cards.css"
    text = css.read_text(encoding="utf-8") + ".card { background: url(file:///etc/hostname); }\n"
    css.write_text(text, encoding="utf-8")
    project = check_project(root, only="rampant_hex").project
    job = next(
        j for j in handout_jobs(project, tmp_path / "out", "player") if j.target.name == "rampant_hex-cards-a4.pdf"
    )
    with pytest.raises(ResourceOutside) as refused:
        render_all([job], root, workers=2)
    [diagnostic] = refused.value.diagnostics
    assert (diagnostic.code, diagnostic.location.path, diagnostic.location.line) == (
        Code.RESOURCE_OUTSIDE,
        "templates/handouts/cards.css",
        len(text.splitlines()),
    )


# -- cards ----------------------------------------------------------------------------------------
def test_card_sheets_are_three_by_three_on_both_papers():
    for paper in PAPERS:
        layout = sheet_layout(paper)
        assert (layout["cols"], layout["rows"]) == (3, 3)
        lefts = sorted({float(s["left"].removesuffix("mm")) for s in layout["slots"]})
        tops = sorted({float(s["top"].removesuffix("mm")) for s in layout["slots"]})
        assert lefts[0] >= 5 and lefts[-1] + 63 <= paper.width - 5
        assert tops[0] >= 5 and tops[-1] + 88 <= paper.height - 5
        assert len(layout["marks"]) == 2 * 4 + 2 * 4  # both ends of every cut line


def _boxes(box):
    box = getattr(box, "_box", box)
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _boxes(child)


def _class(box) -> str:
    element = getattr(box, "element", None)
    return (element.get("class") or "") if element is not None and box.element_tag in ("div", "p") else ""


@pytest.mark.build  # renders for real in its body
def test_every_card_fits_its_card(project):
    """Cards clip what overflows, so check the layout: no line below the text area, no source over it, no source
    line longer than the card is wide. A card is the same 63 by 88 mm box with the same content on either paper, only
    placed elsewhere on the sheet (checked first), so its layout is checked on A4."""
    import weasyprint

    made = {audience: handout_jobs(project, Path("/nonexistent"), audience) for audience in ("gm", "player")}
    for ruleset in project.rulesets:

        def card_jobs(audience):
            return [
                j for j in made[audience] if "-cards-" in j.target.name and j.target.name.startswith(ruleset.id + "-")
            ]

        jobs = card_jobs("gm") or card_jobs("player")  # the players' cards where the gm's would be the same
        by_paper = {job.target.name.rsplit("-", 1)[1]: placed_cards(job.html) for job in jobs}
        assert set(by_paper) <= {"a4.pdf", "letter.pdf"} and by_paper.get("a4.pdf") == by_paper.get("letter.pdf")
        for job in (job for job in jobs if job.target.name.endswith("-a4.pdf")):
            document = weasyprint.HTML(string=job.html, base_url=job.base_dir.as_uri() + "/").render(
                stylesheets=[weasyprint.CSS(filename=str(s)) for s in job.stylesheets]
            )
            count = 0
            for page in document.pages:
                for card in (
                    b
                    for b in _boxes(page._page_box)
                    if _class(b).startswith("card ") and "back" not in _class(b).split()
                ):
                    inner = next(b for b in _boxes(card) if _class(b) == "card-inner")
                    bottom = inner.content_box_y() + inner.height
                    lines = [b for b in _boxes(inner) if type(b).__name__ == "LineBox"]
                    assert max(b.position_y + b.margin_height() for b in lines) <= bottom, job.target.name
                    for source in (b for b in _boxes(card) if _class(b) == "card-source"):
                        assert source.position_y >= bottom
                        written = [b for b in _boxes(source) if type(b).__name__ == "LineBox"]
                        if type(source).__name__ == "BlockBox":  # the paragraph (its line and text match too)
                            # one line, all of it inside the card: its end is not cut off (by `text-overflow`)
                            assert len(written) == 1 and written[0].width <= source.width + 0.01, job.target.name
                    count += 1
            assert count == len(cards(ruleset, "gm"))


CARD = re.compile(
    r'<div class="card (?P<kind>[^"]*)" style="left: [\d.]+mm; top: [\d.]+mm; (?P<size>[^"]*)">'
    r"(?P<content>.*?)(?=<div class=\"card |<div class=\"sheet |</body>)",
    re.S,
)


def placed_cards(html: str) -> list[tuple[str, str, str]]:
    """Every card of a card sheet's HTML, front and back, without where the sheet places it: kind, size, content."""
    return [(m["kind"], m["size"], m["content"]) for m in CARD.finditer(html)]


def test_cards_show_gaps_as_gaps(texts):
    sheet = " ".join(texts["rampant_hex-cards-a4.pdf"])
    assert "Light riders" in sheet
    assert "Light foot ATTACK ARMOUR MORAL Move 2 hexes Special rules:" in " ".join(
        sheet.split()
    )  # the gaps: empty boxes
    assert "Olde reddes mystte" in sheet and "Spells (D6), roll 1, 1/6 (16.7%)" in sheet


def test_the_booklet_keys_the_empty_box_only_where_it_prints_one(made):
    """The contents page says what an empty box means only in a booklet that leaves a value blank: Rampant Hex's
    does (its troop profiles leave values out), Bad Moon Rising's prints every value it has."""
    keyed = {}
    for job in made["player"]:
        if "-handout-a4" in job.target.name:
            boxes = job.html.count('class="gap"')
            key = "empty box" in job.html
            assert boxes >= 2 if key else boxes == 0, job.target.name  # the key shows one box itself
            keyed[job.target.name.split("-handout-")[0]] = key
    assert keyed["rampant_hex"] and not keyed["bad_moon_rising"]


def test_a_players_booklet_says_some_tasks_are_hidden_where_the_game_master_keeps_every_victory_point(tmp_path):
    secret = (
        "ruleset:\n  title: Night Watch\n  declares: {victory_point_kinds: [task]}\n"
        "chapters:\n  victory: {title: Victory}\n"
        "victory_points:\n  crypt: {name: Seal the crypt, kind: task, points: 3, chapter: victory, "
        "condition: The crypt is sealed., audience: gm}\n"
    )
    project = checked_project(make_project(tmp_path, watch=secret))
    jobs = {j.target.name: html.unescape(j.html) for j in handout_jobs(project, tmp_path / "out", "player")}
    booklet = jobs["watch-handout-a4.pdf"]
    assert "Some tasks are hidden: the game-master tells you when you complete one." in booklet
    assert "Seal the crypt" not in booklet and "vp-table" not in booklet
    gm = {j.target.name: html.unescape(j.html) for j in handout_jobs(project, tmp_path / "gm", "gm")}
    assert (
        "Seal the crypt" in gm["watch-handout-gm-a4.pdf"]
        and "Some tasks are hidden" not in gm["watch-handout-gm-a4.pdf"]
    )


def test_a_costed_roster_whose_troops_have_models_prints_their_head_count(tmp_path):
    """As the army builder's totals do: 2 units of 10 warriors and a bolt thrower of 3 crew field 23 models."""
    game = (
        "ruleset: {title: Hammerfall}\n"
        "profiles:\n"
        "  dwarfs:\n"
        "    title: Dwarfs\n"
        "    columns: {pts: {label: Pts, type: points}, models: {label: Models, type: models}}\n"
        "    rows:\n"
        "      warriors: {name: Dwarf warriors, pts: 60, models: 10}\n"
        "      bolt_thrower: {name: Bolt thrower, pts: 90, models: 3}\n"
        "armies:\n"
        "  throng:\n"
        "    title: Throng\n"
        "    matrix: dwarfs\n"
        "    agreed_points: 250\n"
        "    units: [{troop: warriors, count: 2}, {troop: bolt_thrower, count: 1}]\n"
    )
    jobs = {
        j.target.name: j.html
        for j in handout_jobs(checked_project(make_project(tmp_path, game=game)), tmp_path / "out", "player")
    }
    roster = " ".join(re.sub(r"<[^>]+>", " ", jobs["game-roster-a4.pdf"]).split())
    assert "Total 210 points Agreed 250 points Left unspent 40 points Models 23" in roster


def checked_project(root: Path) -> Project:
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project
