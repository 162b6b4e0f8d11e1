"""Army lists and their limits, as `check` holds them (validate/armies.py); the broken corpus pins the errors."""

from __future__ import annotations

from helpers import make_project

from generator.validate import check_project

SHARED = """\
ruleset: {title: Shieldwall, kind: base}
army_limits:
  max_units:
    title: At most eight units
    count: units
    at_most: "8"
"""
ROMANS = """\
ruleset: {title: Shieldwall Romans, extends: shieldwall}
profiles:
  romans:
    title: Romans
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      general: {name: General, pts: 50}
      hastati: {name: Hastati, pts: 40}
"""


def test_army_limits_with_no_army_to_hold_to_them_are_told_they_limit_nothing(tmp_path):
    """The trial's "at most eight units", written in the shared ruleset its armies extend: no list was held to it,
    and nothing said so. Written beside the army's matrix, it holds and nothing is told."""
    result = check_project(make_project(tmp_path / "shared", shieldwall=SHARED, shieldwall_romans=ROMANS))
    assert [d.format().splitlines()[0] for d in result.diagnostics] == [
        "rules_src/shieldwall/ruleset.yaml:3:3: warning[limits-alone]: `shieldwall` has army limits but no army "
        "matrix to choose armies from: no list is held to them, and a ruleset that `extends` this one does not take "
        "them"
    ]
    beside = ROMANS + SHARED.split("\n", 1)[1]
    result = check_project(
        make_project(tmp_path / "beside", shieldwall_romans=beside.replace("extends: shieldwall", ""))
    )
    assert [d.format() for d in result.diagnostics] == []
