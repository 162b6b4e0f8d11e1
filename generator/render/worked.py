"""Worked examples for readers: the sentence before an example, marked checked; its code only where authors look.

A worked example is a fenced ``python`` block of ``>>>`` lines in prose. The code is the source of truth
and runs on every check, but players read the sentence written right before it, which states the checked
result in words. Every renderer (site, sheets, booklets, rosters, cards) goes through :func:`for_readers`:
the sentence gets a small "checked" mark, and the code is either kept for the site's closed "How this is
checked" box or left out (print). :func:`unstated` finds examples that follow no sentence, for ``check``.

An overlay runs the text's examples under its house values; where they give another result (a
``HouseResult``), the sentence, true of the text, is never marked checked: it says both results instead,
``(the text: 4; these house rules: 5)``.
"""

from __future__ import annotations

import re
import textwrap

from ..model.entries import gm_only

CHECKED_TEXT = "✓ checked"
CHECKED_TITLE = "checked against the rules on every build"

_OPEN = re.compile(r"^(?P<indent>[ ]*)(?P<fence>`{3,}|~{3,})\s*(?:\{code-block\}\s*)?python\s*$")
_NOT_A_SENTENCE = re.compile(r"^\s*(\||#|`{3,}|~{3,}|:{3,}|\(.*\)=\s*$)")


def _blocks(lines: list[str]):
    """(open index, close index, indent, fence) of each fenced python block holding ``>>>`` lines."""
    index = 0
    while index < len(lines):
        opened = _OPEN.match(lines[index])
        if not opened:
            index += 1
            continue
        indent, fence = opened["indent"], opened["fence"]
        close = re.compile(rf"^{indent}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        end = index + 1
        while end < len(lines) and not close.match(lines[end]):
            end += 1
        if any(">>>" in line for line in lines[index + 1:end]):
            yield index, end, indent, fence
        index = end + 1


def _sentence_before(lines: list[str], index: int, examples: set[int]) -> int | None:
    """The line of prose an example at ``index`` follows (the end of the paragraph before it), or None."""
    before = index - 1
    while before >= 0 and not lines[before].strip():
        before -= 1
    if before < 0 or before in examples or _NOT_A_SENTENCE.match(lines[before]):
        return None
    return before


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


def house_phrase(result, hidden: bool = False) -> str:
    """``the text: 4; these house rules: 5``: an example of the text whose result an overlay's values change
    (``hidden``: the house result is not shown, as some house value is the game-master's)."""
    text = ", ".join(shown_result(want) for want, _got in result.results)
    house = HOUSE_HIDDEN if hidden else ", ".join(shown_result(got) for _want, got in result.results)
    return f"the text: {text}; these house rules: {house}"


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
    found = list(_blocks(lines))
    if not found:
        return str(text or "")
    closes = {end for _start, end, _i, _f in found}
    out = list(lines)
    removed: set[int] = set()
    changed = {result.source.strip(): result for result in house}
    for start, end, indent, fence in found:
        sentence = _sentence_before(lines, start, closes)
        if sentence is not None:
            result = changed.get(textwrap.dedent("\n".join(lines[start + 1:end])).strip()) if changed else None
            shown = mark if result is None else f" ({escape(house_phrase(result, hidden))})"
            out[sentence] = re.sub(r"\s*:\s*$", ".", out[sentence].rstrip()) + shown
        if keep_code:
            out[start] = f"{indent}{fence}{{{keep_code}}}"
        else:
            removed.update(range(start, min(end, len(lines) - 1) + 1))
    return "\n".join(line for number, line in enumerate(out) if number not in removed)


def _paragraph_start(lines: list[str], sentence: int, examples: set[int]) -> int:
    """The first line of the paragraph whose last line is ``sentence``."""
    start = sentence
    while start > 0 and lines[start - 1].strip() and start - 1 not in examples \
            and not _NOT_A_SENTENCE.match(lines[start - 1]):
        start -= 1
    return start


def stated(text: str) -> list[tuple[int, str, str]]:
    """(offset, paragraph, code) of each example of ``text`` that follows a sentence: the paragraph players read,
    marked checked, its character offset in ``text``, and the example's code (its ``>>>`` lines and results)."""
    lines = str(text or "").split("\n")
    found = list(_blocks(lines))
    closes = {end for _start, end, _i, _f in found}
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    result = []
    for start, end, _indent, _fence in found:
        sentence = _sentence_before(lines, start, closes)
        if sentence is not None:
            first = _paragraph_start(lines, sentence, closes)
            result.append((offsets[first], "\n".join(lines[first:sentence + 1]), "\n".join(lines[start + 1:end])))
    return result


def unstated(text: str) -> list[int]:
    """0-based lines of the examples in ``text`` that follow no sentence (players would read nothing of them)."""
    lines = str(text or "").split("\n")
    found = list(_blocks(lines))
    closes = {end for _start, end, _i, _f in found}
    return [start for start, _end, _i, _f in found if _sentence_before(lines, start, closes) is None]
