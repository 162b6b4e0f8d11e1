"""The numbers a worked example's sentence states, and whether the example verifies each of them.

Players never see an example's code: they read the paragraph written before it, marked checked. So every
number in that paragraph (digits, ``1½``, ``3/4``, ``1 1/2``, ``-2``, ``4+``, ``6"``, percentages, dice such
as ``2D6``, thousands grouped as the language groups them (``1,000``, ``1.000``, ``1 000``), and the words one to a
hundred, ``once``, ``twice``, ``half``, ``a third``, ``every third roll``...) must be one the example
itself states: a number literal of its code, a number of its expected output (``Fraction(1, 3)`` is 1/3) or
of a value it reads (``values.x``), compared exactly. Three shapes say more than their numbers:

* a chance, ``19 times in 27``, ``one roll in six`` or ``a third of the rolls``: the example must state that
  fraction (19/27), not merely two numbers in that ratio;
* a percentage, ``41.7%``: a fraction of the example must round to it at the printed precision;
* a sum, ``3 + 5 = 8`` or ``2 x 5 = 10``: it must be true, and its result a number of the example.

``values.x`` and ``{value}`x``` roles print data; a role is not scanned, it is the data. Numbers the text
means as plain prose go in a paragraph of their own, before the sentence that states the result.
Everything here reads text only: nothing is executed.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from ..source.fences import example_fences
from .languages import ENGLISH, Language

# -- the sentence a worked example follows ---------------------------------------------------------------------
_NOT_A_SENTENCE = re.compile(r"^\s*(\||#|`{3,}|~{3,}|:{3,}|\(.*\)=\s*$)")


def sentence_before(lines: list[str], index: int, examples: set[int]) -> int | None:
    """The line of prose an example at ``index`` follows (the end of the paragraph before it), or None."""
    before = index - 1
    while before >= 0 and not lines[before].strip():
        before -= 1
    if before < 0 or before in examples or _NOT_A_SENTENCE.match(lines[before]):
        return None
    return before


def _paragraph_start(lines: list[str], sentence: int, examples: set[int]) -> int:
    """The first line of the paragraph whose last line is ``sentence``."""
    start = sentence
    while (
        start > 0
        and lines[start - 1].strip()
        and start - 1 not in examples
        and not _NOT_A_SENTENCE.match(lines[start - 1])
    ):
        start -= 1
    return start


def paragraph_before(lines: list[str], sentence: int, examples: set[int]) -> str:
    """The paragraph whose last line is ``sentence`` (from ``sentence_before``): what players read of the example."""
    return "\n".join(lines[_paragraph_start(lines, sentence, examples) : sentence + 1])


def stated(text: str) -> list[tuple[int, str, str]]:
    """(offset, paragraph, code) of each example of ``text`` that follows a sentence: the paragraph players read,
    marked checked, its character offset in ``text``, and the example's code (its ``>>>`` lines and results)."""
    lines = str(text or "").split("\n")
    found = list(example_fences(lines))
    closes = {end for _start, end, _i, _f in found}
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    result = []
    for start, end, _indent, _fence in found:
        sentence = sentence_before(lines, start, closes)
        if sentence is not None:
            first = _paragraph_start(lines, sentence, closes)
            result.append((offsets[first], "\n".join(lines[first : sentence + 1]), "\n".join(lines[start + 1 : end])))
    return result


def unstated(text: str) -> list[int]:
    """0-based lines of the examples in ``text`` that follow no sentence (players would read nothing of them)."""
    lines = str(text or "").split("\n")
    found = list(example_fences(lines))
    closes = {end for _start, end, _i, _f in found}
    return [start for start, _end, _i, _f in found if sentence_before(lines, start, closes) is None]


# -- the numbers it states, in the language the rules are written in ----------------------------------------------


_ROLE = re.compile(r"\{[a-z-]+\}`[^`]*`")
_LIST_MARKER = re.compile(r"^[ ]*\d+[.)][ ]", re.MULTILINE)
_VULGAR = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}
_SPACE = "\u00a0\u202f"  # the spaces French puts before % (and which keep 50 and % on one line)


