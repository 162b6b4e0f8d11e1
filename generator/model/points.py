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

from .quantity import number_text  # noqa: E402 - one reader and one printer of exact numbers


def exact(value: Number) -> Number:
    """``value`` as an int when it is whole, else as the Fraction it is."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError(f"points are whole numbers or Fractions, not {value!r}")
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value.numerator)
    return value


def points_text(value: Number) -> str:
    """A points value for people: ``3``, ``1½``, ``⅔``, ``-2¼``, ``2 7/8``, ``7/8``."""
    return number_text(exact(value))


def points_noun(value) -> str:
    """The noun after a number of points: ``point`` after exactly 1, ``points`` after any other (``0``, ``½``,
    ``1½``, a gap); the noun is the engine's own English, as every points total prints."""
    return "point" if not isinstance(value, bool) and isinstance(value, (int, Fraction)) and value == 1 else "points"


def points_words(value: Number) -> str:
    """A number of points in words: ``1 point``, ``3 points``, ``1½ points``."""
    return f"{points_text(value)} {points_noun(value)}"
