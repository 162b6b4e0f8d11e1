"""Dice expressions and roll ranges as immutable values with exact distributions.

``DiceExpr.parse("D6 + S - T - W")`` keeps its terms; ``.die(S=4, T=3, W=1)``
gives an icepool ``Die`` whose probabilities are exact ``Fraction``s.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import icepool


class DiceSyntaxError(ValueError):
    """A dice expression or roll key that does not parse; ``offset`` is 0-based in the text."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Term:
    """One signed term: ``count`` dice of ``sides`` sides, a constant, or a named stat."""

    sign: int
    count: int = 0
    sides: int = 0
    constant: int = 0
    stat: str | None = None

    @property
    def is_dice(self) -> bool:
        return self.sides > 0

    def __str__(self) -> str:
        if self.is_dice:
            return f"{self.count if self.count != 1 else ''}D{self.sides}"
        return self.stat if self.stat else str(self.constant)


_TOKEN = re.compile(
    r"\s*(?:(?P<dice>(?P<count>[0-9]*)[dD](?P<sides>[0-9]+))|(?P<number>[0-9]+)|(?P<stat>[A-Za-z][A-Za-z_]*)|(?P<op>[+-]))"
)
_MAX_DICE = 100
MAX_SIDES = 1000  # a D1000 is the largest die a rule rolls
MAX_DICE_SIDES = (
    2000  # dice × sides over a whole expression (2D1000, 20D100): an exact distribution in well under a second
)
MAX_ROLL = 10**9  # the largest number a roll key or a constant may state
_MAX_DIGITS = 10


def digit_places(sides: int) -> tuple[int, int] | None:
    """A die written with one digit again and again (D66, D666, D88) is that many dice of that digit's sides, read as
    the digits of one number: D66 is a tens die and a units die, 11 to 66, never a die of 66 sides. ``(6, 2)`` for
    66; None for any other die."""
    text = str(sides)
    if len(text) >= 2 and text[0] in "23456789" and text == text[0] * len(text):
        return int(text[0]), len(text)
    return None


def single_die(sides: int) -> icepool.Die:
    """One die as the rules write it: a D6 rolls 1 to 6; a D66 rolls 11 to 66, each of its 36 results alike."""
    read = digit_places(sides)
    if read is None:
        return icepool.d(sides)
    faces, places = read
    die = icepool.Die([0])
    for _ in range(places):
        die = die * 10 + icepool.d(faces)
    return die


class DiceTooLarge(DiceSyntaxError):
    """A dice expression or roll that parses but is beyond a cap (too many sides, dice or digits)."""


def _whole(digits: str, what: str, text: str, offset: int = 0) -> int:
    """``int(digits)``, refused (DiceTooLarge) before converting a string longer than any rule needs."""
    if len(digits.lstrip("-").lstrip("0")) > _MAX_DIGITS or int(digits) > MAX_ROLL or int(digits) < -MAX_ROLL:
        shown = digits if len(digits) <= 20 else f"{digits[:12]}… ({len(digits):,} digits)"
        raise DiceTooLarge(
            f"{what} `{shown}` in `{_short(text)}` is beyond {MAX_ROLL:,}, the largest number a roll may state", offset
        )
    return int(digits)


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def _capital_dice(text: str) -> str:
    """Dice as rules print them, `2D6`, where the author typed `2d6` (read alike): every printout says `2D6`."""
    dice = [m.span("dice") for m in _TOKEN.finditer(text) if m["dice"]]
    return "".join(c.upper() if c == "d" and any(a <= i < b for a, b in dice) else c for i, c in enumerate(text))


