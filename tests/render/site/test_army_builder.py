"""The army builder in Chromium: the same points, counts and limit verdicts as the engine, on every list.

The property test generates a few hundred armies for each ruleset with an army matrix (the samples and the
fixtures), works each out with the engine (``mechanics.armies``: what `check` uses) and in the page's own script, and
requires the same totals, counts and verdicts. The page is then used as a player would: the text's own sample list,
a list breaking each limit (opened from its link), and the YAML it exports, checked by `check`.
"""

from __future__ import annotations

import base64
import functools
import json
import random
import shutil
import typing
from fractions import Fraction

import helpers
import pytest
from helpers import ROOT, WAR_MACHINES, make_project
from playwright.sync_api import expect
from site_helpers import PHONE, serve

from generator.mechanics import armies
from generator.model.base import Bounds
from generator.model.entries import ArmyList, ArmyUnit
from generator.model.points import points_words
from generator.model.quantity import MAX_MAGNITUDE, parse_number
from generator.render.army_builder import army_state, builder_data, has_builder
from generator.source.ids import id_like
from generator.validate import check_project

pytestmark = pytest.mark.browser

SCRIPT = ROOT / "generator" / "render" / "site" / "static" / "rulepress-army.js"
PROJECTS = {
    "samples": ROOT,
    "frontier": ROOT / "tests" / "fixtures" / "frontier",
    "homebrew": ROOT / "tests" / "fixtures" / "homebrew",
    "headcount": ROOT / "tests" / "fixtures" / "headcount",
}
ARMIES_PER_RULESET = 300


@functools.cache
def checked(name: str):
    """The project ``PROJECTS[name]`` as `check` finds it (without an error), checked once a worker for every test
    that reads it: the model is immutable."""
    result = check_project(PROJECTS[name])
    assert result.ok, (name, [d.format() for d in result.diagnostics.errors])
    return result.project


def rulesets_with_builders():
    for name in PROJECTS:
        for ruleset in checked(name).rulesets:
            if has_builder(ruleset):
                yield name, ruleset


def random_army(ruleset, data: dict, rng: random.Random) -> ArmyList:
    units = []
    for _ in range(rng.randint(0, 6)):
        troop = rng.choice(data["troops"])
        units.append(
            ArmyUnit(
                troop=troop["id"],
                count=rng.randint(1, 4),
                models=rng.randint(1, 12) if troop["models"] is None and rng.random() < 0.7 else None,
                heroes=tuple(rng.choice(data["heroes"])["id"] for _ in range(rng.randint(0, 2)))
                if data["heroes"]
                else (),
                upgrades=tuple(c["id"] for c in data["upgrades"] if rng.random() < 0.3),
            )
        )
    return ArmyList(
        title="Generated",
        matrix=data["matrix"]["id"],
        agreed_points=30 if data["by_points"] else None,
        agreed_models=None if data["by_points"] else 20,
        units=tuple(units),
        # a list file may name a thing bought for the force twice, the page's checkbox never: both are counted
        extras=tuple(c["id"] for c in data["extras"] for _ in range(rng.choice((0, 0, 1, 1, 2)))),
    )


def exact(value) -> str | None:
    if value is None:
        return None
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def engine_verdicts(ruleset, army: ArmyList) -> dict:
    return {
        "points": exact(armies.army_points(ruleset, army)) if armies.balances_by_points(ruleset) else None,
        "models": exact(armies.army_models(ruleset, army)),
        "counts": {name: exact(n) for name, n in armies.army_counts(ruleset, army).items()},
        "limits": [
            {
                "id": r.limit.id,
                "count": exact(r.count),
                "at_most": exact(r.at_most),
                "at_least": exact(r.at_least),
                "holds": r.holds,
            }
            for r in armies.check_limits(ruleset, army)
        ],
    }


@pytest.fixture(scope="module")
def blank(browser):
    """A page with nothing but the builder's script, to ask it about any data."""
    page = browser.new_context().new_page()
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    page.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
    yield page
    page.context.close()


def test_the_page_works_out_every_generated_army_as_the_engine_does(blank):
    compared = 0
    for name, ruleset in rulesets_with_builders():
        data = builder_data(ruleset, "player")
        rng = random.Random(f"{name}/{ruleset.id}")
        generated = [random_army(ruleset, data, rng) for _ in range(ARMIES_PER_RULESET)]
        lists = [army_state(ruleset, army) for army in generated]
        in_page = blank.evaluate(
            "([data, lists]) => lists.map(l => window.rulepressArmy.verdicts(data, l))", [data, lists]
        )
        for army, seen in zip(generated, in_page, strict=True):
            expected = engine_verdicts(ruleset, army)
            assert seen["counts"] == expected["counts"], (ruleset.id, army)
            assert (seen["points"], seen["models"], seen["limits"]) == (
                expected["points"],
                expected["models"],
                expected["limits"],
            ), (ruleset.id, army)
            compared += 1
    assert compared == ARMIES_PER_RULESET * 7  # the samples' two rulesets with armies, and the fixtures' five


@pytest.fixture(scope="module")
def site(player_build):
    with serve(player_build / "site") as url:
        yield url


def first_breaking(ruleset, data: dict, rng: random.Random, tried: int) -> dict[str, tuple]:
    """Limit id -> (the first of ``tried`` generated lists that breaks it, the engine's result for it). Once every
    limit has its list no later list can change what is kept, so none is generated."""
    breaking: dict[str, tuple] = {}
    for _ in range(tried):
        army = random_army(ruleset, data, rng)
        for r in armies.check_limits(ruleset, army):
            if not r.holds and r.limit.id not in breaking:
                breaking[r.limit.id] = (army, r)
        if len(breaking) == len(ruleset.army_limits):
            break
    return breaking


def link(state: dict) -> str:
    return "#list=" + base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")


