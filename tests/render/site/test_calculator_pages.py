"""The odds calculators of the player site, picked in Chromium at a phone's width, served and opened as files.

What a player reads after picking is compared with dice enumerated by the test (tests/render/test_calculators.py
holds the oracles) and with the source texts; the page computes nothing and fetches nothing.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from dice_counting import hits_by_counting
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