@dataclass(frozen=True)
class _Grammar:
    language: Language
    token: re.Pattern
    not_a_number: re.Pattern
    chance_between: re.Pattern
    of_the_tries: re.Pattern
    hedge: re.Pattern


@functools.cache
def _grammar(language: Language) -> _Grammar:
    never = r"(?!x)x"  # an empty list of words is no word, not the empty word
    vulgar = "".join(_VULGAR)
    word = "|".join(sorted([*language.words, *language.ratio_words], key=len, reverse=True)) or never
    part = "|".join(sorted(language.parts, key=len, reverse=True)) or never
    ones = "|".join(language.ones) or never
    dot = f"[{re.escape(language.decimals)}]"
    times = rf"\b(?:{word})\s+{language.ratio_times}\b(?!\s+{language.between}\b)" if language.ratio_times else never
    chance_ones = "|".join(language.chance_ones) or never
    ordinal = "|".join(sorted(language.ordinals, key=len, reverse=True)) or never
    grouped = rf"\d{{1,3}}(?:[{re.escape(language.thousands)}]\d{{3}})+(?!\d)"  # 1,000; 1.000; 1 000
    counted = rf"(?:{language.tries}|{language.drawn})"  # what a chance of N in M counts: one roll (or card) in four
    token = re.compile(
        r"(?P<dice>(?<![\w.])\d*D\d+(?![\w]))"
        r"|(?P<odds>(?<![\w.:])\d+[ \u00a0]?:[ \u00a0]?\d+(?![\w:.]|[.,]\d))"  # odds of 3:1, a column of a table
        rf"|(?P<number>(?<![\w.,/])(?:(?<![\w)])[-−])?(?:(?:(?P<grouped>{grouped})|\d+)(?:{dot}\d+)?(?:\s?[{vulgar}]|\s\d+/\d+|/\d+)?"
        rf"|[{vulgar}])(?P<percent>[ {_SPACE}]?%)?(?![\w/]|{dot}\d))"
        rf"|(?P<every>\b(?:{language.every})\s+(?:{ordinal})\s+{counted}\b)"  # every third roll: 1/3
        rf"|(?P<mixed>\b(?:{word}|{ones})\s+{language.mixed}\s+(?:{part})\b)"
        rf"|(?P<part>\b(?:{ones}|{word})[\s-]+(?:{part})\b"
        rf"(?:(?<=s)|(?=\s+{language.part_follows}\b|\s*[.,;:)]|\s*$))|\b{language.halves}\b)"
        rf"|(?P<times>{times})"  # deux fois: twice
        # one in a chance: une fois sur deux, un jet sur six
        rf"|(?P<one>\b(?:{chance_ones})\b(?=\s+(?:{counted}\s+)?{language.one_between or language.between}\s))"
        rf"|(?P<word>\b(?:{word})\b)",
        re.IGNORECASE,
    )
    hedges = "|".join(f"(?P<{kind}>{words})" for kind, words in language.hedges.items())
    return _Grammar(
        language,
        token,
        re.compile(language.not_numbers),
        re.compile(rf"^[\s{_SPACE}]+(?:{counted}\s+)?{language.between}[\s{_SPACE}]+$", re.IGNORECASE),
        re.compile(rf"\s+{language.of_the_tries.format(tries=language.tries)}", re.IGNORECASE),
        re.compile(rf"\b(?:{hedges})\s+$", re.IGNORECASE),
    )


_HEDGES = {
    "over": lambda stated, number: number < stated < number + 1,
    "under": lambda stated, number: number - 1 < stated < number,
    "about": lambda stated, number: abs(stated - number) <= Fraction(1, 2),
}


_OPERATORS = {
    "+": operator.add,
    "-": operator.sub,
    "−": operator.sub,
    "x": operator.mul,
    "×": operator.mul,
    "*": operator.mul,
}
_OPERATOR_BETWEEN = re.compile(r"^\s*([+\-−x×*])\s*$")
_EQUALS_BETWEEN = re.compile(r"^\s*=\s*$")


