"""What the names reference lists for a namespace (`generator/examples/names.py`): each name a worked example can
use with its kind, signature and first line, whatever a ruleset's own mechanics put there.

The namespace here is made by hand (the samples' own are listed behind the wall, in `rulepress names`' tests)."""

from __future__ import annotations

import dataclasses
from types import ModuleType, SimpleNamespace

from generator.examples.names import names_in


class _Sealed:
    """A mechanic's object whose signature cannot be read."""

    @property
    def __signature__(self):
        raise ValueError("no signature here")

    def __call__(self, *args):
        return args


class _Tricky:
    """Raises when asked what it is."""

    @property
    def __class__(self):
        raise RuntimeError("not telling")


class _Count:
    """A count a mechanic keeps.

    Reset each turn."""


def described(namespace: dict) -> dict[str, tuple[str, str, str]]:
    return {
        row[1].split("(")[0].split(".<")[0]: row
        for row in names_in(SimpleNamespace(reachable=lambda _s: ()), namespace)
    }


def test_each_kind_of_name_is_listed_with_its_first_line_and_private_names_are_not():
    def roll_off(attacker, defender, loc=None):
        """Who wins a roll-off.

        Ties are rolled again."""

    rows = described(
        {
            "_hidden": 1,
            "dice_tools": ModuleType("dice_tools", "Dice helpers of the ruleset.\n\nMore below."),
            "values": SimpleNamespace(),
            "roll_off": roll_off,
            "Sealed": _Sealed,
            "pips": _Count(),
        }
    )
    assert "_hidden" not in rows
    assert rows["dice_tools"] == ("module", "dice_tools", "Dice helpers of the ruleset.")
    assert rows["values"] == ("values", "values.<id>", "Every value of the ruleset by id, as its exact number")
    assert rows["roll_off"] == ("function", "roll_off(attacker, defender)", "Who wins a roll-off.")  # loc: bookkeeping
    assert rows["Sealed"][0] == "class"
    assert rows["pips"] == ("object", "pips", "A count a mechanic keeps.")


def test_a_name_that_cannot_be_described_is_listed_as_such():
    rows = described({"sealed": _Sealed(), "tricky": _Tricky()})
    assert rows["sealed"] == ("function", "sealed(...)", "A mechanic's object whose signature cannot be read.")
    assert rows["tricky"] == ("object", "tricky", "could not be described (RuntimeError)")


@dataclasses.dataclass(frozen=True)
class _Undocumented:
    hits: int
    saves: tuple[int, ...] = ()


def test_a_dataclass_without_a_docstring_is_listed_without_the_signature_python_wrote_for_it():
    rows = described({"Undocumented": _Undocumented, "tally": _Undocumented(2)})
    assert rows["Undocumented"] == ("class", "Undocumented(hits, saves=())", "")
    assert rows["tally"] == ("object", "tally", "")
