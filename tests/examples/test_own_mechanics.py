"""A ruleset's own mechanics loaded in-process, as the Sybil runner of rules_src/ loads them: an error in
the module is one located `mechanic-error` at the line that raised, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.examples.own_mechanics import MechanicsError, exported, literal_warnings
from generator.source.project import load_project

RAISES = '"""Own mechanics."""\n\n\ndef helper():\n    return 1\n\n\nhelper()\nraise ValueError("no charge factor")\n'
SHOWN = "rules_src/game/mechanics.py"


def ruleset_with(tmp_path: Path, mechanics: str):
    folder = tmp_path / "rules_src" / "game"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text("ruleset: {title: Mech}\n", encoding="utf-8")
    (folder / "mechanics.py").write_text(mechanics, encoding="utf-8")
    project, diagnostics = load_project(tmp_path)
    assert not diagnostics.errors
    return project.ruleset("game"), project.root


def test_an_error_raised_by_the_module_is_located_at_its_line(tmp_path):
    ruleset, root = ruleset_with(tmp_path, RAISES)
    assert ruleset.mechanics == (SHOWN,)
    with pytest.raises(MechanicsError) as caught:
        exported(ruleset, root)
    assert (
        caught.value.diagnostic.format() == f"{SHOWN}:9:1: error[mechanic-error]: ValueError: no charge factor\n"
        "  hint: fix the Python error the message names"
    )
    assert str(caught.value) == "ValueError: no charge factor"


def test_a_module_that_does_not_parse_is_located_at_the_error(tmp_path):
    ruleset, root = ruleset_with(tmp_path, "def broken(:\n    pass\n")
    expected = f"{SHOWN}:1:12: error[mechanic-error]: invalid syntax\n  hint: fix the Python error the message names"
    with pytest.raises(MechanicsError) as caught:
        exported(ruleset, root)
    assert caught.value.diagnostic.format() == expected
    assert [w.format() for w in literal_warnings(root / SHOWN, SHOWN)] == [expected]


def test_a_module_exports_its_public_names_or_its_all(tmp_path):
    ruleset, root = ruleset_with(tmp_path, "def helper():\n    return 1\n\n\ndef _private():\n    return 0\n")
    assert sorted(exported(ruleset, root)) == ["helper"]
    listed, root = ruleset_with(
        tmp_path / "listed", "__all__ = ['shown']\n\n\ndef shown():\n    return 1\n\n\ndef hidden():\n    return 0\n"
    )
    assert sorted(exported(listed, root)) == ["shown"]


FLEEING = """\
ruleset: {title: G}
chapters: {basics: {title: Basics}}
rules:
  fleeing:
    title: Fleeing
    chapter: basics
    body: |
      A unit with 3 models left flees 0 inches:

      ```python
      >>> flee(3)
      0
      ```
"""
FLEE = '__all__ = ["flee"]\n\n\ndef flee(models_left):\n    if models_left < 5:\n        raise ValueError("too few")\n'


def test_an_example_that_fails_inside_the_mechanics_names_the_line_it_failed_at(tmp_path):
    from generator.pipeline.build import check_with_examples

    for name, text in {"ruleset.yaml": FLEEING, "mechanics.py": FLEE}.items():
        (tmp_path / "rules_src" / "g").mkdir(parents=True, exist_ok=True)
        (tmp_path / "rules_src" / "g" / name).write_text(text, encoding="utf-8")
    _result, failures = check_with_examples(tmp_path)
    assert [f.format().splitlines()[0] for f in failures] == [
        "rules_src/g/ruleset.yaml:11:7: error[example-failed]: rules.fleeing: `flee(3)` raised ValueError: too few "
        "(rules_src/g/mechanics.py:6)"
    ]
