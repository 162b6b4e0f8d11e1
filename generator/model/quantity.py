"""Typed quantities: the numbers a rule states, with what kind of number each is.

A quantity is written as the text writes it (``2``, ``1½``, ``3/2``, ``6"``,
``3 hexes``, ``4+``, ``2D6``, ``2 minutes``) and keeps its kind, so prose prints
it the same way everywhere and formulas compute with its exact magnitude.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..diagnostics import closest
from .dice import DiceExpr, DiceSyntaxError, DiceTooLarge
from .numbers import VULGAR, exact, number_text  # noqa: F401 - quantities are read and printed with these
from .units import SIZES, SPELLINGS, Distance, one_of, unit_text

MAX_MAGNITUDE = 10**9  # no rule states a bigger number; larger ones are typing mistakes or attacks

_NUMBER = re.compile(
    r"(?P<sign>[-+−]?)\s*(?:(?P<whole>[0-9]{1,30})\s*)?(?:(?P<glyph>[½⅓⅔¼¾⅛⅜⅝⅞])|(?P<num>[0-9]{1,30})\s*/\s*(?P<den>[0-9]{1,30})"
    r"|\.(?P<dec>[0-9]{1,6}))?"
)
_FRACTION = re.compile(r"(?P<sign>[-+−]?)\s*(?P<num>[0-9]{1,30})\s*/\s*(?P<den>[0-9]{1,30})")  # 25/2: no whole part
_UNITS = {
    **SPELLINGS,
    "minute": "minutes",
    "minutes": "minutes",
    "turn": "turns",
    "turns": "turns",
    "round": "rounds",
    "rounds": "rounds",
    "model": "models",
    "models": "models",
    "point": "points",
    "points": "points",
    "pts": "points",
    "die": "dice",
    "dice": "dice",
    "%": "percent",
}
_ALTERNATIVES = re.compile(r"\s*,\s*|\s+or\s+")  # "4 or 5 feet", "2, 3 or 4"
KINDS = ("number", "distance", "target", "dice", "count", "text", "alternatives")


class QuantityError(ValueError):
    pass


class QuantityMixesMeasures(QuantityError):
    """Alternatives of two measures (`2" or 1 hex`)."""


class QuantityTooLarge(QuantityError):
    """A number or dice beyond a cap (MAX_MAGNITUDE, the largest die or dice pool)."""


def parse_number(text: str) -> int | Fraction:
    """``3``, ``-1``, ``1½``, ``1 1/2``, ``3/2``, ``1.5`` as an exact number; never a float."""
    match = _FRACTION.fullmatch(str(text).strip()) or _NUMBER.fullmatch(str(text).strip())
    if not match or not any(match.groupdict().get(part) for part in ("whole", "glyph", "num", "dec")):
        raise QuantityError(f"`{text}` is not a number (write 3, 1½, 3/2 or 1.5)")
    value = Fraction(int(match.groupdict().get("whole") or 0))
    if match.groupdict().get("glyph"):
        value += VULGAR[match["glyph"]]
    elif match["num"]:
        if int(match["den"]) == 0:
            raise QuantityError(f"`{text}` divides by zero")
        part = Fraction(int(match["num"]), int(match["den"]))
        if match.groupdict().get("whole") and not 0 < part < 1:
            raise QuantityError(f"`{text}`: the fraction after a whole number must be below 1, as in 1 1/2")
        value += part
    elif match.groupdict().get("dec"):
        value += Fraction(int(match["dec"]), 10 ** len(match["dec"]))
    if abs(value) > MAX_MAGNITUDE:
        raise QuantityTooLarge(f"`{text}` is larger than {MAX_MAGNITUDE:,}, the largest number a rule may state")
    return exact(-value if match["sign"] in ("-", "−") else value)


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
        alternatives = _alternatives(text, kind)
        if alternatives is not None:
            return alternatives
        if kind in ("", "target") and re.fullmatch(r"[0-9]{1,3}\s*\+", text):
            return cls("target", int(text.rstrip("+ ")))
        if kind == "target":
            raise QuantityError(f"`{text}` is not a target roll such as 4+")
        if kind == "dice" or (
            not kind and re.search(r"[0-9]*\s*[dD]\s*[0-9]", text) and not re.search(r"[a-ce-zA-CE-Z]", text)
        ):
            try:
                return cls("dice", DiceExpr.parse(text))
            except DiceTooLarge as error:
                raise QuantityTooLarge(str(error)) from None
            except DiceSyntaxError as error:
                raise QuantityError(str(error)) from None
        number = _LEADING_NUMBER.match(text)
        if number is None:
            if kind in ("", "text"):
                return cls("text", text)
            raise QuantityError(f"`{text}` is not a {kind}")
        magnitude = parse_number(number.group().strip())
        unit_text = text[number.end() :].strip()
        if not unit_text:
            if kind in ("distance",):
                raise QuantityError(f'`{text}` needs a unit (6", 3 hexes)')
            return cls(kind if kind in ("number", "count") else "number", magnitude)
        unit = _UNITS.get(unit_text.casefold(), unit_text)
        if re.match(r",[0-9]", unit_text):  # `1,5`: a decimal comma
            fixed = text.replace(",", ".", 1)
            raise QuantityError(f"`{text}` has a decimal comma; write `{fixed}` (or a fraction such as 1½)")
        if not re.fullmatch(r"(?:[%\"″'′]|[^\W\d_])(?:[^\W\d_]|[ .]){0,30}", unit_text):  # 2 épées too
            raise QuantityError(f'`{unit_text}` is not a unit (inches, ", hexes, minutes, models...)')
        if kind == "number":
            raise QuantityError(f"`{text}` has a unit; declare `type: distance` or `count`, or leave the type out")
        if kind == "distance" and unit not in SIZES:
            raise QuantityError(
                f"`{unit_text}` is not a unit of distance (inches, feet, yards, cm, mm, hexes, squares)"
            )
        if kind == "count" and unit in SIZES:
            raise QuantityError(f"`{text}` is a distance; declare `type: distance`, or leave the type out")
        if unit not in _UNITS.values() and (meant := _misspelt_unit(unit_text)):
            raise QuantityError(f"`{unit_text}` is not a unit; did you mean `{meant}`?")
        return cls(kind or ("distance" if unit in SIZES else "count"), magnitude, unit)

    @property
    def value(self):
        """What formulas and mechanics compute with: the exact number, a distance in its unit, the dice, the
        text, or the alternatives (which refuse to compute until one is picked)."""
        if self.kind == "distance":
            return Distance(self.magnitude, self.unit)
        if self.kind == "alternatives":
            return Alternatives(tuple(option.value for option in self.magnitude), str(self))
        return self.magnitude

    def __str__(self) -> str:
        if self.kind == "target":
            return f"{self.magnitude}+"
        if self.kind in ("dice", "text"):
            return str(self.magnitude)
        if self.kind == "alternatives":
            return " ".join(self.written.split())  # as written: "4 or 5 feet"
        if self.kind == "distance":
            return unit_text(self.magnitude, self.unit)
        number = number_text(self.magnitude)
        if not self.unit:  # a modifier written +1 keeps its sign: "large target +1" beside "moving −1"
            return f"+{number}" if self.written.startswith("+") and self.magnitude > 0 else number
        if self.unit == "percent":
            return f"{number}%"
        return f"{number} {one_of(self.unit) if self.magnitude == 1 else self.unit}"


def _misspelt_unit(written: str) -> str:
    """The unit of distance ``written`` is a slip of (`hexs`, `inchs`, `squres`), or ''. Any other word counts
    something the game names (2 cards), so only a near miss of a distance's spelling is one."""
    if len(written) < 3:
        return ""
    return closest(written.casefold(), [s for s in SPELLINGS if s.isalpha()], cutoff=0.85) or ""


