"""The Markdown pages the site is made from, read as text (no Sphinx run)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

from helpers import make_project, sample_project

from generator.render.site.myst import render_entry
from generator.render.site.pages import az_bar, chapter_page, downloads_md, located_warnings, site_pages
from generator.validate import check_project


def test_downloads_are_grouped_by_kind_with_a_link_per_paper():
    # as pipeline.plan.downloads names them: "<title> (<paper>)", under build/<kind>/, in file-name order
    downloads = [
        ("Roster (A4)", "handouts/g-roster-a4.pdf"),
        ("Roster (US Letter)", "handouts/g-roster-letter.pdf"),
        ("To wound (A4)", "sheets/g-to-wound-a4.pdf"),
        ("Cards (A4)", "handouts/g-cards-a4.pdf"),
        ("To wound (US Letter)", "sheets/g-to-wound-letter.pdf"),
    ]
    assert downloads_md(downloads) == (
        "### Handouts\n\n"
        "- Cards: {pdf}`A4 <handouts/g-cards-a4.pdf>`\n"
        "- Roster: {pdf}`A4 <handouts/g-roster-a4.pdf>` · {pdf}`US Letter <handouts/g-roster-letter.pdf>`\n\n"
        "### Cheat sheets\n\n"
        "- To wound: {pdf}`A4 <sheets/g-to-wound-a4.pdf>` · {pdf}`US Letter <sheets/g-to-wound-letter.pdf>`"
    )


def test_a_download_without_a_paper_is_linked_as_a_pdf():
    assert downloads_md([("Campaign log", "handouts/g-campaign-log.pdf")]) == (
        "### Handouts\n\n- Campaign log: {pdf}`PDF <handouts/g-campaign-log.pdf>`"
    )


def test_the_glossary_bar_links_each_initial_to_its_first_term():
    ruleset = SimpleNamespace(id="g")
    terms = [
        SimpleNamespace(id=id, term=term)
        for id, term in [("ambush", "Ambush"), ("armour", "armour"), ("dead", "Dead"), ("d6", "D6"), ("x2", "2 up")]
    ]
    assert az_bar(ruleset, terms) == (
        ":::{container} rp-az\n{ref}`A <g-glossary-ambush>` {ref}`D <g-glossary-dead>` {ref}`# <g-glossary-x2>`\n:::\n"
    )


def test_the_front_page_says_what_each_ruleset_is_and_where_to_start():
    """From rules_src/city_of_the_damned_combat/ruleset.yaml: its title, author, subtitle and first chapter."""
    import yaml

    from generator.render.site.pages import landing
    from generator.source.project import load_project

    root = Path(__file__).resolve().parents[3]
    data = yaml.safe_load((root / "rules_src" / "city_of_the_damned_combat" / "ruleset.yaml").read_text())
    meta, (first, chapter) = data["ruleset"], next(iter(data["chapters"].items()))
    project, _diagnostics = load_project(root)
    for readers in ("player", "gm"):
        page = landing(project, readers)
        assert (
            f"- **[{meta['title']}](city_of_the_damned_combat/index.md)** by {meta['author']} — {meta['subtitle']}. "
            f"Start with [{chapter['title']}](city_of_the_damned_combat/{first}.md)."
        ) in page


HIDDEN_ONLY = """\
ruleset:
  title: Night Watch
  declares: {victory_point_kinds: [task]}
chapters:
  victory: {title: Victory}
victory_points:
  crypt:
    {name: Seal the crypt, kind: task, points: 3, chapter: victory, condition: The crypt is sealed., audience: gm}