def test_the_text_s_own_list_adds_up_to_its_printed_total(browser, site):
    """004: "For example a 30 point force may comprise: 2x light foot 8pts, 2x heavy foot 10pts, 1x skirmishers
    4pts, 1x monsters 6pts, 1x levy 2pts =30pts"; it breaks no limit."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html")
    assert " ".join(page.locator(".rp-army-totals").inner_text().split()) == "30 of 30 points · 7 units"
    lines = [" ".join(t.split()) for t in page.locator(".rp-army-line-head").all_inner_texts()]
    assert [line.split(" Remove")[0] for line in lines] == [
        "− 2× + Light foot card 8 pts",  # each name opens its rules; "card" its card in the card sheet PDF
        "− 2× + Heavy foot card 10 pts",
        "− 1× + Skirmishers card 4 pts",
        "− 1× + Monsters card 6 pts",
        "− 1× + Levy card 2 pts",
    ]
    assert page.locator(".rp-army-limits li.broken").count() == 0
    assert page.locator(".rp-army-limits li.holds").count() == 5
    box = page.locator(".rp-army-builder").bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    page.context.close()


def shown(value: str | None) -> str:
    fraction = Fraction(value)
    return str(fraction).replace("-", "\u2212") if fraction.denominator == 1 else str(value)


def test_a_list_breaking_each_limit_shows_it_broken_with_its_numbers_and_its_link_reopens_it(browser, site):
    """For each Rampant Hex limit, the first generated army the engine finds breaking it is opened from its link:
    that limit is crossed, with the count and the bound the engine gives."""
    ruleset = checked("samples").ruleset("rampant_hex")
    data = builder_data(ruleset, "player")
    breaking = first_breaking(ruleset, data, random.Random("breaking"), 3000)
    assert set(breaking) == {limit["id"] for limit in data["limits"]}
    page = browser.new_context(viewport=PHONE).new_page()
    for limit_id, (army, r) in breaking.items():
        state = army_state(ruleset, army) | {"title": f"Breaks {limit_id}"}
        page.goto(f"{site}/rampant_hex/army-builder.html{link(state)}")
        page.reload()  # the link, not what the page kept, opens the list
        item = page.locator(f".rp-army-limits li[data-limit='{limit_id}']")
        assert item.get_attribute("class") == "broken"
        numbers = item.locator(".rp-army-limit-numbers").inner_text()
        assert numbers == f"{shown(exact(r.count))} of at most {shown(exact(r.at_most))}", (limit_id, numbers)
        assert page.locator("#rp-army-title").input_value() == f"Breaks {limit_id}"
    page.context.close()


def test_a_line_of_several_units_says_its_hero_and_upgrade_are_for_each(browser, site):
    """Three heavy foot with a warrior hero and the command upgrade pay for three of each (the engine's rule, 004's
    points): the line says so, "each with" and "(3 each)", and a line of one unit says neither."""
    state = {
        "title": "Each",
        "units": [
            {"troop": "heavy_foot", "count": 3, "heroes": ["warrior_hero"], "upgrades": ["command_unit"]},
            {"troop": "heavy_foot", "count": 1, "heroes": ["warrior_hero"], "upgrades": []},
        ],
        "extras": [],
    }
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html{link(state)}")
    three, one = page.locator(".rp-army-line").all()
    assert three.locator(".rp-army-chip").inner_text() == "each with Warrior hero ✕"
    assert "Command unit (3 each)" in three.locator(".rp-army-upgrade").inner_text()
    assert one.locator(".rp-army-chip").inner_text() == "with Warrior hero ✕"
    assert "Command unit (3)" in one.locator(".rp-army-upgrade").inner_text()
    assert "Warrior hero (2 each)" in three.locator("select option").all_inner_texts()  # the hero menu says so too
    assert "Warrior hero (2)" in one.locator("select option").all_inner_texts()
    page.context.close()


def test_a_line_whose_points_the_text_leaves_out_is_named_beside_the_total_and_overspending_prints_as_over(
    browser, site
):
    """Light riders, whose points 004 does not give, beside four heavy foot (5 each) on 15 agreed: the total, 20, is
    said not to count them, and the printed roster says "Over by 5 points" (never "Left unspent −5"), and that
    check refuses the list, as it cannot be costed (points-not-given)."""
    state = {
        "title": "Riders",
        "agreed_points": 15,
        "units": [{"troop": "heavy_foot", "count": 4}, {"troop": "light_riders", "count": 1}],
        "extras": [],
    }
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html{link(state)}")
    assert " ".join(page.locator(".rp-army-totals").inner_text().split()) == (
        "20 of 15 points — 5 over (not counting Light riders: the text gives no points) · 5 units"
    )
    printed = [" ".join(row.split()) for row in page.locator(".rp-roster-totals tr").all_text_contents()]
    assert printed == [
        "Total20 points",
        "Not countedLight riders (the text gives no points)",
        "Agreed15 points",
        "Over by5 points",
        "Check refuses itthe text gives no points for Light riders, so the list cannot be costed (take troop types "
        "whose points it gives)",
    ]
    page.context.close()


def test_a_list_s_link_opened_in_a_tab_on_the_builder_shows_that_list(browser, site):
    """A friend's link opened in the tab already showing one's own list: the page shows the friend's list, not the
    one it had (the address alone changed, and the page used to keep showing the old list)."""
    mine = {"title": "Mine", "units": [{"troop": "light_foot", "count": 1}], "extras": []}
    theirs = {"title": "Theirs", "units": [{"troop": "heavy_foot", "count": 2}], "extras": []}
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html{link(mine)}")
    assert page.locator("#rp-army-title").input_value() == "Mine"
    page.evaluate("hash => { location.hash = hash; }", link(theirs))
    page.wait_for_function("document.getElementById('rp-army-title').value === 'Theirs'")
    assert " ".join(page.locator(".rp-army-totals").inner_text().split()) == "10 points · 2 units"  # 2 x 5 (004)
    page.context.close()


# Rampant Hex's heavy foot at 6 points, not the 5 its 30 point force gives them: an errata of the kind a club issues
ERRATA = (
    "        name: Heavy foot\n        attack: not given\n        armour: not given\n        moral: not given\n"
    "        pts: 5\n"
)
ERRATA = (ERRATA, ERRATA.replace("pts: 5", "pts: 6"))
LINE_AFTER_ERRATA = "1x heavy_foot costs 8 points, not 7"


def test_the_exported_list_is_one_check_accepts_with_the_same_total(browser, site, tmp_path):
    """A list built in the page (a hero joining a unit, the force's appeal), exported as YAML: `check` accepts it in
    the ruleset's folder and its engine total is the page's."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html")
    page.locator("button", has_text="New list").click()
    page.locator("#rp-army-add").select_option(label="Heavy foot (5 pts)")
    page.get_by_role("button", name="Add Heavy foot", exact=True).click()
    page.locator("#rp-army-add").select_option(label="Light foot (4 pts)")
    page.get_by_role("button", name="Add Light foot", exact=True).click()
    page.locator(".rp-army-line").nth(0).locator("select").select_option(label="Warrior hero (2)")
    page.get_by_role("button", name="Add Warrior hero to Heavy foot", exact=True).click()
    page.locator(".rp-army-extras input").first.check()  # the appeal for scrolls, the one thing bought for a force
    page.locator("#rp-army-agreed").fill("20")
    page.locator("#rp-army-agreed").dispatch_event("change")
    page.wait_for_function("document.querySelector('.rp-army-totals').innerText.includes('of 20')")  # drawn again
    total = " ".join(page.locator(".rp-army-totals").inner_text().split())
    assert total == "15 of 20 points · 2 units"  # 004: heavy foot 5, a low level hero 2, light foot 4, the appeal 4
    assert page.locator(".rp-army-limits li.broken").count() == 0
    page.locator("summary", has_text="As YAML").click()
    exported = page.locator(".rp-army-yaml").input_value()
    page.context.close()

    project = tmp_path / "project"
    shutil.copytree(ROOT / "rules_src" / "rampant_hex", project / "rules_src" / "rampant_hex")
    (project / "rules_src" / "rampant_hex" / "my_list.yaml").write_text(exported, encoding="utf-8")
    result = check_project(project, only="rampant_hex")
    assert result.ok, [d.format() for d in result.diagnostics.errors] + [exported]
    ruleset = result.project.ruleset("rampant_hex")
    mine = next(a for a in ruleset.armies if a.title.startswith("Army"))
    assert armies.army_points(ruleset, mine) == 15 and mine.agreed_points == 20
    # each line says what it cost here, and the list its total: after an errata (heavy foot 6 points, not 5), check
    # says which line now costs other points (the list alone said it spends 16 points of 20)
    assert [unit.points for unit in mine.units] == [7, 4] and mine.total == 15  # heavy foot 5 + its hero 2
    troops = project / "rules_src" / "rampant_hex" / "troops.yaml"
    text = troops.read_text(encoding="utf-8")
    troops.write_text(text.replace(ERRATA[0], ERRATA[1], 1), encoding="utf-8")
    told = [d.format().splitlines()[0] for d in check_project(project, only="rampant_hex").diagnostics.errors]
    mismatch = [line.partition("error[points-mismatch]: ")[2] for line in told if "points-mismatch" in line]
    assert sorted(mismatch[-2:]) == sorted([f"`{mine.id}` adds up to 16 points, not 15", LINE_AFTER_ERRATA]), told


def test_the_printed_roster_is_the_list_with_its_tracking_boxes(browser, site, tmp_path):
    """Printed from Chromium, the page is the roster alone: the list's lines, points and limits as the text gives
    them (004's 30 point force), and each unit's boxes: one for each of the 6 turns the text advises ("6 works well
    for a 50 point game") and a tally for hit markers, as the PDF roster has them."""
    import pypdf

    page = browser.new_context().new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html")
    page.emulate_media(media="print")
    bands = page.evaluate(
        """() => [...document.querySelectorAll('.rp-army-print .rp-roster-table tbody tr')].map(row =>
            [...row.querySelectorAll('td.rp-roster-track')].map(cell =>
              [...cell.querySelectorAll('.rp-roster-unit-marks')].map(m =>
                [...m.querySelectorAll('.rp-roster-box')].filter(b => b.getBoundingClientRect().width > 0).length)))"""
    )
    # 2 light foot, 2 heavy foot, skirmishers, monsters, levy: a band of boxes per unit in each track column
    assert bands == [[[6, 6], [10, 10]], [[6, 6], [10, 10]], [[6], [10]], [[6], [10]], [[6], [10]]]
    pdf = tmp_path / "roster.pdf"
    page.pdf(path=str(pdf), format="A4")
    page.context.close()
    text = " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages).split())
    assert "Army builder" not in text and "Add a unit" not in text  # the roster alone
    for line in ("2× Light foot", "2× Heavy foot", "1× Skirmishers", "1× Monsters", "1× Levy"):
        assert line in text, line
    assert "Total 30 points Agreed 30 points Left unspent 0 points" in text
    assert text.count("✔") == 5 and "✘" not in text


def test_each_unit_links_to_its_rules_and_its_card(browser, site, player_build):
    """Every line of the text's own 30 point force: its name opens the troop profile matrix that gives its stats,
    and its card link opens the card sheet PDF at the page that card is printed on."""
    import pypdf

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html")
    lines = page.locator(".rp-army-line")
    names = lines.locator(".rp-army-name").all_inner_texts()
    assert names == ["Light foot", "Heavy foot", "Skirmishers", "Monsters", "Levy"]
    rules = [page.evaluate("a => a.href", a) for a in lines.locator("a.rp-army-name").element_handles()]
    cards = [page.evaluate("a => a.href", a) for a in lines.locator("a.rp-army-card").element_handles()]
    assert len(rules) == len(cards) == len(names)
    for name, address in zip(names, rules):
        page.goto(address)
        target = page.locator(f"[id='{address.split('#', 1)[1]}']")
        assert "troop profile matrix" in target.inner_text()
        assert (
            page.locator(f"section:has([id='{address.split('#', 1)[1]}']) table")
            .first.get_by_text(name, exact=True)
            .count()
            == 1
        )
    reader = pypdf.PdfReader(player_build / "handouts" / "rampant_hex-cards-a4.pdf")
    for name, address in zip(names, cards):
        path, _, fragment = address.partition("#page=")
        assert path.endswith("/handouts/rampant_hex-cards-a4.pdf")
        text = " ".join(reader.pages[int(fragment) - 1].extract_text().split())
        assert f"TROOP TYPE {name} ATTACK" in text, (name, fragment)  # the card's kind, as printed, then its title
    page.context.close()


def bounds(r) -> str:
    said = [f"at least {shown(exact(r.at_least))}"] if r.at_least is not None else []
    said += [f"at most {shown(exact(r.at_most))}"] if r.at_most is not None else []
    return " and ".join(said)


def builder_lists_as_the_engine_checks_them(browser, site: str, name: str, tried: int = 3000) -> int:
    """On a built site, for each ruleset with an army matrix: each of the text's own lists, opened from its link,
    shows the total the text prints (and the engine computes) and each limit kept or broken as the engine finds;
    and for each limit a generated list breaking it shows it broken, with the engine's numbers. Returns how many
    lists were opened."""
    opened = 0
    page = browser.new_context(viewport=PHONE).new_page()
    for ruleset in checked(name).rulesets:
        if not has_builder(ruleset):
            continue
        address = f"{site}/{ruleset.id}/army-builder.html"
        data = builder_data(ruleset, "player")
        for army in (a for a in ruleset.armies if a.audience == "player"):
            page.goto(address + link(army_state(ruleset, army)))
            page.reload()  # the link, not what the page kept, opens the list
            totals = " ".join(page.locator(".rp-army-totals").inner_text().split())
            if data["by_points"]:
                total = armies.army_points(ruleset, army)
                if army.total is not None:
                    assert total == army.total, (ruleset.id, army.id)  # the text's printed total
                assert totals.startswith(f"{shown(exact(total))} "), (ruleset.id, army.id, totals)
            else:
                models = armies.army_models(ruleset, army)
                assert f"{models} models" in totals, (ruleset.id, army.id, totals)
            verdicts = {
                li.get_attribute("data-limit"): li.get_attribute("class")
                for li in page.locator(".rp-army-limits li").all()
            }
            assert verdicts == {
                r.limit.id: "holds" if r.holds else "broken" for r in armies.check_limits(ruleset, army)
            }, (ruleset.id, army.id)
            opened += 1
        breaking = first_breaking(ruleset, data, random.Random(f"breaking {ruleset.id}"), tried)
        for limit_id, (army, r) in breaking.items():
            page.goto(address + link(army_state(ruleset, army) | {"title": f"Breaks {limit_id}"}))
            page.reload()
            item = page.locator(f".rp-army-limits li[data-limit='{limit_id}']")
            assert item.get_attribute("class") == "broken", (ruleset.id, limit_id)
            numbers = item.locator(".rp-army-limit-numbers").inner_text()
            assert numbers == f"{shown(exact(r.count))} of {bounds(r)}", (ruleset.id, limit_id, numbers)
            opened += 1
    page.context.close()
    return opened


