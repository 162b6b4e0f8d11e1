"""Roles naming a base's entries, in a ruleset that extends it (a fan's supplement).

README "Bases and overlays": a base's values, formulas, tables, lookups, charts, terms and keywords are usable as if
written in the supplement; its rules, spells and profile matrices are not, but a role may still name one. Every role
naming a base's entry links to the base's page on the site and prints the entry's title in print, never its id, and
`check` passes exactly what the site's build passes.
"""

from __future__ import annotations

import re

import pytest
from helpers import make_project

from generator.cli import main
from generator.render.handouts.content import roster_context
from generator.render.prose import _ROLE, Prose, role_as_text
from generator.render.site.pages import site_pages, write_inputs
from generator.validate import check_project

GAME = """\
ruleset:
  title: Skirmish in the Marsh
chapters:
  play: {title: Play}
rules:
  shooting_rules:
    title: Shooting at the enemy
    chapter: play
    body: A unit shoots at a unit in range.
glossary:
  hit_marker:
    term: Hit marker
    definition: A marker a unit takes for each hit.
keywords:
  shoots:
    name: SHOOTS
    params: [range]
    chapter: play
    definition: Shoots at a unit this many hexes away. See {rule}`shooting_rules`.
values:
  move: {value: 4 hexes, label: Move}
formulas:
  hits:
    title: Hits scored
    chapter: play
    inputs: {dice: {label: Dice, min: 1, max: 2}, armour: {label: Armour, min: 3, max: 4}}
    expr: dice * (6 - armour)
lookups:
  reach:
    title: Reach by size
    chapter: play
    key: Size
    rows:
      - {match: small, result: One hex, value: 1}
      - {match: large, result: Two hexes, value: 2}
charts:
  hits_chart:
    title: Hits by dice
    chapter: play
    formula: hits
    rows: {input: dice, range: 1-2}
    columns: {input: armour, range: 3-4}
tables:
  faulty_scroll:
    title: Faulty scrolls
    dice: D6
    chapter: play
    rows:
      - {roll: 1, result: Fizzle, ref: fizzle}
      - {roll: 2-6, result: Nothing}
spells:
  fizzle:
    name: Fizzle
    table: faulty_scroll
    roll: 1
    effect: Nothing happens.
profiles:
  troops:
    title: Marsh troops
    chapter: play
    columns:
      pts: {label: PTS, type: points, min: 0}
    rows:
      heavy_foot: {name: Heavy foot, pts: 5}
"""

SUPPLEMENT = """\
ruleset:
  title: Bog Raiders
  extends: skirmish
chapters:
  bog: {title: Bog troops}
keywords:
  wades:
    name: WADES
    chapter: bog
    definition: Crosses a bog as open ground.
rules:
  bog_rules:
    title: Bog rules
    chapter: bog
    body: >-
      Roll on {table}`faulty_scroll`; count {term}`hit markers <Hit marker>`; a SHOOTS unit uses
      {entry}`keywords.shoots` and {formula}`hits`, {lookup}`reach` and {chart}`hits_chart`; move {value}`move`.
      Shoot as in {rule}`shooting_rules`, cast {spell}`fizzle`, field {profile}`troops` or {entry}`spells.fizzle`.
profiles:
  raiders:
    title: Bog raiders
    chapter: bog
    columns:
      pts: {label: PTS, type: points, min: 0}
    rows:
      archers: {name: Mire archers, pts: 4, keywords: [SHOOTS 3, WADES]}
armies:
  warband:
    title: A warband
    matrix: raiders
    chapter: bog
    agreed_points: 8
    total: 8
    units:
      - {troop: archers, count: 2, points: 8}
"""

# Each role of the supplement's rule, and the page and anchor of the game's site it goes to.
LINKS = {
    "Faulty scrolls": "skirmish-tables-faulty-scroll",
    "hit markers": "skirmish-glossary-hit-marker",
    "SHOOTS": "skirmish-keywords-shoots",
    "Hits scored": "skirmish-formulas-hits",
    "Reach by size": "skirmish-lookups-reach",
    "Hits by dice": "skirmish-charts-hits-chart",
    "Shooting at the enemy": "skirmish-rules-shooting-rules",
    "Fizzle": "skirmish-spells-fizzle",
    "Marsh troops": "skirmish-profiles-troops",
}


