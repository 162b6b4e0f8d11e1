"""Typed quantities: the numbers a rule states, with what kind of number each is.

A quantity is written as the text writes it (``2``, ``1½``, ``3/2``, ``6"``,
``3 hexes``, ``4+``, ``2D6``, ``2 minutes``) and keeps its kind, so prose prints
it the same way everywhere and formulas compute with its exact magnitude.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from .dice import DiceExpr, DiceSyntaxError, DiceTooLarge

VULGAR = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "¼": Fraction(1, 4), "¾": Fraction(3, 4),
          "⅛": Fraction(1, 8), "⅜": Fraction(3, 8), "⅝": Fraction(5, 8), "⅞": Fraction(7, 8)}
_GLYPH = {value: glyph for glyph, value in VULGAR.items() if value.denominator <= 4}  # printed; eighths as 7/8
MAX_MAGNITUDE = 10**9  # no rule states a bigger number; larger ones are typing mistakes or attacks

_NUMBER = re.compile(r"(?P<sign>[-+−]?)\s*(?:(?P<whole>[0-9]{1,30})\s*)?(?:(?P<glyph>[½⅓⅔¼¾⅛⅜⅝⅞])|(?P<num>[0-9]{1,30})\s*/\s*(?P<den>[0-9]{1,30})"
                     r"|\.(?P<dec>[0-9]{1,6}))?")
_UNITS = {'"': "inches", "″": "inches", "in": "inches", "inch": "inches", "inches": "inches", "hex": "hexes",
          "hexes": "hexes", "cm": "cm", "mm": "mm", "minute": "minutes", "minutes": "minutes", "turn": "turns",
          "turns": "turns", "round": "rounds", "rounds": "rounds", "model": "models", "models": "models",
          "point": "points", "points": "points", "pts": "points", "die": "dice", "dice": "dice", "square": "squares",
          "squares": "squares", "%": "percent"}
_SINGULAR = {"dice": "die", "hexes": "hex"}  # plurals that are not the singular and an s (inches print as ")
KINDS = ("number", "distance", "target", "dice", "count", "text")


class QuantityError(ValueError):
    pass


class QuantityTooLarge(QuantityError):
    """A number or dice beyond a cap (MAX_MAGNITUDE, the largest die or dice pool)."""


def exact(value) -> int | Fraction:
    """A whole Fraction as an int, so that 8 reads as 8 and 2½ stays Fraction(5, 2)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


def parse_number(text: str) -> int | Fraction:
    """``3``, ``-1``, ``1½``, ``1 1/2``, ``3/2``, ``1.5`` as an exact number; never a float."""
    match = _NUMBER.fullmatch(str(text).strip())
    if not match or not (match["whole"] or match["glyph"] or match["num"] or match["dec"]):
        raise QuantityError(f"`{text}` is not a number (write 3, 1½, 3/2 or 1.5)")
    value = Fraction(int(match["whole"] or 0))
    if match["glyph"]:
        value += VULGAR[match["glyph"]]
    elif match["num"]:
        if int(match["den"]) == 0:
            raise QuantityError(f"`{text}` divides by zero")
        part = Fraction(int(match["num"]), int(match["den"]))
        if match["whole"] and not 0 < part < 1:
            raise QuantityError(f"`{text}`: the fraction after a whole number must be below 1, as in 1 1/2")
        value += part
    elif match["dec"]:
        value += Fraction(int(match["dec"]), 10 ** len(match["dec"]))
    if abs(value) > MAX_MAGNITUDE:
        raise QuantityTooLarge(f"`{text}` is larger than {MAX_MAGNITUDE:,}, the largest number a rule may state")
    return exact(-value if match["sign"] in ("-", "−") else value)


def number_text(value) -> str:
    """An exact number for people: ``3``, ``1½``, ``⅔``, ``-2¼``, ``2 7/8``, ``7/8``."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        return str(value)
    value = Fraction(value)
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value), 1)
    if rest == 0:
        return f"{sign}{whole}"
    if rest in _GLYPH:
        return f"{sign}{whole or ''}{_GLYPH[rest]}"
    return f"{sign}{whole} {rest}" if whole else f"{sign}{rest}"


@dataclass(frozen=True)
class Quantity:
    """A stated number and its kind: ``number``, ``distance`` (with its unit), ``target`` (4+),
    ``dice`` (2D6), ``count`` (a number of something: 2 minutes, 3 models) or ``text``."""

    kind: str
    magnitude: object  # int | Fraction for numbers; DiceExpr for dice; str for text
    unit: str = ""
    written: str = field(default="", compare=False, repr=False)  # as the author wrote it

    @classmethod
    def parse(cls, raw, kind: str = "") -> Quantity:
        quantity = cls._parse(str(raw).strip(), kind)
        return cls(quantity.kind, quantity.magnitude, quantity.unit, str(raw).strip())

    @classmethod
    def _parse(cls, text: str, kind: str) -> Quantity:
        if kind == "text":
            return cls("text", text)
        if kind in ("", "target") and re.fullmatch(r"[0-9]{1,3}\s*\+", text):
            return cls("target", int(text.rstrip("+ ")))
        if kind == "target":
            raise QuantityError(f"`{text}` is not a target roll such as 4+")
        if kind == "dice" or (not kind and re.search(r"[0-9]*\s*[dD]\s*[0-9]", text) and not re.search(r"[a-ce-zA-CE-Z]", text)):
            try:
                return cls("dice", DiceExpr.parse(text))
            except DiceTooLarge as error:
                raise QuantityTooLarge(str(error)) from None
            except DiceSyntaxError as error:
                raise QuantityError(str(error)) from None
        number = re.match(r"[-+−]?[0-9½⅓⅔¼¾⅛⅜⅝⅞][0-9 ./½⅓⅔¼¾⅛⅜⅝⅞]*", text)
        if number is None:
            if kind in ("", "text"):
                return cls("text", text)
            raise QuantityError(f"`{text}` is not a {kind}")
        magnitude = parse_number(number.group().strip())
        unit_text = text[number.end():].strip()
        if not unit_text:
            if kind in ("distance",):
                raise QuantityError(f"`{text}` needs a unit (6\", 3 hexes)")
            return cls(kind if kind in ("number", "count") else "number", magnitude)
        unit = _UNITS.get(unit_text.casefold(), unit_text)
        if not re.fullmatch(r"[A-Za-z%\"″][A-Za-z ]{0,30}", unit_text):
            raise QuantityError(f"`{unit_text}` is not a unit (inches, \", hexes, minutes, models...)")
        if kind == "number":
            raise QuantityError(f"`{text}` has a unit; declare `type: distance` or `count`, or leave the type out")
        return cls(kind or ("distance" if unit in ("inches", "hexes", "cm", "mm", "squares") else "count"),
                   magnitude, unit)

    @property
    def value(self):
        """What formulas and mechanics compute with: the exact number, the dice, the text."""
        return self.magnitude

    def __str__(self) -> str:
        if self.kind == "target":
            return f"{self.magnitude}+"
        if self.kind in ("dice", "text"):
            return str(self.magnitude)
        number = number_text(self.magnitude)
        if not self.unit:
            return number
        if self.unit == "inches":
            return f'{number}"'
        if self.unit == "percent":
            return f"{number}%"
        unit = self.unit
        if self.magnitude == 1:
            unit = _SINGULAR.get(unit) or unit.removesuffix("s")
        return f"{number} {unit}"
