"""Search players can trust: the real site, indexed by Pagefind, searched in headless Chromium.

The site (player and game-master) is built once for this module with the CLI (`build --only site`,
all rulesets), served on 127.0.0.1 and searched with the search box at the top of every page.
Expected names are written by hand from rules_src and the source texts.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from site_helpers import ROOT, copy_project, serve

COTD = "City of the Damned combat system"  # 002: defines Stunned (face down, crawl)
ORDO = "Ordo Ineptus: the Shellendrak skirmish"  # 000: defines Stunned too (injury roll 3-4)
TYPES = {
    "rule",
    "table",
    "term",
    "spell",
    "sheet",
    "chart",
    "profile",
    "formula",
    "number",
    "item",
    "hero",
    "army",
    "special rule",
    "victory points",
    "turn",
    "chapter",
    "overview",
    "example",
    "page",
}
CODE_OR_FILES = re.compile(r">>>|Fraction\(|\b[\w-]+\.(?:txt|ya?ml)\b")


@pytest.fixture(scope="module")
def built(sample_build) -> Path:
    return sample_build


@pytest.fixture(scope="module")
def site(built):
    with serve(built / "site") as url:
        yield url


def results(page, words: str) -> list[dict]:
    """Type ``words`` into the page's search box; the results shown, as dicts (type, title, where, excerpt)."""
    page.fill(".rp-search-input", "")
    page.fill(".rp-search-input", words)
    page.wait_for_function(
        """words => {
        const status = document.querySelector('.rp-search-status').textContent;
        return status.includes('found in') || status.startsWith('Nothing found');
    }""",
        arg=words,
        timeout=20000,
    )
    page.wait_for_timeout(300)  # a newer search may still be replacing the list
    return page.eval_on_selector_all(
        ".rp-result",
        """items => items.map(li => ({
        type: li.querySelector('.rp-result-type').textContent,
        title: li.querySelector('.rp-result-title').textContent,
        where: li.querySelector('.rp-result-where').textContent,
        ruleset: li.dataset.ruleset,
        href: li.querySelector('a').getAttribute('href'),
        excerpt: li.querySelector('.rp-result-excerpt').textContent}))""",
    )


def every_result(page) -> list[dict]:
    """The results of the search shown, after "More results" was pressed until it is gone."""
    while page.locator(".rp-search-more").is_visible():
        before = page.locator(".rp-result").count()
        page.click(".rp-search-more")
        page.wait_for_function(f"() => document.querySelectorAll('.rp-result').length > {before}")
    return page.eval_on_selector_all(
        ".rp-result",
        """items => items.map(li => ({
        type: li.querySelector('.rp-result-type').textContent,
        title: li.querySelector('.rp-result-title').textContent,
        ruleset: li.dataset.ruleset,
        href: li.querySelector('a').getAttribute('href')}))""",
    )


def type_filter(page) -> dict[str, int]:
    """The type filter's buttons: label -> the count each shows."""
    return {
        b.locator(".rp-type-label").text_content(): int(b.locator(".rp-type-count").text_content())
        for b in page.locator(".rp-search-types button").all()
    }


# -- the index, built with the site ------------------------------------------------------------------
@pytest.mark.browser
def test_each_site_has_its_own_pagefind_index_and_no_sphinx_search(built):
    for name in ("site", "site-gm", "site-author"):
        index = built / name / "_pagefind"
        assert (index / "pagefind.js").is_file(), name
        assert (index / "pagefind-entry.json").is_file(), name
        assert not (built / name / "searchindex.js").exists(), name
        assert not (built / name / "search.html").exists(), name
    assert (built / "site" / "_pagefind").resolve() != (built / "site-gm" / "_pagefind").resolve()


