"""A number of points in words: one point in the singular, any other number (none, a half, one and a half) in the
plural, wherever a page or a message prints points after a number."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import make_project

from generator.model.points import points_words
from generator.render.site.myst import hero_md
from generator.validate import check_project


@pytest.mark.parametrize(
    ("points", "words"),
    [(1, "1 point"), (Fraction(1), "1 point"), (0, "0 points"), (Fraction(1, 2), "½ points"), (3, "3 points")],
)
def test_points_in_words(points, words):
    assert points_words(points) == words


GAME = """\
ruleset: {title: Hills, hero_levels: [minor]}
heroes:
  scout: {name: Scout, level: minor, points: 1, ability: Looks ahead.}
  chief: {name: Chief, level: minor, points: 2, ability: Leads.}
"""


def test_a_hero_page_says_one_point_on_top_of_the_unit(tmp_path):
    result = check_project(make_project(tmp_path, hills=GAME))
    ruleset = next(r for r in result.project.rulesets if r.id == "hills")
    assert "**Cost:** 1 point on top of the unit" in hero_md(ruleset.hero("scout"), ruleset)
    assert "**Cost:** 2 points on top of the unit" in hero_md(ruleset.hero("chief"), ruleset)
