"""A ruleset's own mechanics loaded in-process, as the Sybil runner of rules_src/ loads them: an error in
the module is one located `mechanic-error` at the line that raised, never a traceback."""

from __future__ import annotations

import itertools
from fractions import Fraction
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


def _drawn_at_least_one(deck: int, marked: int, draws: int) -> Fraction:
    """Brute force: of every hand of ``draws`` cards dealt from ``deck`` (``marked`` of them marked), the share
    holding a marked card."""
    hands = list(itertools.combinations(range(deck), draws))
    return Fraction(sum(any(card < marked for card in hand) for hand in hands), len(hands))


def test_mechanics_may_deal_cards_without_replacement_with_icepools_deck(tmp_path):
    """icepool (`icepool.Deck(...).deal(n)`, draws without putting back) is allowed in mechanics.py, as README says:
    an example of a hand of 3 from 54 cards, 13 of them hearts, passes with the chance brute force gives."""
    chance = _drawn_at_least_one(54, 13, 3)
    folder = tmp_path / "rules_src" / "cards"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(
        "ruleset: {title: Cards}\n"
        "chapters: {basics: {title: Basics}}\n"
        "values:\n"
        "  deck_cards: {value: 54 cards, label: Cards in the deck}\n"
        "  heart_cards: {value: 13 cards, label: Hearts in the deck}\n"
        "rules:\n"
        "  volley:\n"
        "    title: Volley\n"
        "    chapter: basics\n"
        "    body: |\n"
        f"      A hand of 3 cards holds a heart {chance.numerator} times in {chance.denominator}:\n\n"
        "      ```python\n"
        "      >>> heart_in(3)\n"
        f"      Fraction({chance.numerator}, {chance.denominator})\n"
        "      ```\n",
        encoding="utf-8",
    )
    (folder / "mechanics.py").write_text(
        '"""Draws without replacement."""\n\n'
        "import icepool\n\n\n"
        "def heart_in(draws):\n"
        "    hearts = values.heart_cards\n"
        "    deck = icepool.Deck({True: hearts, False: values.deck_cards - hearts})\n"
        "    return deck.deal(draws).expand().map(any).probability(True)\n",
        encoding="utf-8",
    )
    from generator.pipeline.build import check_with_examples

    result, failures = check_with_examples(tmp_path)
    assert [d.format() for d in [*result.diagnostics, *failures] if d.severity.value == "error"] == []