@pytest.mark.browser
def test_only_the_article_is_indexed_with_its_ruleset_and_code_is_ignored(built):
    html = (built / "site" / "city_of_the_damned_combat" / "injuries.html").read_text(encoding="utf-8")
    assert html.count("data-pagefind-body") == 1
    body = html[html.index("data-pagefind-body") :]
    article_end = html.index("</article>")
    assert html.index("data-pagefind-body") > html.index("<article")
    assert "sidebar" not in body[: article_end - html.index("data-pagefind-body")]
    assert f'data-ruleset="{COTD}"' in html and 'data-pagefind-filter="ruleset[data-ruleset]"' in html
    assert 'id="rule--city-of-the-damned-combat-rules-stunned-effects"' in html  # the Stunned rule, typed
    authors = (built / "site-author" / "city_of_the_damned_combat" / "injuries.html").read_text(encoding="utf-8")
    assert "<pre" not in html and "<pre" in authors  # the authors' site shows the examples' code; never indexed
    for tag in re.findall(
        r"<pre\b[^>]*>|<div class=\"highlight[^\"]*\"[^>]*>|<span class=\"source-cite\"[^>]*>", html + authors
    ):
        assert "data-pagefind-ignore" in tag, tag
    chart = (built / "site" / "warhammer_fantasy_charts" / "charts.html").read_text(encoding="utf-8")
    grids = re.findall(r"<table class=\"[^\"]*rulepress-charts[^\"]*\"[^>]*>", chart)
    assert grids and all("data-pagefind-ignore" in t for t in grids)
    assert "data-pagefind-body" not in (built / "site" / "index.html").read_text(encoding="utf-8")
    for author_page in ("names.html", "../reference/format.html"):  # author pages: the authors' site only, not indexed
        for readers in ("site", "site-gm"):
            assert not (built / readers / "city_of_the_damned_combat" / author_page).exists(), author_page
        text = (built / "site-author" / "city_of_the_damned_combat" / author_page).read_text(encoding="utf-8")
        assert "data-pagefind-body" not in text, author_page


# -- searching in the browser ----------------------------------------------------------------------
@pytest.mark.browser
def test_stunned_from_city_of_the_damned_lists_its_own_results_first_each_typed(page, site):
    page.goto(site + "/city_of_the_damned_combat/injuries.html")
    found = results(page, "stunned")
    assert len(found) >= 3, found
    assert all(r["ruleset"] == COTD for r in found), found
    assert all(r["type"] in TYPES for r in found), found
    assert {"type": "rule", "title": "Stunned"} in [{"type": r["type"], "title": r["title"]} for r in found]
    assert {"type": "term", "title": "Stunned"} in [{"type": r["type"], "title": r["title"]} for r in found]
    assert all(r["href"].startswith("/") for r in found)

    page.click(".rp-scope-all")  # one click: every ruleset
    page.wait_for_function(
        f"() => [...document.querySelectorAll('.rp-result')].some(li => li.dataset.ruleset === {ORDO!r})", timeout=20000
    )
    everywhere = results(page, "stunned")
    ordo = [r for r in everywhere if r["ruleset"] == ORDO]
    assert any(r["type"] == "term" and r["title"] == "Stunned" for r in ordo), everywhere
    assert all(r["type"] in TYPES for r in everywhere)
    first = page.locator(".rp-result a").first  # a result opens its section, no reload of the search page needed
    assert first.get_attribute("href")


def test_every_type_a_result_shows_has_a_filter_label_and_a_rank():
    """The type filter and the ranking know every type a result can show (the types written by hand above)."""
    from generator.render.site.search import PAGE_TYPES, RESULT_TYPES
    from generator.render.site.search import TYPES as SECTION_TYPES

    assert set(RESULT_TYPES) == TYPES
    assert set(SECTION_TYPES.values()) | set(PAGE_TYPES.values()) <= TYPES
    ranks = {kind: tier for kind, (_label, tier) in RESULT_TYPES.items()}
    for entry in ("rule", "term", "table", "spell"):
        assert ranks[entry] < ranks["number"] and ranks[entry] < ranks["formula"]


