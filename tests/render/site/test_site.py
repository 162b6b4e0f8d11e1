"""The real rules website: built from the real rules_src, opened in headless Chromium.

The site is built once per session with the CLI (`rulepress build --only site`), then
served on 127.0.0.1 and driven with Playwright against Debian's chromium.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag

import pytest
from site_helpers import ROOT, copy_project, serve

from generator.cli import main
from generator.model.entries import gm_only
from generator.source.project import load_project
from generator.validate.links import site_anchors


@pytest.fixture(scope="session")
def built(sample_build) -> Path:
    return sample_build


@pytest.fixture(scope="session")
def project():
    project, diagnostics = load_project(ROOT)
    assert not diagnostics.errors
    return project


@pytest.fixture(scope="session")
def site(built):
    with serve(built / "site") as url:
        yield url


def page_of(project, ruleset_id: str, section: str, predicate) -> str:
    """The chapter page on which an entry of ``section`` matching ``predicate`` is printed."""
    ruleset = project.ruleset(ruleset_id)
    entry = next(e for e in ruleset.section(section) if predicate(e))
    return f"{ruleset_id}/{entry.chapter}.html"


def test_landing_page_lists_every_ruleset(page, site, project):
    page.goto(site + "/index.html")
    text = page.inner_text("article")
    for ruleset in project.rulesets:
        assert ruleset.title in text
        assert page.locator(f"article a[href='{ruleset.id}/index.html']").count() == 1
    assert len(project.rulesets) == len([p for p in (ROOT / "rules_src").iterdir() if p.is_dir()])


def test_a_page_and_a_chapter_page_load_with_no_request_going_unanswered(page, site):
    """Nothing a page asks for is missing: its icon (a browser asks for /favicon.ico when a page names none), styles,
    scripts, search."""
    missing = []
    page.on("response", lambda response: missing.append(response.url) if response.status >= 400 else None)
    for path in ("/index.html", "/rampant_hex/morale.html"):
        page.goto(site + path)
        page.wait_for_load_state("networkidle")
        icons = page.locator("link[rel~='icon']")
        assert icons.count() == 1 and icons.get_attribute("href").endswith("favicon.svg")
    assert missing == []


def test_glossary_link_lands_on_its_definition(page, site):
    page.goto(site + "/rampant_hex/morale.html")
    link = page.locator("a:has(.rp-term)", has_text="moral").first
    link.click()
    page.wait_for_load_state()
    assert page.url.split("#")[0].endswith("/rampant_hex/glossary.html")
    anchor = urldefrag(page.url).fragment
    section = page.locator(f"section[id='{anchor}']")
    assert section.is_visible()
    assert section.locator("h2").inner_text().startswith("Moral")


def test_spell_page_shows_its_table_row_and_odds(page, site):
    page.goto(site + "/rampant_hex/magic.html")
    section = page.locator("section[id='rampant-hex-spells-dolcivanians-domee']")
    text = section.inner_text()
    assert "roll 3 (16.7%)" in text
    assert "4 hexes" in text
    table = page.locator("section[id='rampant-hex-tables-spells'] table")
    assert re.search(r"3\s+Dolcivanians domee of protectieon\s+16.7%", table.inner_text())


def test_gaps_are_marked_where_the_source_is_silent(page, site):
    page.goto(site + "/rampant_hex/troops.html")
    assert page.locator(".gap").count() >= 20
    page.goto(site + "/city_of_the_damned_combat/" + "index.html")
    assert page.locator("article").is_visible()


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


def test_no_broken_internal_links(built):
    root = built / "site"
    parsed = {}
    for path in root.rglob("*.html"):
        parser = _Links()
        parser.feed(path.read_text(encoding="utf-8"))
        parsed[path] = parser
    broken = []
    for path, parser in parsed.items():
        for href in parser.links:
            if re.match(r"^[a-z]+:", href) or href.startswith("//"):
                continue
            target, fragment = urldefrag(href)
            target_path = (path.parent / unquote(target)).resolve() if target else path
            if target_path.is_dir():
                target_path = target_path / "index.html"
            if not target_path.exists():
                broken.append(f"{path.relative_to(root)} -> {href}")
            elif fragment and target_path.suffix == ".html" and fragment not in parsed[target_path].ids:
                broken.append(f"{path.relative_to(root)} -> {href} (no such anchor)")
    assert not broken, "\n".join(broken[:20])


def test_every_place_check_lets_prose_link_by_anchor_is_on_the_site(built, project):
    """`[text](#anchor)` passes `check` only where the site has that anchor: an entry's on the site of those who
    see it (the game-master's site for all), else the build stops at a link `check` passed."""
    ids = {}
    for site in ("site", "site-gm"):
        ids[site] = set()
        for path in (built / site).rglob("*.html"):
            ids[site].update(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8")))
    missing = [
        (site, place)
        for ruleset in project.rulesets
        for place, (section, entry) in site_anchors(ruleset).items()
        if entry is not None
        for site in ("site-gm", *(() if gm_only(entry) else ("site",)))
        if place not in ids[site]
    ]
    assert len(ids["site"]) > 500 and not missing, missing[:20]


class _Tables(HTMLParser):
    """Each table of a page: its classes, the id of the section it is in, and its rows, each a list of its cells
    (tag, scope, text), the head's marked."""

    def __init__(self):
        super().__init__()
        self.tables, self.sections, self.cell, self.head = [], [""], None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append(attrs.get("id", ""))
        elif tag == "table":
            self.tables.append(
                {"classes": (attrs.get("class") or "").split(), "section": self.sections[-1], "rows": []}
            )
        elif tag == "thead":
            self.head = True
        elif tag == "tbody":
            self.head = False
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append({"head": self.head, "cells": []})
        elif tag in ("td", "th") and self.tables:
            self.cell = {"tag": tag, "scope": attrs.get("scope"), "text": ""}
            self.tables[-1]["rows"][-1]["cells"].append(self.cell)

    def handle_endtag(self, tag):
        if tag == "section":
            self.sections.pop()
        elif tag in ("td", "th"):
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data


def tables_of(path: Path) -> list[dict]:
    parser = _Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tables


def unheaded(table: dict) -> list[str]:
    """What keeps a table from being read across as two-way: a head cell not a `<th scope="col">`, a body row not
    headed by a `<th scope="row">` followed by its cells."""
    wrong = []
    for row in table["rows"]:
        cells = [(cell["tag"], cell["scope"]) for cell in row["cells"]]
        texts = [" ".join(cell["text"].split()) for cell in row["cells"]]
        if row["head"]:
            if any(cell != ("th", "col") for cell in cells):
                wrong.append(f"head {texts[:3]}: {cells[:3]}")
        elif cells[:1] != [("th", "row")] or any(tag != "td" for tag, _ in cells[1:]):
            wrong.append(f"row {texts[:3]}: {cells[:3]}")
    return wrong


def test_a_chart_s_and_a_cheat_sheet_s_rows_are_headed_by_their_labels(built, project):
    """A screen reader moving along a row says the row's heading only if it is one: every chart the samples print
    (each in its own section, with one row per value of its `rows:` axis, or one row) and every table of a cheat
    sheet's page has each body row headed by a `<th scope="row">`, and its column heads are `<th scope="col">`."""
    site = built / "site"
    pages = {path.relative_to(site).as_posix(): tables_of(path) for path in site.rglob("*.html")}
    checked, wrong = 0, []
    for ruleset in project.rulesets:
        for chart in ruleset.section("charts"):
            if gm_only(chart):
                continue
            place = f"{ruleset.id}-charts-{chart.id}".replace("_", "-")  # its section on the page
            grids = [
                table
                for path, tables in pages.items()
                if path.startswith(ruleset.id + "/")
                for table in tables
                if table["section"] == place
            ]
            assert len(grids) == 1, (ruleset.id, chart.id, len(grids))
            axis = chart.rows
            values = 1 if axis is None else len(axis.values) or axis.range.high - axis.range.low + 1
            body = [row for row in grids[0]["rows"] if not row["head"]]
            assert len(body) == values, (ruleset.id, chart.id, len(body), values)
            if axis is not None and axis.range is not None:  # each row's heading begins with its value
                labels = [row["cells"][0]["text"].strip() for row in body]
                expected = [str(value) for value in range(axis.range.low, axis.range.high + 1)]
                assert [label.split(":")[0] for label in labels] == expected, (chart.id, labels)
            wrong += [f"{ruleset.id} chart {chart.id}: {w}" for w in unheaded(grids[0])]
            checked += 1
    # a chart printed inside a rule (ordo_ineptus's shooting prints two charts), and the cheat sheets' tables
    inside_rules = 0
    for path, tables in pages.items():
        for table in tables:
            if "chart-grid" in table["classes"] or (path.startswith("sheets/") and path != "sheets/index.html"):
                wrong += [f"{path} {table['section']}: {w}" for w in unheaded(table)]
                checked += path.startswith("sheets/")
                inside_rules += "-rules-" in table["section"]
    assert checked >= 20 + 31 and inside_rules >= 2  # the 20 charts, the 31 tables of the cheat sheets
    assert not wrong, "\n".join(wrong[:30])


_GRID_AND_AFTER = re.compile(r'<table class="[^"]*chart-grid[^"]*".*?</table>(.*?)(?=<table|</section>)', re.S)
_BOLD_CELL = re.compile(r"<td[^>]*>\s*(?:<p>)?\s*<strong>")
BOLD_KEY = "<strong>Bold</strong>: a chance of 2 in 3 or better."  # what the printed legend says of bold


def test_a_chart_with_bold_odds_says_under_it_what_bold_means(built):
    """The site's charts print good odds in bold and said nowhere why (the printed sheets' legend says it): a chart
    with a bold cell has the key under it, one without has none."""
    keyed = plain = 0
    for path in (built / "site").rglob("*.html"):
        page = path.read_text(encoding="utf-8")
        for grid in _GRID_AND_AFTER.finditer(page):
            bold = bool(_BOLD_CELL.search(grid[0][: grid.start(1) - grid.start()]))
            assert (BOLD_KEY in grid[1]) == bold, (path.name, grid[0][:300])
            keyed += bold
            plain += not bold
    assert keyed >= 10 and plain >= 1, (keyed, plain)


def test_a_site_ships_no_file_the_tooltips_extension_keeps_for_itself(built):
    """sphinx-tippy writes its caches of fetched tooltips (none are fetched here) beside the pages: a reader's copy
    of the site holds pages and their assets only."""
    left = [
        p.relative_to(built).as_posix() for site in ("site", "site-gm", "site-author") for p in (built / site).iterdir()
    ]
    assert "site/index.html" in left and not [name for name in left if "tippy_" in name and name.endswith(".json")]


@pytest.mark.build  # renders for real in its body
def test_quotes_and_inch_marks_print_as_written(built):
    """bad_moon_rising reads `"within 6""` (a quote ending in an inch mark): the site prints it as written, as the
    PDFs do, not with the inch mark curled into a second closing quote."""
    page = (built / "site" / "bad_moon_rising" / "confusion.html").read_text(encoding="utf-8")
    assert "A reading: &quot;within 6&quot;&quot; is read as 6&quot; or less." in page
    assert "6”" not in page


def test_text_from_data_is_escaped(tmp_path, browser):
    project = copy_project(tmp_path, ["rampant_hex"])
    troops = project / "rules_src" / "rampant_hex" / "troops.yaml"
    troops.write_text(
        troops.read_text(encoding="utf-8").replace("name: Heavy foot", 'name: "<script>alert(1)</script>"'),
        encoding="utf-8",
    )
    assert main(["-C", str(project), "build", "--only", "site", "--audience", "player"]) == 0
    page = browser.new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto((project / "build" / "site" / "rampant_hex" / "troops.html").as_uri())
    assert "<script>alert(1)</script>" in page.inner_text("article")
    assert dialogs == []
    page.close()


def game_master_strings(project) -> list[str]:
    """Names, ids and notes of everything marked for the game-master only."""
    found = []
    for ruleset in project.rulesets:
        for _section, entry in ruleset.all_entries():
            if getattr(entry, "audience", "player") == "gm" or getattr(entry, "gm_only", False):
                found += [
                    getattr(entry, "name", "") or getattr(entry, "title", "") or getattr(entry, "term", ""),
                    entry.id.replace("_", "-"),
                ]
        found += [" ".join(rule.gm_note.split())[:60] for rule in ruleset.rules if rule.gm_note]
    return [s for s in found if s]


def site_text(folder: Path) -> str:
    import zlib

    parts = []
    for path in folder.rglob("*"):
        if path.suffix in (".html", ".js", ".txt", ".json"):
            parts.append(path.read_text(encoding="utf-8", errors="replace"))
        elif path.name == "objects.inv":  # a header, then zlib-compressed inventory
            data = path.read_bytes()
            header_end = [i for i, b in enumerate(data) if b == 10][3] + 1
            parts.append(zlib.decompress(data[header_end:]).decode("utf-8"))
    return " ".join(" ".join(parts).split())


def test_player_site_never_contains_game_master_content(built, project):
    secrets = game_master_strings(project)
    assert len(secrets) >= 3
    player = site_text(built / "site")
    leaked = [s for s in secrets if " ".join(s.split()) in player]
    assert leaked == []
    gm = site_text(built / "site-gm")
    assert [s for s in secrets if " ".join(s.split()) in gm and not s.islower()]  # the gm site has them


def test_every_page_of_the_gm_site_carries_the_gm_banner_and_no_player_page_does(built):
    gm_pages = sorted((built / "site-gm").rglob("*.html"))
    assert len(gm_pages) > 20
    for path in gm_pages:
        text = path.read_text(encoding="utf-8")
        assert re.search(r'class="announcement".*?Game-master\'s copy', text, re.S), path
    for path in (built / "site").rglob("*.html"):
        assert "Game-master's copy" not in path.read_text(encoding="utf-8"), path


def test_hovering_a_term_previews_its_definition(page, site, project):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(site + "/rampant_hex/morale.html")
    page.hover("a:has(.rp-term)")
    tip = page.locator(".tippy-box")
    tip.wait_for(timeout=10000)
    plain = lambda text: " ".join(text.replace("’", "'").split())  # noqa: E731  (typography may curl quotes)
    definition = plain(project.ruleset("rampant_hex").term("moral").definition)
    assert definition[:40] in plain(tip.inner_text())
    assert all(url.startswith(site) for url in requests), [u for u in requests if not u.startswith(site)]


def test_pages_are_readable_on_a_phone(browser, site):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.goto(site + "/rampant_hex/activation.html")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # no sideways scrolling of the page
    drawer = page.locator(".sidebar-drawer").bounding_box()
    assert drawer["x"] + drawer["width"] <= 0  # the navigation folds away off the screen...
    assert page.locator("label.nav-overlay-icon").is_visible()  # ...behind a menu button
    context.close()
