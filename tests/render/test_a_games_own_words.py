"""A game written from scratch reads in its own words: its keywords by the title it gives them, and no key to an
empty box, a source text or another game's game-master where it has none of them."""

from __future__ import annotations

from helpers import make_project

from generator.render.handouts.cards import PAPERS, cards_context
from generator.render.handouts.content import booklet_index, handout_context, roster_lines
from generator.render.sheets.victory import victory_checklist
from generator.render.site import myst
from generator.validate import check_project

VOID = """\
ruleset:
  title: Void Breakers
  declares:
    keywords_label: Special abilities
keywords:
  armoured:
    name: ARMOURED
    params: [saves]
    definition: Saves that many hits.
profiles:
  troops:
    title: Troops
    columns:
      shots: {label: Shots, type: int, min: 0}
      pts: {label: PTS, type: points, min: 0}
    rows:
      breacher: {name: Breacher, shots: 2, pts: 20, keywords: [ARMOURED 2]}
      trooper: {name: Trooper, shots: 1, pts: 10}
armies:
  strike_team:
    title: Strike team
    matrix: troops
    agreed_points: 50
    units:
      - {troop: breacher, count: 1, points: 20}
      - {troop: trooper, count: 3, points: 30}
victory_points:
  relay: {name: Hold the relay, kind: objective, points: 3, condition: You hold the relay at the end of the game.}
"""


def void(tmp_path, text: str = VOID):
    result = check_project(make_project(tmp_path, void=text))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project.ruleset("void")


def test_keywords_are_headed_as_the_game_titles_them_on_the_site_the_roster_and_the_cards(tmp_path):
    rules = void(tmp_path)
    (header,) = [
        line for line in myst.profile_md(rules.profile("troops"), rules, "player").splitlines() if "Shots" in line
    ]
    assert header.rstrip(" |").endswith("Special abilities")
    assert roster_lines(rules, rules.get("armies", "strike_team"), "player")["keywords_label"] == "Special abilities"
    assert cards_context(rules, "player", PAPERS[0])["keywords_label"] == "Special abilities"
    plain = void(tmp_path / "plain", VOID.replace("  declares:\n    keywords_label: Special abilities\n", ""))
    assert cards_context(plain, "player", PAPERS[0])["keywords_label"] == "Special rules"


def test_a_roster_of_models_counted_by_no_column_prints_no_empty_box(tmp_path):
    lines = roster_lines(void(tmp_path), void(tmp_path).get("armies", "strike_team"), "player")
    assert not lines["has_models"] and not lines["has_gaps"]
    assert all(line["models"] == {"text": "", "gap": False} for line in lines["lines"])


def test_a_victory_point_sheet_keys_an_empty_box_only_where_it_prints_one_in_the_games_own_words(tmp_path):
    sheet = victory_checklist(void(tmp_path), "player")
    assert sheet.has_gaps and sheet.gap_key == "points to write in"  # its write-in lines; no source text here
    closed = VOID.replace(
        "    keywords_label:",
        "    victory_point_sheet: {kinds: {objective: {title: Objectives, write_in_lines: 0}}}\n    keywords_label:",
    )
    assert not victory_checklist(void(tmp_path / "closed", closed), "player").has_gaps  # no empty box, no key
    noted = VOID.replace(
        "    keywords_label:", "    victory_point_sheet: {gap_note: the mission card gives them}\n    keywords_label:"
    )
    sheet = victory_checklist(void(tmp_path / "noted", noted), "player")
    assert sheet.gap_key == "points to write in (the mission card gives them)"
    cited = VOID.replace("  title: Void Breakers\n", "  title: Void Breakers\n  source_title: The Void Book\n")
    assert victory_checklist(void(tmp_path / "cited", cited), "player").gap_key == "the source does not give the points"


def test_the_booklet_index_calls_a_keyword_what_its_kind_says(tmp_path):
    rules = void(tmp_path, VOID.replace("    params: [saves]\n", "    params: [saves]\n    kind: ability\n"))
    index = booklet_index(handout_context(rules, "player")["parts"])
    (armoured,) = [e for letter in index for e in letter["entries"] if e["name"] == "ARMOURED"]
    assert armoured["kind"] == "ability"


def test_the_booklet_index_lists_accented_words_under_their_letter(tmp_path):
    """The trial's French booklet put "À terre" and "Œil du chef" after T, under letters of their own."""
    from helpers import make_project

    from generator.validate import check_project

    terms = {"sonne": "Sonné", "a_terre": "À terre", "oeil": "Œil du chef", "hors": "Hors de combat", "zele": "Zèle"}
    glossary = "".join(f"  {id}: {{term: {term}, definition: Un mot.}}\n" for id, term in terms.items())
    result = check_project(
        make_project(tmp_path, escarmouche=f"ruleset: {{title: Escarmouche}}\nglossary:\n{glossary}")
    )
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    index = booklet_index(handout_context(result.project.ruleset("escarmouche"), "player")["parts"])
    assert [(part["letter"], [e["name"] for e in part["entries"]]) for part in index] == [
        ("A", ["À terre"]),
        ("H", ["Hors de combat"]),
        ("O", ["Œil du chef"]),
        ("S", ["Sonné"]),
        ("Z", ["Zèle"]),
    ]


TERRAIN = """\
  terrain:
    title: Terrain effects
    row_label: Terrain
    pieces: false
    columns:
      cost: {label: Movement cost, type: int, min: 1}
      cover: {label: Combat effect, type: text}
    rows:
      woods: {name: Woods, cost: 2, cover: Defence doubled}
      clear: {name: Clear, cost: 1, cover: No effect}
armies:"""


def test_a_matrix_of_things_that_are_no_pieces_is_headed_as_the_game_calls_them_with_no_card_or_roster(tmp_path):
    """A terrain effects chart written as a profile matrix (its rows have several typed columns, which a lookup
    has not) printed "Troop type" over its terrain, made a card per terrain ("TROOP TYPE / Clear") and a blank army
    roster of terrain. A matrix says what its rows are (`row_label:`) and that they are no pieces (`pieces: false`)."""
    from generator.render.handouts.cards import cards
    from generator.render.handouts.content import roster_context
    from generator.render.sheets.jobs import quick_reference_sheet
    from generator.render.sheets.pages import sheet_markdown

    rules = void(tmp_path, VOID.replace("armies:", TERRAIN, 1))
    (header,) = [
        line for line in myst.profile_md(rules.profile("terrain"), rules, "player").splitlines() if "Movement" in line
    ]
    assert header.strip("| ").startswith("Terrain |")
    assert handout_context(rules, "player")  # the booklet still prints the chart
    titles = [card["title"] for card in cards(rules, "player")]
    assert "Woods" not in titles and "Clear" not in titles and "Breacher" in titles
    blanks = [roster["matrix"] for roster in roster_context(rules, "player")["rosters"] if "matrix" in roster]
    assert "Terrain effects" not in str(blanks) and "Troops" in str(blanks)
    quick = sheet_markdown(quick_reference_sheet(rules), "")
    assert "| Terrain | Movement cost | Combat effect |" in quick