def test_every_sample_builder_shows_the_text_s_lists_and_each_broken_limit(browser, site):
    assert builder_lists_as_the_engine_checks_them(browser, site, "samples") >= 2 + 2 * 5


def test_the_frontier_fixture_s_builder_shows_its_lists_and_each_broken_limit(browser, frontier_build):
    with serve(frontier_build / "site") as url:
        assert builder_lists_as_the_engine_checks_them(browser, url, "frontier") >= 2


def test_the_homebrew_fixture_s_builder_shows_its_lists_and_each_broken_limit(browser, homebrew_build):
    with serve(homebrew_build / "build" / "site") as url:
        assert builder_lists_as_the_engine_checks_them(browser, url, "homebrew") >= 2


def checkable(army: ArmyList, data: dict) -> bool:
    """A generated list `check` can cost: no troop type whose points the text leaves out (by points), each line's
    models known (by head-count)."""
    troops = {t["id"]: t for t in data["troops"]}
    if data["by_points"]:
        return all(troops[u.troop]["points"] is not None for u in army.units)
    return all(troops[u.troop]["models"] is not None or u.models for u in army.units)


def test_every_list_exported_from_the_page_is_one_check_accepts_with_the_same_totals(blank, tmp_path):
    """Each of the samples' and fixtures' own lists, and a few generated ones that break nothing, as the page exports
    them (YAML): put in a copy of the ruleset's folder, `check` accepts each, with the points and models the engine
    gives the list it came from. Each list is a file of its own (its title, and so its id, its own), and a ruleset's
    files are checked together: an error names the file, and so the list, it is in."""
    exported = 0
    for name, ruleset in rulesets_with_builders():
        if ruleset.meta.overlay:
            continue  # an overlay changes values only: its lists are its base's
        data = builder_data(ruleset, "player")
        rng = random.Random(f"export {ruleset.id}")
        generated = (random_army(ruleset, data, rng) for _ in range(400))
        keeping = [a for a in generated if checkable(a, data) and all(r.holds for r in armies.check_limits(ruleset, a))]
        keeping = keeping[:5]
        lists = [a for a in ruleset.armies if a.audience == "player"] + keeping
        project = tmp_path / f"{name}-{ruleset.id}"
        shutil.copytree(PROJECTS[name] / "rules_src", project / "rules_src")
        texts = {}
        for index, army in enumerate(lists):
            state = army_state(ruleset, army) | {"title": f"Exported {index}"}
            spent = armies.army_points(ruleset, army)
            state["agreed_points"] = exact(max(spent, 1)) if data["by_points"] else None
            state["agreed_models"] = None if data["by_points"] else max(1, armies.army_models(ruleset, army))
            texts[index] = blank.evaluate("([data, list]) => window.rulepressArmy.yaml(data, list)", [data, state])
            (project / "rules_src" / ruleset.id / f"zz_exported_{index}.yaml").write_text(
                texts[index], encoding="utf-8"
            )
        result = check_project(project, only=ruleset.id)
        assert result.ok, "\n".join([d.format() for d in result.diagnostics.errors] + list(texts.values()))
        for index, army in enumerate(lists):
            (mine,) = [a for a in result.project.ruleset(ruleset.id).armies if a.title == f"Exported {index}"]
            assert armies.army_points(ruleset, mine) == armies.army_points(ruleset, army), texts[index]
            assert armies.army_models(ruleset, mine) == armies.army_models(ruleset, army), texts[index]
            exported += 1
    assert exported >= 5 * 4


def test_the_page_says_points_in_words_as_the_printed_roster_does(blank):
    """'Left unspent 1 point' in the page's roster as on the printed one: one point singular, any other number plural
    (the engine's words, ``points_words``, for each)."""
    values = [Fraction(1), Fraction(0), Fraction(1, 2), Fraction(3, 2), Fraction(3), Fraction(-1)]
    texts = [f"{v.numerator}/{v.denominator}" for v in values]
    in_page = blank.evaluate("texts => texts.map(t => window.rulepressArmy.pointsWords(t))", texts)
    assert in_page == [points_words(v).replace("-", "\u2212") for v in values]
    assert in_page[0] == "1 point"


def test_agreed_points_of_nothing_are_no_agreement(blank):
    """A list kept with 0 (or 0/2) agreed points has none agreed: `check` refuses `agreed_points: 0`."""
    data = {"troops": [], "heroes": [], "upgrades": [], "extras": [], "samples": []}
    for written, kept in (
        ("0", None),
        ("0/2", None),
        ("00", None),
        ("10", "10"),
        ("7/2", "7/2"),
        ("7/0", None),
        ("-3", None),
    ):
        found = blank.evaluate(
            "([data, list]) => window.rulepressArmy.valid(data, list).agreed_points",
            [data, {"title": "x", "units": [], "extras": [], "agreed_points": written}],
        )
        assert found == kept, written


def test_what_is_typed_in_one_box_and_then_the_next_is_all_kept(browser, site):
    """Typing a list's name, then pressing the agreed points and typing there, keeps both (the page is drawn again
    only once the press is over, so the box pressed is still there); and a button pressed right after typing in a
    box takes that one press."""
    page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html")
    page.locator("button", has_text="New list").click()
    page.locator("#rp-army-title").click()
    page.keyboard.press("Control+A")
    page.keyboard.type("Thorgrim's Hold")
    page.locator("#rp-army-agreed").click()
    # the name is taken as the press ends, and the page drawn again (the list saved under it): then the typing
    page.wait_for_function("document.getElementById('rp-army-open').textContent.includes(\"Thorgrim\")")
    page.keyboard.type("30")
    page.locator("#rp-army-add").select_option(label="Heavy foot (5 pts)")
    page.get_by_role("button", name="Add Heavy foot", exact=True).click()
    assert page.locator("#rp-army-title").input_value() == "Thorgrim's Hold"
    assert " ".join(page.locator(".rp-army-totals").inner_text().split()) == "5 of 30 points · 1 unit"
    page.locator("#rp-army-agreed").click()
    page.keyboard.press("Control+A")
    page.keyboard.type("40")
    page.locator("button[aria-label='One more Heavy foot']").click()
    page.wait_for_function("document.querySelector('.rp-army-totals').innerText.includes('of 40')")
    assert " ".join(page.locator(".rp-army-totals").inner_text().split()) == "10 of 40 points · 2 units"
    page.locator("#rp-army-title").tap()
    page.keyboard.press("Control+A")
    page.keyboard.type("Second")
    page.locator("#rp-army-agreed").tap()
    page.keyboard.press("Control+A")
    page.keyboard.type("50")
    page.keyboard.press("Tab")
    page.wait_for_function("document.querySelector('.rp-army-totals').innerText.includes('of 50')")
    assert page.locator("#rp-army-title").input_value() == "Second"
    page.context.close()


HOLD_DRAWING = "() => { window.held = []; window.setTimeout = (f) => { window.held.push(f); return 0; }; }"
DRAW_HELD = "() => window.held.splice(0).forEach((f) => f())"


def test_what_is_typed_in_the_next_box_before_the_page_is_drawn_again_is_kept(rampant):
    """A slow phone draws the page again a moment after a box is left: the keys typed in the next box in that moment
    were lost with the box drawn anew ("30" kept as "3", or as nothing). Held here (the page's timers kept until let
    go): the name typed, the agreed points pressed and "45" typed before the drawing; once drawn, the box still holds
    45, keeps the focus, and leaving it agrees 45 points."""
    page, _, _ = rampant
    page.evaluate(HOLD_DRAWING)
    page.locator("#rp-army-title").click()
    page.keyboard.press("Control+A")
    page.keyboard.type("Thorgrim's Hold")
    page.locator("#rp-army-agreed").click()
    page.keyboard.press("Control+A")
    page.keyboard.type("4")
    assert page.evaluate("window.held.length") == 1  # the drawing, not yet done
    page.evaluate(DRAW_HELD)
    page.keyboard.type("5")
    agreed = page.locator("#rp-army-agreed")
    expect(agreed).to_be_focused()
    assert agreed.input_value() == "45"
    page.keyboard.press("Tab")
    page.evaluate(DRAW_HELD)
    assert "of 45 points" in totals_text(page)
    assert page.locator("#rp-army-title").input_value() == "Thorgrim's Hold"


def test_the_page_counts_the_points_spent_on_a_kind_of_troop_as_the_engine_does(blank, tmp_path):
    """`war_machines_points`: a ruleset whose bolt thrower counts as a war machine, its lines generated at random."""
    result = check_project(make_project(tmp_path, hammerfall=WAR_MACHINES))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ruleset = result.project.ruleset("hammerfall")
    data = builder_data(ruleset, "player")
    rng = random.Random("war machines")
    generated = [random_army(ruleset, data, rng) for _ in range(200)]
    in_page = blank.evaluate(
        "([data, lists]) => lists.map(l => window.rulepressArmy.verdicts(data, l))",
        [data, [army_state(ruleset, army) for army in generated]],
    )
    spent = {seen["counts"]["war_machines_points"] for seen in in_page}
    assert len(spent) > 10  # the lists differ in it
    for army, seen in zip(generated, in_page, strict=True):
        expected = engine_verdicts(ruleset, army)
        assert (seen["counts"], seen["limits"]) == (expected["counts"], expected["limits"]), army


def test_the_page_names_the_ruleset_s_own_counts_the_list_fields_as_its_roster_does(browser, tmp_path):
    """Two units of dwarf warriors and a bolt thrower, which counts as a war machine and not as a unit: the totals
    and the printed roster say 2 units and 1 war machine, as the roster PDF heads them (`Units: 2`, `War machines:
    1`); a list without the bolt thrower names no war machines."""
    result = check_project(make_project(tmp_path, hammerfall=WAR_MACHINES))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ruleset = result.project.ruleset("hammerfall")
    seen = []
    for units in (
        [ArmyUnit(troop="warriors", count=2), ArmyUnit(troop="bolt_thrower", count=1)],
        [ArmyUnit(troop="warriors", count=2)],
    ):
        army = ArmyList(id="mine", title="Mine", matrix="dwarfs", units=tuple(units))
        data = builder_data(ruleset, "player") | {"samples": [army_state(ruleset, army)]}
        page = browser.new_context(viewport=PHONE).new_page()
        page.set_content(
            '<!DOCTYPE html><html><body><div class="rp-army-builder"><div class="rp-army-app"></div>'
            f'<script type="application/json" class="rp-army-data">{json.dumps(data)}</script></div></body></html>'
        )
        page.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
        fields = [" ".join(cell.split()) for cell in page.locator(".rp-roster-fields td").all_inner_texts()]
        seen.append((" ".join(page.locator(".rp-army-totals").inner_text().split()), fields[2:-1]))
        page.context.close()
    assert seen == [
        ("210 points · 2 units · war machines: 1", ["Units: 2", "War machines: 1"]),
        ("120 points · 2 units", ["Units: 2"]),
    ]


