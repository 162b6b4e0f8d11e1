"""Worked examples for readers: the sentence before an example, marked checked; its code only where authors look.

A worked example is a fenced ``python`` block of ``>>>`` lines in prose. The code is the source of truth
and runs on every check, but players read the sentence written right before it, which states the checked
result in words. Every renderer (site, sheets, booklets, rosters, cards) goes through :func:`for_readers`:
the sentence gets a small "checked" mark, and the code is either kept for the site's closed "How this is
checked" box or left out (print). Which sentence an example follows is found in ``examples.sentence``,
which ``check`` uses too.

An overlay runs the text's examples under its house values; where they give another result (a
``HouseResult``), the sentence, true of the text, is never marked checked: it says both results instead,
``(the text: 4; these house rules: 5)``.
"""

from __future__ import annotations

import re
import textwrap

from ..examples.sentence import paragraph_before, sentence_before, states
from ..model.entries import gm_only
from ..source.fences import example_fences

CHECKED_TEXT = "✓ checked"
CHECKED_TITLE = "checked against the rules on every build"
CHECKED_PAGE = (  # what is checked: the prose an author writes around them is read as written
    "Every value, table, chart and worked example on this page is checked against the rules on every build."
)

HOUSE_HIDDEN = "another result (its house values are the game-master's)"
_FRACTION = re.compile(r"Fraction\((-?\d+), (\d+)\)")
_QUOTED = re.compile(r"'([^'\\]*)'|\"([^\"\\]*)\"")


def shown_result(result: str | None) -> str:
    """An example's result as readers read it: ``Fraction(1, 6)`` as ``1/6``, a quoted text without its quotes."""
    if result is None:
        return "no result (the example does not work out)"
    text = " ".join(str(result).split())
    text = _FRACTION.sub(r"\1/\2", text)
    return _QUOTED.sub(lambda m: m[1] if m[1] is not None else m[2], text) or "nothing"


def house_phrase(result, hidden: bool = False, paragraph: str = "", raw: bool = False) -> str:
    """``the text: 4; these house rules: 5``: an example of the text whose result an overlay's values change
    (``hidden``: the house result is not shown, as some house value is the game-master's). Under the
    ``paragraph`` players read, only the changed results it states, where it states any: its "half the time" is
    the example's '50%', not the ``(True, False)`` a line before it printed. Of a result that is several values
    (``(2 hexes, 3 hexes)``) only those that differ are said; a result that reads as no number or word of the
    game (``True``, ``{1, 2}``) is not printed at all: players read that the house rules change it. ``raw``, for
    authors: every changed result as the example printed it."""
    pairs = [(shown_result(want), shown_result(got)) for want, got in result.results]
    if not raw:
        pairs = pairs if hidden else [pair for want, got in pairs for pair in _differing(want, got)]
        if paragraph:
            pairs = [pair for pair in pairs if states(paragraph, pair[0])] or pairs
        if not pairs or not all(_readable(want) and (hidden or _readable(got)) for want, got in pairs):
            return "so in the text; these house rules give " + (HOUSE_HIDDEN if hidden else "another result")
    text = ", ".join(want for want, _got in pairs)
    house = HOUSE_HIDDEN if hidden else ", ".join(got for _want, got in pairs)
    return f"the text: {text}; these house rules: {house}"


def _differing(want: str, got: str) -> list[tuple[str, str]]:
    """The values of two results that differ, place by place where both are sequences of as many values."""
    wanted, gotten = _values(want), _values(got)
    if wanted is None or gotten is None or len(wanted) != len(gotten):
        return [(want, got)]
    return [pair for pair in zip(wanted, gotten, strict=True) if pair[0] != pair[1]]


def _values(shown: str) -> list[str] | None:
    """The values of a result printed as a tuple or list (``(2 hexes, (3 hexes, 4))``), flattened; a single value
    alone; None for anything else with brackets (a set, a mapping)."""
    if not (shown[:1] in "([" and shown[-1:] in ")]"):
        return None if re.search(r"[][(){}]", shown) else [shown]
    values, depth, start = [], 0, 1
    for index, char in enumerate(shown[1:-1], 1):
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            values.append(shown[start:index].strip())
            start = index + 1
    values.append(shown[start:-1].strip())
    flat = [_values(value) for value in values if value]
    return None if any(part is None for part in flat) else [value for part in flat for value in part]


def _readable(shown: str) -> bool:
    """A result players can read as the game's: a number, a chance, a quantity or words, not Python's own."""
    if shown == shown_result(None):
        return True
    return shown not in ("True", "False", "None", "nothing") and not re.search(r"[][(){}]", shown)


def house_hidden(ruleset) -> bool:
    """Whether an overlay's house results stay unshown: a house value of the game-master's could be read from them."""
    return any(value.is_house_rule and gm_only(value) for value in getattr(ruleset, "values", ()))


def for_readers(text: str, mark: str, keep_code: str | None = None, house=(), escape=str, hidden: bool = False) -> str:
    """Prose with each worked example's sentence ending in ``mark`` (a trailing colon becomes a full stop).

    The code is dropped, or, with ``keep_code`` (a directive name such as ``verified-example``), kept as that
    directive for a renderer that hides it behind a toggle. An example that follows no sentence gets no mark.
    An example in ``house`` (an overlay's ``HouseResult``s, found by their code) gets, instead of ``mark``, both
    results in words, made safe by ``escape`` for the renderer's markup (``hidden``: see ``house_phrase``).
    """
    lines = str(text or "").split("\n")
    found = list(example_fences(lines))
    if not found:
        return str(text or "")
    closes = {end for _start, end, _i, _f in found}
    out = list(lines)
    removed: set[int] = set()
    changed = {result.source.strip(): result for result in house}
    for start, end, indent, fence in found:
        sentence = sentence_before(lines, start, closes)
        if sentence is not None:
            result = changed.get(textwrap.dedent("\n".join(lines[start + 1 : end])).strip()) if changed else None
            paragraph = paragraph_before(lines, sentence, closes)
            shown = mark if result is None else f" ({escape(house_phrase(result, hidden, paragraph))})"
            out[sentence] = re.sub(r"\s*:\s*$", ".", out[sentence].rstrip()) + shown
        if keep_code:
            out[start] = f"{indent}{fence}{{{keep_code}}}"
        else:
            removed.update(range(start, min(end, len(lines) - 1) + 1))
    return "\n".join(line for number, line in enumerate(out) if number not in removed)
