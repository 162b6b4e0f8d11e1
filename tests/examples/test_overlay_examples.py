"""An overlay runs its base's worked examples under its own values, and says so where they differ.

Issue 21: the house-rules overlay printed the text's "4 in all ✓ checked" while its own house move made it 5;
an overlay ran no examples and showed its base's sentences as checked, and cited itself, not the text.
Now an overlay's values replace the base's in the examples' namespace (`values.x`, the formulas and the
mechanics reading them); an example whose result changes is never checked: its sentence prints the house
rules' number where it states the result ("8 hexes (house rule; the text: 7 hexes)"), else says
"the text: …; these house rules: …"; `check` counts the overlay's examples and names those that changed; its
citations name the base's source text by its title and section.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from helpers import ROOT

from generator.cli import main
from generator.pipeline.build import check_with_examples
from generator.render.markdown import prose_md
from generator.render.present import source_text
from generator.render.prose import Prose
from generator.render.sheets.quickref import quick_reference
from generator.render.site import myst
from generator.render.site.pages import examples_page

pytestmark = pytest.mark.usefixtures("without_the_wall")  # the wall is not what is tested here (conftest)

BASE = """\
ruleset:
  title: Skirmish
  source: text.txt
  source_title: Skirmish at the Mill
chapters:
  moving: {title: Moving}
values:
  move: {value: 6 hexes, label: How far models move, source: {section: MOVING, quote: "Models move 6 hexes."}}
  dash: {value: 1 hex, label: Extra move when dashing, source: {section: MOVING, quote: "a dash adds 1 hex"}}
formulas:
  total_move:
    title: Total move
    inputs: {dashing: {label: Dashing, type: bool}}
    expr: move + (dash if dashing else 0)
    result: distance
rules:
  moving:
    title: Moving
    chapter: moving
    source: {section: MOVING, quote: "Models move 6 hexes."}
    body: |
      A model moves up to {value}`move`; a dash adds {value}`dash`.

      So a dashing model moves 7 hexes in all:

      ```python
      >>> total_move(dashing=True)
      7 hexes
      ```

      A dash is one extra hex, whatever the move:

      ```python
      >>> values.dash
      1 hex
      ```

      Twice the move is 12 hexes:

      ```python
      >>> twice_the_move()
      12 hexes
      ```
"""
MECHANICS = """\
__all__ = ["twice_the_move"]


def twice_the_move():
    return values.move + values.move
"""
HOUSE = """\
ruleset:
  title: Club rules
  extends: skirmish
  overlay: true
values:
  move: {value: 7 hexes, house_note: A wider board.}