"""


def test_a_chapter_whose_victory_points_are_all_the_game_masters_tells_players_some_are_hidden(tmp_path):
    result = check_project(make_project(tmp_path, watch=HIDDEN_ONLY))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    watch = result.project.ruleset("watch")
    (chapter,) = watch.chapters
    assert "{rulepress} victory_points\n:chapter: victory" in chapter_page(watch, chapter, "player", set())
    players = render_entry(watch, "victory_points", None, "player", chapter="victory")
    assert players.replace("\\", "") == "Some tasks are hidden: the game-master tells you when you complete one."
    gm = render_entry(watch, "victory_points", None, "gm", chapter="victory")
    assert "Seal the crypt" in gm and "hidden" not in gm


def test_every_formula_with_an_odds_calculator_links_it_once_where_the_formula_is_printed(tmp_path):
    """A new project's calculators, each found by its label on a calculators page: the page that prints the formula
    links that label once, from under the formula's own section."""
    from generator.scaffold import scaffold

    scaffold(tmp_path, "game", None)
    result = check_project(tmp_path)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    pages = site_pages(result.project, "player").files
    labels = {
        label
        for name, text in pages.items()
        if name.endswith("/calculators.md")
        for label in re.findall(r"^\((\S+-calculator-(\S+))\)=$", text, re.M)
    }
    assert len(labels) >= 2  # the sample's and its house rules'
    for label, formula in labels:
        ruleset = label.split("-calculator-")[0]
        link = f"{{ref}}`its odds calculator <{label}>`"
        where = [name for name, text in pages.items() if link in text]
        assert len(where) == 1, (label, where)
        section = pages[where[0]].split(f"({ruleset}-formulas-{formula})=".replace("_", "-"), 1)[1]
        assert link in section.split("\n(", 1)[0], label  # before the next entry's label


def test_an_upgrade_for_some_troop_types_says_which_and_names_no_game_masters_troop_to_players(tmp_path):
    game = (
        "ruleset: {title: Hammerfall}\n"
        "profiles:\n"
        "  dwarfs:\n"
        "    title: Dwarfs\n"
        "    columns: {pts: {label: Pts, type: points}}\n"
        "    rows:\n"
        "      warriors: {name: Dwarf warriors, pts: 60}\n"
        "      longbeards: {name: Longbeards, pts: 120}\n"
        "      ironbreakers: {name: Ironbreakers, pts: 140, audience: gm}\n"
        "costs:\n"
        "  shields: {name: Shields, points: 10, added_to_unit: true, troops: [warriors, longbeards, ironbreakers]}\n"
        "  banner: {name: Banner, points: 15}\n"
    )
    result = check_project(make_project(tmp_path, game=game))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ruleset = result.project.ruleset("game")
    players = render_entry(ruleset, "costs", None, "player").replace("\\", "")
    assert (
        "| Shields | 10 | on top of the unit: Dwarf warriors, Longbeards or [game-master material] alone |" in players
    )
    assert "| Banner | 15 | once for the force |" in players
    assert "Ironbreakers" in render_entry(ruleset, "costs", None, "gm")


CHART_IN_ITS_CHAPTER = """\
ruleset: {title: Ashfall}
chapters:
  combat: {title: Combat}
  magic: {title: Magic}
formulas:
  to_wound:
    title: To wound
    inputs:
      strength: {label: Strength, min: 1, max: 3}
      toughness: {label: Toughness, min: 1, max: 3}
    expr: 4 - strength + toughness
    result: target
charts:
  wound_chart:
    title: Wounding grid
    formula: to_wound
    chapter: combat
    rows: {input: strength, range: 1-3}
    columns: {input: toughness, range: 1-3}
rules:
  wounding: {title: Wounding, chapter: combat, body: Roll to wound., charts: [wound_chart]}
  spell_wounds: {title: Spell wounds, chapter: magic, body: Spells wound as blows do., charts: [wound_chart]}
"""