@pytest.mark.browser
def test_stunned_in_city_of_the_damned_lists_the_glossary_term_above_every_formula_and_number(page, site):
    page.goto(site + "/city_of_the_damned_combat/injuries.html")
    results(page, "Stunned")
    found = every_result(page)
    assert all(r["ruleset"] == COTD for r in found), found
    kinds = [(r["type"], r["title"]) for r in found]
    term = kinds.index(("term", "Stunned"))  # glossary.yaml: term Stunned
    below = [i for i, (kind, _title) in enumerate(kinds) if kind in ("formula", "number")]
    assert any(kinds[i][0] == "formula" for i in below) and any(kinds[i][0] == "number" for i in below), kinds
    assert term < min(below), kinds
    assert kinds.index(("rule", "Stunned")) < min(below), kinds  # rules.yaml: the Stunned effects rule


@pytest.mark.browser
def test_more_results_lists_every_section_pagefind_finds_past_the_first_eight_pages(page, site):
    """Every section of every page Pagefind's own API finds for "stunned" in all rulesets is listed, once."""
    page.goto(site + "/city_of_the_damned_combat/injuries.html")
    variants = page.evaluate("() => window.RULEPRESS_VARIANTS")
    assert "stunned" not in variants  # one spelling: Pagefind's answer below is the whole answer
    pagefind = page.evaluate(
        """async () => {
        const pf = await import('/_pagefind/pagefind.js');
        const search = await pf.search('stunned');
        const pages = await Promise.all(search.results.map(r => r.data()));
        return pages.map(p => p.sub_results.map(s => s.url));
    }"""
    )
    assert len(pagefind) > 8, pagefind  # more pages than the box once showed
    results(page, "stunned")
    page.click(".rp-scope-all")
    page.wait_for_function(
        f"() => [...document.querySelectorAll('.rp-result')].some(li => li.dataset.ruleset === {ORDO!r})", timeout=20000
    )
    first = page.locator(".rp-result").count()
    more = page.locator(".rp-search-more").text_content()
    found = every_result(page)
    expected = [url for sections in pagefind for url in sections]
    assert sorted(r["href"] for r in found) == sorted(expected)
    assert first < len(found) and f"({len(found) - first} more)" in more, (first, more)
    assert not page.locator(".rp-search-more").is_visible()
    assert page.text_content(".rp-search-status").startswith(f"{len(found)} results found in all rulesets")


@pytest.mark.browser
def test_type_filter_lists_only_results_of_the_chosen_type_with_their_count(page, site):
    page.goto(site + "/city_of_the_damned_combat/injuries.html")
    results(page, "Stunned")
    found = every_result(page)
    counts = type_filter(page)
    assert counts.pop("All") == len(found)
    assert sum(counts.values()) == len(found) and {"Rules", "Terms", "Numbers", "Formulas"} <= set(counts), counts

    page.click(".rp-search-types button:has-text('Terms')")
    terms = every_result(page)
    assert len(terms) == counts["Terms"] and {r["type"] for r in terms} == {"term"}, terms
    assert "Stunned" in [r["title"] for r in terms]
    assert page.locator(".rp-search-types button[aria-pressed=true]").text_content().startswith("Terms")

    page.click(".rp-search-types button:has-text('Formulas')")
    formulas = every_result(page)
    assert len(formulas) == counts["Formulas"] and {r["type"] for r in formulas} == {"formula"}, formulas

    page.click(".rp-search-types button:has-text('All')")
    assert len(every_result(page)) == len(found)


@pytest.mark.browser
def test_arrow_keys_move_through_results_enter_opens_one_escape_closes_then_empties(page, site):
    page.goto(site + "/city_of_the_damned_combat/injuries.html")
    results(page, "Stunned")
    links = page.eval_on_selector_all(".rp-result-link", "links => links.map(a => a.getAttribute('href'))")
    focused = "() => document.activeElement.getAttribute('href')"

    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == links[0]
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; }"
    )
    assert ring[0] != "none" and float(ring[1].removesuffix("px")) >= 1, ring  # the selected result shows
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == links[2]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == links[1]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # past the first: back in the box
    assert page.evaluate("() => document.activeElement.classList.contains('rp-search-input')")

    page.keyboard.press("Escape")
    assert page.locator(".rp-search-panel").is_hidden()
    assert page.input_value(".rp-search-input") == "Stunned"
    page.keyboard.press("Escape")
    assert page.input_value(".rp-search-input") == ""

    results(page, "Stunned")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url("**" + links[1])
    assert page.url.endswith(links[1])