"""
SOURCE = "MOVING\nModels move 6 hexes. a dash adds 1 hex\n"


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "rules_src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def club(tmp_path) -> Path:
    return write(
        tmp_path,
        {
            "skirmish/ruleset.yaml": BASE,
            "skirmish/mechanics.py": MECHANICS,
            "skirmish/sources/text.txt": SOURCE,
            "club/ruleset.yaml": HOUSE,
        },
    )


@pytest.fixture
def checked(club):
    result, failures = check_with_examples(club)
    assert result.ok and failures == [], [d.format() for d in list(result.diagnostics.errors) + failures]
    return result.project


def test_check_counts_an_overlays_examples_and_names_those_its_house_values_change(club, capsys):
    assert main(["-C", str(club), "check", "--all"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines() == [
        # 6 + 1 is the text's 7; under the house move of 7: 8, and twice the move 14, not 12
        "club: 3 examples, 1 pass, 2 give another result under its house values (rules.moving)",
        "skirmish: 3 examples, all pass",
        "2 rulesets, 0 tables, 0 profile rows, 6 examples, 0 errors",
    ]


def test_an_overlays_examples_read_its_values_through_formulas_and_mechanics(checked):
    found = {(r.line, r.results) for r in checked.ruleset("club").house_results}
    lines = [r.line for r in checked.ruleset("club").house_results]
    assert sorted(r for _line, r in found) == [(("12 hexes", "14 hexes"),), (("7 hexes", "8 hexes"),)]
    assert all(line > 0 for line in lines)
    assert checked.ruleset("skirmish").house_results == ()


def test_the_overlays_site_page_says_both_results_and_never_checks_a_sentence_its_values_make_false(checked):
    club = checked.ruleset("club")
    page = myst.rule_md(club.rule("moving"), club, "player")
    dashing = next(line for line in page.splitlines() if "dashing model" in line)
    assert "checked" not in dashing
    assert "moves 8 hexes (house rule; the text\\: 7 hexes) in all." in dashing and "these house rules" not in dashing
    unchanged = next(line for line in page.splitlines() if "whatever the move" in line)
    assert unchanged.endswith("{checked}`✓`")  # true under the house rules too: checked under them


def test_the_texts_own_pages_still_check_the_sentence(checked):
    skirmish = checked.ruleset("skirmish")
    page = myst.rule_md(skirmish.rule("moving"), skirmish, "player")
    assert next(line for line in page.splitlines() if "dashing model" in line).endswith("{checked}`✓`")


def test_the_overlays_booklet_says_both_results(checked):
    club = checked.ruleset("club")
    html = str(Prose(club, "player").html(club.rule("moving").body))
    dashing = next(line for line in html.splitlines() if "dashing model" in line)
    assert "moves 8 hexes (house rule; the text: 7 hexes) in all." in dashing and "checked" not in dashing
    twice = next(line for line in html.splitlines() if "Twice the move" in line)
    assert "Twice the move is 14 hexes (house rule; the text: 12 hexes).</p>" in twice


def test_the_overlays_quick_reference_says_both_results_where_its_rules_are_printed(tmp_path):
    marked = BASE.replace(
        "    chapter: moving\n    source:", "    chapter: moving\n    quick_reference: true\n    source:"
    )
    files = {"skirmish/ruleset.yaml": marked, "skirmish/mechanics.py": MECHANICS, "skirmish/sources/text.txt": SOURCE}
    result, failures = check_with_examples(write(tmp_path, files | {"club/ruleset.yaml": HOUSE}))
    assert result.ok and failures == [], [d.format() for d in result.diagnostics.errors]
    club = result.project.ruleset("club")
    ((group, _tables),) = quick_reference(club).chapters
    (moving,) = group.rules
    printed = str(Prose(club, "player").html(moving.text))  # the PDF sheet's
    on_site = prose_md(moving.text, club, inline=True)  # the site's page of the sheet
    assert "dashing model moves 8 hexes (house rule; the text: 7 hexes) in all." in printed
    assert "dashing model moves 8 hexes (house rule; the text\\: 7 hexes) in all." in on_site
    assert ">>>" not in printed + on_site


def test_the_authors_examples_page_marks_the_changed_examples(checked):
    page = examples_page(checked.ruleset("club"), "gm")
    assert page.count("- ≠ ") == 2 and page.count("- ✔ ") == 1
    assert "— 1 checked statement, " in page  # `>>> values.dash`, one statement


def test_an_overlay_cites_the_text_it_changes_by_its_title(checked):
    club = checked.ruleset("club")
    assert source_text(club.rule("moving").source, club) == "Skirmish at the Mill, MOVING"
    assert source_text(club.value("move").source, club) == "Skirmish at the Mill, MOVING"


def test_a_game_masters_house_value_is_never_read_from_a_changed_result_on_player_pages(tmp_path):
    secret = HOUSE.replace("house_note: A wider board.", "house_note: A wider board., audience: gm")
    # only the mechanics read the secret house move: no player text names it, so check lets it be
    quiet = BASE.replace(
        "A model moves up to {value}`move`; a dash adds {value}`dash`.", "A model moves, and may dash."
    )
    quiet = quiet.replace("expr: move + (dash if dashing else 0)", "expr: 6 + (dash if dashing else 0)")
    root = write(
        tmp_path,
        {
            "skirmish/ruleset.yaml": quiet,
            "skirmish/mechanics.py": MECHANICS,
            "skirmish/sources/text.txt": SOURCE,
            "club/ruleset.yaml": secret,
        },
    )
    result, failures = check_with_examples(root)
    assert result.ok and failures == [], [d.format() for d in result.diagnostics.errors]
    club = result.project.ruleset("club")
    html = str(Prose(club, "player").html(club.rule("moving").body))
    twice = next(line for line in html.splitlines() if "Twice the move" in line)
    assert "the text: 12 hexes; these house rules: another result" in twice and "checked" not in twice
    assert "14" not in html
    assert "14 hexes (house rule; the text: 12 hexes)" in str(Prose(club, "gm").html(club.rule("moving").body))


def _hexes(path: str, id: str) -> int:
    """A value of the sample rules in hexes, as their YAML writes it (`4 hexes`, `1 hex`)."""
    data = yaml.safe_load((ROOT / "rules_src" / path).read_text(encoding="utf-8"))["values"][id]
    return int(str(data["value"]).split()[0])


def test_the_sample_house_rules_print_their_own_riders_total_in_the_faulty_scroll_sentence(tmp_path):
    """rampant_hex_house moves riders further than the text, so with the extra hex of the faulty scroll they move
    more in all than the text's total: the sentence players read prints the house total, marked as a house value
    with the text's, on the site and in the booklet, and never a second total after it."""
    extra = _hexes("rampant_hex/values.yaml", "speede_extra_hex")
    text_total = _hexes("rampant_hex/values.yaml", "riders_move") + extra
    house_total = _hexes("rampant_hex_house/ruleset.yaml", "riders_move") + extra
    assert house_total != text_total
    result, failures = check_with_examples(ROOT)
    assert result.ok and failures == []
    house = result.project.ruleset("rampant_hex_house")
    page = myst.rule_md(house.rule("faulty_scrolls"), house, "player")
    (sentence,) = [line for line in page.splitlines() if "in all" in line]
    assert sentence.endswith(f"an extra hex, {house_total} (house rule; the text\\: {text_total}) in all.")
    booklet = str(Prose(house, "player").html(house.rule("faulty_scrolls").body))
    assert f"an extra hex, {house_total} (house rule; the text: {text_total}) in all.</p>" in booklet
    assert "these house rules" not in page + booklet and f"{text_total} in all" not in page + booklet
    assert "Blood, Guts and Rampant Hex, Faulty scrolls!" in myst.source_line(house.rule("faulty_scrolls"), house)
    text = result.project.ruleset("rampant_hex")
    base_page = myst.rule_md(text.rule("faulty_scrolls"), text, "player")
    assert f"an extra hex, {text_total} in all. {{checked}}`✓`" in base_page  # the text's own pages are the text's