UPGRADE_FOR_SOME = WAR_MACHINES.replace(
    "  crew: {name: Extra crew, points: 15, added_to_unit: true}",
    "  crew: {name: Extra crew, points: 15, added_to_unit: true, troops: [bolt_thrower]}",
)


def test_an_upgrade_for_some_troop_types_is_kept_only_on_their_lines(blank, tmp_path):
    """A list opened from a link or the browser keeps the extra crew on its bolt thrower and drops it from warriors,
    as `check` refuses it there (upgrade-troop)."""
    result = check_project(make_project(tmp_path, hammerfall=UPGRADE_FOR_SOME))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    data = builder_data(result.project.ruleset("hammerfall"), "player")
    assert [(c["id"], c["troops"]) for c in data["upgrades"]] == [("crew", ["bolt_thrower"])]
    written = {
        "title": "Throng",
        "units": [
            {"troop": "warriors", "count": 1, "upgrades": ["crew"], "heroes": []},
            {"troop": "bolt_thrower", "count": 1, "upgrades": ["crew"], "heroes": []},
        ],
    }
    kept = blank.evaluate("([data, list]) => window.rulepressArmy.valid(data, list).units", [data, written])
    assert [(u["troop"], u["upgrades"]) for u in kept] == [("warriors", []), ("bolt_thrower", ["crew"])]


WITH_HORNS = WAR_MACHINES.replace(
    "  crew: {name: Extra crew, points: 15, added_to_unit: true}",
    "  crew: {name: Extra crew, points: 15, added_to_unit: true}\n  horns: {name: War horns, points: 10}",
)


def test_a_list_from_a_link_buys_each_upgrade_of_a_line_once_and_extras_as_often_as_written(blank, tmp_path):
    """Extra crew twice on a line: `check` refuses it (bought-twice), and the page keeps it once, as its boxes buy
    it. War horns twice for the force are two horns, as `check` counts them (a limit may allow one)."""
    result = check_project(make_project(tmp_path, hammerfall=WITH_HORNS))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    data = builder_data(result.project.ruleset("hammerfall"), "player")
    written = {
        "title": "Throng",
        "units": [{"troop": "warriors", "count": 1, "upgrades": ["crew", "crew"], "heroes": []}],
        "extras": ["horns", "horns"],
    }
    kept = blank.evaluate("([data, list]) => window.rulepressArmy.valid(data, list)", [data, written])
    assert (kept["units"][0]["upgrades"], kept["extras"]) == (["crew"], ["horns", "horns"])
    seen = blank.evaluate("([data, list]) => window.rulepressArmy.verdicts(data, list)", [data, kept])
    assert seen["points"] == str(60 + 15 + 10 + 10)


def test_a_list_titled_with_accents_is_exported_under_the_id_its_letters_make(blank, tmp_path):
    """ "Ma bande « d’élite »" is `ma_bande_d_elite`, as `rulepress new` and check's hints make ids: the é kept as
    an e, not dropped."""
    result = check_project(make_project(tmp_path, hammerfall=WAR_MACHINES))
    data = builder_data(result.project.ruleset("hammerfall"), "player")
    for title, id in (
        ("Ma bande « d’élite »", "ma_bande_d_elite"),
        ("Œil du chef", "oeil_du_chef"),
        ("ClubGT Alice", "club_gt_alice"),  # a capital inside a word starts the next, as check's hints make ids
    ):
        # points agreed: a list check takes, so the export opens on its `armies:` (not on why check refuses it)
        listed = {"title": title, "units": [], "extras": [], "agreed_points": "500", "agreed_models": None}
        text = blank.evaluate("([data, list]) => window.rulepressArmy.yaml(data, list)", [data, listed])
        assert text.splitlines()[1] == f"  {id}:", text
        assert id_like(title) == id


@pytest.mark.parametrize("clipboard", ["allowed", "none (a site served over plain http)"])
def test_copy_link_says_it_copied_the_link_or_shows_it_to_copy_by_hand(browser, site, clipboard):
    """The trial's click on "Copy link" over plain http did nothing and said nothing: the page has no clipboard
    there. It now says the link was copied, or shows the link selected, to copy by hand."""
    mine = {"title": "Mine", "units": [{"troop": "light_foot", "count": 1}], "extras": []}
    context = browser.new_context(viewport=PHONE)
    if clipboard == "allowed":
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    else:
        context.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page = context.new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html{link(mine)}")
    page.get_by_role("button", name="Copy link").click()
    told = page.locator(".rp-army-copied")
    if clipboard == "allowed":
        page.wait_for_function("document.querySelector('.rp-army-copied').textContent === 'Link copied'")
        assert page.evaluate("navigator.clipboard.readText()") == page.url
    else:
        assert told.inner_text().startswith("Copy this link:")
        assert told.locator("input").input_value() == page.url
        assert page.evaluate("document.activeElement.value") == page.url  # selected, ready to copy
    context.close()


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("500", "500"),
        (" 1000 ", "1000"),
        ("499½", "999/2"),
        ("499.5", "999/2"),
        ("499,5", "999/2"),
        ("250 1/4", "1001/4"),
        ("999/2", "999/2"),
        ("0", None),
        ("0/4", None),
        ("3/0", None),
        ("-5", None),
        ("five hundred", None),
        ("", None),
    ],
)
def test_agreed_points_are_kept_as_check_reads_them_and_none_is_not_a_size(blank, typed, kept):
    """The trial typed 0 and the page showed "160 of 0 points", which `rulepress list` refuses (out-of-range), and
    it blanked 499½, which check accepts. What it keeps is what the YAML export writes: digits or digits/digits."""
    assert blank.evaluate("text => window.rulepressArmy.agreed(text)", typed) == kept
    if kept is not None:
        numerator, _, denominator = kept.partition("/")
        assert Fraction(int(numerator), int(denominator or 1)) == parse_number(typed.strip().replace(",", "."))


def test_a_link_whose_list_does_not_fit_the_rules_says_what_was_changed(blank, tmp_path):
    """The trial's shared link with a misspelt troop, counts of 1000 and 0 and an upgrade for another troop loaded
    as another army and said nothing: a friend opening it would read a list that is not the one sent."""
    result = check_project(make_project(tmp_path, hammerfall=UPGRADE_FOR_SOME))
    data = builder_data(result.project.ruleset("hammerfall"), "player")
    sent = {
        "title": "Throng",
        "units": [
            {"troop": "warrior", "count": 2},
            {"troop": "warriors", "count": 1000, "upgrades": ["crew"], "heroes": ["enginer"]},
            {"troop": "bolt_thrower", "count": 0, "upgrades": ["crew", "crew"]},
        ],
        "extras": ["horns"],
        "agreed_points": "0",
    }
    said = blank.evaluate(
        "([data, list]) => window.rulepressArmy.changes(data, list, window.rulepressArmy.valid(data, list))",
        [data, sent],
    )
    assert said == [
        "“warrior” is no troop of this army: left out",
        "Dwarf warriors: 1000 is not a number of units from 1 to 100, so 100",
        "Dwarf warriors: “enginer” is no hero of this army: left out",
        "Dwarf warriors: Extra crew is not for this troop: left out",
        "Bolt thrower: 0 is not a number of units from 1 to 100, so 1",
        "Bolt thrower: Extra crew was bought twice: bought once",
        "“horns” is nothing this army buys: left out",
        "“0” is not a number of agreed points: left out",
    ]
    fits = {"title": "Throng", "units": [{"troop": "warriors", "count": 2}], "extras": [], "agreed_points": "500"}
    assert (
        blank.evaluate("([d, l]) => window.rulepressArmy.changes(d, l, window.rulepressArmy.valid(d, l))", [data, fits])
        == []
    )


def test_the_page_says_above_a_changed_links_list_what_was_changed_until_the_list_is_changed(browser, site):
    sent = {"title": "Sent", "units": [{"troop": "light_foot", "count": 1}, {"troop": "hastatii", "count": 1}]}
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/rampant_hex/army-builder.html{link(sent)}")
    notice = page.locator(".rp-army-notice")
    assert notice.locator("li").all_inner_texts() == ["“hastatii” is no troop of this army: left out"]
    page.locator("#rp-army-title").fill("Mine")
    page.locator("#rp-army-title").press("Tab")
    page.wait_for_function("!document.querySelector('.rp-army-notice')")
    page.context.close()


PER_500 = WAR_MACHINES.replace(
    """army_limits:
  machines:""",
    """army_limits:
  per_500:
    title: One bolt thrower per full 500 points agreed
    count: bolt_thrower
    at_most: agreed_points // 500
  machines:""",
)


