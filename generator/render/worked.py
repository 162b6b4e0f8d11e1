"""Worked examples for readers: the sentence before an example, marked checked; its code only where authors look.

A worked example is a fenced ``python`` block of ``>>>`` lines in prose. The code is the source of truth
and runs on every check, but players read the sentence written right before it, which states the checked
result in words. Every renderer (site, sheets, booklets, rosters, cards) goes through :func:`for_readers`:
the sentence gets a small "checked" mark, and the code is either kept for the site's closed "How this is
checked" box or left out (print). Which sentence an example follows is found in ``examples.sentence``,
which ``check`` uses too.

An overlay runs the text's examples under its house values; where they give another result (a
``HouseResult``), the sentence, true of the text, is never marked checked. Where the sentence states a changed
result as a number that can only be that result's, the overlay prints its own number there, marked as a house
value is (``5 (house rule; the text: 4) in all``); any other changed result it says both ways after the
sentence, ``(the text: 4; these house rules: 5)``.
"""

from __future__ import annotations

import re
import textwrap
from fractions import Fraction

from ..examples.languages import DIGITS_ONLY, language_of
from ..examples.sentence import (
    Stated,
    evidence,
    paragraph_before,
    plain_numbers,
    sentence_before,
    stated_numbers,
    states,
)
from ..model.entries import gm_only
from ..model.numbers import number_text
from ..model.ruleset import GAME_MASTER, game_master_words
from ..source.fences import example_fences

CHECKED_TEXT = "✓ checked"
CHECKED_TITLE = "checked against the rules on every build"
CHECKED_PAGE = (  # what is checked: the prose an author writes around them is read as written
    "Every value, table, chart and worked example on this page is checked against the rules on every build."
)

HOUSE_RULE = (
    "house rule"  # how every output marks a value an overlay changes: `4 hexes (house rule; the text: 3 hexes)`
)


def house_hidden_result(game_master: str = GAME_MASTER) -> str:
    """What players read for a house result they may not see (``game_master`` as the ruleset calls them)."""
    return f"another result (its house values are the {game_master_words(game_master, possessive=True)})"


_FRACTION = re.compile(r"Fraction\((-?\d{1,400}), ([1-9]\d{0,399})\)")  # as Python prints one
_QUOTED = re.compile(r"'([^'\\]*)'|\"([^\"\\]*)\"")


def shown_result(result: str | None) -> str:
    """An example's result as readers read it: ``Fraction(1, 6)`` as ``1/6``, ``Fraction(3, 2)`` as ``1½`` and
    ``Fraction(3, 1)`` as ``3``, as every output prints an exact number; a quoted text without its quotes."""
    if result is None:
        return "no result (the example does not work out)"
    text = " ".join(str(result).split())
    text = _FRACTION.sub(lambda m: number_text(Fraction(int(m[1]), int(m[2]))), text)
    return _QUOTED.sub(lambda m: m[1] if m[1] is not None else m[2], text) or "nothing"


def house_phrase(
    result,
    hidden: bool = False,
    paragraph: str = "",
    raw: bool = False,
    printed: frozenset = frozenset(),
    game_master: str = GAME_MASTER,
) -> str:
    """``the text: 4; these house rules: 5``: an example of the text whose result an overlay's values change
    (``hidden``: the house result is not shown, as some house value is the game-master's). Under the
    ``paragraph`` players read, only the changed results it states, where it states any: its "half the time" is
    the example's '50%', not the ``(True, False)`` a line before it printed. Of a result that is several values
    (``(2 hexes, 3 hexes)``) only those that differ are said; a result that reads as no number or word of the
    game (``True``, ``{1, 2}``) is not printed at all: players read that the house rules change it. ``raw``, for
    authors: every changed result as the example printed it. ``printed``: the (text, house) results the sentence
    already prints as house values (``house_numbers``), left out: empty when that leaves nothing to say.
    ``game_master``: what the ruleset calls the game-master."""
    pairs = [(shown_result(want), shown_result(got)) for want, got in result.results]
    if not raw:
        pairs = pairs if hidden else [pair for want, got in pairs for pair in _differing(want, got)]
        if paragraph:
            pairs = [pair for pair in pairs if states(paragraph, pair[0])] or pairs
        if printed and not (pairs := [pair for pair in pairs if pair not in printed]):
            return ""
        if not pairs or not all(_readable(want) and (hidden or _readable(got)) for want, got in pairs):
            return "so in the text; these house rules give " + (
                house_hidden_result(game_master) if hidden else "another result"
            )
    text = ", ".join(want for want, _got in pairs)
    house = house_hidden_result(game_master) if hidden else ", ".join(got for _want, got in pairs)
    return f"the text: {text}; these house rules: {house}"


def house_numbers(paragraph: str, result, language: str = "en") -> tuple[list[tuple[Stated, str, str]], frozenset]:
    """Where the ``paragraph`` before an overlay's changed example states a changed result, the number to print
    there: (the sentence's number, the house rules' result as it prints there, the text's as the sentence wrote it),
    and the (text, house) results so printed.

    A number is the result's only where nothing else can be meant: a number alone in digits as the result prints
    it (``4`` of ``4 hexes``; with the result's unit when the sentence writes it after the number), no other number
    of the paragraph is that number, and neither is any other result of the example (an unchanged one, another
    place of the same result) nor a number written in the statement that gives it (``move(riders=4)``: the 4 may be
    what the sentence means). Anything else stays said after the sentence, both ways."""
    found: list[tuple[Stated, str, str]] = []
    printed: set[tuple[str, str]] = set()
    candidates, rivals = _changed_places(result)
    numbers = stated_numbers(paragraph, language=language_of(language) or DIGITS_ONLY)
    plain = {(n.start, n.end) for n in plain_numbers(paragraph, language_of(language) or DIGITS_ONLY)}
    for want, got in candidates:
        was, now = _quantity(want), _quantity(got)
        if was is None or now is None or any(rival.has(was[0].value) for rival in rivals):
            continue
        if any(_quantity(w) and _quantity(w)[0].value == was[0].value and g != got for w, g in candidates):
            continue  # two changed results of one number: which one the sentence means is not known
        same = [n for n in numbers if n.value == was[0].value]
        if len(same) != 1 or (same[0].start, same[0].end) not in plain or same[0].text != was[0].text:
            continue
        number, unit = same[0], was[1]
        if unit and re.match(re.escape(unit) + r"(?!\w)", paragraph[number.end :]):
            written, shown = paragraph[number.start : number.end + len(unit)], got
        else:
            written, shown = number.text, now[0].text
        found.append((number, shown, written))
        printed.add((want, got))
    return found, frozenset(printed)


