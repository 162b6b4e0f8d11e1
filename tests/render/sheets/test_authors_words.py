"""A word the author declares prints as written on a sheet: a German noun keeps its capital in an English line."""

from helpers import make_project

from generator.render.sheets.jobs import sheet_jobs
from generator.render.sheets.quickref import spells_group
from generator.validate import check_project

BANDE = """\
ruleset:
  title: Grenzfehde
  language: de
  declares:
    victory_point_kinds: [aufgabe]
    victory_point_sheet:
      side: Kriegerbande
      kinds:
        aufgabe: Erfüllte Aufgaben
spells:
  feuerball: {name: Feuerball, range: 12, range_unit: Zoll, casting_value: 7, duration: Sofort, effect: +1 Schaden}
  nebel: {name: Nebel, casting_value: 9, duration: Eine Runde, effect: Sicht 6 Zoll}
victory_points:
  turm: {name: Den Turm halten, kind: aufgabe, points: 2}
  schatz: {name: Den Schatz finden, kind: aufgabe, points: 1, audience: gm}
"""


def test_a_spells_duration_prints_as_the_author_wrote_it(tmp_path):
    """ "Eine Runde" and "Sofort" are German: their nouns and first words are capitalised, "eine runde" is wrong."""
    result = check_project(make_project(tmp_path, bande=BANDE))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    lines = {line.label: line.detail for line in spells_group(result.project.ruleset("bande")).lines}
    assert lines == {
        "Feuerball": "range 12 Zoll; cast on 7+; duration: Sofort; +1 Schaden",
        "Nebel": "Cast on 9+; duration: Eine Runde. Sicht 6 Zoll",
    }


def test_the_game_masters_checklist_names_the_side_as_the_author_wrote_it(tmp_path):
    """A side declared `Kriegerbande` (a German noun) is written so, not "kriegerbande"."""
    result = check_project(make_project(tmp_path, bande=BANDE))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    (gm,) = {
        job.html
        for job in sheet_jobs(result.project, tmp_path / "out")
        if job.target.name == "bande-victory-points-gm-a4.pdf"
    }
    assert "Write each player's Kriegerbande at the head of a column" in gm
    assert "kriegerbande" not in gm