def test_a_chart_printed_in_its_own_chapter_is_not_printed_again_inside_a_rule_there(tmp_path):
    """The wounding rule names the chart its own chapter prints as an entry: the chapter shows it once (the entry,
    with its anchor); the magic chapter's rule, whose page has no such entry, prints it within the rule. The
    booklet's rules read the same."""
    from generator.render.handouts.content import handout_context

    result = check_project(make_project(tmp_path, ashfall=CHART_IN_ITS_CHAPTER))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ruleset = result.project.ruleset("ashfall")
    combat = chapter_page(ruleset, ruleset.chapters[0], "player", set())
    assert "{rulepress} charts" in combat  # the chart's own entry
    wounding, spell_wounds = (render_entry(ruleset, "rules", rule, "player") for rule in ruleset.rules)
    assert "**Wounding grid**" not in wounding and "**Wounding grid**" in spell_wounds
    printed = {
        (part["title"], block["title"]): len(block["charts"])
        for part in handout_context(ruleset, "player")["parts"]
        for block in part.get("blocks", ())
        if "charts" in block
    }
    assert printed == {("Combat", "Wounding"): 0, ("Magic", "Spell wounds"): 1}


PHASES_IN_A_CHAPTER = """\
ruleset: {title: Ashfall}
chapters:
  turn: {title: The turn}
  combat: {title: Combat}
phases:
  recovery: {title: Recovery, chapter: turn, summary: Knocked down warriors stand up.}
  movement: {title: Movement, chapter: turn, summary: Warriors move.}
  shooting: {title: Shooting, summary: Warriors shoot.}
  melee: {title: Melee, chapter: combat, summary: Warriors fight.}
rules:
  fighting: {title: Fighting, chapter: combat, body: Roll to hit.}
"""


def test_a_chapter_opens_with_the_phases_placed_in_it_each_by_its_step(tmp_path):
    """Phases given `chapter: turn`: the turn's page and booklet chapter (no rule of their own in it) list them,
    with their step in the turn; `check` no longer calls the chapter empty. Melee, step 4, opens Combat."""
    from generator.render.handouts.content import handout_context

    result = check_project(make_project(tmp_path, ashfall=PHASES_IN_A_CHAPTER))
    assert result.ok and not [d for d in result.diagnostics if d.code.value == "empty-chapter"]
    ruleset = result.project.ruleset("ashfall")
    turn, combat = (chapter_page(ruleset, chapter, "player", set()) for chapter in ruleset.chapters)
    assert "- **Recovery**, step 1 of the turn — Knocked down warriors stand up.\n" in turn
    assert "- **Movement**, step 2 of the turn — Warriors move.\n" in turn
    assert "Shooting" not in turn and "- **Melee**, step 4 of the turn — Warriors fight." in combat
    chapters = [part for part in handout_context(ruleset, "player")["parts"] if part["kind"] == "chapter"]
    assert [[(p["title"], p["step"]) for p in part["phases"]] for part in chapters] == [
        [("Recovery", "step 1 of the turn"), ("Movement", "step 2 of the turn")],
        [("Melee", "step 4 of the turn")],
    ]


def test_a_ruleset_s_front_page_says_its_version_as_its_printouts_do(tmp_path):
    """`version: playtest 0.3`, printed small on every sheet and booklet, is on the site's front page of the ruleset
    too, after its author: players see which edition they read."""
    from generator.render.site.pages import ruleset_index

    text = "ruleset: {title: Ashfall, author: Sam the hobbyist, version: playtest 0.3}\n"
    result = check_project(make_project(tmp_path, ashfall=text))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    page = ruleset_index(result.project.ruleset("ashfall"), [], [])
    assert "\nby Sam the hobbyist — playtest 0\\.3\n" in page  # MyST, its full stop escaped


FRENCH_TERMS = """\
ruleset: {title: Escarmouche, language: fr}
glossary:
  sonne: {term: Sonné, definition: Ne peut pas charger.}
  a_terre: {term: À terre, definition: Couché.}
  oeil: {term: Œil du chef, definition: Voit tout.}
  hors: {term: Hors de combat, definition: Retiré.}
  zele: {term: Zèle, definition: Ardeur.}
  eclaireur: {term: éclaireur, definition: Devant.}
"""


