"""The quick reference: marks on player entries only, with text short enough for the sheet."""

from __future__ import annotations

import re

from ..diagnostics import Code, Diagnostic
from ..model.base import QuickMark, value_loc
from ..model.entries import gm_only
from ..model.ruleset import Ruleset

QUICK_TEXT_LIMIT = 600  # characters of prose (worked examples left out) one entry may print on the quick reference


def _readable(text: str) -> str:
    """Prose as the sheet prints it: worked examples and markup left out, spaces collapsed."""
    text = re.sub(r"(?ms)^(```|~~~).*?^\1[^\n]*$", "", text)
    return " ".join(re.sub(r"\{[a-z]+\}`([^`<]*?)(?:\s*<[^>]*>)?`", r"\1", text).split())


def check_quick_reference(ruleset: Ruleset):
    """Marks for the quick reference: on player entries only, with text short enough for the sheet."""
    for section, entry in ruleset.all_entries():
        mark = getattr(entry, "quick_reference", False)
        if not mark or not isinstance(mark, QuickMark) and not entry.locs.get("quick_reference"):
            continue  # not marked, or printed by default without being written
        loc = value_loc(entry, "quick_reference")
        if gm_only(entry):
            yield Diagnostic(
                Code.QUICKREF_GM,
                f"`{entry.id}` is for the game-master but marked for the players' quick reference",
                loc,
            )
            continue
        summary = mark.summary if isinstance(mark, QuickMark) else ""
        if isinstance(mark, QuickMark) and summary and len(_readable(summary)) > QUICK_TEXT_LIMIT:
            yield Diagnostic(
                Code.QUICKREF_TOO_LONG,
                f"the quick-reference summary of `{entry.id}` is "
                f"{len(_readable(summary))} characters; the sheet takes {QUICK_TEXT_LIMIT}",
                value_loc(mark, "summary"),
                "shorten the summary: the procedure in a sentence or two, with the detail left to the rule",
            )
        elif section == "rules" and not summary and len(_readable(entry.body)) > QUICK_TEXT_LIMIT:
            yield Diagnostic(
                Code.QUICKREF_TOO_LONG,
                f"rule `{entry.id}` is marked for the quick reference, but its body "
                f"is {len(_readable(entry.body))} characters; the sheet takes {QUICK_TEXT_LIMIT}",
                loc,
            )
