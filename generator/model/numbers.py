"""Exact numbers as rules write them: whole numbers and Fractions, printed as people write them."""

from __future__ import annotations

from fractions import Fraction

VULGAR = {
    "½": Fraction(1, 2),
    "⅓": Fraction(1, 3),
    "⅔": Fraction(2, 3),
    "¼": Fraction(1, 4),
    "¾": Fraction(3, 4),
    "⅛": Fraction(1, 8),
    "⅜": Fraction(3, 8),
    "⅝": Fraction(5, 8),
    "⅞": Fraction(7, 8),
}
_GLYPH = {value: glyph for glyph, value in VULGAR.items() if value.denominator <= 4}  # printed; eighths as 7/8


def exact(value) -> int | Fraction:
    """A whole Fraction as an int, so that 8 reads as 8 and 2½ stays Fraction(5, 2)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


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
