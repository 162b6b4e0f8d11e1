"""How values, chances and roll ranges are printed for players: a chance is never shown as certain or
impossible unless it is, `not given` is a visible mark, and ranges use the en dash and minus sign."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import make_project, sample_project
from limit_expressions import limit_expressions

from generator.mechanics.armies import count_names, evaluate, parse_limit
from generator.model.base import NotGiven
from generator.model.dice import RollRange
from generator.model.entries import Column
from generator.render.present import (
    bounds_text,
    chance_text,
    exact_chance_text,
    last_words_together,
    limit_words,
    list_separator,
    minus_signs,
    one_of,
    profile_text,
    range_text,
    see_also,
    shown,
)


@pytest.mark.parametrize(
    "chance, text",
    [
        (Fraction(9999, 10000), ">99.9%"),  # 99.99% rounds to 100%, but it can fail
        (Fraction(1, 10000), "<0.1%"),  # 0.01% rounds to 0%, but it can happen
        (Fraction(1), "100%"),
        (Fraction(0), "0%"),
        (Fraction(1, 3), "33.3%"),
        (Fraction(2, 3), "66.7%"),
        (Fraction(1, 2), "50%"),
    ],
)
def test_a_chance_is_only_certain_or_impossible_when_it_is(chance, text):
    assert chance_text(chance) == text


def test_an_exact_chance_is_the_fraction_then_the_percentage():
    assert [exact_chance_text(c) for c in (Fraction(1, 3), Fraction(1), Fraction(0))] == [
        "1/3 (33.3%)",
        "1 (100%)",
        "0 (0%)",
    ]


@pytest.mark.parametrize(
    "value, text",
    [
        (NotGiven("lost"), "not given in the source"),
        (None, "—"),
        ("", "—"),
        ((), "—"),
        (("Fear", "Flying"), "Fear, Flying"),
        (True, "yes"),
        (False, "no"),
        (Fraction(3, 2), "1½"),
        (7, "7"),
    ],
)
def test_shown_values(value, text):
    assert shown(value) == text


def test_shown_uses_the_mark_asked_for_nothing():
    assert shown(None, none="-") == "-"


@pytest.mark.parametrize(
    "written, printed",
    [
        ("5", "5"),
        ("1-2", "1–2"),
        ("6+", "6+"),
        ("1-", "1 or less"),
        ("-1-", "−1 or less"),
        ("-2", "−2"),
        ("-3--1", "−3–−1"),
    ],
)
def test_roll_ranges_print_with_an_en_dash_minus_signs_and_an_open_bottom_in_words(written, printed):
    assert range_text(RollRange.parse(written)) == printed


@pytest.mark.parametrize(
    "kind, written, printed",
    [
        ("target", 4, "4+"),
        ("inches", 6, '6"'),
        ("int", 4, "4"),
        ("dice", 3, "3"),
        ("points", Fraction(3, 2), "1½"),
        ("text", "Spear", "Spear"),
        ("target", NotGiven(), "not given in the source"),
        ("target", None, "—"),
    ],
)
def test_a_profile_cell_prints_as_its_column_types_it(kind, written, printed):
    assert profile_text(Column(id="c", label="C", type=kind), written) == printed


def test_army_limit_bounds_in_words():
    assert bounds_text("2", "3") == "at least 2 and at most 3"
    assert bounds_text("", "3") == "at most 3"
    assert bounds_text(None, " ") == ""
    assert bounds_text(Fraction(3, 2), show=lambda bound: f"[{bound}]") == "at least [3/2]"


SEE_ALSO = """
ruleset: {title: Demo}
chapters:
  play: {title: Play}
rules:
  fear_tests:
    title: Fear tests
    chapter: play
    body: Test.
    see_also: [fear, fear_term, fear, fear_tests, morale]
  fear: {title: Fear, chapter: play, body: Afraid.}
  morale: {title: Morale, chapter: play, body: Steady.}
  stunned_effects: {title: Stunned, chapter: play, body: Dazed.}
