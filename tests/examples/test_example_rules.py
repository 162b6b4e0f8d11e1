"""`rules` as a worked example reads it (generator/examples/namespace.py): a profile's cells that name a value are
that value's number, the text's in the text and an overlay's house value under the overlay."""

from __future__ import annotations

from helpers import make_project

from generator.examples.namespace import ExampleRules
from generator.pipeline.build import check_with_examples
from generator.validate import check_project

GAME = """\
ruleset: {title: Pikes}
chapters:
  armies: {title: Armies}
values:
  heavy_points: {value: 5, label: What heavy foot cost}
profiles:
  troops:
    title: Troops
    chapter: armies
    columns:
      pts: {label: PTS, type: points}
    rows:
      heavy: {name: Heavy foot, pts: {value: heavy_points}}
      light: {name: Light foot, pts: 4}
rules:
  costs:
    title: Costs
    chapter: armies
    body: |
      Heavy foot cost what the value says, twice over for two:

      ```python
      >>> 2 * rules.profile("troops").row("heavy")["pts"]
      10
      >>> {row.id: row["pts"] for row in rules.profile("troops").rows if isinstance(row["pts"], int)}
      {'heavy': 5, 'light': 4}
      ```
"""

ERRATA = """\
ruleset: {title: Pikes errata, extends: pikes, overlay: true}
values:
  heavy_points: {value: 6, house_note: Errata 2026}
"""


def test_a_cell_naming_a_value_is_its_number_in_a_worked_example_and_the_house_value_under_an_overlay(tmp_path):
    """The documented route for an errata (a cell names a value, an overlay changes the value) broke the text's own
    examples: `2 * pts` raised TypeError on the cell, and `isinstance(row["pts"], int)` left heavy foot out."""
    result, failures = check_with_examples(make_project(tmp_path, pikes=GAME, pikes_errata=ERRATA))
    assert [d.format() for d in [*result.diagnostics, *failures] if d.severity.value == "error"] == []
    changed = result.project.house_results()
    assert [(c.entry, c.results) for c in changed.get("pikes_errata", ())] == [
        ("rules.costs", (("10", "12"), ("{'heavy': 5, 'light': 4}", "{'heavy': 6, 'light': 4}")))
    ]


def test_the_rules_handed_to_an_example_read_each_named_cell_as_its_number_by_every_route(tmp_path):
    """The same reading in the checking process (`ExampleRules`, which the walled example host builds too): by
    `profile`, by `get`, in `profiles` and by `reachable`; the text's 5 under the text, the errata's 6 under the
    overlay, a cell typed as a number (light foot's 4) as written, and a matrix naming no value the very matrix."""
    result = check_project(make_project(tmp_path, pikes=GAME, pikes_errata=ERRATA))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    for ruleset, heavy in (("pikes", 5), ("pikes_errata", 6)):
        rules = ExampleRules.of(result.project.ruleset(ruleset))
        for matrix in (
            rules.profile("troops"),
            rules.get("profiles", "troops"),
            *rules.profiles,
            *rules.reachable("profiles"),
        ):
            assert {row.id: row["pts"] for row in matrix.rows} == {"heavy": heavy, "light": 4}, ruleset
            assert [row.name for row in matrix.rows] == ["Heavy foot", "Light foot"]
    plain = check_project(make_project(tmp_path / "plain", pikes=GAME.replace("{value: heavy_points}", "5")))
    as_written = plain.project.ruleset("pikes").profile("troops")
    assert ExampleRules.of(plain.project.ruleset("pikes")).profile("troops") is as_written