@pytest.mark.browser
def test_the_search_field_says_it_opens_its_panel_as_a_combobox(page, site):
    """A search field (`<input type=search>`) may not say it is expanded: the field is a combobox, which says whether
    the panel it controls is open."""
    page.goto(site + "/city_of_the_damned_combat/injuries.html")
    field = page.get_by_role("combobox", name="Search the rules", exact=True)
    assert field.count() == 1 and field.get_attribute("aria-expanded") == "false"
    panel = field.get_attribute("aria-controls")
    assert page.locator(f"#{panel}").count() == 1
    results(page, "Stunned")
    assert field.get_attribute("aria-expanded") == "true" and page.locator(f"#{panel}").is_visible()
    page.keyboard.press("Escape")
    assert field.get_attribute("aria-expanded") == "false" and page.locator(f"#{panel}").is_hidden()


@pytest.mark.browser
def test_each_kind_filter_is_named_by_its_word_and_how_many_results_it_has(page, site):
    """Read as "Terms, 3 results", never "Terms3": each button's name is the word it shows, then its count."""
    page.goto(site + "/city_of_the_damned_combat/injuries.html")
    results(page, "Stunned")
    counts = type_filter(page)  # the word and the count each button shows
    assert len(counts) >= 3 and counts["All"] == len(every_result(page)), counts
    for label, count in counts.items():
        name = f"{label}, {count} result{'' if count == 1 else 's'}"
        assert page.get_by_role("button", name=name, exact=True).count() == 1, name