@pytest.fixture(scope="module")
def project_root(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("base-links"), skirmish=GAME, bog=SUPPLEMENT)


@pytest.fixture(scope="module")
def bog(project_root):
    result = check_project(project_root)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project.ruleset("bog")


def test_a_base_keyword_naming_a_base_rule_prints_the_rules_title_on_a_supplements_roster(bog):
    entries = roster_context(bog, "player")["rosters"][0]["glossary"]["entries"]
    shoots = next(e for e in entries if e["title"] == "SHOOTS")
    assert "See Shooting at the enemy." in re.sub(r"<[^>]+>", "", str(shoots["body"]))
    assert "shooting_rules" not in str(shoots["body"])


def test_every_role_naming_a_base_entry_prints_its_title_in_print(bog):
    body = bog.rule("bog_rules").body
    printed = re.sub(r"<[^>]+>", "", str(Prose(bog, "player").html(body)))
    as_text = _ROLE.sub(lambda m: role_as_text(m, bog), body)
    for shown in (printed, as_text):
        for title in LINKS:
            assert title in shown
        assert "4 hexes" in shown
        for id in ("faulty_scroll", "shooting_rules", "fizzle", "hits_chart", "keywords.shoots", "spells.fizzle"):
            assert id not in shown


def test_a_supplements_page_is_read_again_when_a_base_entry_it_links_is_retitled(tmp_path):
    """Sphinx reads a page's entry again when what its roles read changes: a base's rule's title is read there too."""
    make_project(tmp_path, skirmish=GAME, bog=SUPPLEMENT)
    src = tmp_path / "cache" / "src"

    def inputs_of_bog() -> dict[str, str]:
        project = check_project(tmp_path).project
        write_inputs(project, site_pages(project, "player"), src, "player")
        return {p.name: p.read_text() for p in sorted((src.parent / "inputs" / "bog").iterdir())}

    before = inputs_of_bog()
    game = tmp_path / "rules_src" / "skirmish" / "ruleset.yaml"
    game.write_text(game.read_text().replace("Shooting at the enemy", "Shooting at the foe"))
    after = inputs_of_bog()
    assert before.keys() == after.keys() and all(before[name] != after[name] for name in before)


@pytest.fixture(scope="module")
def bog_page(project_root, tmp_path_factory) -> str:
    """The supplement's page on the players' site, built once for the tests that read it."""
    out = tmp_path_factory.mktemp("base-links-site")
    assert main(["-C", str(project_root), "build", "--only", "site", "--audience", "player", "--out", str(out)]) == 0
    return (out / "site" / "bog" / "bog.html").read_text(encoding="utf-8")


def _links(page: str) -> dict[str, str]:
    """Each internal link's text and target on a page."""
    return dict(
        (re.sub(r"<[^>]+>", "", text).strip(), href)
        for href, text in re.findall(r'<a class="reference internal" href="([^"]+)"[^>]*>(.*?)</a>', page)
    )


@pytest.mark.build  # runs Sphinx
def test_every_role_naming_a_base_entry_links_to_the_bases_page_and_the_site_builds(bog, bog_page):
    links = _links(bog_page)
    for title, anchor in LINKS.items():
        assert links[title].startswith("../skirmish/") and links[title].endswith(f"#{anchor}"), (title, links)


@pytest.mark.build  # runs Sphinx
def test_a_profiles_keywords_link_to_their_definitions_with_their_numbers_kept(bog_page):
    """A troop's `SHOOTS 3` links to the base game's SHOOTS, and the supplement's own WADES to its own page."""
    matrix = bog_page[bog_page.index("Mire archers") :]
    cell = matrix[: matrix.index("</tr>")]
    links = _links(cell)
    assert links["SHOOTS 3"] == "../skirmish/play.html#skirmish-keywords-shoots"
    assert links["WADES"] == "#bog-keywords-wades"