@pytest.mark.parametrize(
    ("agreed", "throwers", "holds"),
    [(None, 1, False), ("500", 1, True), ("500", 2, False), ("999", 2, False), ("1000", 2, True)],
)
def test_a_limit_per_points_agreed_counts_the_games_size_not_what_is_spent(blank, tmp_path, agreed, throwers, holds):
    """The trial's "one unit of triarii per full 500 points" could only count the points spent, so spending over
    the agreed size allowed more. `agreed_points` is the size agreed (0 until agreed), in the engine and the page."""
    result = check_project(make_project(tmp_path, hammerfall=PER_500))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ruleset = result.project.ruleset("hammerfall")
    army = ArmyList(
        id="mine",
        title="Mine",
        matrix="dwarfs",
        units=(ArmyUnit(troop="warriors", count=12), ArmyUnit(troop="bolt_thrower", count=throwers)),
        agreed_points=None if agreed is None else int(agreed),
    )
    (engine,) = [r for r in armies.check_limits(ruleset, army) if r.limit.id == "per_500"]
    assert (engine.count, engine.at_most, engine.holds) == (throwers, (int(agreed or 0)) // 500, holds)
    data = builder_data(ruleset, "player")
    seen = blank.evaluate(
        "([data, list]) => window.rulepressArmy.verdicts(data, list)", [data, army_state(ruleset, army)]
    )
    (page,) = [limit for limit in seen["limits"] if limit["id"] == "per_500"]
    assert (page["count"], page["at_most"], page["holds"]) == (str(throwers), str(int(agreed or 0) // 500), holds)


def test_the_printed_roster_has_a_move_column_where_the_troops_have_a_movement(browser, tmp_path):
    """Hammerfall's dwarfs say nothing of movement: the roster printed from the page has no Move column, as its PDF
    roster has none (an empty column was printed); the samples' Rampant Hex troops move, and their roster says how
    far: "up to 2 hexes" for light foot."""
    result = check_project(make_project(tmp_path, hammerfall=WAR_MACHINES))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    hammerfall = result.project.ruleset("hammerfall")
    army = ArmyList(id="mine", title="Mine", matrix="dwarfs", units=(ArmyUnit(troop="warriors", count=2),))
    rampant = helpers.sample_project()[0].ruleset("rampant_hex")
    seen = []
    for ruleset, sample in ((hammerfall, army), (rampant, rampant.armies[0])):
        data = builder_data(ruleset, "player") | {"samples": [army_state(ruleset, sample)]}
        page = browser.new_context(viewport=PHONE).new_page()
        page.set_content(
            '<!DOCTYPE html><html><body><div class="rp-army-builder"><div class="rp-army-app"></div>'
            f'<script type="application/json" class="rp-army-data">{json.dumps(data)}</script></div></body></html>'
        )
        page.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
        table = page.locator(".rp-army-print .rp-roster-table")
        heads = table.locator("thead th").all_inner_texts() or table.locator("tr").first.locator("th").all_inner_texts()
        first = table.locator("tbody tr").first.locator("td").all_inner_texts()
        seen.append(
            ("Move" in heads, first[heads.index("Move")] if "Move" in heads else None, len(heads) == len(first))
        )
        page.context.close()
    assert seen == [(False, None, True), (True, "2 hexes", True)]


# -- used from the keyboard and heard through a screen reader (an accessibility review of the built builder) -------
ADDRESS = "http://rulepress.test/rampant_hex/army-builder.html"


def builder_page(browser, ruleset, data: dict | None = None, opening: str = ""):
    """The builder alone on a page served at an address (so it keeps lists in its address and storage as on the
    site) with the site's stylesheet, and the ruleset's data (or `data` made from it): it opens on the ruleset's
    first list, or on the list of the link `opening` (``link(state)``)."""
    data = data or builder_data(ruleset, "player")
    html = (
        '<!DOCTYPE html><html><body><h1>Army builder</h1><div class="rp-army-builder"><div class="rp-army-app"></div>'
        f'<script type="application/json" class="rp-army-data">{json.dumps(data)}</script></div></body></html>'
    )
    page = browser.new_context(viewport=PHONE).new_page()
    page.route(ADDRESS, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(ADDRESS + opening)
    page.add_style_tag(content=(SCRIPT.parent / "rulepress.css").read_text(encoding="utf-8"))  # the roster unseen
    page.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
    return page, data


@pytest.fixture
def rampant(browser):
    """Rampant Hex's builder (``builder_page``): it opens on the text's own 30 point force. Yields (page, ruleset,
    data)."""
    ruleset = helpers.sample_project()[0].ruleset("rampant_hex")
    page, data = builder_page(browser, ruleset)
    yield page, ruleset, data
    page.context.close()


def totals_text(page) -> str:
    return " ".join(page.locator(".rp-army-totals").inner_text().split())


def line_names(page) -> list[str]:
    return page.locator(".rp-army-line .rp-army-name").all_inner_texts()


def the_force(ruleset, data) -> tuple[list[str], Fraction]:
    """004's 30 point force, the sample list the page opens on: its lines' troop names and its points (engine)."""
    (army,) = [a for a in ruleset.armies if a.audience == "player"]
    names = {t["id"]: t["name"] for t in data["troops"]}
    return [names[u.troop] for u in army.units], Fraction(armies.army_points(ruleset, army))


def test_arrow_keys_and_typing_in_the_unit_menu_move_the_choice_and_add_nothing_until_add_is_pressed(rampant):
    """The review's blocker: each ↓ in "Add a unit" added a unit (Chromium fires `change` on every arrow key) and
    typing "Lev" added light foot. Now ↓ ↓ ↓ and "Lev" only choose levy; its button, "Add Levy", adds one levy (2
    points, 004); a mouse picks heavy foot and presses Add."""
    page, ruleset, data = rampant
    names, points = the_force(ruleset, data)
    troops = {t["name"]: t for t in data["troops"]}
    before = totals_text(page)
    assert before == f"{points} of 30 points · 7 units"
    menu = page.locator("#rp-army-add")
    menu.focus()
    for key in ("ArrowDown", "ArrowDown", "ArrowDown"):
        page.keyboard.press(key)
    page.keyboard.type("Lev")
    assert (line_names(page), totals_text(page)) == (names, before)  # nothing added
    assert menu.input_value() == troops["Levy"]["id"]
    assert page.evaluate("document.activeElement.id") == "rp-army-add"  # the focus is still in the menu
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Add Levy", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    levy = Fraction(troops["Levy"]["points"])
    assert line_names(page) == [*names, "Levy"]
    assert totals_text(page) == f"{points + levy} of 30 points — {points + levy - 30} over · 8 units"
    menu.select_option(label="Heavy foot (5 pts)")  # a mouse: the menu, then its button
    assert line_names(page) == [*names, "Levy"]
    page.get_by_role("button", name="Add Heavy foot", exact=True).click()
    assert line_names(page) == [*names, "Levy", "Heavy foot"]


def test_an_arrow_key_in_a_line_s_hero_menu_chooses_a_hero_and_adds_none_until_add_is_pressed(rampant):
    """One ↓ in a line's hero menu added a hero and lost the focus. Now it chooses the second hero of the rules'
    list, and the button beside it, named for that hero and the line, adds it to each unit of the line."""
    page, ruleset, data = rampant
    names, points = the_force(ruleset, data)
    second = data["heroes"][1]
    line = page.locator(".rp-army-line").nth(1)  # two heavy foot
    assert line.locator(".rp-army-name").inner_text() == names[1] == "Heavy foot"
    menu = line.locator("select")
    menu.focus()
    page.keyboard.press("ArrowDown")
    assert line.locator(".rp-army-chip").count() == 0
    assert totals_text(page) == f"{points} of 30 points · 7 units"
    assert page.evaluate("document.activeElement.tagName") == "SELECT"
    expect(menu).to_be_focused()
    assert menu.input_value() == second["id"]
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name=f"Add {second['name']} to Heavy foot", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    assert line.locator(".rp-army-chip").inner_text() == f"each with {second['name']} ✕"
    spent = points + 2 * Fraction(second["points"])  # a hero joins each of the line's two units (004)
    assert totals_text(page) == f"{spent} of 30 points — {spent - 30} over · 7 units"


def test_a_list_is_opened_by_its_button_not_by_moving_through_the_list_menu(rampant):
    """The list menu opened each list ↓ passed on (the new list kept in the browser, then the rules' own): now ↓
    only chooses, and the button beside it, named for the list, opens it."""
    page, ruleset, data = rampant
    page.get_by_role("button", name="New list").click()
    assert line_names(page) == []
    menu = page.locator("#rp-army-open")
    menu.focus()
    for _ in range(2):
        page.keyboard.press("ArrowDown")
        assert (line_names(page), page.locator("#rp-army-title").input_value()) == ([], "Army 1")
    sample = f"{data['samples'][0]['title']} (from the rules)"
    assert menu.evaluate("menu => menu.selectedOptions[0].text") == sample
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name=f"Open {sample}", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    assert page.locator("#rp-army-title").input_value() == data["samples"][0]["title"]
    assert line_names(page) == the_force(ruleset, data)[0]


def test_after_each_press_the_focus_stays_on_the_control_pressed_or_moves_to_its_neighbour(rampant):
    """The page is drawn again on each change, and the focus was kept only on controls with an id: after +, −,
    Remove, a hero's ✕, adding a hero or leaving the agreed points the next Tab started again at the top. Each
    control pressed keeps the focus; one that is gone hands it to its neighbour: a line removed, to the next line
    itself (never its Remove), or to the unit menu."""
    page, ruleset, data = rampant
    names, _ = the_force(ruleset, data)
    assert names == ["Light foot", "Heavy foot", "Skirmishers", "Monsters", "Levy"]

    def press(role: str, name: str, key: str = "Enter"):
        page.get_by_role(role, name=name, exact=True).focus()
        page.keyboard.press(key)

    def focused(role: str, name: str):
        expect(page.get_by_role(role, name=name, exact=True)).to_be_focused()

    press("button", "One more Heavy foot")
    assert page.locator(".rp-army-count").nth(1).inner_text() == "3×"
    focused("button", "One more Heavy foot")
    press("button", "One fewer Heavy foot")
    assert page.locator(".rp-army-count").nth(1).inner_text() == "2×"
    focused("button", "One fewer Heavy foot")
    press("checkbox", "Command unit for Heavy foot (3 each)", "Space")
    focused("checkbox", "Command unit for Heavy foot (3 each)")
    hero = data["heroes"][0]["name"]
    press("button", f"Add {hero} to Heavy foot")
    focused("button", f"Add {hero} to Heavy foot")
    press("button", f"Remove {hero} from Heavy foot")  # its ✕: the line has no hero left, so its hero menu
    assert page.locator(".rp-army-chip").count() == 0
    focused("combobox", "Hero to add to Heavy foot")
    press("button", "Remove Heavy foot")
    assert line_names(page) == ["Light foot", "Skirmishers", "Monsters", "Levy"]
    # the next line itself, not its Remove (a second Enter there removed it too): see the test after this one
    expect(page.locator(".rp-army-line").nth(1)).to_be_focused()
    assert page.evaluate("document.activeElement.querySelector('.rp-army-name').textContent") == "Skirmishers"
    press("button", "Remove Levy")  # the last line: no next line, so the unit menu
    focused("combobox", "Unit to add")
    press("button", "One fewer Monsters")  # one monster, now the last line: the line goes
    assert line_names(page) == ["Light foot", "Skirmishers"]
    focused("combobox", "Unit to add")

    # leaving the agreed points by Tab: the focus stays where Tab took it while the page is drawn again
    agreed = page.locator("#rp-army-agreed")
    agreed.focus()
    page.keyboard.press("Tab")
    after = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert after == "One fewer Light foot"
    agreed.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("40")
    page.keyboard.press("Tab")
    page.wait_for_function("document.querySelector('.rp-army-totals').innerText.includes('of 40')")
    focused("button", after)
    page.keyboard.press("Tab")
    focused("button", "One more Light foot")  # and Tab goes on from there


def test_one_live_region_says_the_totals_and_each_broken_limit_after_each_change(rampant):
    """The totals line was a live region drawn anew on each change (a new region is often not read out). One region
    stays, and each change's totals are said in it, with the limits the list breaks (as the engine finds them); each
    limit is said kept or broken in words, not only by its ✔ or ✘."""
    page, ruleset, data = rampant
    names, points = the_force(ruleset, data)
    (upgrade,) = data["upgrades"]
    troops = {t["name"]: t["id"] for t in data["troops"]}
    counts, upgrades = [2, 2, 1, 1, 1], [(), (), (), (), ()]
    region = page.get_by_role("status").filter(has_text=f"{points} of 30 points").element_handle()
    assert " ".join(region.inner_text().split()) == totals_text(page)
    seen_broken = []
    # a command unit for the skirmishers (one of at most one per 30 points of troops), then for the two heavy foot
    # (three: broken), then one more levy
    for line, press in ((2, "command"), (1, "command"), (4, "more")):
        if press == "command":
            page.locator(".rp-army-line").nth(line).get_by_role("checkbox").check()
            upgrades[line] = (upgrade["id"],)
        else:
            page.locator(".rp-army-line").nth(line).get_by_role("button", name=f"One more {names[line]}").click()
            counts[line] += 1
        army = ArmyList(
            id="mine",
            title="Mine",
            matrix=data["matrix"]["id"],
            agreed_points=30,
            units=tuple(
                ArmyUnit(troop=troops[name], count=count, upgrades=ups)
                for name, count, ups in zip(names, counts, upgrades, strict=True)
            ),
        )
        results = armies.check_limits(ruleset, army)
        broken = [r.limit.title for r in results if not r.holds]
        seen_broken.append(bool(broken))
        assert region.evaluate("e => e.isConnected"), "the live region was drawn anew"
        said = " ".join(region.inner_text().split())
        spent = Fraction(armies.army_points(ruleset, army))
        assert said.startswith(totals_text(page)) and totals_text(page).startswith(f"{spent} of 30 points"), said
        assert said.partition("Breaks: ")[2] == "; ".join(broken), said
        for r in results:
            heard = page.locator(f".rp-army-limits li[data-limit='{r.limit.id}']").aria_snapshot()
            assert ("kept" if r.holds else "broken") in heard and ("broken" if r.holds else "kept") not in heard, heard
            assert "✔" not in heard and "✘" not in heard, heard
    assert seen_broken == [False, True, True]
    assert page.get_by_role("status").filter(has_text="points").count() == 1


@pytest.mark.parametrize("typed", ["abc", "-5", "1e9"])
def test_agreed_points_that_are_no_size_stay_in_their_box_with_why_beside_it(rampant, typed):
    """`abc`, `-5` and `1e9` were erased as the box was left, silently. They stay, the box is marked invalid and
    described by why; the list keeps its 30 agreed points (004's force) until a size is typed."""
    page, ruleset, data = rampant
    _, points = the_force(ruleset, data)
    box = page.locator("#rp-army-agreed")
    box.fill(typed)
    box.press("Tab")
    expect(box).to_have_attribute("aria-invalid", "true")
    assert box.input_value() == typed
    why = page.locator("#" + box.get_attribute("aria-describedby"))
    assert why.inner_text().strip().startswith("Agreed points must be a number above 0")
    expect(box).to_have_accessible_description(why.inner_text().strip())
    assert "must be a number above 0" in page.get_by_role("status").filter(has_text="points").inner_text()
    assert totals_text(page) == f"{points} of 30 points · 7 units"
    page.get_by_role("button", name="One more Levy").click()  # drawn again: still said, still in the box
    assert box.input_value() == typed and why.is_visible()
    box.fill("40")
    box.press("Tab")
    page.wait_for_function("document.querySelector('.rp-army-totals').innerText.includes('of 40')")
    assert box.get_attribute("aria-invalid") is None and box.get_attribute("aria-describedby") is None
    assert page.get_by_text("Agreed points must be").count() == 0


def test_each_line_s_upgrade_box_is_named_with_its_unit(rampant):
    """Every line's box was named "Command unit (3 each)": a screen reader's list of boxes did not say whose. Each
    names its line's troop, with the points as shown (004: 3 points, each for a line of several units)."""
    page, ruleset, data = rampant
    names, _ = the_force(ruleset, data)
    (upgrade,) = data["upgrades"]
    counts = [u.count for u in ruleset.armies[0].units]  # 004's force: 2, 2, 1, 1, 1
    for name, count in zip(names, counts, strict=True):
        each = " each" if count > 1 else ""
        box = page.get_by_role("checkbox", name=f"{upgrade['name']} for {name} ({upgrade['points']}{each})", exact=True)
        assert box.count() == 1, name


def test_the_builder_s_parts_have_headings(rampant):
    """After the page's h1 the builder had no heading to move by: its list, its totals and limits, and what keeps
    and prints the list each have one."""
    page, _, _ = rampant
    assert page.get_by_role("heading", level=2).all_inner_texts() == [
        "The list",
        "Totals and army limits",
        "Save, share and print",
    ]


def test_agreed_models_that_are_no_whole_number_stay_in_their_box_with_why_beside_it(browser):
    """A game sized by models (the headcount fixture's vanguard, 30 models agreed): "12abc" was taken as 12, and
    "0" erased; both now stay in the box, said wrong, and the list keeps its 30."""
    page, _ = builder_page(browser, checked("headcount").ruleset("skirmish"))
    box = page.locator("#rp-army-agreed")
    assert box.input_value() == "30"
    for typed in ("12abc", "0"):
        box.fill(typed)
        box.press("Tab")
        expect(box).to_have_attribute("aria-invalid", "true")
        expect(box).to_have_accessible_description("Agreed models must be a whole number above 0: the list keeps 30.")
        assert box.input_value() == typed and " models of 30" in totals_text(page)
    box.fill("12")
    box.press("Tab")
    page.wait_for_function("document.querySelector('.rp-army-totals').innerText.includes('models of 12')")
    assert box.get_attribute("aria-invalid") is None
    page.context.close()


CONTROL_NAMES = """[...document.querySelectorAll('.rp-army-units button, .rp-army-units input, .rp-army-units select')]
    .map(e => e.getAttribute('aria-label'))"""


def test_the_controls_of_two_lines_of_one_troop_say_which_line_they_are_of(rampant):
    """A second line of levy gave both lines a "One more Levy", a "Remove Levy" and a "Command unit for Levy": a
    screen reader's list of buttons could not tell them apart. Each names its line once the troop has two; with one
    line again, the name is the troop's alone."""
    page, ruleset, data = rampant
    names, _ = the_force(ruleset, data)
    levy = names.index("Levy") + 1  # 004's force has one line of levy
    page.locator("#rp-army-add").select_option(next(t["id"] for t in data["troops"] if t["name"] == "Levy"))
    page.get_by_role("button", name="Add Levy", exact=True).click()
    added = len(names) + 1
    heard = page.evaluate(CONTROL_NAMES)
    assert len(heard) == len(set(heard)), sorted(n for n in heard if heard.count(n) > 1)
    for line in (levy, added):
        for name in (f"One more Levy, line {line}", f"One fewer Levy, line {line}", f"Remove Levy, line {line}"):
            expect(page.get_by_role("button", name=name, exact=True)).to_have_count(1)
    page.get_by_role("button", name=f"Remove Levy, line {added}", exact=True).click()
    expect(page.get_by_role("button", name="One more Levy", exact=True)).to_have_count(1)
    assert not any(", line " in name for name in page.evaluate(CONTROL_NAMES))


def test_a_line_s_models_that_are_no_whole_number_stay_in_its_box_with_why_beside_it(browser):
    """A game sized by models whose troop leaves its models to the player (the headcount fixture's horse, its models
    taken out): "12abc" was taken as 12 and "0" erased as the box was left, silently. Both now stay in the box, said
    wrong, and the line keeps what it had; a whole number is taken."""
    ruleset = checked("headcount").ruleset("skirmish")
    data = builder_data(ruleset, "player")
    (horse,) = [t for t in data["troops"] if t["name"] == "Horse"]
    horse["models"] = None
    page, _ = builder_page(browser, ruleset, data)
    page.locator("#rp-army-add").select_option(horse["id"])
    page.get_by_role("button", name="Add Horse", exact=True).click()
    box = page.get_by_role("textbox", name="Models in Horse", exact=True)
    expect(box).to_be_visible()
    untaken = totals_text(page)  # the line drawn, its models not yet given
    box.fill("7")
    box.press("Tab")
    page.wait_for_function(  # under load the totals are drawn after Tab returns: wait for the 7 to count
        "t => document.querySelector('.rp-army-totals').innerText.split(/\\s+/).join(' ').trim() !== t", arg=untaken
    )
    total = totals_text(page)
    for typed in ("12abc", "0", "20000"):
        box.fill(typed)
        box.press("Tab")
        expect(box).to_have_attribute("aria-invalid", "true")
        expect(box).to_have_accessible_description(
            "Models in Horse must be a whole number from 1 to 10,000: the line keeps 7."
        )
        assert box.input_value() == typed and totals_text(page) == total
    page.get_by_role("button", name="One more Horse", exact=True).click()  # drawn again: still in the box, said
    assert box.input_value() == "20000" and box.get_attribute("aria-invalid") == "true"
    box.fill("9")
    box.press("Tab")
    page.wait_for_function("!document.querySelector('[aria-invalid]')")
    assert box.input_value() == "9" and page.get_by_text("must be a whole number from 1").count() == 0
    page.context.close()


# -- lists check refuses, lines at their most, lists kept by title (a tournament organizer's trial) ------------------
def checked_lists(tmp_path, name: str, ruleset_id: str, texts: list[str]) -> list[list]:
    """Each YAML text put in a copy of the project's ruleset folder, in a file of its own (its list's id made its
    own: two lists of one title share an id), and the project checked once: each text's errors (check's
    diagnostics), in order."""
    project = tmp_path / f"checked-{ruleset_id}"
    shutil.copytree(PROJECTS[name] / "rules_src", project / "rules_src")
    for index, text in enumerate(texts):
        lines = text.splitlines()
        at = lines.index("armies:") + 1
        lines[at] = f"  zz_list_{index}:"
        (project / "rules_src" / ruleset_id / f"zz_list_{index}.yaml").write_text("\n".join(lines), encoding="utf-8")
    result = check_project(project, only=ruleset_id)
    return [
        [d for d in result.diagnostics.errors if d.location.path.endswith(f"/zz_list_{index}.yaml")]
        for index in range(len(texts))
    ]


REFUSED = {"missing-field", "points-not-given"}  # what check refuses a list for besides its points and limits
TOLD_BESIDE = {"over-points", "over-models", "limit-broken"}  # the page shows these in its totals and limits


@pytest.mark.parametrize(("name", "ruleset_id"), [("samples", "rampant_hex"), ("headcount", "skirmish")])
def test_the_page_says_a_list_is_refused_exactly_when_check_refuses_it(blank, tmp_path, name, ruleset_id):
    """Generated lists with and without agreed points or models, some with a line whose points the text does not
    give (Rampant Hex's light riders), or whose models nobody gives: exported from the page and checked, check
    refuses a list (missing-field, points-not-given) exactly when the page says it refuses it, and the export then
    says so at its top (the builder said every limit kept and printed a roster for lists `list` refuses)."""
    ruleset = checked(name).ruleset(ruleset_id)
    data = builder_data(ruleset, "player")
    rng = random.Random(f"refused {ruleset_id}")
    states = []
    for index in range(60):
        state = army_state(ruleset, random_army(ruleset, data, rng)) | {"title": f"Refused {index}"}
        state["agreed_points"] = rng.choice([None, "1000"]) if data["by_points"] else None
        state["agreed_models"] = rng.choice([None, None, 1000])
        states.append(state)
    seen = blank.evaluate(
        """([data, lists]) => lists.map(l => [window.rulepressArmy.refusals(data, l),
                                             window.rulepressArmy.yaml(data, l)])""",
        [data, states],
    )
    errors = checked_lists(tmp_path, name, ruleset_id, [text for _, text in seen])
    refused = 0
    for (said, text), found in zip(seen, errors, strict=True):
        codes = {d.code.code for d in found}
        assert codes <= REFUSED | TOLD_BESIDE, [d.format() for d in found]
        assert bool(said) == bool(codes & REFUSED), (said, [d.format() for d in found], text)
        assert text.startswith("# check refuses this list: ") == bool(said), text
        refused += bool(said)
        troops = {t["id"]: t["name"] for t in data["troops"]}
        for d in found:
            if d.code.code == "points-not-given":  # the source gives no points for `light_riders`
                troop = d.message.split("`")[1]
                assert f"the text gives no points for {troops[troop]}" in " ".join(said), said
    assert 10 < refused < 50  # both kinds were tried


def refusal(page) -> str:
    found = page.locator(".rp-army-refused")
    return " ".join(found.inner_text().split()) if found.count() else ""


def live(page) -> str:
    return " ".join(page.locator(".rp-army-said").text_content().split())


def exported(page) -> str:
    return page.locator(".rp-army-yaml").input_value()


def test_a_list_check_refuses_is_said_refused_beside_its_totals_in_the_live_region_and_in_print(rampant, tmp_path):
    """004's force with a line of light riders (whose points the text does not give) on its 30 agreed points, and a
    new list with no points agreed: the trial's builder kept every limit ✔, printed "Left unspent 0 points", and
    exported lists `rulepress list` refused (points-not-given; missing-field). The page now says beside the totals
    and in the live region that check refuses the list, and why; once the line goes or the points are agreed, it
    says nothing, and check takes the export."""
    page, ruleset, data = rampant
    riders = next(t for t in data["troops"] if t["points"] is None)
    texts, said = [], []
    page.locator("#rp-army-add").select_option(riders["id"])
    page.get_by_role("button", name=f"Add {riders['name']}", exact=True).click()
    said.append(refusal(page))
    assert live(page).startswith(totals_text(page) + ". " + said[-1].lstrip("✘ ").rstrip("."))
    printed = [" ".join(row.split()) for row in page.locator(".rp-roster-totals tr").all_text_contents()]
    assert printed[-1] == "Check refuses it" + said[-1].partition(": ")[2].rstrip(".")
    texts.append(exported(page))
    page.get_by_role("button", name=f"Remove {riders['name']}", exact=True).click()
    said.append(refusal(page))
    texts.append(exported(page))
    page.get_by_role("button", name="New list").click()
    page.locator("#rp-army-add").select_option(label="Heavy foot (5 pts)")
    page.get_by_role("button", name="Add Heavy foot", exact=True).click()
    said.append(refusal(page))
    assert said[-1].rstrip(".").split(": ", 1)[1] in live(page)
    texts.append(exported(page))
    page.locator("#rp-army-agreed").fill("40")
    page.locator("#rp-army-agreed").press("Tab")
    page.wait_for_function("document.querySelector('.rp-army-totals').innerText.includes('of 40')")
    said.append(refusal(page))
    texts.append(exported(page))
    assert "Check refuses" not in live(page)

    errors = checked_lists(tmp_path, "samples", "rampant_hex", texts)
    codes = [[d.code.code for d in found] for found in errors]
    assert codes == [["points-not-given"], [], ["missing-field"], []], [[d.format() for d in f] for f in errors]
    assert f"`{riders['id']}`" in errors[0][0].message  # check names the line the page names
    assert said == [
        f"✘ Check refuses this list: the text gives no points for {riders['name']}, so the list cannot be costed "
        "(take troop types whose points it gives).",
        "",
        "✘ Check refuses this list: no points are agreed (type the agreed points).",
        "",
    ]


def test_agreed_points_larger_than_check_takes_stay_in_their_box_with_why(rampant, tmp_path):
    """The trial's 99999999999 agreed points were taken, and check refuses them (too-large). The largest check
    takes is the engine's: the page keeps the box's text, said wrong with that number, and the list its 30; the
    largest itself is taken. A link with more says it left them out."""
    page, _, data = rampant
    box = page.locator("#rp-army-agreed")
    box.fill(str(MAX_MAGNITUDE + 1))
    box.press("Tab")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(box).to_have_accessible_description(
        f"Agreed points must be at most {MAX_MAGNITUDE:,}, the largest number check takes: the list keeps 30."
    )
    assert f"at most {MAX_MAGNITUDE:,}" in live(page) and "of 30 points" in totals_text(page)
    box.fill(str(MAX_MAGNITUDE))
    box.press("Tab")
    page.wait_for_function(f"document.querySelector('.rp-army-totals').innerText.includes('of {MAX_MAGNITUDE}')")
    assert box.get_attribute("aria-invalid") is None
    taken = exported(page)
    errors = checked_lists(
        tmp_path, "samples", "rampant_hex", [taken, taken.replace(str(MAX_MAGNITUDE), "99999999999")]
    )
    assert [[d.code.code for d in found] for found in errors] == [[], ["too-large"]]

    sent = {"title": "Huge", "units": [{"troop": "levy", "count": 1}], "agreed_points": 99999999999}
    linked, _ = builder_page(page.context.browser, None, data, link(sent))
    assert linked.locator(".rp-army-notice li").all_inner_texts() == [
        f"“99999999999” is not a number of agreed points check takes (at most {MAX_MAGNITUDE:,}): left out"
    ]
    assert refusal(linked) == "✘ Check refuses this list: no points are agreed (type the agreed points)."
    linked.context.close()


def line_most() -> int:
    """The most units one line of a list holds, as the list format bounds `count` (check's out-of-range)."""
    hint = typing.get_type_hints(ArmyUnit, include_extras=True)["count"]
    return next(mark for mark in hint.__metadata__ if isinstance(mark, Bounds)).high


def test_a_link_s_counts_and_ids_the_rules_do_not_have_are_each_said_above_the_list_and_in_the_live_region(
    browser, tmp_path
):
    """The trial's link of 1000 levy opened as 100, −3 as 1, 2.5 as 2, and a troop or hero of no such id was
    dropped, unread by a screen reader. Each is said above the list, and the live region says them once; a link
    that holds no list that can be read is said so too."""
    ruleset = helpers.sample_project()[0].ruleset("rampant_hex")
    data = builder_data(ruleset, "player")
    most = line_most()
    sent = {
        "title": "Tampered",
        "units": [
            {"troop": "dragons", "count": 2},
            {"troop": "levy", "count": 1000},
            {"troop": "heavy_foot", "count": -3, "heroes": ["gandalf"]},
            {"troop": "monsters", "count": 2.5},
            {"troop": "light_foot"},  # no count: one unit, as check reads a line
        ],
        "agreed_points": 50,
    }
    page, _ = builder_page(browser, ruleset, data, link(sent))
    expected = [
        "“dragons” is no troop of this army: left out",
        f"Levy: 1000 is not a number of units from 1 to {most}, so {most}",
        f"Heavy foot: -3 is not a number of units from 1 to {most}, so 1",
        "Heavy foot: “gandalf” is no hero of this army: left out",
        f"Monsters: 2.5 is not a number of units from 1 to {most}, so 2",
    ]
    assert page.locator(".rp-army-notice li").all_inner_texts() == expected
    assert live(page).startswith(
        "This link's list did not fit these rules, so it was changed: " + "; ".join(expected) + "."
    )
    assert page.locator(".rp-army-count").all_inner_texts() == [f"{most}×", "1×", "2×", "1×"]
    page.context.close()
    page, _ = builder_page(browser, ruleset, data, "#list=bm90IGEgbGlzdA")  # "not a list"
    assert page.locator(".rp-army-notice li").all_inner_texts() == [
        "the link holds no list that can be read: none of it is shown"
    ]
    page.context.close()
    # the bound is check's: a line of that many is taken, one more refused
    line = "armies:\n  l:\n    title: L\n    matrix: troops\n    agreed_points: 1000\n    units:\n"
    errors = checked_lists(
        tmp_path, "samples", "rampant_hex", [line + f"      - {{troop: levy, count: {n}}}\n" for n in (most, most + 1)]
    )
    assert [[d.code.code for d in found] for found in errors] == [[], ["out-of-range"]]


def test_one_more_at_a_line_s_most_says_why_it_adds_none(browser):
    """The + of a line of 100 added nothing and said nothing: the trial's 150 heavy foot needed a second line, and
    nothing said so. At its most the line says why beside it, its + is described by that, and pressing it says it
    in the live region; the focus stays on +."""
    ruleset = helpers.sample_project()[0].ruleset("rampant_hex")
    most = line_most()
    sent = {"title": "Full", "units": [{"troop": "heavy_foot", "count": most - 1}], "agreed_points": 1000}
    page, _ = builder_page(browser, ruleset, None, link(sent))
    more = page.get_by_role("button", name="One more Heavy foot", exact=True)
    why = f"{most} is the most one line holds: add another line of Heavy foot for more."
    assert page.get_by_text(why).count() == 0
    more.focus()
    page.keyboard.press("Enter")
    assert page.locator(".rp-army-count").inner_text() == f"{most}×"
    expect(more).to_have_accessible_description(why)
    page.keyboard.press("Enter")
    assert page.locator(".rp-army-count").inner_text() == f"{most}×"
    assert live(page).startswith(why)
    expect(more).to_be_focused()
    page.context.close()


def test_a_second_enter_after_remove_removes_nothing_more(rampant):
    """Remove handed the focus to the Remove of the line that moved up, so a second Enter removed that line too. The
    focus now goes to the next line itself: a second Enter removes nothing, and Tab goes on into that line; the
    live region says which line went. The last of a line taken away by − does the same."""
    page, ruleset, data = rampant
    names, _ = the_force(ruleset, data)
    page.get_by_role("button", name="Remove Heavy foot", exact=True).focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert line_names(page) == [n for n in names if n != "Heavy foot"]
    assert live(page).startswith("Heavy foot removed.")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="One fewer Skirmishers", exact=True)).to_be_focused()
    page.keyboard.press("Enter")  # one skirmisher (004's force): the line goes, and the focus to the next line
    page.keyboard.press("Enter")
    assert line_names(page) == ["Light foot", "Monsters", "Levy"]
    expect(page.locator(".rp-army-line").nth(1)).to_be_focused()


def open_list(page, title: str) -> None:
    page.locator("#rp-army-open").select_option(label=title)
    page.get_by_role("button", name=f"Open {title}", exact=True).click()


def saved_titles(page) -> list[str]:
    return [t for t in page.locator("#rp-army-open option").all_inner_texts()[1:] if not t.endswith("(from the rules)")]


def retitle(page, title: str) -> None:
    """Type a new title for the list shown and leave the box: the builder saves it and draws itself again once the
    press is over, so this waits for the list menu to change (the box holds the title at once, before it is saved;
    the menu then has the list under its new title, and no longer under its old one)."""
    options = "[...document.querySelectorAll('#rp-army-open option')].map(o => o.textContent).join('\\n')"
    before = page.evaluate(options)
    page.locator("#rp-army-title").fill(title)
    page.locator("#rp-army-title").press("Tab")
    page.wait_for_function(f"before => {options} !== before", arg=before)


def test_a_list_given_a_saved_list_s_title_is_saved_under_a_title_of_its_own_and_a_renamed_list_leaves_none(rampant):
    """The trial's second list titled "Alice" was saved over the first (its 4 heavy foot, 20 points, lost), and each
    renamed "Army N" stayed in the menu, empty. A list renamed is saved in place of its old title; a title another
    saved list has gives this one "Alice (2)", said beside the title and in the live region."""
    page, _, _ = rampant
    page.get_by_role("button", name="New list").click()
    retitle(page, "Alice")
    page.locator("#rp-army-add").select_option(label="Heavy foot (5 pts)")
    for _ in range(4):
        page.get_by_role("button", name="Add Heavy foot", exact=True).click()
    assert saved_titles(page) == ["Alice"]  # no "Army 1" left behind
    page.get_by_role("button", name="New list").click()
    assert saved_titles(page) == ["Alice", "Army 2"]
    retitle(page, "Alice")
    assert page.locator("#rp-army-title").input_value() == "Alice (2)"
    why = "“Alice” is the title of another saved list, so this one is saved as “Alice (2)”."
    expect(page.locator("#rp-army-title")).to_have_accessible_description(why)
    assert live(page).startswith(why)
    page.locator("#rp-army-add").select_option(label="Monsters (6 pts)")
    page.get_by_role("button", name="Add Monsters", exact=True).click()
    assert saved_titles(page) == ["Alice", "Alice (2)"]
    open_list(page, "Alice")
    assert totals_text(page).startswith("20 points · 4 units")  # 4 x 5 (004): the first Alice, whole
    open_list(page, "Alice (2)")
    assert totals_text(page).startswith("6 points · 1 unit")
    retitle(page, "Bob")  # renamed in place: its old title gone, its place in the menu kept
    assert saved_titles(page) == ["Alice", "Bob"]


def test_delete_removes_the_saved_list_shown_and_undo_brings_it_back(rampant):
    """There was no way to delete a saved list. Delete removes the one shown and shows the saved list after it in
    the menu (else the one before, else the rules' own); the focus goes to the list menu, where a second Enter
    deletes nothing; Undo brings the list back where it was."""
    page, _, data = rampant
    for title in ("Ann", "Ben", "Cy"):
        page.get_by_role("button", name="New list").click()
        retitle(page, title)
    assert saved_titles(page) == ["Ann", "Ben", "Cy"]
    open_list(page, "Ben")
    page.get_by_role("button", name="Delete the saved list “Ben”", exact=True).focus()
    page.keyboard.press("Enter")
    assert saved_titles(page) == ["Ann", "Cy"]
    assert page.locator("#rp-army-title").input_value() == "Cy"  # the next in the menu
    expect(page.locator("#rp-army-open")).to_be_focused()
    assert live(page).startswith("“Ben” is deleted; “Cy” is open.")
    page.keyboard.press("Enter")
    assert saved_titles(page) == ["Ann", "Cy"]
    page.get_by_role("button", name="Undo: bring back “Ben”", exact=True).click()
    assert saved_titles(page) == ["Ann", "Ben", "Cy"]
    assert page.locator("#rp-army-title").input_value() == "Ben"
    # Ben: the one after it shown; Cy, the last in the menu: the one before it; Ann, the last: the rules' own
    for title, shown_next in (("Ben", "Cy"), ("Cy", "Ann"), ("Ann", data["samples"][0]["title"])):
        page.get_by_role("button", name=f"Delete the saved list “{title}”", exact=True).click()
        assert page.locator("#rp-army-title").input_value() == shown_next
    assert saved_titles(page) == []
    assert page.locator("#rp-army-title").input_value() == data["samples"][0]["title"]
    assert page.get_by_role("button", name="Delete", exact=False).count() == 0  # the rules' list is saved nowhere
    stored = page.evaluate("key => localStorage.getItem(key)", f"rulepress-army-lists:{data['ruleset']}")
    assert json.loads(stored) == {}


TARGETS = """[...document.querySelectorAll('.rp-army-app :is(button, select, input, a)')]
    .filter(e => e.offsetParent !== null)
    .map(e => { const r = e.getBoundingClientRect();
                return [e.getAttribute('aria-label') || e.textContent.trim() || e.id, r.width, r.height]; })"""


def test_every_control_of_the_builder_is_a_target_a_finger_can_hit_on_a_phone(rampant):
    """At 390 px an upgrade's box was 13 px and a menu 21 px high: each control the builder shows is at least the
    24 by 24 CSS pixels WCAG 2.2 asks of a target (2.5.8)."""
    page, _ruleset, _data = rampant
    found = page.evaluate(TARGETS)
    assert len(found) > 20
    small = [(name, round(width), round(height)) for name, width, height in found if width < 24 or height < 24]
    assert not small


ONE_IN_THREE = WAR_MACHINES.replace(
    """army_limits:
  machines:""",
    """army_limits:
  one_in_three:
    title: At most one unit in three a bolt thrower
    count: bolt_thrower / units
    at_most: 1/3
  machines:""",
)


def test_a_limit_that_divides_by_a_count_the_list_leaves_at_0_is_broken_and_said_so_not_a_dead_page(browser, tmp_path):
    """A limit written as a share of the units (bolt throwers / units) cannot be worked out for a list of no units:
    check refuses such a list ("divides by zero"), and the builder threw, stopped drawing and, reopened with the same
    empty list from its address, stayed blank. It shows the limit broken and why, and every other number."""
    result = check_project(make_project(tmp_path, hammerfall=ONE_IN_THREE))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ruleset = result.project.ruleset("hammerfall")
    data = builder_data(ruleset, "player")
    empty = ArmyList(id="mine", title="Mine", matrix="dwarfs", units=())
    three = ArmyList(
        id="mine",
        title="Mine",
        matrix="dwarfs",
        units=(
            ArmyUnit(troop="warriors", count=1),
            ArmyUnit(troop="warriors", count=1),
            ArmyUnit(troop="bolt_thrower", count=1),
        ),
    )
    page = browser.new_context().new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    holder = json.dumps(data).replace("</", "<\\/")
    page.set_content(
        '<!DOCTYPE html><html><body><div class="rp-army-builder">'
        f'<script class="rp-army-data" type="application/json">{holder}</script><div class="rp-army-app"></div>'
        "</div></body></html>"
    )
    page.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
    ask = "([data, list]) => window.rulepressArmy.verdicts(data, list)"
    (share,) = [
        v for v in page.evaluate(ask, [data, army_state(ruleset, empty)])["limits"] if v["id"] == "one_in_three"
    ]
    assert (share["count"], share["holds"]) == (None, False)
    assert share["fails"] == "divides by zero: a count it divides by is 0 in this list"
    assert page.evaluate(ask, [data, army_state(ruleset, three)]) == engine_verdicts(ruleset, three)  # as check
    page.get_by_role("button", name="New list").click()
    limit = page.locator('[data-limit="one_in_three"]')
    expect(limit).to_have_class("broken")
    expect(limit).to_contain_text("divides by zero: a count it divides by is 0 in this list")
    expect(page.locator(".rp-army-total")).to_contain_text("0")
    assert errors == []
    page.context.close()
