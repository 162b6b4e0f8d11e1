"""Citations of a ruleset's source texts (generator/validate/sources.py)."""

from __future__ import annotations

import pytest
from helpers import make_project

from generator.validate import check_project

NO_TEXT = """\
ruleset: {{title: Ashfall}}
chapters:
  combat: {{title: Combat}}
values:
  rider_move: {{value: 3 hexes, label: How far riders move, source: {citation}}}
rules:
  moving: {{title: Moving, chapter: combat, body: "Riders move {{value}}`rider_move`."}}
"""


@pytest.mark.parametrize(
    ("citation", "told"),
    [
        (
            '{section: MOVING, quote: "or 3 if they are riders"}',
            [
                "rules_src/ashfall/ruleset.yaml:5:93: error[source-file]: a quote from no source text: the ruleset "
                "names none, so “or 3 if they are riders” cannot be checked"
            ],
        ),
        ("{section: MOVING}", []),  # a section of a book alone claims no words of it
    ],
)
def test_a_quote_from_a_ruleset_with_no_source_text_is_told_it_cannot_be_checked(tmp_path, citation, told):
    """The site printed the quote in a Source column, as every quote it prints is checked, while no text was there
    to find it in."""
    result = check_project(make_project(tmp_path, ashfall=NO_TEXT.format(citation=citation)))
    assert [d.format().splitlines()[0] for d in result.diagnostics] == told
