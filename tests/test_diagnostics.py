"""What a diagnostic prints: rules data never controls the terminal (escapes written out), and a
diagnostic prints the same whether formatted or turned into text."""

from __future__ import annotations

import pytest

from generator.diagnostics import Code, Diagnostic, Location, printable


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