glossary:
  fear_term: {term: Fear, definition: Being afraid.}
  stunned: {term: Stunned, definition: Dazed., see_also: [stunned_effects]}
"""


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    from generator.validate import check_project

    result = check_project(make_project(tmp_path_factory.mktemp("see_also"), demo=SEE_ALSO))
    assert result.ok, [d.format() for d in result.diagnostics]
    return result.project.ruleset("demo")


def test_see_also_names_each_entry_once_never_itself_and_tells_apart_two_of_one_title(linked):
    rule = linked.get("rules", "fear_tests")
    assert see_also(linked, rule, "player") == [
        ("rules", "fear", "Fear (rule)"),
        ("glossary", "fear_term", "Fear (term)"),
        ("rules", "morale", "Morale"),
    ]


def test_a_term_pointing_at_the_rule_of_its_own_name_says_it_is_the_rule(linked):
    term = linked.get("glossary", "stunned")
    assert see_also(linked, term, "player") == [("rules", "stunned_effects", "Stunned (rule)")]


def test_a_keyword_of_a_rules_title_is_told_apart_by_the_kind_its_ruleset_gives_it():
    # rules_src/ordo_ineptus/psychology.yaml: the rule `stupidity_tests` (title Stupidity) names the keyword
    # `stupidity` (kind psychology, name Stupidity), the term Stupid and the table "Stupid, not in combat"
    ordo = sample_project()[0].ruleset("ordo_ineptus")
    assert see_also(ordo, ordo.get("rules", "stupidity_tests"), "player") == [
        ("keywords", "stupidity", "Stupidity (psychology)"),
        ("glossary", "stupid", "Stupid"),
        ("tables", "stupidity_table", "Stupid, not in combat"),
    ]


def test_a_list_whose_item_holds_a_comma_is_parted_by_semicolons():
    assert list_separator(["Stupid", "Stupid, not in combat"]) == "; "
    assert list_separator(["Fear", "Terror"]) == ", "


@pytest.mark.parametrize(
    "unit, one",
    [
        ("hits", "hit"),
        ("inches", "inch"),
        ("feet", "foot"),
        ("hexes", "hex"),
        ("squares", "square"),
        ("mm", "mm"),
        ("models lost", "models lost"),
        ("dice", "dice"),
        ("moss", "moss"),
    ],
)
def test_one_of_a_unit_is_its_singular(unit, one):
    assert one_of(unit) == one


def test_a_printout_s_negative_numbers_take_the_minus_sign_the_engine_prints():
    """Typed prose says "-1"; the engine prints "−1" (U+2212): a printout's HTML is made to say the one sign. A range
    ("2-6"), a dice sum ("D6-1"), code, styles and scripts keep what was written."""
    typed = (
        "<style>p { margin: -2mm; }</style><script>x = -1</script>"
        "<p>a -1 modifier, 2-6, D6-1, (-2), <code>-1</code>, <pre>-3</pre> -0.5<br/>-4</p>"
    )
    assert minus_signs(typed) == (
        "<style>p { margin: -2mm; }</style><script>x = -1</script>"
        "<p>a \u22121 modifier, 2-6, D6-1, (\u22122), <code>-1</code>, <pre>-3</pre> \u22120.5<br/>\u22124</p>"
    )


NBSP = "\u00a0"


@pytest.mark.parametrize(
    "typed, printed",
    [
        (
            "<p>It may not activate again until next turn.</p>",
            f"<p>It may not activate again until next{NBSP}turn.</p>",
        ),
        # the words may sit in inline markup on either side of the space
        ("<p>A hit on a model <em>on the</em> target.</p>", f"<p>A hit on a model <em>on the</em>{NBSP}target.</p>"),
        (
            "<li>Roll a die for it and <strong>add</strong></li>",
            f"<li>Roll a die for it and{NBSP}<strong>add</strong></li>",
        ),
        # a block of a line or two (a title, a kicker, a short cell), a long last word, a line break: as written
        ("<p>Chapter 1</p>", "<p>Chapter 1</p>"),
        ("<td>2 hexes</td>", "<td>2 hexes</td>"),
        (
            "<p>one two three four the characteristics-increasing</p>",
            "<p>one two three four the characteristics-increasing</p>",
        ),
        ("<p>the rule is written here<br>ends</p>", "<p>the rule is written here<br>ends</p>"),
        ("<td>It stops in front of any enemies.</td>", f"<td>It stops in front of any{NBSP}enemies.</td>"),
        # a hyphenated last word is not broken at its hyphen either
        (
            "<p>The roll to hit may not be re-rolled.</p>",
            f"<p>The roll to hit may not be{NBSP}re\u2011rolled.</p>",
        ),
        # an attribute's spaces are not words
        (
            '<p>for this rule, see <a href="x y">the chart</a></p>',
            f'<p>for this rule, see <a href="x y">the{NBSP}chart</a></p>',
        ),
    ],
)
def test_a_paragraph_s_last_two_words_print_on_one_line(typed, printed):
    assert last_words_together(typed) == printed


ORIGINAL_GAME = """\
ruleset: {title: Ashfall Warbands, version: playtest 0.3}
chapters:
  combat: {title: Combat}
