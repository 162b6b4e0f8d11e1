"""The odds calculators of the player site, picked in Chromium at a phone's width, served and opened as files.

What a player reads after picking is compared with dice enumerated by the test (tests/render/test_calculators.py
holds the oracles) and with the source texts; the page computes nothing and fetches nothing.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from dice_counting import hits_by_counting
from docutils.nodes import SkipNode
from helpers import ROOT, make_project
from site_helpers import PHONE, serve

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def built(player_build) -> Path:
    return player_build / "site"


def calculator(page, title: str):
    return page.locator(f"section:has(> h2:text-is({title!r})) form.rp-calculator")


def pick(form, *labels: str) -> str:
    for index, label in enumerate(labels):
        form.locator(".rp-calc-inputs select").nth(index).select_option(label=label)
    return " ".join(" ".join(form.locator("output .rp-calc-part").all_inner_texts()).split())


def percent(chance: Fraction) -> str:
    text = f"{float(chance) * 100:.1f}".rstrip("0").rstrip(".")
    return f"{text}%"


@pytest.mark.parametrize("opened", ["served", "as a file"])
def test_the_hits_calculator_lists_the_chance_of_each_number_of_hits(browser, built, opened):
    """ATTACK 3 against ARMOUR 3, and 6 against 4: the chance of exactly, at least and at most each number of hits,
    as counted from every face of every die; a bar for each, its chance written on it."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    with serve(built) as url:
        base = url if opened == "served" else built.as_uri()
        page.goto(f"{base}/rampant_hex/calculators.html")
        form = calculator(page, "Hits from ATTACK dice against ARMOUR")
        for attack, armour in ((3, 3), (6, 4)):
            pick(form, str(attack), str(armour))
            expected = hits_by_counting(attack, armour)
            rows = form.locator("table.rp-calc-odds tbody tr")
            assert rows.count() == len(expected)
            below = Fraction(0)
            for index, (hits, chance) in enumerate(expected.items()):
                cells = [" ".join(t.split()) for t in rows.nth(index).locator("th, td").all_inner_texts()]
                assert cells[0] == str(hits)
                assert [c.split()[0] for c in cells[1:]] == [
                    percent(chance) if chance < 1 else "100%",
                    percent(1 - below),
                    percent(below + chance),
                ], (attack, armour, cells)
                below += chance
            bars = form.locator("svg.rp-calc-bars g")
            assert bars.count() == len(expected)
            assert bars.nth(0).locator("text").all_text_contents() == [percent(expected[0]), "0"]
        box = form.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"]
    assert all(u.startswith(base) for u in requests), [u for u in requests if not u.startswith(base)]
    context.close()


def test_a_shot_with_the_modifiers_ticked(browser, built):
    """000: "A firer of Ballistic Skill 3 who moved needs a 5 to hit"; in cover too, 6+; at a large target in cover
    after moving (the +1 undoing one -1), 5+ again. On a D6, 5+ is 1/3 and 6+ 1/6."""
    page = browser.new_context(viewport=PHONE).new_page()
    with serve(built) as url:
        page.goto(f"{url}/ordo_ineptus/calculators.html")
        form = calculator(page, "To hit when shooting, with the modifiers that apply")
        assert [" ".join(t.split()) for t in form.locator(".rp-calc-field > span").all_inner_texts()] == [
            "Firer's BS",
            "Target in cover",
            "Firer moved",
            "At long range",
            "Large target",
        ]
        moved = "Roll to hit: 5+ Chance to hit: 33.3% (exactly 1/3)"
        assert pick(form, "3", "no", "yes", "no", "no") == moved
        assert pick(form, "3", "yes", "yes", "no", "no") == "Roll to hit: 6+ Chance to hit: 16.7% (exactly 1/6)"
        assert pick(form, "3", "yes", "yes", "no", "yes") == moved
    page.context.close()


