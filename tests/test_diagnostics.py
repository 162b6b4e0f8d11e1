"""What a diagnostic prints: rules data never controls the terminal (escapes written out), and a
diagnostic prints the same whether formatted or turned into text."""

from __future__ import annotations

import pytest

from generator.diagnostics import Code, Diagnostic, Location, did_you_mean, printable


@pytest.mark.parametrize(
    "text, shown",
    [
        ("\x1b[2J", "\\x1b[2J"),  # clear the screen
        ("a\u2028b", "a\\u2028b"),  # a line separator that would fake a new line
        ("\u202eevil", "\\u202eevil"),  # a right-to-left override
        ("\x7f\x9b", "\\x7f\\x9b"),  # DEL and the 8-bit CSI
        ("two\nlines\tand a tab", "two\nlines\tand a tab"),
    ],
)
def test_printable_writes_out_what_would_control_the_terminal(text, shown):
    assert printable(text) == shown


def test_printable_can_escape_line_breaks_too():
    assert printable("a\nb\tc", keep="") == "a\\x0ab\\x09c"


def test_a_diagnostic_as_text_is_its_format():
    found = Diagnostic(
        Code.BAD_ID, "id `X\x1b` is not lower_snake_case", Location("rules_src/g/a.yaml", 3, 5), "write `x`"
    )
    assert (
        str(found)
        == found.format()
        == "rules_src/g/a.yaml:3:5: error[bad-id]: id `X\\x1b` is not lower_snake_case\n  hint: write `x`"
    )


def test_a_file_name_with_a_line_break_cannot_forge_a_line_of_output():
    """The club's trial named a rules file `evil\\ngame: 99 examples, all pass….yaml`: its error printed that
    second line as if `check` had said it."""
    found = Diagnostic(
        Code.YAML_SYNTAX, "bad", Location("rules_src/g/evil\ngame: 99 examples, all pass.yaml", 1, 1), "fix it"
    )
    assert found.format().splitlines() == [
        "rules_src/g/evil\\x0agame: 99 examples, all pass.yaml:1:1: error[yaml-syntax]: bad",
        "  hint: fix it",
    ]


def _levenshtein(a: str, b: str) -> int:
    """Brute force: the fewest single-letter edits, by breadth-first search over every string one edit away."""
    letters = set(a + b)
    seen, frontier, steps = {a}, {a}, 0
    while b not in frontier:
        steps += 1
        nearer = set()
        for s in frontier:
            for i in range(len(s) + 1):
                nearer.update(s[:i] + c + s[i:] for c in letters)
                if i < len(s):
                    nearer.add(s[:i] + s[i + 1 :])
                    nearer.update(s[:i] + c + s[i + 1 :] for c in letters)
        frontier = nearer - seen
        seen |= frontier
    return steps


@pytest.mark.parametrize("order", [1, -1])
def test_did_you_mean_suggests_the_name_fewest_edits_away(order):
    names = ["Term59 Word", "Term06 Word", "Term15 Word", "Term57 Word"][::order]
    # the slip `Term05 Word` is one letter from `Term06 Word` and `Term15 Word`, two from `Term59 Word`
    assert [_levenshtein("Term05 Word", n) for n in sorted(names)] == [1, 1, 2, 2]
    assert did_you_mean("Term05 Word", names) == "did you mean `Term06 Word`?"
    assert did_you_mean("Term07 Word", names) == "did you mean `Term06 Word`?"