_LEADING_NUMBER = re.compile(r"[-+−]?[0-9½⅓⅔¼¾⅛⅜⅝⅞][0-9 ./½⅓⅔¼¾⅛⅜⅝⅞]*")


def _alternatives(text: str, kind: str) -> Quantity | None:
    """``4 or 5 feet``, ``2, 3 or 4``: each a number (the unit written once, after the last, or after each), all
    of one kind; None when ``text`` is not a list of numbers joined by `or`."""
    parts = _ALTERNATIVES.split(text)
    if len(parts) < 2 or " or " not in f" {text} " or not all(_LEADING_NUMBER.match(part) for part in parts):
        return None
    last = Quantity._parse(parts[-1], kind)
    shared = parts[-1][_LEADING_NUMBER.match(parts[-1]).end() :].strip()
    options = []
    for part in parts:
        written = part if part[_LEADING_NUMBER.match(part).end() :].strip() else f"{part} {shared}".strip()
        options.append(Quantity.parse(written, kind or last.kind))
    kinds = {(option.kind, option.value.measure if option.kind == "distance" else "") for option in options}
    if len(kinds) > 1:
        raise (QuantityMixesMeasures if {kind for kind, _m in kinds} == {"distance"} else QuantityError)(
            f"`{text}`: the alternatives must be of one kind and measure ({', '.join(map(str, options))})"
        )
    return Quantity("alternatives", tuple(options), last.unit)


class NotPicked(ValueError):
    """Alternatives used as one number: a formula must pick one first."""


class Alternatives:
    """Alternatives a text gives (``4 or 5 feet``) as formulas see them: printed as written, refusing to count as a
    number, a distance or true until a formula picks one with ``pick(value, n)``."""

    __slots__ = ("options", "written")

    def __init__(self, options: tuple, written: str):
        object.__setattr__(self, "options", tuple(options))
        object.__setattr__(self, "written", written)

    def __setattr__(self, name, value):
        raise AttributeError("alternatives are immutable")

    def __reduce__(self):
        return Alternatives, (self.options, self.written)

    def pick(self, n: int):
        """The ``n``-th alternative as written (1: the first)."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(self.options):
            raise NotPicked(
                f"`{self.written}` has {len(self.options)} alternatives: pick 1 to {len(self.options)}, not {n!r}"
            )
        return self.options[n - 1]

    def _refuse(self, *_args):
        raise NotPicked(
            f"`{self.written}` gives alternatives, not one value: pick one first, as "
            f"`pick(value, 1)` for {self.options[0]}"
        )

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __neg__ = __pos__ = __abs__ = _refuse
    __lt__ = __le__ = __gt__ = __ge__ = __int__ = __index__ = __float__ = __bool__ = __floor__ = __ceil__ = _refuse

    def __eq__(self, other):
        if isinstance(other, Alternatives):
            return self.options == other.options
        return self._refuse()

    def __hash__(self):
        return hash(self.options)

    def __str__(self) -> str:
        return self.written

    __repr__ = __str__
