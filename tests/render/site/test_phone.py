"""Phone-first outputs: the whole player site at 390 px in Chromium, and the player PDFs read back.

Every page of the player site is opened at a phone's width (and at a desktop's) once for the whole run, by
conftest's `crawled_player_site`: nothing may stick out past the screen except inside a table's own scroll box, tables keep
their first column in view, roll ranges use en dashes on one line, gaps are the one quiet mark
and a chart's picker gives the target and odds of a pair. Expected values are written by hand from
the source texts and the published Warhammer charts, never computed by the code under test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_helpers import CHART_WIDTHS, DESKTOP, PHONE, serve

NOT_GIVEN = "not given in the source"


@pytest.fixture(scope="module")
def built(player_build) -> Path:
    return player_build / "site"


@pytest.fixture(scope="module")
def site(built):
    with serve(built) as url:
        yield url


HYPHEN_RANGE = re.compile(r"^\d+ ?- ?\d+$|^\d+-$")


def test_every_player_page_fits_a_phone(crawled_player_site):
    """At 390 px nothing sticks out past the screen except inside a table's own scroll box; tables scroll on
    their own with a sticky first column; no loud gap mark; headings leave room for the rules."""
    problems = []
    for path, seen in crawled_player_site.items():
        found = seen["phone"]["sticking_out"]
        if found["scrollWidth"] > PHONE["width"] or found["out"]:
            problems.append(f"{path}: page {found['scrollWidth']}px wide; {found['out']}")
        for table in seen["phone"]["tables"]:
            if table["overflow"] not in ("auto", "scroll") or table["wrapperRight"] > PHONE["width"] + 0.5:
                problems.append(f"{path}: a table without its own scroll box ({table})")
            if table["sticky"] != "sticky" or table["headSticky"] != "sticky":
                problems.append(f"{path}: a table whose first column is not sticky ({table})")
        if "⚠" in seen["phone"]["seen"]["text"]:
            problems.append(f"{path}: the old ⚠ gap badge")
        height = seen["phone"]["title_height"]
        if height is not None and height > PHONE["height"] / 4:
            problems.append(f"{path}: the title takes {height}px of an 844px screen")
    assert not problems, "\n".join(problems)


@pytest.mark.browser
def test_a_wide_table_scrolls_and_its_first_column_stays(phone, site):
    phone.goto(f"{site}/warhammer_fantasy_charts/charts.html")
    wrapper = phone.locator("article .table-wrapper:has(table)").first
    assert phone.evaluate(
        "w => w.scrollWidth > w.clientWidth", wrapper.element_handle()
    )  # ten columns do not fit 390 px
    label = wrapper.locator("tbody tr > :first-child").first  # the row's heading
    before = label.bounding_box()["x"]
    phone.evaluate("w => { w.scrollLeft = 200; }", wrapper.element_handle())
    after_first = label.bounding_box()["x"]
    after_second = wrapper.locator("tbody tr td").first.bounding_box()["x"]  # the row's first cell
    assert after_first == pytest.approx(before, abs=1)  # the row label stayed in view
    assert after_second < before + 100  # ... while the grid moved under it


@pytest.mark.browser
def test_a_table_box_that_scrolls_takes_the_focus_and_the_arrow_keys_scroll_it(phone, page, site):
    """A keyboard could not scroll a chart sideways at a phone's width: its box took no focus. A box that scrolls
    is a named region Tab reaches; one that fits (the same chart on a desktop) is no stop."""
    phone.goto(f"{site}/warhammer_fantasy_charts/charts.html")
    wrapper = phone.locator("article .table-wrapper:has(table)").first
    assert wrapper.get_attribute("tabindex") == "0" and wrapper.get_attribute("role") == "region"
    assert wrapper.get_attribute("aria-label").endswith("(wider than the screen: use the arrow keys)")
    wrapper.focus()
    phone.keyboard.press("ArrowRight")
    phone.wait_for_function("w => w.scrollLeft > 0", arg=wrapper.element_handle())
    page.goto(f"{site}/rampant_hex/activation.html")  # a four-row table fits a desktop
    fitting = page.locator("section[id='rampant-hex-tables-activations'] .table-wrapper")
    assert fitting.get_attribute("tabindex") is None and fitting.get_attribute("role") is None


@pytest.mark.browser
def test_roll_ranges_use_en_dashes_on_one_line(phone, site, crawled_player_site):
    # The text: "1-2 = 2 activations, 3-4 = 3 activations, 5 = 4 activations, 6 = 5 activations".
    phone.goto(f"{site}/rampant_hex/activation.html")
    table = phone.locator("section[id='rampant-hex-tables-activations'] table")
    assert table.locator("tbody tr td:first-child").all_inner_texts() == ["1–2", "3–4", "5", "6"]
    problems, seen = [], 0
    for path, found in crawled_player_site.items():
        for cell in found["phone"]["ranges"]:
            seen += 1
            if cell["lines"] != 1:
                problems.append(f"{path}: range {cell['text']!r} wraps over {cell['lines']} lines")
        for text in found["phone"]["cells"]:
            if HYPHEN_RANGE.match(text.strip()):
                problems.append(f"{path}: range {text!r} with a hyphen")
    assert seen > 100  # the roll tables and chart cells of every ruleset
    assert not problems, "\n".join(problems)


@pytest.mark.browser
def test_a_chart_cell_sets_its_chance_under_its_target(phone, site):
    """The published to-hit chart: WS 3 against WS 7 needs 5+, a chance of 33.3% on a D6."""
    phone.goto(f"{site}/warhammer_fantasy_charts/charts.html")
    section = phone.locator("section:has(> h2:text-is('Close combat: to hit'))")
    cell = section.locator("table.rulepress-charts tbody tr").nth(2).locator("td").nth(6)  # after the row's heading
    assert " ".join(cell.inner_text().split()) == "5+ (33.3%)" and cell.text_content().strip() == "5+ (33.3%)"
    target_bottom = cell.evaluate("""c => {
        const walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT), range = document.createRange();
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            if (t.textContent.trim() && !t.parentElement.closest('.odds')) {
                range.selectNodeContents(t);
                return range.getBoundingClientRect().bottom;
            }
        }
    }""")
    chance = cell.locator(".odds")
    assert chance.inner_text() == "(33.3%)"
    assert chance.bounding_box()["y"] >= target_bottom - 1  # the chance is on the line under the target


@pytest.mark.browser
def test_troop_matrix_gaps_are_the_quiet_mark(phone, site):
    """The matrix was a picture missing from the text (004): of its 7 troop types × 5 columns only the
    points of light foot (4), heavy foot (5), skirmishers (4), monsters (6) and levy (2) survive. ATTACK,
    ARMOUR, MORAL and the special rules are given for no type: their headers say so once and their 28 cells
    are plain dashes; PTS is missing for light riders and artillery: 2 dashes with the note mark."""
    phone.goto(f"{site}/rampant_hex/troops.html")
    matrix = phone.locator("table.rulepress-profiles")
    assert matrix.locator("thead th").all_inner_texts() == [
        "Troop type",
        f"ATTACK ({NOT_GIVEN})",
        f"ARMOUR ({NOT_GIVEN})",
        f"MORAL ({NOT_GIVEN})",
        "PTS",
        "Move",
        f"Special rules ({NOT_GIVEN})",
    ]  # Move: the 2 and 3 hexes the prose gives foot and riders
    noted = matrix.locator("abbr.gap")  # one mark for every gap, in a column given nowhere too
    assert matrix.locator(".gap").count() == noted.count() == 30
    for mark in noted.all():
        assert mark.get_attribute("title") == NOT_GIVEN
        assert mark.inner_text().startswith("—")
    rows = {r[0]: r[4] for r in (row.locator("td").all_inner_texts() for row in matrix.locator("tbody tr").all())}
    assert rows == {
        "Light foot": "4",
        "Heavy foot": "5",
        "Skirmishers": "4",
        "Monsters": "6",
        "Levy": "2",
        "Light riders": "—*",
        "Artillery": "—*",
    }
    assert "not given" not in matrix.inner_text().replace(NOT_GIVEN, "")
    assert phone.locator(".gap-key").count() == 1  # the page's key, once
    assert NOT_GIVEN in phone.locator(".gap-key").inner_text()


@pytest.mark.browser
def test_the_gap_note_keeps_to_its_column(browser, site):
    """The note under the Injury Table (002 gives its results, not its rolls) was 802 px wide on a phone."""
    for viewport in (PHONE, DESKTOP):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(f"{site}/city_of_the_damned_combat/injuries.html")
        note = page.locator("article .admonition", has_text="Gap in the source").first.bounding_box()
        article = page.locator("article").bounding_box()
        assert note["x"] + note["width"] <= article["x"] + article["width"] + 1, viewport
        headers = page.locator("section[id$='tables-injury'] table thead th").all_inner_texts()
        assert headers[0].endswith(f"({NOT_GIVEN})"), headers  # the roll column, given nowhere, says so once
        context.close()


def pick(page, picker, mine: str, theirs: str) -> str:
    picker.locator("select[name=row]").select_option(label=mine)
    picker.locator("select[name=column]").select_option(label=theirs)
    answer = picker.locator("output .chart-picker-target, output .chart-picker-odds").all_inner_texts()
    return " ".join(" ".join(answer).split())


@pytest.mark.browser
def test_chart_picker_gives_target_and_odds(phone, site):
    """Pairs read off the published Warhammer Fantasy charts: WS 3 against WS 3 hits on 4+; WS 4 against
    WS 3 on 3+; WS 3 against WS 7 (more than double) on 5+. Strength 3 against Toughness 4 wounds on 5+,
    against Toughness 7 not at all. On a D6, 4+ is 50%, 3+ 66.7%, 5+ 33.3%."""
    requests = []
    phone.on("request", lambda request: requests.append(request.url))
    phone.goto(f"{site}/warhammer_fantasy_charts/charts.html")
    to_hit = phone.locator("section:has(> h2:text-is('Close combat: to hit')) form.chart-picker")
    to_wound = phone.locator("section:has(> h2:text-is('To wound')) form.chart-picker")
    assert to_hit.count() == 1 and to_wound.count() == 1
    assert pick(phone, to_hit, "3", "3") == "4+ 50%"
    assert pick(phone, to_hit, "4", "3") == "3+ 66.7%"
    assert pick(phone, to_hit, "3", "7") == "5+ 33.3%"
    assert pick(phone, to_wound, "3", "4") == "5+ 33.3%"
    assert pick(phone, to_wound, "3", "7") == "no effect"
    box = to_hit.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    # The data is in the page, as inert JSON that cannot end its script element; nothing is fetched.
    script = to_hit.locator("script.chart-picker-data")
    assert script.get_attribute("type") == "application/json"
    assert "<" not in script.inner_html()
    assert all(url.startswith(site) for url in requests), [u for u in requests if not u.startswith(site)]


@pytest.mark.browser
def test_the_picked_pair_is_marked_in_the_grid(phone, site):
    """WS 3 against WS 7 (more than double) hits on 5+ on the published chart: that cell, its row heading 3
    and its column heading 7 are marked, and no other cell."""
    phone.goto(f"{site}/warhammer_fantasy_charts/charts.html")
    section = phone.locator("section:has(> h2:text-is('Close combat: to hit'))")
    assert pick(phone, section.locator("form.chart-picker"), "3", "7") == "5+ 33.3%"
    marked = section.locator("table.rulepress-charts .chart-picked")
    assert [" ".join(t.split()) for t in marked.all_inner_texts()] == ["7", "3", "5+ (33.3%)"]
    cell = section.locator("table.rulepress-charts tbody td.chart-picked:not(:first-child)")
    wrapper = section.locator(".table-wrapper").bounding_box()
    box = cell.bounding_box()
    assert wrapper["x"] <= box["x"] and box["x"] + box["width"] <= wrapper["x"] + wrapper["width"] + 0.5  # in view


@pytest.mark.browser
def test_an_average_in_the_picker_says_what_it_counts(phone, site):
    """Rampant Hex: ATTACK 2 against ARMOUR 3, each die beating 3 half the time: 1 hit on average."""
    phone.goto(f"{site}/rampant_hex/combat.html")
    picker = phone.locator("section:has(> h2:text-is('Expected hits')) form.chart-picker")
    assert pick(phone, picker, "2", "3: 4+ (50%) a die") == "1 hit"
    assert pick(phone, picker, "1", "1: 2+ (83.3%) a die") == "0.83 hits"  # one die beating 1: 5 times in 6


def test_every_chart_fits_its_text_column_at_1280_px(crawled_player_site):
    charts, too_wide = 0, []
    for path, seen in crawled_player_site.items():
        for found in seen["desktop"]["charts"]:
            charts += 1
            if found["width"] > found["column"] + 0.5:
                too_wide.append(f"{path} {found['chart']!r}: {found['width']:.0f}px in {found['column']:.0f}px")
    assert charts >= 10 and not too_wide, too_wide


@pytest.mark.browser
def test_a_chart_page_printed_from_chromium_shows_every_chart_whole_and_nothing_interactive(page, site, tmp_path):
    """Printed (Chromium's own PDF), the page holds every odds of its charts, as many as its text for print has;
    the search box and the pickers are not printed."""
    import pypdf

    page.goto(f"{site}/warhammer_fantasy_charts/charts.html")
    page.emulate_media(media="print")
    shown = page.evaluate("() => document.querySelector('article').innerText")
    hidden = page.evaluate(
        "() => [...document.querySelectorAll('.rp-search, form.chart-picker')].every(e => !e.offsetParent)"
    )
    assert hidden
    for found in page.evaluate(CHART_WIDTHS):
        assert found["width"] <= found["column"] + 0.5, found
    target = tmp_path / "charts.pdf"
    page.pdf(path=str(target), format="A4")
    printed = "".join(p.extract_text() for p in pypdf.PdfReader(target).pages)
    assert shown.count("%") >= 200  # the ten by ten grids are in the text for print
    assert printed.count("%") == shown.count("%")


# -- the keyboard at a phone's width (or 400% zoom) ----------------------------------------------------------
# What has the focus: its name, its role, whether it says it is expanded, and where it is across the screen.
FOCUSED = """() => {
  const e = document.activeElement, box = e.getBoundingClientRect();
  return {name: (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 40), tag: e.tagName,
          role: e.getAttribute('role'), expanded: e.getAttribute('aria-expanded'), left: box.left, right: box.right,
          drawer: e.closest('.sidebar-drawer, .toc-drawer') ? e.closest('.sidebar-drawer, .toc-drawer').className : ''};
}"""


def tab_stops(page, most: int = 200) -> list[dict]:
    """Every place Tab takes the focus to from the top of the page, in order, until it leaves the page."""
    stops = []
    for _ in range(most):
        page.keyboard.press("Tab")
        found = page.evaluate(FOCUSED)
        if found["tag"] == "BODY":
            break
        stops.append(found)
    return stops


def off_screen(stops: list[dict], width: int) -> list[dict]:
    return [stop for stop in stops if stop["right"] <= 0 or stop["left"] >= width]


@pytest.mark.browser
def test_at_320px_the_keyboard_opens_the_menu_and_tab_never_lands_off_screen(browser, site):
    """furo's ☰ is a label: it took no focus, so the menu could not be opened without a mouse, and Tab went through
    the closed menu's 32 links, off-screen to the left. Now the menu button is the first stop after "Skip to
    content"; Enter opens the menu with the focus in it, Escape closes it and gives the focus back; Space as Enter."""
    width = 320
    context = browser.new_context(viewport={"width": width, "height": 640})
    page = context.new_page()
    page.goto(f"{site}/rampant_hex/activation.html")
    stops = tab_stops(page)
    assert len(stops) > 5 and not off_screen(stops, width), off_screen(stops, width)
    assert [stop["name"] for stop in stops[:2]] == ["Skip to content", "Menu"], stops[:2]
    assert (stops[1]["role"], stops[1]["expanded"]) == ("button", "false")

    page.goto(f"{site}/rampant_hex/activation.html")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    menu = page.get_by_role("button", name="Menu", exact=True)
    assert menu.get_attribute("aria-expanded") == "true"
    page.wait_for_function("() => document.querySelector('.sidebar-drawer').getBoundingClientRect().left >= 0")
    assert page.locator(".sidebar-drawer").bounding_box()["width"] <= width  # slid in, on the screen
    inside = [page.evaluate(FOCUSED)]
    for _ in range(5):
        page.keyboard.press("Tab")
        inside.append(page.evaluate(FOCUSED))
    assert all("sidebar-drawer" in stop["drawer"] for stop in inside) and not off_screen(inside, width), inside
    assert "Blood, Guts and Rampant Hex" in [stop["name"] for stop in inside]  # the rulesets, as the menu lists them

    page.keyboard.press("Escape")
    assert page.evaluate(FOCUSED)["name"] == "Menu" and menu.get_attribute("aria-expanded") == "false"
    page.keyboard.press(" ")
    assert menu.get_attribute("aria-expanded") == "true" and page.evaluate(FOCUSED)["drawer"]
    context.close()


@pytest.mark.browser
def test_at_1280px_the_page_s_contents_open_from_the_keyboard_and_their_closed_drawer_takes_no_focus(page, site):
    """Below 82em furo folds the page's contents into a drawer off the right edge: Tab went through its links
    unseen. Its button takes the focus and opens it with Enter."""
    page.goto(f"{site}/rampant_hex/activation.html")
    stops = tab_stops(page)
    assert not off_screen(stops, DESKTOP["width"]), off_screen(stops, DESKTOP["width"])
    names = [stop["name"] for stop in stops]
    assert "Contents on this page" in names and "Menu" not in names  # the menu is not folded at this width
    page.goto(f"{site}/rampant_hex/activation.html")
    for _ in range(names.index("Contents on this page") + 1):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.get_by_role("button", name="Contents on this page").get_attribute("aria-expanded") == "true"
    page.wait_for_function("() => document.querySelector('.toc-drawer').getBoundingClientRect().right <= innerWidth")
    focused = page.evaluate(FOCUSED)
    assert "toc-drawer" in focused["drawer"] and focused["right"] <= DESKTOP["width"], focused


# -- PDFs ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pdf_texts(player_build, read_pdfs) -> dict[str, str]:
    """Every player PDF: the handouts and the sheets of `rulepress build --audience player`."""
    found = sorted(pdf for only in ("handouts", "sheets") for pdf in (player_build / only).rglob("*.pdf"))
    texts = {
        path.name: " ".join(" ".join(page.text.split()) for page in pdf.pages) for path, pdf in read_pdfs(found).items()
    }
    assert len(texts) > 20
    return texts


def test_no_pdf_holds_the_old_loud_gap_marks(pdf_texts):
    """Print shows a gap as an empty box: no ⚠, no "not given" printed in a table cell."""
    for name, text in pdf_texts.items():
        assert "⚠" not in text, name
        assert not re.search(r"not given\s+not given", text), name  # two cells side by side
    # 004's matrix row in the booklet reads name, points and move (2 hexes for foot, 3 for riders), its empty
    # boxes printing nothing.
    booklet = pdf_texts["rampant_hex-handout-a4.pdf"]
    assert (
        "Light foot 4 2 hexes Heavy foot 5 2 hexes Skirmishers 4 2 hexes Monsters 6 2 hexes Levy 2 2 hexes "
        "Light riders 3 hexes"
    ) in booklet
    assert f"ATTACK ({NOT_GIVEN}) ARMOUR ({NOT_GIVEN}) MORAL ({NOT_GIVEN}) PTS" in booklet
    roster = pdf_texts["rampant_hex-roster-a4.pdf"]
    assert "2× Light foot (4 pts) 2 hexes 4 8 2× Heavy foot (5 pts) 2 hexes 5 10" in roster
    assert f"value {NOT_GIVEN}" in roster  # the roster's key, once
    # On the cards the only "not given" left is the author's own words for a duration the text leaves out
    # (magic: Sorcreenes spelle of inexplicable speede, "not given (the extra hex is part of a move ...)").
    cards = pdf_texts["rampant_hex-cards-a4.pdf"]
    assert len(re.findall(r"not given(?! in the source)", cards)) == 1
    assert "Light foot ATTACK ARMOUR MORAL Move 2 hexes Special rules:" in cards