@dataclass(frozen=True)
class Stated:
    """A number a sentence states: where it is (offsets in the paragraph), as written, and what it is."""

    start: int
    end: int
    text: str
    value: Fraction | None  # None for dice
    percent: bool = False
    dice: str = ""
    ratio: bool = False  # twice, half, a third: also true of two numbers of the example (6 and twice that, 12)
    odds: str = ""  # `3:1` as `3:1`: odds the example must write so, its digits anywhere are no evidence
    chance: bool = False  # every third roll: a chance of 1/3


@dataclass(frozen=True)
class Unverified:
    """A number (or chance, percentage, sum) of a sentence that the example does not verify, and why."""

    start: int
    text: str
    why: str


def _number(text: str, decimals: str = ".") -> Fraction:
    text = text.replace("−", "-").rstrip("%").rstrip(" " + _SPACE).translate(dict.fromkeys(map(ord, decimals), "."))
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("-")
    if text in _VULGAR:
        return sign * _VULGAR[text]
    if text[-1] in _VULGAR:
        return sign * (Fraction(text[:-1].strip()) + _VULGAR[text[-1]])
    if " " in text:  # 1 1/2
        whole, part = text.split(" ")
        return sign * (int(whole) + Fraction(part))
    return sign * Fraction(text)


def _spoken(text: str, language: Language) -> Fraction:
    whole = {**language.words, **language.ratio_words, **dict.fromkeys(language.ones, 1)}
    if " ".join(text.lower().split()) in whole:  # twenty-one, vingt et un, one hundred
        return Fraction(whole[" ".join(text.lower().split())])
    words = text.lower().replace("-", " ").split()
    joined = " ".join(words)
    if re.fullmatch(language.halves, joined, re.IGNORECASE):  # half, la moitié, die Hälfte
        return Fraction(1, 2)
    if words[-1] in language.parts:
        parts = language.parts[words[-1]]
        if len(words) > 2 and re.fullmatch(rf"\S+\s+{language.mixed}\s+\S+", joined, re.IGNORECASE):  # 1 and a half
            return whole.get(words[0], 1) + Fraction(1, parts)
        count = 1 if words[0] in language.ones or len(words) == 1 else whole[words[0]]
        return Fraction(count, parts)
    return Fraction(whole.get(words[0], 0))


def _odds(text: str) -> str:
    return ":".join(part.strip() for part in text.replace("\u00a0", " ").split(":"))


def stated_numbers(text: str, words: bool = True, language: Language = ENGLISH) -> list[Stated]:
    """Every number ``text`` states, in order; roles, list markers and "one" as a pronoun are left out."""
    grammar = _grammar(language)
    hidden = _ROLE.sub(lambda m: " " * len(m.group()), text)
    hidden = _LIST_MARKER.sub(lambda m: " " * len(m.group()), hidden)
    hidden = grammar.not_a_number.sub(lambda m: " " * len(m.group()), hidden)
    found = []
    for match in grammar.token.finditer(hidden):
        raw = match.group()
        if match["dice"]:
            found.append(Stated(match.start(), match.end(), raw, None, dice=raw.upper()))
        elif match["odds"]:
            found.append(Stated(match.start(), match.end(), raw, None, odds=_odds(raw)))
        elif match["number"]:
            percent = bool(match["percent"])
            digits = raw.replace(match["grouped"], re.sub(r"\D", "", match["grouped"]), 1) if match["grouped"] else raw
            value = _number(digits, language.decimals) / (100 if percent else 1)
            found.append(Stated(match.start(), match.end(), raw, value, percent))
        elif words and match["every"]:
            ordinal = match["every"].lower().split()[1]
            found.append(Stated(match.start(), match.end(), raw, Fraction(1, language.ordinals[ordinal]), chance=True))
        elif words:
            ratio = bool(match["part"] or match["mixed"] or match["times"]) or raw.lower() in language.ratio_words
            ratio = ratio and not (match["part"] and grammar.of_the_tries.match(hidden, match.end()))
            found.append(Stated(match.start(), match.end(), raw, _spoken(raw, language), ratio=ratio))
    return found