def _club_whose_examples_give(checked, given: str):
    """The club overlay, each of its changed examples giving ``given`` under its house values (as rules code may)."""
    import dataclasses

    club = checked.ruleset("club")
    changed = tuple(dataclasses.replace(r, results=(("7", given),)) for r in club.house_results)
    return dataclasses.replace(club, house_results=changed)


def test_a_house_result_is_text_on_every_output_never_markup(checked):
    """What an example gives comes from rules code: on a page it is words, whatever markup it holds."""
    club = _club_whose_examples_give(checked, "'`<script>x</script>` **bold** <a href=http://example.com>link</a> $x$'")
    page = myst.rule_md(club.rule("moving"), club, "player")
    assert "\\`\\<script\\>" in page and "\\*\\*bold" in page and "\\<a href" in page
    assert not re.search(r"(?<!\\)[<`*]", page.split("(the text")[1].split(")")[0])  # each one escaped
    html = str(Prose(club, "player").html(club.rule("moving").body))
    assert "<script>" not in html and "<strong>" not in html and "<a " not in html
    assert "&lt;script&gt;" in html


def test_a_house_result_written_as_a_role_or_a_link_is_not_printed(checked):
    club = _club_whose_examples_give(checked, "'{raw}`<script>x</script>` [link](http://example.com)'")
    page = myst.rule_md(club.rule("moving"), club, "player")
    assert "raw" not in page and "link" not in page and "these house rules give another result" in page


def test_under_the_sentence_players_read_only_the_changed_results_it_states(tmp_path):
    """An example that checks a true-or-false before its number: the sentence states the number alone, so the house
    rules' page says the number both ways and leaves out what printed `(True, True)`; the authors' page says all."""
    stated = BASE.replace(
        "      >>> total_move(dashing=True)\n      7 hexes\n",
        "      >>> total_move(dashing=True) == values.dash * 7, values.move == values.dash * 6\n"
        "      (True, True)\n"
        "      >>> total_move(dashing=True)\n      7 hexes\n",
    )
    files = {"skirmish/ruleset.yaml": stated, "skirmish/mechanics.py": MECHANICS, "skirmish/sources/text.txt": SOURCE}
    result, failures = check_with_examples(write(tmp_path, files | {"club/ruleset.yaml": HOUSE}))
    assert result.ok and failures == [], [d.format() for d in list(result.diagnostics.errors) + failures]
    club = result.project.ruleset("club")
    html = str(Prose(club, "player").html(club.rule("moving").body))
    dashing = next(line for line in html.splitlines() if "dashing model" in line)
    assert "(the text: 7 hexes; these house rules: 8 hexes)" in dashing and "True" not in dashing
    page = myst.rule_md(club.rule("moving"), club, "player")
    sentence = next(line for line in page.splitlines() if "dashing model" in line)
    assert sentence.endswith("(the text\\: 7 hexes; these house rules\\: 8 hexes)")
    authors = examples_page(club, "gm")
    assert "the text\\: \\(True, True\\), 7 hexes; these house rules\\: \\(False, False\\), 8 hexes" in authors


def test_a_house_values_printed_original_is_never_read_as_the_number_a_sentence_states():
    """The sentence before the sample's riders example prints its moves by {value} roles, the house one with the
    text's beside it: that printed original is data, no number of the sentence, so the sheet's page says the
    changed result after the sentence as before and prints the role's marks once."""
    text_move = _hexes("rampant_hex/values.yaml", "riders_move")
    house_move = _hexes("rampant_hex_house/ruleset.yaml", "riders_move")
    result, failures = check_with_examples(ROOT)
    assert result.ok and failures == []
    house = result.project.ruleset("rampant_hex_house")
    text = prose_md(house.rule("activating_units").body, house)
    (sentence,) = [line for line in text.splitlines() if line.startswith("So foot move")]
    role = f"{house_move} hexes \\(house rule; the text\\: {text_move} hexes\\)"
    assert sentence.count("house rule;") == 1 and role in sentence
    assert sentence.endswith(f"(the text\\: {text_move} hexes; these house rules\\: {house_move} hexes)")
