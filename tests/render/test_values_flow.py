"""Change one value in each sample ruleset's YAML: one build shows the new number in the prose that
prints it, in the sheet that uses it, and in the result of the mechanic that reads it.

The expected numbers are worked out here by hand or by enumerating dice, never by the code under test.
"""

from __future__ import annotations

import html
import itertools
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import ROOT, on_a4_alone
from pypdf import PdfReader

from generator.cli import main
from generator.examples.sybil_yaml import namespace_for_path

FACES = range(1, 7)

# (file, the value as written, the value changed)
CHANGES = {
    "rampant_hex": ("values.yaml", "  riders_move:\n    value: 3 hexes", "  riders_move:\n    value: 4 hexes"),
    "ordo_ineptus": ("damage.yaml", "  critical_roll:\n    value: 6", "  critical_roll:\n    value: 5"),
    "bad_moon_rising": (
        "numbers.yaml",
        '  friends_breaking_range:\n    value: 6"',
        '  friends_breaking_range:\n    value: 5"',
    ),
    "city_of_the_damned_combat": (
        "values.yaml",
        "  no_critical_when_needing:\n    value: 6+",
        "  no_critical_when_needing:\n    value: 5+",
    ),
}
# Worked examples state the results the text gives; with a value changed, those that depend on it must
# fail, at these lines, until their expected results are changed with it.
PINNED = {
    "rules_src/rampant_hex/rules.yaml:336:7": (
        "      >>> move_hexes(riders=True, extra_hex=True)\n      4 hexes\n",
        "      >>> move_hexes(riders=True, extra_hex=True)\n      5 hexes\n",
    ),
    "rules_src/rampant_hex/rules.yaml:484:7": (
        "move_hexes(riders=True, extra_hex=False)\n      (2 hexes, 3 hexes)\n",
        "move_hexes(riders=True, extra_hex=False)\n      (2 hexes, 4 hexes)\n",
    ),
    # a 5 that is a critical only if it wounds: Strength 2 needs a 6 against Toughness 5, so no critical
    "rules_src/ordo_ineptus/damage.yaml:21:7": (
        "      (Fraction(1, 6), Fraction(1, 6))\n",
        "      (Fraction(1, 6), 0)\n",
    ),
}


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("changed")
    for ruleset in [*CHANGES, "warhammer_fantasy_charts"]:  # the rulesets changed and the charts two of them extend
        shutil.copytree(ROOT / "rules_src" / ruleset, root / "rules_src" / ruleset)
    for ruleset, (name, old, new) in CHANGES.items():
        replace_once(root / "rules_src" / ruleset / name, old, new)
    return on_a4_alone(root)


@pytest.fixture(scope="module")
def built(project: Path, capsys_module, renders) -> Path:
    assert main(["-C", str(project), "check"]) == 1
    failed = re.findall(r"^(\S+): error\[example-failed\]", capsys_module.readouterr().err, re.M)
    assert sorted(failed) == sorted(PINNED)  # the examples that state the old number, and no other error
    for where, (old, new) in PINNED.items():
        replace_once(project / where.split(":")[0], old, new)
    # what the tests read: the player site and sheets (the booklets print the same prose the site does)
    assert main(["-C", str(project), "build", "--audience", "player", "--only", "site", "--only", "sheets"]) == 0
    return project / "build"


@pytest.fixture(scope="module")
def capsys_module():
    """Captured stderr for a module fixture: pytest's capsys is function-scoped."""
    import contextlib
    import io

    class Captured:
        def __init__(self):
            self.err = io.StringIO()

        def readouterr(self):
            class Out:
                pass

            out = Out()
            out.err = self.err.getvalue()
            return out

    captured = Captured()
    with contextlib.redirect_stderr(captured.err), contextlib.redirect_stdout(io.StringIO()):
        yield captured


def site_text(built: Path, ruleset: str, page: str) -> str:
    text = (built / "site" / ruleset / f"{page}.html").read_text(encoding="utf-8")
    text = text[text.find("<article") : text.rfind("</article>")]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).replace("\u00a0", " ").split())


def pdf_text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).replace("\u00a0", " ").split())


def mechanics(project: Path, ruleset: str) -> dict:
    return namespace_for_path(project / "rules_src" / ruleset / "ruleset.yaml")


def test_rampant_hex_riders_move(built, project):
    assert "or 4 hexes if they are riders" in site_text(built, "rampant_hex", "activation")
    assert "Move up to 2 hexes (4 hexes for riders)" in pdf_text(
        built / "sheets" / "rampant_hex-quick-reference-a4.pdf"
    )
    move_hexes = mechanics(project, "rampant_hex")["move_hexes"]
    assert (move_hexes(riders=True, extra_hex=False), move_hexes(riders=True, extra_hex=True)) == (4, 5)


def test_ordo_ineptus_critical_roll(built, project):
    assert "Whenever a 5 is rolled to wound" in site_text(built, "ordo_ineptus", "damage")
    assert "A 5 to wound is a critical hit" in pdf_text(built / "sheets" / "ordo_ineptus-to-wound-a4.pdf")
    assert "Rolled whenever a 5 is rolled to wound." in pdf_text(
        built / "sheets" / "ordo_ineptus-quick-reference-a4.pdf"
    )
    # a critical is now a 5 rolled to wound that wounds: S3 against T3 wounds on 4+, so 1 face of 6;
    # S2 against T4 wounds on a 6 only, so a 5 is no wound and no critical
    critical_hit_chance = mechanics(project, "ordo_ineptus")["critical_hit_chance"]
    assert critical_hit_chance(3, 3) == Fraction(sum(f == 5 and f >= 4 for f in FACES), 6) == Fraction(1, 6)
    assert critical_hit_chance(2, 4) == Fraction(sum(f == 5 and f >= 6 for f in FACES), 6) == 0


def test_bad_moon_rising_friends_breaking_range(built, project):
    assert 'from other combats within 5"' in site_text(built, "bad_moon_rising", "confusion")
    assert 'within 5"' in pdf_text(built / "sheets" / "bad_moon_rising-quick-reference-a4.pdf")
    friends_breaking_test = mechanics(project, "bad_moon_rising")["friends_breaking_test"]
    assert friends_breaking_test(won_combat=True, distance=5) == "Confusion test"
    assert friends_breaking_test(won_combat=True, distance=6) is None  # 6" is no longer within range


def critical_chance(needed: int, no_critical_from: int) -> Fraction:
    """At least one Critical Hit from one attack, by enumeration: a natural 6 to hit (unless the roll
    needed is `no_critical_from` or more), or a natural 6 on the injury roll of a hit."""
    hits = [(to_hit, injury) for to_hit, injury in itertools.product(FACES, FACES) if to_hit >= needed]
    critical = [1 for to_hit, injury in hits if (to_hit == 6 and needed < no_critical_from) or injury == 6]
    return Fraction(len(critical), 36)


def test_city_of_the_damned_no_critical_roll(built, project):
    assert "if you needed a 5+ to hit at all" in site_text(built, "city_of_the_damned_combat", "critical_hits")
    sheet = pdf_text(built / "sheets" / "city_of_the_damned_combat-quick-reference-a4.pdf")
    changed = critical_chance(5, no_critical_from=5)
    assert changed == Fraction(1, 18) and changed != critical_chance(5, no_critical_from=6)
    assert f"{float(changed * 100):.1f}%" in sheet  # 5.6%: two faces hit, and only the injury roll can be a 6
    namespace = mechanics(project, "city_of_the_damned_combat")
    assert namespace["is_critical_hit"](natural=6, needed=5) is False
    assert namespace["critical_chance"](needed=5) == changed
