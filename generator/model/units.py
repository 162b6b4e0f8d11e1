"""Distances that keep their unit: lengths convert exactly, grid units stand apart.

A rule measures in inches, feet, yards, centimetres or millimetres (one *length*, converted
exactly: 1 ft = 12 in, 1 yd = 36 in, 1 in = 2.54 cm = 25.4 mm) or in the cells of a grid
(hexes, squares: each its own measure, which no length converts to). A :class:`Distance` is a
number and its unit; sums, differences and comparisons convert lengths and refuse to mix
measures, so ``1 foot > 6"`` holds and ``3 hexes + 6"`` is an error that says why.

A bare number met by a distance is read in that distance's unit (``move + 1`` is one more of
whatever ``move`` is measured in), as a rule's text reads it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import total_ordering

from .numbers import exact, number_text

# unit: (the measure it belongs to, its size in that measure's smallest common unit)
_INCH = Fraction(1)
SIZES = {
    "mm": ("length", Fraction(5, 127)),  # 1 in = 25.4 mm exactly
    "cm": ("length", Fraction(50, 127)),  # 1 in = 2.54 cm exactly
    "inches": ("length", _INCH),
    "feet": ("length", 12 * _INCH),
    "yards": ("length", 36 * _INCH),
    "hexes": ("hexes", Fraction(1)),
    "squares": ("squares", Fraction(1)),
}
DISTANCE_UNITS = tuple(SIZES)
# how authors write each unit (casefolded), to the one name the model keeps
SPELLINGS = {
    '"': "inches",
    "″": "inches",
    "in": "inches",
    "in.": "inches",
    "inch": "inches",
    "inches": "inches",
    "'": "feet",
    "′": "feet",
    "ft": "feet",
    "ft.": "feet",
    "foot": "feet",
    "feet": "feet",
    "yd": "yards",
    "yds": "yards",
    "yard": "yards",
    "yards": "yards",
    "cm": "cm",
    "centimetre": "cm",
    "centimetres": "cm",
    "centimeter": "cm",
    "centimeters": "cm",
    "mm": "mm",
    "millimetre": "mm",
    "millimetres": "mm",
    "millimeter": "mm",
    "millimeters": "mm",
    "hex": "hexes",
    "hexes": "hexes",
    "square": "squares",
    "squares": "squares",
    # the same units as French and German rules write them (printed as above: 3 pouces is 3")
    "pouce": "inches",
    "pouces": "inches",
    "zoll": "inches",
    "centimètre": "cm",
    "centimètres": "cm",
    "zentimeter": "cm",
    "millimètre": "mm",
    "millimètres": "mm",
    "hexagone": "hexes",
    "hexagones": "hexes",
}
_ONE = {"feet": "foot", "yards": "yard", "hexes": "hex", "squares": "square", "dice": "die"}  # how one of each prints
_SYMBOL = {"inches": '"'}  # printed straight after the number
_MEASURES = {
    "length": "measure a length",
    "hexes": "count cells of a hex grid",
    "squares": "count cells of a square grid",
}


class UnitMismatch(ValueError):
    """Two distances of different measures (a length and hexes) combined or compared."""


def measure(unit: str) -> str:
    """The measure a unit belongs to: ``length``, ``hexes`` or ``squares``."""
    return SIZES[unit][0]


def unit_text(magnitude, unit: str, shown=number_text) -> str:
    """``magnitude`` in ``unit`` as people write it: ``6"``, ``1 foot``, ``2 feet``, ``3 cm``, ``1 hex``."""
    number = shown(magnitude)
    if unit in _SYMBOL:
        return f"{number}{_SYMBOL[unit]}"
    return f"{number} {one_of(unit) if magnitude == 1 else unit}"


def one_of(unit: str) -> str:
    """How one of ``unit`` is written: ``1 foot``, ``1 die``, and of an author's own unit its last word without its
    one s: ``1 wound``, ``1 game turn``; a word ending in ss (``1 brass``) or in no s keeps it."""
    if unit in _ONE:
        return _ONE[unit]
    head, space, last = unit.rpartition(" ")
    return head + space + (last[:-1] if last.endswith("s") and not last.endswith("ss") else last)


def _is_number(value) -> bool:
    return isinstance(value, (int, Fraction)) and not isinstance(value, Distance)