def states(paragraph: str, result: str, language: Language = ENGLISH) -> bool:
    """Whether ``result``, one printed result of an example, verifies something ``paragraph`` says, by the rules
    `check` holds a sentence to its example by: "half the time" states '50%', "one time in six" 1/6."""
    nothing = Evidence(frozenset(), frozenset(), frozenset())
    return len(_unverified(paragraph, _evidence((result,)), language)) < len(_unverified(paragraph, nothing, language))


def _rounded(number: Fraction, digits: int) -> Fraction:
    """``number`` rounded to ``digits`` decimal places, halves up (as ``percent`` prints)."""
    scale = 10**digits
    return Fraction((number * scale + Fraction(1, 2)).__floor__(), scale)


def _digits(text: str) -> int:
    """The decimal places of a percentage as written (27.8%, 27,8 %: one)."""
    return len(text.rstrip("%").rstrip(" " + _SPACE).replace(",", ".").partition(".")[2])


@dataclass(frozen=True)
class Evidence:
    """What an example states: its numbers (exact), the percentages it prints (as printed, with their decimal
    places) and its dice."""

    numbers: frozenset[Fraction]
    percents: frozenset[tuple[Fraction, int]]
    dice: frozenset[str]
    odds: frozenset[str] = frozenset()

    def has(self, number: Fraction) -> bool:
        """The example states ``number``, or prints a percentage that ``number`` rounds to (1/3 and 33.3%)."""
        return number in self.numbers or any(
            _rounded(number * 100, digits) == shown * 100 for shown, digits in self.percents
        )

    def rounds_to(self, shown: Stated) -> bool:
        """A fraction of the example, as a percentage at the printed precision, is ``shown``; or a percentage the
        example prints, to as many places or more (`58%` of `'58.3%'`)."""
        digits = _digits(shown.text)
        return any(
            _rounded(printed * 100, digits) == shown.value * 100
            for printed, places in self.percents
            if places >= digits
        ) or any(_rounded(number * 100, digits) == shown.value * 100 for number in self.numbers)

    def relates(self, ratio: Fraction) -> bool:
        """Two numbers of the example stand in ``ratio`` (twice: 6 and 12)."""
        return any(big == ratio * small for small in self.numbers if small for big in self.numbers)

    def near_chance(self, times: Fraction, out_of: Fraction, hedge: str) -> bool:
        """A chance of the example is what ``hedge`` says of ``times`` in ``out_of`` (about 8 times in 100: 1/12,
        8⅓ in 100)."""
        test = _HEDGES[hedge]
        return any(test(chance * out_of, times) for chance in self.numbers if 0 < chance < 1)

    def near(self, number: Fraction, hedge: str) -> bool:
        """A number of the example is what ``hedge`` (over, under or about) says of ``number`` (a little over 3:
        19/6)."""
        test = _HEDGES[hedge]
        return any(test(stated, number) for stated in self.numbers)