def _quantity(shown: str) -> tuple[Stated, str] | None:
    """A result that is one number, in digits, and maybe its unit (``4 hexes``, ``6"``): the number and the unit as
    printed after it (`` hexes``); None for anything else. Results print as Python prints them: in English."""
    numbers = stated_numbers(shown, words=False)
    if len(numbers) != 1 or numbers[0].start or numbers[0].value is None or numbers[0].percent:
        return None
    unit = shown[numbers[0].end :]
    return (numbers[0], unit) if re.fullmatch(r'(?: [^\W\d_]+)?|"', unit) else None


def _changed_places(result) -> tuple[list[tuple[str, str]], list]:
    """The (text, house) places of an example's changed results, and the evidence of every other number it states
    as a result or in the statement of a changed one (``_statements``)."""
    statements = _statements(result.source)
    used: set[int] = set()
    candidates: list[tuple[str, str]] = []
    rivals: list = []
    for want, got in result.results:
        index = next(
            (i for i, (_c, out) in enumerate(statements) if i not in used and out.split() == str(want).split()), None
        )
        if index is None or got is None:  # no statement prints it as the text's, or it does not work out here
            rivals.append(evidence(str(want), lambda _id: None))
            continue
        used.add(index)
        rivals.append(evidence(statements[index][0], lambda _id: None))
        wanted, gotten = _values(shown_result(want)), _values(shown_result(got))
        if wanted is None or gotten is None or len(wanted) != len(gotten):
            rivals.append(evidence(str(want), lambda _id: None))
            continue
        for was, now in zip(wanted, gotten, strict=True):
            if was == now:
                rivals.append(evidence(was, lambda _id: None))
            else:
                candidates.append((was, now))
    rivals += [evidence(out, lambda _id: None) for i, (_c, out) in enumerate(statements) if i not in used and out]
    return candidates, rivals


def _statements(source: str) -> list[tuple[str, str]]:
    """(code, output) of each ``>>>`` statement of an example."""
    found: list[list[str]] = []
    for line in source.split("\n"):
        text = line.strip()
        if text.startswith(">>>"):
            found.append([text[3:], ""])
        elif text.startswith("...") and found and not found[-1][1]:
            found[-1][0] += "\n" + text[3:]
        elif text and found:
            found[-1][1] = f"{found[-1][1]}\n{text}".strip()
    return [(code, out) for code, out in found]


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


def _house_values(paragraph: str, numbers: list[tuple[Stated, str, str]], escape) -> str:
    """The paragraph with each of ``numbers`` (``house_numbers``) printed as a house value is:
    ``5 (house rule; the text: 4)``."""
    for number, shown, written in sorted(numbers, key=lambda found: -found[0].start):
        marked = f"{escape(shown)} ({escape(f'{HOUSE_RULE}; the text: {written}')})"
        paragraph = paragraph[: number.start] + marked + paragraph[number.start + len(written) :]
    return paragraph


def house_hidden(ruleset) -> bool:
    """Whether an overlay's house results stay unshown: a house value of the game-master's could be read from them."""
    return any(value.is_house_rule and gm_only(value) for value in getattr(ruleset, "values", ()))


def for_readers(
    text: str,
    mark: str,
    keep_code: str | None = None,
    house=(),
    escape=str,
    hidden: bool = False,
    language: str = "en",
    game_master: str = GAME_MASTER,
) -> str:
    """Prose with each worked example's sentence ending in ``mark`` (a trailing colon becomes a full stop).

    The code is dropped, or, with ``keep_code`` (a directive name such as ``verified-example``), kept as that
    directive for a renderer that hides it behind a toggle. An example that follows no sentence gets no mark.
    An example in ``house`` (an overlay's ``HouseResult``s, found by their code) gets, instead of ``mark``, both
    results in words, made safe by ``escape`` for the renderer's markup (``hidden``: see ``house_phrase``): the
    house rules' own number in the sentence where it states one (``house_numbers``, read in ``language``, the
    rules' language tag), both ways after it otherwise; ``game_master`` is what the rules call the game-master.
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
            if result is None:
                shown = mark
            else:
                numbers, printed = ([], frozenset()) if hidden else house_numbers(paragraph, result, language)
                if numbers:
                    first = sentence - paragraph.count("\n")
                    out[first : sentence + 1] = _house_values(paragraph, numbers, escape).split("\n")
                phrase = house_phrase(result, hidden, paragraph, printed=printed, game_master=game_master)
                shown = f" ({escape(phrase)})" if phrase else ""
            out[sentence] = re.sub(r"\s*:\s*$", ".", out[sentence].rstrip()) + shown
        if keep_code:
            out[start] = f"{indent}{fence}{{{keep_code}}}"
        else:
            removed.update(range(start, min(end, len(lines) - 1) + 1))
    return "\n".join(line for number, line in enumerate(out) if number not in removed)