@total_ordering
class Distance:
    """A distance in its unit, exact. Immutable; prints as the text writes it (``6"``, ``1 foot``)."""

    __slots__ = ("magnitude", "unit")

    def __init__(self, magnitude, unit: str):
        if unit not in SIZES:
            raise ValueError(f"`{unit}` is not a unit of distance ({', '.join(DISTANCE_UNITS)})")
        if isinstance(magnitude, bool) or not isinstance(magnitude, (int, Fraction)):
            raise TypeError(f"a distance is an exact number of {unit}, not {magnitude!r}")
        object.__setattr__(self, "magnitude", exact(magnitude))
        object.__setattr__(self, "unit", unit)

    def __setattr__(self, name, value):
        raise AttributeError("a distance is immutable")

    def __reduce__(self):
        return Distance, (self.magnitude, self.unit)

    @property
    def measure(self) -> str:
        return measure(self.unit)

    def to(self, unit: str) -> Distance:
        """The same distance in ``unit`` (of the same measure), exactly."""
        target = Distance(0, unit)  # an unknown unit is refused as a distance in it would be
        if target.measure != self.measure:
            raise UnitMismatch(
                f"{self} cannot be converted to {unit}: {self.unit} {_MEASURES[self.measure]}, "
                f"{unit} {_MEASURES[target.measure]}"
            )
        return Distance(self.magnitude * SIZES[self.unit][1] / SIZES[unit][1], unit)

    def in_unit(self, unit: str):
        """The number of ``unit`` this distance is (``Distance(1, 'feet').in_unit('inches') == 12``)."""
        return self.to(unit).magnitude

    # -- how another operand is read ------------------------------------------------------------
    def _same_measure(self, other: Distance, doing: str) -> None:
        if other.measure != self.measure:
            raise UnitMismatch(
                f"{self} and {other} cannot be {doing} each other: {self.unit} "
                f"{_MEASURES[self.measure]}, {other.unit} {_MEASURES[other.measure]}"
            )

    def _common(self, other, doing: str):
        """(this magnitude, the other's, the unit both are in), or None when ``other`` is not a number."""
        if isinstance(other, Distance):
            self._same_measure(other, doing)
            unit = min(self.unit, other.unit, key=lambda u: SIZES[u][1])  # the finer unit keeps both exact
            return self.in_unit(unit), other.in_unit(unit), unit
        if _is_number(other):
            return self.magnitude, other, self.unit
        if doing == "compared with" and isinstance(other, float) and math.isfinite(other):
            return self.magnitude, Fraction(other), self.unit  # a float compares exactly; it never enters a sum
        return None

    def _sum(self, other, sign: int, reflected: bool = False):
        common = self._common(other, "added to" if sign > 0 else "subtracted from")
        if common is None:
            return NotImplemented
        mine, theirs, unit = common
        if reflected:
            mine, theirs = theirs, mine
        return Distance(mine + sign * theirs, unit)

    def __add__(self, other):
        return self._sum(other, 1)

    def __radd__(self, other):
        return self._sum(other, 1, reflected=True)

    def __sub__(self, other):
        return self._sum(other, -1)

    def __rsub__(self, other):
        return self._sum(other, -1, reflected=True)

    def __mul__(self, other):
        if isinstance(other, Distance):
            raise UnitMismatch(f"{self} times {other} is an area, which no rule measures")
        if _is_number(other):
            return Distance(self.magnitude * other, self.unit)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, Distance):
            mine, theirs, _unit = self._common(other, "divided by")
            return exact(Fraction(mine) / Fraction(theirs))  # how many times one goes into the other: a number
        if _is_number(other):
            return Distance(Fraction(self.magnitude) / Fraction(other), self.unit)
        return NotImplemented

    def __rtruediv__(self, other):
        if _is_number(other):
            raise UnitMismatch(f"{other} divided by {self} is not a distance or a number")
        return NotImplemented

    def __floordiv__(self, other):
        if isinstance(other, Distance):
            mine, theirs, _unit = self._common(other, "divided by")
            return mine // theirs
        if _is_number(other):
            return Distance(self.magnitude // other, self.unit)
        return NotImplemented

    def __mod__(self, other):
        common = self._common(other, "divided by")
        if common is None:
            return NotImplemented
        mine, theirs, unit = common
        return Distance(mine % theirs, unit)

    def __neg__(self):
        return Distance(-self.magnitude, self.unit)

    def __pos__(self):
        return self

    def __abs__(self):
        return Distance(abs(self.magnitude), self.unit)

    def __floor__(self):
        return Distance(math.floor(self.magnitude), self.unit)

    def __ceil__(self):
        return Distance(math.ceil(self.magnitude), self.unit)

    def __bool__(self) -> bool:
        return self.magnitude != 0

    # -- comparisons ------------------------------------------------------------------------------
    def __eq__(self, other):
        common = self._common(other, "compared with")
        return NotImplemented if common is None else common[0] == common[1]

    def __lt__(self, other):
        common = self._common(other, "compared with")
        return NotImplemented if common is None else common[0] < common[1]

    def __hash__(self):
        # equal distances in different units hash alike; a distance equal to a bare number need not
        return hash((self.measure, Fraction(self.magnitude) * SIZES[self.unit][1]))

    def text(self, shown=number_text) -> str:
        """Printed with ``shown`` for the number (exact by default, or rounded for a chart)."""
        return unit_text(self.magnitude, self.unit, shown)

    def __str__(self) -> str:
        return self.text()

    __repr__ = __str__  # an example shows `6"` or `1 foot`, as the rules write it
