"""Points as exact numbers: whole numbers or fractions, never floats.

Games price things in halves and thirds (a model at 1½ points, a victory worth
2/3 of a task). The loader reads every points value with
:func:`generator.source.build.parse_points`; the model keeps it as an ``int``
when whole and a :class:`~fractions.Fraction` otherwise; every output prints it
with :func:`points_text`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NewType, Union

Points = NewType("Points", Fraction)
"""A points value: a whole number, or an exact fraction written `1½`, `1 1/2`, `3/2` or `1.5`."""

Number = Union[int, Fraction]

# the vulgar fractions a points value may be written and printed with
VULGAR = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}
_PRINTED = {value: mark for mark, value in VULGAR.items()}


def exact(value: Number) -> Number:
    """``value`` as an int when it is whole, else as the Fraction it is."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError(f"points are whole numbers or Fractions, not {value!r}")
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value.numerator)
    return value


def points_text(value: Number) -> str:
    """A points value for people: ``3``, ``1½``, ``⅔``, ``-2¼``, ``2 7/8``, ``7/8``."""
    value = exact(value)
    if isinstance(value, int):
        return str(value)
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    whole = int(whole)
    if part in _PRINTED:
        return f"{sign}{whole or ''}{_PRINTED[part]}"
    fraction = f"{part.numerator}/{part.denominator}"
    return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"