_FRACTION = re.compile(r"Fraction\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_VALUE_READ = re.compile(r"\bvalues\.([a-z_][a-z0-9_]*)|\bvalue\(\s*['\"]([a-z_][a-z0-9_]*)['\"]")


def values_read(code: str) -> list[str]:
    """The ids of the values an example's code reads (``values.x``, ``rules.value("x")``)."""
    return [m[1] or m[2] for m in _VALUE_READ.finditer(code)]


_COMMENT = re.compile(r"[ ]+#[^'\"\n]*$", re.MULTILINE)  # a comment checks nothing: its numbers are no evidence


_CALLED = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(")
_QUOTED_ID = re.compile(r"""(?<![\w'"])['"]([a-z_][a-z0-9_]*)['"]""")


def names_read(code: str) -> list[str]:
    """The ids an example's code reads: the values (``values.x``), what it calls (``hit(3)``) and the entries it names
    in quotes (``rules.table("a_table")``), in order, once each; some are no entry (``percent``)."""
    code = _COMMENT.sub("", code)
    return list(dict.fromkeys([*values_read(code), *_CALLED.findall(code), *_QUOTED_ID.findall(code)]))


_FIELD_READ = re.compile(r"\brules\.([a-z_]+)\(\s*['\"]([a-z_][a-z0-9_]*)['\"]\s*\)\.([a-z_][a-z0-9_]*)")


def fields_read(code: str) -> list[tuple[str, str, str]]:
    """(how, id, field) of each entry's field an example's code reads: ``rules.spell("ember_dart").casting_value``."""
    return [(m[1], m[2], m[3]) for m in _FIELD_READ.finditer(code)]


def evidence(
    code: str,
    value_text: Callable[[str], str | None],
    rolled_by: Callable[[str], str | None] = lambda id: None,
    field_text: Callable[[str, str, str], str | None] = lambda how, id, field: None,
    keys_of: Callable[[str], str | None] = lambda id: None,
) -> Evidence:
    """The numbers and dice an example's code and expected output state, those of the values and entries' fields
    it reads (``field_text(how, id, field)``), the dice the formulas it calls and the tables it names roll
    (``rolled_by(id)``: a formula's expressions, a table's dice, None for another name), and the rolls the rows of
    the tables it names cover (``keys_of(id)``: "it breaks on 2-4" before an example of a table whose row is 2-4)."""
    code = _COMMENT.sub("", code)
    named = list(dict.fromkeys([*_CALLED.findall(code), *_QUOTED_ID.findall(code)]))  # chance_on("a_table", 5)
    rolled = tuple(filter(None, (rolled_by(id) for id in named)))
    read = [value_text(id) for id in values_read(code)] + [field_text(*found) for found in fields_read(code)]
    read += [keys_of(id) for id in named]
    return _evidence((code, *filter(None, read)), rolled)


@functools.lru_cache(maxsize=4096)  # a pure function of its texts: a check run again (the daemon's) reuses it
def _evidence(texts: tuple[str, ...], rolled: tuple[str, ...] = ()) -> Evidence:
    code = texts[0]
    numbers: set[Fraction] = set()
    percents: set[tuple[Fraction, int]] = set()
    dice: set[str] = set()
    odds: set[str] = set()
    for text in texts:
        read = stated_numbers(text) + stated_numbers(text.replace("_", " "))  # at_least_one(...): 1
        if text is code:  # hit(1,200): a comma of code parts arguments, it groups no thousands
            read += stated_numbers(text.replace(",", ", "))
        for stated in read:
            if stated.odds:
                odds.add(stated.odds)
                numbers.update(Fraction(int(part)) for part in stated.odds.split(":"))
            elif stated.dice:
                dice.add(stated.dice)
                numbers.update(Fraction(int(part)) for part in stated.dice.split("D") if part)
            elif stated.percent:
                percents.add((stated.value, _digits(stated.text)))
            else:
                numbers.update({stated.value, abs(stated.value)})
    numbers.update(Fraction(int(a), int(b)) for a, b in _FRACTION.findall(code) if int(b))
    dice.update(stated.dice for text in rolled for stated in stated_numbers(text) if stated.dice)  # its dice alone
    return Evidence(frozenset(numbers), frozenset(percents), frozenset(dice), frozenset(odds))


def _claims(paragraph: str, numbers: list[Stated], grammar: _Grammar) -> Iterable[tuple[str, list[Stated]]]:
    """The numbers grouped into what they claim: ("chance", [n, m]), ("sum", [a, b, ..., result]) or ("number", [n])."""
    index = 0
    between = lambda i: paragraph[numbers[i].end : numbers[i + 1].start]  # noqa: E731
    while index < len(numbers):
        plain = lambda i: numbers[i].value is not None and not numbers[i].percent  # noqa: E731
        end = index
        while end + 1 < len(numbers) and plain(end) and plain(end + 1) and _OPERATOR_BETWEEN.match(between(end)):
            end += 1
        if end > index and end + 1 < len(numbers) and plain(end + 1) and _EQUALS_BETWEEN.match(between(end)):
            yield "sum", numbers[index : end + 2]
            index = end + 2
        elif (
            index + 1 < len(numbers)
            and plain(index)
            and plain(index + 1)
            and numbers[index + 1].value
            and grammar.chance_between.match(between(index))
        ):
            yield "chance", numbers[index : index + 2]
            index += 2
        else:
            yield "number", [numbers[index]]
            index += 1


def plain_numbers(paragraph: str, language: Language = ENGLISH) -> list[Stated]:
    """The numbers of ``paragraph`` that each claim a number alone, in digits: none in a chance, a sum, odds, a
    percentage or dice, no number word and none hedged ("about 4"). What an overlay may print its own result in
    place of (``render.worked``)."""
    grammar = _grammar(language)
    found = []
    for kind, numbers in _claims(paragraph, stated_numbers(paragraph, language=language), grammar):
        (first, *rest) = numbers
        plain = kind == "number" and not rest and first.value is not None and re.search(r"\d", first.text)
        plain = plain and not (first.percent or first.ratio or first.chance or first.dice or first.odds)
        if plain and grammar.hedge.search(paragraph[: first.start]) is None:
            found.append(first)
    return found


def _sum_holds(paragraph: str, terms: list[Stated]) -> bool:
    total = terms[0].value
    for left, right in zip(terms, terms[1:-1]):
        total = _OPERATORS[_OPERATOR_BETWEEN.match(paragraph[left.end : right.start])[1]](total, right.value)
    return total == terms[-1].value


def _not_stated(number: Stated) -> str:
    said = "" if number.text == str(number.value) else f"{number.value}, "
    return f"{said}a number the example does not state"


def unverified(paragraph: str, found: Evidence, language: Language = ENGLISH) -> list[Unverified]:
    """Each claim of ``paragraph`` (written in ``language``) that the example's ``found`` evidence does not verify."""
    return list(_unverified(paragraph, found, language))


@functools.lru_cache(maxsize=4096)  # likewise pure
def _unverified(paragraph: str, found: Evidence, language: Language) -> tuple[Unverified, ...]:
    problems = []
    grammar = _grammar(language)
    for kind, numbers in _claims(paragraph, stated_numbers(paragraph, language=language), grammar):
        first = numbers[0]
        shown = " ".join(paragraph[first.start : numbers[-1].end].split())
        if kind == "chance":
            chance = Fraction(first.value, numbers[1].value)
            hedge = grammar.hedge.search(paragraph[: first.start])
            if hedge is not None and found.near_chance(first.value, numbers[1].value, hedge.lastgroup):
                continue  # "about 8 times in 100" of 1/12: 8⅓ in 100
            if not found.has(chance):
                why = f"a chance of {chance}, which the example does not state"
                if chance > 1:  # 13 cards in 3: the two numbers the wrong way round
                    why = f"a chance of {chance}, over 1, which no chance can be"
                problems.append(Unverified(first.start, shown, why))
        elif kind == "sum":
            if not _sum_holds(paragraph, numbers):
                problems.append(Unverified(first.start, shown, "a sum that is not true"))
            elif not found.has(numbers[-1].value):
                problems.append(Unverified(numbers[-1].start, numbers[-1].text, _not_stated(numbers[-1])))
        elif first.odds:
            if first.odds not in found.odds:
                problems.append(Unverified(first.start, shown, "odds the example does not write so"))
        elif first.dice:
            if first.dice not in found.dice:
                problems.append(Unverified(first.start, shown, "dice the example does not roll or name"))
        elif first.percent:
            if not found.rounds_to(first):
                problems.append(Unverified(first.start, shown, "a percentage no chance of the example rounds to"))
        elif (hedge := grammar.hedge.search(paragraph[: first.start])) is not None:
            if not found.near(first.value, hedge.lastgroup):
                problems.append(
                    Unverified(
                        first.start, shown, f"{hedge.group().strip()} {first.value}: no number of the example is that"
                    )
                )
        elif first.chance:
            if not found.has(first.value):
                problems.append(
                    Unverified(first.start, shown, f"a chance of {first.value}, which the example does not state")
                )
        elif not found.has(first.value) and not (first.ratio and found.relates(first.value)):
            problems.append(Unverified(first.start, shown, _not_stated(first)))
    return tuple(problems)