def test_the_glossary_lists_accented_terms_under_their_letter(tmp_path):
    """À terre under A and Œil under O, as a French reader looks them up, not after Z."""
    from generator.render.site.pages import glossary_page

    result = check_project(make_project(tmp_path, escarmouche=FRENCH_TERMS))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    page = glossary_page(result.project.ruleset("escarmouche"), "player")
    bar = page.split(":::{container} rp-az\n")[1].split("\n")[0]
    assert re.findall(r"\{ref\}`(\S+) <", bar) == ["A", "E", "H", "O", "S", "Z"]
    order = ["À terre", "éclaireur", "Hors de combat", "Œil du chef", "Sonné", "Zèle"]
    assert sorted(order, key=page.index) == order


def test_a_warning_sphinx_gives_once_per_place_a_text_prints_is_told_once(tmp_path):
    """A bad link in a rule warns on its chapter's page and again where the quick reference prints it: the author
    has one thing to fix, and reads it once."""
    project, _ = sample_project()
    warned = f"{tmp_path}/rampant_hex/play.md:3: WARNING: 'myst' cross-reference target not found: 'nowhere'\n"
    told = located_warnings(warned * 2 + warned.replace("nowhere", "elsewhere"), tmp_path, project)
    assert [line.split(": error[site-warning]: ")[1] for line in told.splitlines() if "error[" in line] == [
        "'myst' cross-reference target not found: 'nowhere'",
        "'myst' cross-reference target not found: 'elsewhere'",
    ]


NO_INPUTS = """\
ruleset:
  title: Draws
chapters:
  play: {title: Play}
tables:
  draw:
    title: A draw
    dice: D6
    chapter: play
    rows:
      - {roll: 1-4, result: Miss}
      - {roll: 5-6, result: Hit}
formulas:
  face: {title: Chance of a face card, expr: "chance((D52 - 1) % 13 >= 10)", result: chance, chapter: play}
  plain: {title: Cards but faces, expr: "52 - 4 * 3", chapter: play}
  first: {title: A draw of six, expr: "draw(6)", result: text, chapter: play}
  best: {title: Best two of three, expr: "keep_highest(2, 3)", result: roll, chapter: play}
"""


def test_a_formula_with_no_inputs_prints_its_one_answer_where_it_is_shown(tmp_path):
    """A chance of a face card has no inputs: its page said only "Gives: a chance." and the calculators page "it has
    no inputs to choose", the 3/13 nowhere. Each answer is counted here over the 52 cards and the table's rows."""
    from generator.render.site.pages import calculators_page

    result = check_project(make_project(tmp_path, draws=NO_INPUTS))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    draws = result.project.ruleset("draws")
    faces = Fraction(sum((card - 1) % 13 >= 10 for card in range(1, 53)), 52)
    chance = f"{faces.numerator}/{faces.denominator} ({float(faces) * 100:.1f}%)"  # 12 in 52: 3/13 (23.1%)
    others = sum((card - 1) % 13 < 10 for card in range(1, 53))
    rows = {range(1, 5): "Miss", range(5, 7): "Hit"}  # the table's rows, as written above
    sixth = next(word for rolls, word in rows.items() if 6 in rolls)

    def shown(id: str, audience: str = "player") -> str:
        return render_entry(draws, "formulas", draws.formula(id), audience).replace("\\", "").replace("**", "")

    assert shown("face") == f"Gives: a chance, always {chance}."
    assert shown("face", "author").startswith(f"Gives: a chance, always {chance}\n")
    assert shown("plain") == f"Gives: a number, always {others}."
    assert shown("first") == f"Gives: a result in words, always {sixth}."
    assert shown("best") == "Gives: a roll."  # its chances are its calculator's
    page = calculators_page(draws, "player").replace("\\", "")
    assert f"- Chance of a face card: it has no inputs to choose, and is always {chance}." in page
    assert "(draws-calculator-best)=" in page
    (play,) = draws.chapters
    chapter = chapter_page(draws, play, "player", set(), frozenset({"best"}))
    assert "The chance of each result: {ref}`its odds calculator <draws-calculator-best>`." in chapter
    assert "Work it out for any inputs" not in chapter  # there are none to work it out for
