"""`rules` as a worked example reads it (generator/examples/namespace.py): a profile's cells that name a value are
that value's number, the text's in the text and an overlay's house value under the overlay."""

from __future__ import annotations

from helpers import make_project

from generator.pipeline.build import check_with_examples

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