def test_why_this_number_says_the_case_of_the_rule_for_the_stats_picked(browser, built):
    """The to-hit chart's cases: against a WS more than twice the attacker's, 5+; the reasons follow the pick, and an
    open explanation stays open. A chart's picker explains its cell the same way."""
    page = browser.new_context(viewport=PHONE).new_page()
    with serve(built) as url:
        page.goto(f"{url}/warhammer_fantasy_charts/calculators.html")
        form = calculator(page, "The roll to hit in close combat")
        assert pick(form, "3", "7") == "5+ 33.3% (exactly 1/3)"
        form.locator(".rp-calc-why summary").click()
        why = form.locator(".rp-calc-why")
        assert why.locator("li").all_inner_texts() == [
            "Attacker's WS 3 is not more than Defender's WS 7",
            "Defender's WS 7 is more than 2 × Attacker's WS 3 (6)",
        ]
        assert why.locator("dt").all_inner_texts() == ["2", "5+"]
        assert (
            why.locator("dd").nth(1).inner_text()
            == "Close combat: to hit against more than double the attacker's Weapon Skill"
        )
        assert pick(form, "4", "3") == "3+ 66.7% (exactly 2/3)"
        assert form.locator(".rp-calc-why").get_attribute("open") is not None
        assert form.locator(".rp-calc-why li").all_inner_texts() == ["Attacker's WS 4 is more than Defender's WS 3"]

        page.goto(f"{url}/warhammer_fantasy_charts/charts.html")
        picker = page.locator("form.chart-picker").first
        picker.locator("select[name=row]").select_option(index=2)  # WS 3
        picker.locator("select[name=column]").select_option(index=6)  # WS 7
        picker.locator(".rp-calc-why summary").click()
        assert picker.locator(".rp-calc-why li").all_inner_texts() == [
            "Attacker's WS 3 is not more than Defender's WS 7",
            "Defender's WS 7 is more than 2 × Attacker's WS 3 (6)",
        ]
        assert picker.locator(".rp-calc-why .rp-calc-where").inner_text().endswith("Warhammer Fantasy charts")
    page.context.close()


LONG_WORDS = """
ruleset: {title: Ashfall}
tables:
  injury:
    title: Injury
    dice: 2D6
    rows:
      - {roll: 2-6, result: "Flesh wound, fights on next game"}
      - {roll: 7-11, result: Badly hurt and misses the next game}
      - {roll: 12+, result: Out cold}
formulas:
  hurt:
    title: How badly
    inputs: {heavy: {label: Hit by a heavy weapon, type: bool}}
    expr: injury(2D6 + (1 if heavy else 0))
    result: text
"""
STATIC = ROOT / "generator" / "render" / "site" / "static"


def test_a_roll_of_long_results_in_words_shows_each_word_whole_beside_its_bar_in_the_tables_order(browser, tmp_path):
    """The answer written into the page (no pick yet) and the one the script draws after a pick: each result's words
    clear of every other text of the chart and inside it, listed as the table lists them."""
    from generator.render import calculators as calc
    from generator.render.site.calculator import calculator as node
    from generator.render.site.calculator import visit_calculator
    from generator.validate import check_project

    result = check_project(make_project(tmp_path, ashfall=LONG_WORDS))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ashfall = result.project.ruleset("ashfall")
    [tabled] = calc.calculators(ashfall, "player", calc.computed_key(ashfall))
    writer = type("Writer", (), {"body": []})()
    with pytest.raises(SkipNode):
        visit_calculator(writer, node("", data=tabled.data, number=1))
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_content(f"<!DOCTYPE html><html><body>{''.join(writer.body)}</body></html>")
    page.add_style_tag(content=(STATIC / "rulepress.css").read_text(encoding="utf-8"))
    for script in ("rulepress-why.js", "rulepress-calculators.js"):
        page.add_script_tag(content=(STATIC / script).read_text(encoding="utf-8"))
    words = ["Flesh wound, fights on next game", "Badly hurt and misses the next game", "Out cold"]
    for pick_ in (None, "yes", "no"):
        if pick_:
            page.locator(".rp-calc-inputs select").select_option(label=pick_)
        chart = page.locator("svg.rp-calc-bars")
        assert chart.locator("text.rp-calc-bar-word").all_text_contents() == words
        boxes = chart.evaluate("svg => [...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect().toJSON())")
        outer = chart.bounding_box()
        for index, box in enumerate(boxes):
            assert outer["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= outer["x"] + outer["width"] + 0.5
            for other in boxes[index + 1 :]:
                apart = (
                    box["x"] + box["width"] <= other["x"]
                    or other["x"] + other["width"] <= box["x"]
                    or box["y"] + box["height"] <= other["y"]
                    or other["y"] + other["height"] <= box["y"]
                )
                assert apart, (pick_, box, other)
    page.context.close()


def test_every_picker_form_is_a_form_named_by_its_title_with_no_role_a_form_may_not_take(built):
    """A <form role="group"> is a role a form may not take (axe): each calculator and chart picker is a form named
    by what it works out, which screen readers list among the page's parts."""
    import re

    forms = [
        tag
        for path in built.rglob("*.html")
        for tag in re.findall(r"<form class=\"(?:rp-calculator|[^\"]*chart[^\"]*)\"[^>]*>", path.read_text("utf-8"))
    ]
    assert len(forms) > 20 and all("role=" not in tag and 'aria-label="' in tag for tag in forms), forms[:3]
