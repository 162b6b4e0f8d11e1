"""Focused tests that kill mutmut survivors in the generic mechanics (see docs/mutation-survivors.md).

Prices are those of the Rampant Hex source text as typed in rules_src (light foot 4, heavy foot 5).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.mechanics import armies
from generator.mechanics.armies import force, force_line
from generator.model.base import NotGiven
from generator.source.project import load_project

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rules():
    project, diagnostics = load_project(ROOT, only="rampant_hex")
    assert not diagnostics.errors, [d.format() for d in diagnostics.errors]
    return project.ruleset("rampant_hex")


def test_a_force_line_keeps_every_field_as_given():
    line = force_line("heavy_foot", 3, heroes=["h"], upgrades=["u"], spells=["s"], models=12)
    assert (line.troop, line.count, line.heroes, line.upgrades, line.spells, line.models) == (
        "heavy_foot", 3, ("h",), ("u",), ("s",), 12)
    plain = force_line("levy")
    assert (plain.count, plain.heroes, plain.upgrades, plain.spells, plain.models) == (1, (), (), (), None)


def test_a_force_keeps_what_it_is_given():
    listed = force(force_line("levy"), matrix="m", agreed_points=30, agreed_models=20, extras=["appeal"], title="T")
    assert (listed.title, listed.matrix, listed.agreed_points, listed.agreed_models, listed.extras) == (
        "T", "m", 30, 20, ("appeal",))
    assert [u.troop for u in listed.units] == ["levy"]
    plain = force(force_line("levy"))
    assert (plain.title, plain.matrix, plain.agreed_points, plain.agreed_models, plain.extras) == (
        "A force", "", None, None, ())


def test_a_force_chosen_from_a_ruleset_names_its_matrix_and_knows_its_troops(rules):
    listed = force(force_line("heavy_foot", 2), force_line("light_foot"), ruleset=rules)
    assert listed.matrix == "troops"
    assert armies.army_points(rules, listed) == 2 * 5 + 4
    with pytest.raises(KeyError):
        force(force_line("heavy_foot"), force_line("no_such_troop"), ruleset=rules)


def test_an_unpriced_cost_counts_as_nothing():
    class Entry:
        def __init__(self, points):
            self.points = points

    assert armies._points(Entry(NotGiven())) == 0
    assert armies._points(Entry(3)) == 3


def test_an_army_limits_bounds_are_listed_as_written():
    from types import SimpleNamespace

    from generator.mechanics.armies import limit_bounds

    assert limit_bounds(SimpleNamespace(at_least="2", at_most="half")) == (("at least", "2"), ("at most", "half"))
    assert limit_bounds(SimpleNamespace(at_least=" ", at_most="3")) == (("at most", "3"),)
    assert limit_bounds(SimpleNamespace(at_least=1, at_most="")) == (("at least", 1),)
    assert limit_bounds(SimpleNamespace(at_least="", at_most="")) == ()