values:
  charge_bonus: {label: Charge bonus, value: 1, quick_reference: true}
tables:
  injuries:
    title: Injuries
    dice: D6
    chapter: combat
    rows:
      - {roll: 1-2, result: Dead}
      - {roll: 3-6, result: Back on its feet}
profiles:
  warriors:
    title: Warriors
    chapter: combat
    columns:
      ws: {label: WS, type: int}
    rows:
      brute: {name: Brute, ws: 3}
"""


def _printed_html(root) -> dict[str, str]:
    """Every sheet and player handout of the project as the HTML WeasyPrint is given, by file name."""
    from generator.render.handouts.jobs import handout_jobs
    from generator.render.sheets.jobs import sheet_jobs, sheet_pages
    from generator.render.site.myst import values_md
    from generator.validate import check_project

    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    jobs = sheet_jobs(result.project, root / "out") + handout_jobs(result.project, root / "out", "player")
    ruleset = result.project.rulesets[0]
    pages = {f"{page}.md": text for page, text in sheet_pages(result.project, "player").items()}
    return {job.target.name: job.html for job in jobs} | {"values.md": values_md(list(ruleset.values), ruleset)} | pages


@pytest.fixture(scope="module")
def original_printed(tmp_path_factory) -> dict[str, str]:
    """The original game's printouts (in English), made once for the tests below that only read them."""
    return _printed_html(make_project(tmp_path_factory.mktemp("original"), ashfall=ORIGINAL_GAME))


def test_a_game_with_no_source_text_prints_no_citation_of_one(tmp_path, original_printed):
    """An original game, written as data from the start: no sheet, booklet or numbers table cites a source (the
    quick reference cited the game's own title under every block); named in `ruleset:`, the source is cited."""
    printed = original_printed
    assert {"ashfall-quick-reference-a4.pdf", "ashfall-handout-a4.pdf", "values.md"} <= set(printed)
    assert "ashfall-quick-reference.md" in printed  # the site's sheet page
    for name, html in printed.items():
        assert 'class="cite"' not in html and "Source:" not in html and "source text" not in html, name
        assert "| Source |" not in html and "{source}" not in html, name
    cited = ORIGINAL_GAME.replace("version: playtest 0.3", "source_title: The Ashfall Book")
    printed = _printed_html(make_project(tmp_path / "cited", ashfall=cited))
    assert "Source: The Ashfall Book." in printed["ashfall-quick-reference-a4.pdf"]
    assert '<p class="cite">The Ashfall Book</p>' in printed["ashfall-quick-reference-a4.pdf"]
    assert "under an entry says where in the source text it comes from" in printed["ashfall-handout-a4.pdf"]