FOCUS_RING = """field => {
  const ring = getComputedStyle(field), parse = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  let under = null;
  for (let e = field.parentElement; e && !under; e = e.parentElement) {
    const b = getComputedStyle(e).backgroundColor;
    if (!/rgba\\(.*, 0\\)$/.test(b) && b !== 'transparent') under = parse(b);
  }
  const luminance = c => c.map(v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [a, b] = [luminance(parse(ring.outlineColor)), luminance(under || [255, 255, 255])].sort((x, y) => y - x);
  return {style: ring.outlineStyle, width: parseFloat(ring.outlineWidth), ratio: (a + 0.05) / (b + 0.05)};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_search_field_shows_a_ring_where_the_focus_is(page, site, scheme):
    """The focus was shown only by its 1 px border turning blue: a ring of 2 px or more, at 3:1 or more against the
    page (WCAG's contrast for the parts of a control), in either theme."""
    page.emulate_media(color_scheme=scheme)
    page.goto(site + "/city_of_the_damned_combat/injuries.html")
    box = page.locator(".rp-search-field")
    assert box.evaluate(FOCUS_RING)["style"] == "none"  # none until the field has the focus
    page.focus(".rp-search-input")
    ring = box.evaluate(FOCUS_RING)
    assert ring["style"] != "none" and ring["width"] >= 2 and ring["ratio"] >= 3, ring


@pytest.mark.browser
def test_opened_from_a_file_search_says_to_serve_the_site_and_offers_pages_whose_titles_match(page, built):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((built / "site" / "city_of_the_damned_combat" / "injuries.html").as_uri())
    page.click(".rp-search-input")
    assert page.locator(".rp-search-panel").is_visible()  # said at once, before any word is typed
    page.keyboard.type("injuries")
    note = page.locator(".rp-search-offline-note")
    assert note.is_visible() and "rulepress serve" in note.text_content() and "http.server" in note.text_content()
    offered = page.locator(".rp-search-offline a")
    titles = offered.all_text_contents()
    assert "Hits and injuries" in titles, titles  # ruleset.yaml: the chapter's title
    assert all("injur" in t.lower() for t in page.locator(".rp-search-matches a").all_text_contents())
    assert page.locator(".rp-result").count() == 0 and not errors, errors

    page.keyboard.press("ArrowDown")  # the keys work here too
    assert page.evaluate("() => document.activeElement.textContent") == titles[0]
    page.click(".rp-search-offline a:has-text('glossary')")
    page.wait_for_url("**/city_of_the_damned_combat/glossary.html")
    assert page.get_by_role("heading", name="Stunned").count() == 1  # glossary.yaml: the term


@pytest.mark.browser
def test_spelling_variants_find_the_texts_own_words(page, site):
    page.goto(site + "/ordo_ineptus/index.html")
    found = results(page, "armor")
    assert any(r["title"] == "Armour saves" and r["type"] == "rule" for r in found), found
    page.goto(site + "/rampant_hex/index.html")
    found = results(page, "morale")
    assert any(r["title"] == "Moral check" and r["type"] == "rule" for r in found), found


def test_a_games_own_spellings_come_from_its_glossary_not_the_engine(built):
    """The engine knows ordinary English spellings only; Rampant Hex's "Moral" is found as "morale"
    because its glossary lists Morale as an alias, and a term with no alias adds nothing."""
    from types import SimpleNamespace as Term

    from generator.render.site.search import VARIANTS, glossary_variants

    assert "morale" not in VARIANTS and "moral" not in VARIANTS
    terms = [
        Term(term="Moral", aliases=("Morale", "Moral check", "Morale check")),
        Term(term="Wizard's duel", aliases=("Wizards duel", "Duel")),
        Term(term="Hit marker", aliases=()),
    ]
    assert glossary_variants(terms) == {"moral": "morale", "wizard's": "wizards"}
    script = (built / "site" / "_static" / "rulepress-variants.js").read_text(encoding="utf-8")
    shown = __import__("json").loads(script.splitlines()[0].split("=", 1)[1].strip().rstrip(";"))
    assert shown["morale"] == "moral" and shown["moral"] == "morale" and shown["armor"] == "armour"


@pytest.mark.browser
def test_snippets_hold_no_code_or_file_names(page, site):
    page.goto(site + "/ordo_ineptus/index.html")
    results(page, "stunned")
    page.click(".rp-scope-all")
    shown = []
    for words in ("stunned", "armour", "hits", "injury", "wound", "to hit", "example", "source", "chart", "fraction"):
        shown += results(page, words)
    assert len(shown) > 30
    for result in shown:
        text = " ".join((result["title"], result["where"], result["excerpt"]))
        assert not CODE_OR_FILES.search(text), result


@pytest.mark.browser
def test_one_search_field_visible_on_a_phone_without_the_menu(browser, site):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(site + "/city_of_the_damned_combat/injuries.html")
        field = page.locator(".rp-search-input")
        assert field.count() == 1
        assert page.locator("input.sidebar-search, form[action$='search.html']").count() == 0
        assert field.is_visible()
        box = field.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and 0 <= box["y"] < 844, box
        assert not page.locator(".sidebar-drawer").is_visible() or page.evaluate(
            "() => document.querySelector('.sidebar-drawer').getBoundingClientRect().right <= 0"
        )
        field.tap()
        found = results(page, "stunned")
        assert found and all(r["ruleset"] == COTD for r in found)
        panel = page.locator(".rp-search-panel").bounding_box()
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 390, panel
    finally:
        context.close()


# -- a missing Pagefind is a message, not a traceback ---------------------------------------------
@pytest.mark.build  # Sphinx renders the site for real before Pagefind is looked for
def test_missing_pagefind_binary_is_a_clear_error(tmp_path):
    """A fresh `rulepress build` told that Pagefind's binary is somewhere it is not."""
    project = copy_project(tmp_path / "project", ["city_of_the_damned_combat"])
    env = {**os.environ, "PAGEFIND_BINARY_PATH": str(tmp_path / "no-such-pagefind"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "-C",
            str(project),
            "build",
            "--only",
            "site",
            "--audience",
            "player",
            "--out",
            str(tmp_path / "out"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "search index needs Pagefind" in done.stderr and "pagefind[extended]==1.5.2" in done.stderr, done.stderr
    assert not (tmp_path / "out" / "site").exists()


# -- the index's bytes, made here from a few pages --------------------------------------------------------
# Pagefind writes a filter's values in hash-map order; the index is rewritten so every build gives the same bytes.
# Its filter chunks are CBOR: the encodings below are RFC 8949's own examples (Appendix A).
RFC_8949 = [
    (0, "00"),
    (10, "0a"),
    (23, "17"),
    (24, "1818"),
    (100, "1864"),
    (1000, "1903e8"),
    (1000000, "1a000f4240"),
    (1000000000000, "1b000000e8d4a51000"),
    ("", "60"),
    ("a", "6161"),
    ("IETF", "6449455446"),
    ("\u00fc", "62c3bc"),
    (b"", "40"),
    (b"\x01\x02\x03\x04", "4401020304"),
    ([], "80"),
    ([1, 2, 3], "83010203"),
    ([1, [2, 3], [4, 5]], "8301820203820405"),
    (list(range(1, 26)), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
]


@pytest.mark.parametrize("value, encoded", RFC_8949, ids=[e for _v, e in RFC_8949])
def test_filter_chunks_are_read_and_written_as_cbor_encodes_them(value, encoded):
    from generator.render.site.search import _cbor_read, _cbor_write

    assert _cbor_write(value).hex() == encoded
    assert _cbor_read(bytes.fromhex(encoded), 0) == (value, len(encoded) // 2)


def test_a_cbor_item_pagefind_never_writes_is_refused():
    from generator.render.site.search import _cbor_read

    with pytest.raises(ValueError, match="major type 5"):
        _cbor_read(bytes.fromhex("a161616161"), 0)  # {"a": "a"}, a map


def indexed(site: Path) -> dict[str, bytes]:
    from generator.render.site.search import index_site

    index = index_site(site)
    return {p.relative_to(index).as_posix(): p.read_bytes() for p in sorted(index.rglob("*")) if p.is_file()}


def test_indexing_a_site_again_gives_the_same_bytes_with_filters_and_their_values_in_order(tmp_path):
    """Pagefind picks its orders afresh on each run (one of two for two filters): six runs must all agree."""
    import gzip

    from generator.render.site.search import _MAGIC, _cbor_read

    site = tmp_path / "site"
    site.mkdir()
    for n, kind in enumerate(["rule", "table", "term", "spell", "chart", "hero", "army", "turn"] * 3):
        (site / f"page{n}.html").write_text(
            f'<html lang="en"><body><main data-pagefind-body><h1>Page {n}</h1>'
            f'<span data-pagefind-filter="type">{kind}</span><span data-pagefind-filter="ruleset">game{n % 5}'
            f"</span><p>Models move {n} inches when they charge.</p></main></body></html>",
            encoding="utf-8",
        )
    runs = [indexed(site) for _ in range(6)]
    assert all(run == runs[0] for run in runs)
    (meta,) = [name for name in runs[0] if name.endswith(".pf_meta")]
    filters = _cbor_read(gzip.decompress(runs[0][meta]), len(_MAGIC))[0][3]
    assert [name for name, _chunk in filters] == ["ruleset", "type"]  # by name
    chunks = [name for name in runs[0] if name.endswith(".pf_filter")]
    assert len(chunks) == 2
    for name in chunks:
        (_name, values), _end = _cbor_read(gzip.decompress(runs[0][name]), len(_MAGIC))
        assert [pair[0] for pair in values] == sorted(pair[0] for pair in values)


@pytest.mark.parametrize("meta", [b"not pagefind", b"pagefind_dcd" + bytes.fromhex("83010203")])
def test_metadata_pagefind_never_writes_is_refused_not_guessed_at(meta):
    from generator.render.site.search import SearchIndexError, _filters_in_order

    with pytest.raises(SearchIndexError, match="unknown metadata pagefind.en_1.pf_meta"):
        _filters_in_order(meta, "pagefind.en_1.pf_meta")