@dataclass(frozen=True)
class DiceExpr:
    """Dice as the rules write them (``2D6+1``, ``D6+WS``), read by ``DiceExpr.parse(text)``: ``distribution(**stats)``
    is each total's exact chance."""

    text: str
    terms: tuple[Term, ...]

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        text = str(text)
        terms: list[Term] = []
        position, sign, expect_term = 0, 1, True
        while position < len(text):
            if not text[position:].strip():
                break
            match = _TOKEN.match(text, position)
            if not match:
                offset = len(text) - len(text[position:].lstrip())
                raise DiceSyntaxError(f"unexpected `{text[offset]}` in dice expression `{text}`", offset)
            start = match.start(match.lastgroup)
            if match["op"]:
                if expect_term:
                    if match["op"] == "-" and not terms and sign == 1:
                        sign = -1
                        position = match.end()
                        continue
                    raise DiceSyntaxError(f"`{match['op']}` needs a term before it in `{text}`", start)
                sign = 1 if match["op"] == "+" else -1
                expect_term = True
            else:
                if not expect_term:
                    raise DiceSyntaxError(
                        f"missing `+` or `-` before `{match.group(match.lastgroup)}` in `{text}`", start
                    )
                terms.append(cls._term(match, sign, start, text))
                expect_term, sign = False, 1
            position = match.end()
        if not terms:
            raise DiceSyntaxError(f"empty dice expression `{text}`", 0)
        if expect_term:
            raise DiceSyntaxError(f"`{text}` ends with an operator", len(text.rstrip()) - 1)
        if not any(t.is_dice for t in terms):
            raise DiceSyntaxError(f"`{text}` rolls no dice; write a die such as D6", 0)
        pool = sum(t.count * t.sides for t in terms if t.is_dice)
        if pool > MAX_DICE_SIDES:
            raise DiceTooLarge(
                f"`{_short(text)}` rolls {pool:,} dice × sides; the limit is {MAX_DICE_SIDES:,} (such as 2D1000 or "
                f"20D100)",
                0,
            )
        return cls(" ".join(_capital_dice(text).split()), tuple(terms))

    @staticmethod
    def _term(match, sign: int, start: int, text: str) -> Term:
        if match["dice"]:
            count = _whole(match["count"] or "1", "the dice count", text, start)
            sides = _whole(match["sides"], "the number of sides", text, start)
            if sides > MAX_SIDES and count >= 1:
                raise DiceTooLarge(f"`{match['dice']}` has {sides:,} sides; the largest die is a D{MAX_SIDES}", start)
            if not 1 <= count <= _MAX_DICE or sides < 2:
                raise DiceSyntaxError(
                    f"`{match['dice']}` is not a usable die in `{text}` (1-{_MAX_DICE} dice of 2 or more sides)", start
                )
            return Term(sign, count=count, sides=sides)
        if match["number"]:
            return Term(sign, constant=_whole(match["number"], "the number", text, start))
        return Term(sign, stat=match["stat"])

    # -- facts ---------------------------------------------------------------
    @property
    def stats(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.stat for t in self.terms if t.stat))

    @property
    def is_modified(self) -> bool:
        """True when stats or constants shift the dice total."""
        return any(not t.is_dice for t in self.terms)

    @property
    def natural(self) -> DiceExpr:
        """Only the dice of the expression: the natural roll."""
        dice = tuple(t for t in self.terms if t.is_dice)
        return DiceExpr(" + ".join(str(t) for t in dice), dice)

    def __str__(self) -> str:
        return self.text

    # -- distributions ----------------------------------------------------------
    def die(self, **stats: int) -> icepool.Die:
        missing = [s for s in self.stats if s not in stats]
        if missing:
            raise TypeError(f"{self.text} needs values for {', '.join(missing)}")
        total = icepool.Die([0])
        for term in self.terms:
            if term.is_dice:
                part = term.count @ single_die(term.sides)
            else:
                part = icepool.Die([stats[term.stat] if term.stat else term.constant])
            total = total + part if term.sign > 0 else total - part
        return total

    def distribution(self, **stats: int) -> dict[int, Fraction]:
        die = self.die(**stats)
        return {outcome: die.probability(outcome) for outcome in die.outcomes()}

    def bounds(self, **stats: int) -> tuple[int, int]:
        die = self.die(**stats)
        return die.min_outcome(), die.max_outcome()


@dataclass(frozen=True)
class RollRange:
    """The results a table row covers: ``5``, ``1-2``, ``6+`` (6 or more), ``1-`` (1 or less)."""

    low: int | None
    high: int | None
    text: str

    @classmethod
    def parse(cls, key) -> RollRange:
        if isinstance(key, bool):
            raise DiceSyntaxError(f"`{key}` is not a roll")
        if isinstance(key, int):
            _whole(str(key), "the roll", str(key))
            return cls(key, key, str(key))
        text = str(key).strip()
        # any space (a no-break one a French editor types in `2 - 5`), and dashes: en, em and minus
        compact = re.sub(r"\s", "", text).translate(str.maketrans("–—−", "---"))
        for digits in re.findall(r"[0-9]+", compact):
            _whole(digits, "the roll", text)
        if m := re.fullmatch(r"(-?[0-9]+)", compact):
            value = int(m[1])
            return cls(value, value, text)
        if m := re.fullmatch(r"(-?[0-9]+)-(-?[0-9]+)", compact):
            low, high = int(m[1]), int(m[2])
            if low > high:
                # `3--4`: one dash too many (3 to 4) rather than a range from 3 down to -4
                doubled = "--" in compact and -high > low >= 0
                fixed = f"{low}-{-high}" if doubled else f"{high}-{low}"
                if set(m[2]) == {"0"} and len(m[2]) > 1:  # `41-00`: percentile dice read 00 as 100
                    fixed = f"{low}-{10 ** len(m[2])}"
                raise DiceSyntaxError(f"range `{text}` runs backwards; write `{fixed}`")
            return cls(low, high, text)
        if m := re.fullmatch(r"(-?[0-9]+)\+", compact):
            return cls(int(m[1]), None, text)
        if m := re.fullmatch(r"(-?[0-9]+)-", compact):
            return cls(None, int(m[1]), text)
        # as the outputs print an open end, and as a source text writes it: `0 or less`, `7 or more`, `≤0`, `≥7`
        if m := re.fullmatch(r"(-?[0-9]+)or(less|lower|fewer|below)|(?:≤|<=)(-?[0-9]+)", compact, re.I):
            return cls(None, int(m[1] or m[3]), text)
        if m := re.fullmatch(r"(-?[0-9]+)or(more|higher|greater|above|better)|(?:≥|>=)(-?[0-9]+)", compact, re.I):
            return cls(int(m[1] or m[3]), None, text)
        raise DiceSyntaxError(f"`{text}` is not a roll: write 5, 1-2, 6+ or 1-")

    def __contains__(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def within(self, outcomes: Iterable[int]) -> list[int]:
        return [o for o in outcomes if o in self]


def target_probability(target: int | None, sides: int = 6) -> Fraction:
    """The chance that one die of ``sides`` rolls ``target`` or more: 4+ on a D6 is 1/2; None (impossible) is 0."""
    if target is None:
        return Fraction(0)
    die = single_die(sides)
    return die.probability(">=", target) if target <= die.max_outcome() else Fraction(0)


def percent(probability: Fraction, digits: int = 1) -> str:
    """Format an exact probability for people: ``Fraction(1, 3)`` is ``33.3%``."""
    scaled = Fraction(probability) * 100 * 10**digits
    value = Fraction(math.floor(scaled + Fraction(1, 2)), 10**digits)  # halves round up, as people expect
    text = f"{float(value):.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text}%"