def _read_back(words: str) -> str:
    """A limit in words as Python again: each ", rounded down" makes the last ÷ before it, at its depth of brackets,
    a division rounded down."""
    text = words.replace("units in the force", "units").replace("points spent on troop types alone", "troop_points")
    text = text.replace("×", "*").replace("−", "-").replace("÷", "/")
    out: list[str] = []
    last_division: list[int | None] = [None]
    marker = ", rounded down"
    index = 0
    while index < len(text):
        if text.startswith(marker, index):
            out[last_division[-1]] = "//"
            index += len(marker)
            continue
        char = text[index]
        if char == "(":
            last_division.append(None)
        elif char == ")":
            last_division.pop()
        elif char == "/":
            last_division[-1] = len(out)
        out.append(char)
        index += 1
    return "".join(out)


def _limit_expressions(depth: int):
    """Every limit over `units` and `troop_points` and a few numbers, with + - * / and //, up to ``depth``."""
    return limit_expressions(
        depth, ("units", "troop_points", "1", "2", "3"), ("units", "2", "3", "(units + 9)", "(troop_points // 2)")
    )


def test_a_limit_in_words_reads_back_as_the_limit_for_every_expression_of_two_steps():
    """Against brute force: every expression of depth two, printed in words and read back (brackets, ÷ and each
    "rounded down" as printed), gives the limit's own value for every count tried."""
    rules = sample_project()[0].ruleset("rampant_hex")
    names = count_names(rules)
    tried = 0
    for text in set(_limit_expressions(2)):
        words = limit_words(text, rules)
        limit, back = parse_limit(text, names), parse_limit(_read_back(words), names)
        for units in (0, 3, 11):
            for troop_points in (7, 30):
                counts = {"units": units, "troop_points": troop_points}
                try:
                    expected = evaluate(limit, counts)
                except ZeroDivisionError:
                    continue
                assert evaluate(back, counts) == expected, (text, words)
                tried += 1
    assert tried > 15_000
    assert limit_words("(units + 9) // 10 * 2", rules) == "((units in the force + 9) ÷ 10, rounded down) × 2"
    assert limit_words("units // 2", rules) == "units in the force ÷ 2, rounded down"


def test_a_rulesets_language_is_the_one_its_printouts_and_its_site_say_they_are_in(tmp_path, original_printed):
    """Screen readers read a French rulebook in French and browsers offer no translation "from English": every sheet
    and handout says `lang="fr"`, and so does the site of French rulesets alone (Sphinx gives a site one language)."""
    from generator.render.site.pages import site_language, sphinx_config
    from generator.validate import check_project

    french = ORIGINAL_GAME.replace("version: playtest 0.3", "language: fr")
    printed = _printed_html(make_project(tmp_path / "fr", ashfall=french))
    documents = {name: html for name, html in printed.items() if name.endswith(".pdf")}
    assert len(documents) >= 2 and all('<html lang="fr">' in html for html in documents.values()), list(documents)
    project = check_project(make_project(tmp_path / "fr")).project
    assert site_language(project) == "fr" and sphinx_config(tmp_path, "player", language="fr")["language"] == "fr"
    mixed = check_project(make_project(tmp_path / "mixed", ashfall=french, emberfall=ORIGINAL_GAME)).project
    assert site_language(mixed) == "en"
    house = "ruleset: {title: Ashfall house rules, extends: ashfall, overlay: true}\nvalues:\n  charge_bonus: 2\n"
    with_house = check_project(make_project(tmp_path / "house", ashfall=french, ashfall_house=house))
    assert with_house.ok, [d.format() for d in with_house.diagnostics.errors]
    assert [r.language for r in with_house.project.rulesets] == ["fr", "fr"]  # house rules are in their game's
    english = [html for name, html in original_printed.items() if name.endswith(".pdf")]
    assert len(english) >= 2 and all('<html lang="en">' in html for html in english)
