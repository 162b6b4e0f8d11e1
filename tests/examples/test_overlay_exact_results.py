"""An overlay's changed example results print as every output prints an exact number: a whole number held as a
fraction (`Fraction(3, 1)`) as `3`, not `3/1`, and a fraction as `1½`."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.pipeline.build import check_with_examples
from generator.render.prose import Prose
from generator.render.site import myst

pytestmark = pytest.mark.usefixtures("without_the_wall")  # the wall is not what is tested here (conftest)

# a flag costs 1½ in the text and 1¾ under the house rules: two flags 3 and 3½, one flag 1½ and 1¾
BASE = """\
ruleset: {title: Banners}
chapters:
  armies: {title: Armies}
values:
  banner_cost: {value: 1½, label: What a unit's flag costs}
rules:
  flags:
    title: Flags
    chapter: armies
    body: |
      Flags are bought per unit at {value}`banner_cost` each.

      Flags for two units cost three points:

      ```python
      >>> flag_price(2)
      Fraction(3, 1)
      ```

      One unit's flag costs 1½ points:

      ```python
      >>> flag_price(1)
      Fraction(3, 2)
      ```
"""
MECHANICS = """\
__all__ = ["flag_price"]


def flag_price(units):
    return units * values.banner_cost
"""
HOUSE = """\
ruleset: {title: Club banners, extends: banners, overlay: true}
values:
  banner_cost: {value: 1¾, house_note: Silk is dear.}
"""


def _project(root: Path) -> Path:
    files = {"banners/ruleset.yaml": BASE, "banners/mechanics.py": MECHANICS, "club/ruleset.yaml": HOUSE}
    for name, text in files.items():
        (root / "rules_src" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "rules_src" / name).write_text(text, encoding="utf-8")
    return root


def test_a_changed_result_held_as_a_fraction_prints_as_the_number_it_is(tmp_path):
    result, failures = check_with_examples(_project(tmp_path))
    assert result.ok and failures == [], [d.format() for d in list(result.diagnostics.errors) + failures]
    club = result.project.ruleset("club")
    page = myst.rule_md(club.rule("flags"), club, "player")
    two = next(line for line in page.splitlines() if "two units" in line)
    assert two.endswith("(the text\\: 3; these house rules\\: 3½)")
    one = next(line for line in page.splitlines() if "One unit" in line)  # written as the site writes it: 1½
    assert "costs 1¾ (house rule; the text\\: 1½) points." in one and "these house rules" not in one
    booklet = str(Prose(club, "player").html(club.rule("flags").body))
    assert "(the text: 3; these house rules: 3½)" in booklet
    assert "costs 1¾ (house rule; the text: 1½) points." in booklet
    assert "/1" not in page + booklet and "3/2" not in page + booklet and "7/" not in page + booklet
