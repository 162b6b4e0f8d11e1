"""Shared pieces of the model: fields with help text, `not given`, citations.

The field metadata written here is the one schema: the loader validates with
it, diagnostics quote it, and the authors' reference page is generated from it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, NewType

from ..diagnostics import Location

Markdown = NewType("Markdown", str)
"""MyST Markdown prose; worked examples go in fenced ``python`` blocks with ``>>>``."""

Audience = Literal["player", "gm"]
NOWHERE = Location("<model>", 0, 0)


@dataclass(frozen=True)
class Bounds:
    """Inclusive bounds for a number field, used in Annotated[int, Bounds(...)]."""

    low: int | None = None
    high: int | None = None

    def __str__(self) -> str:
        if self.low is not None and self.high is not None:
            return f"from {self.low} to {self.high}"
        return f"at least {self.low}" if self.low is not None else f"at most {self.high}"


class NotGivenError(ValueError):
    """A value the text leaves out, used as a number or as true or false."""


@dataclass(frozen=True)
class NotGiven:
    """A value the source text leaves out. Outputs show it; nothing fills it in silently: it is never a number,
    never true or false (arithmetic, comparison and ``bool`` raise :class:`NotGivenError`); test for it with
    ``is_given``."""

    note: str = ""
    what: str = field(default="", compare=False)  # the value's id, for the error a formula or example meets

    def __str__(self) -> str:
        return "not given"

    def __repr__(self) -> str:
        return f"not given: {self.note}" if self.note else "not given"

    def _refuse(self, *_args):
        named = f"the value `{self.what}`" if self.what else "this value"
        raise NotGivenError(
            f"not given: the text does not give {named}"
            + (f" ({self.note})" if self.note else "")
            + "; test for it with is_given(...) before using it"
        )

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __neg__ = __pos__ = __abs__ = __pow__ = __rpow__ = _refuse
    __lt__ = __le__ = __gt__ = __ge__ = __int__ = __index__ = __float__ = __bool__ = __floor__ = __ceil__ = _refuse


def is_given(value) -> bool:
    """False for a value the text leaves out (`not given`), True for anything it gives."""
    return not isinstance(value, NotGiven)


def spec(
    help: str,
    default: Any = dataclasses.MISSING,
    *,
    example: str | None = None,
    key: str | None = None,
    apart: bool = False,
):
    """A model field with the help text and example that feed the reference page. ``apart``: a list whose items load
    one by one, so that one written wrong is reported and left out while the others are still checked (an army
    list's lines); the entry then lacks it (``Ruleset.lacks_items``)."""
    metadata = {"help": help, "example": example, "key": key, **({"apart": True} if apart else {})}
    if isinstance(default, (list, dict, set)):
        raise TypeError("use a tuple for defaults")
    return field(default=default, metadata=metadata)


def located():
    """Fields every entry carries: where it was written, and where each of its values was."""
    return (
        field(default=NOWHERE, compare=False, repr=False, metadata={"internal": True}),
        field(default_factory=lambda: MappingProxyType({}), compare=False, repr=False, metadata={"internal": True}),
    )


@dataclass(frozen=True)
class Source:
    """Where an entry comes from: a source text in the ruleset's ``sources/`` folder."""

    section: str = spec("The heading or passage of the source the entry encodes.", "", example="FIGHTING")
    file: str = spec(
        "The source text's file name in `sources/`; defaults to the ruleset's `source`.", "", example="source.txt"
    )
    quote: str = spec(
        "Words quoted from the source, checked to occur in it (spacing may differ).",
        "",
        example="roll 1D6 for each one",
    )
    loc: Location = field(default=NOWHERE, compare=False, repr=False, metadata={"internal": True})
    locs: MappingProxyType = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False, metadata={"internal": True}
    )

    def __str__(self) -> str:
        return f"{self.file} § {self.section}" if self.section else self.file


@dataclass(frozen=True)
class QuickMark:
    """How an entry goes on the quick reference when `true` is not enough: what the sheet prints of it."""

    summary: Markdown = spec(
        "What the quick reference prints instead of the entry's full text (a rule's body, a "
        "spell's effect, a phase's summary): the procedure in a sentence or two, as the source "
        "says it.",
        Markdown(""),
        example="Roll a D6 and add the attacker's Strength...",
    )
    title: str = spec("A shorter heading for the sheet.", "", example="Harm")
    loc: Location = field(default=NOWHERE, compare=False, repr=False, metadata={"internal": True})
    locs: MappingProxyType = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False, metadata={"internal": True}
    )


QUICK_REFERENCE_FORMS = "`true`, `false` or a mapping with `summary:` (and `title:`)"


def quick_field(kind: str, default: bool = False):
    """The `quick_reference:` mark of an entry kind; `default` is whether the kind is printed unmarked."""
    shown = "printed unless `false`" if default else "left off unless marked"
    return spec(
        f"Put the {kind} on the ruleset's quick reference ({shown}): `true`, or "
        f"`{{summary: ...}}` to print a short summary instead of the full text.",
        default,
        example="{summary: Roll a D6 for each hit.}",
    )


def coverage_field():
    """The `coverage:` field of what worked examples can exercise: why none can, when none can."""
    return spec(
        "Why no worked example can exercise this (it is prose only: a timer, a choice the players make); "
        "`rulepress coverage` then counts it excused instead of missed.",
        "",
        example="prose only: the players time it with a watch",
    )


def value_loc(entry, name: str) -> Location:
    """Where field ``name`` of ``entry`` was written, else where the entry was."""
    return entry.locs.get(name, entry.loc)


def item_loc(owner, field: str, index: int | None = None) -> Location:
    """Where item ``index`` of list field ``field`` was written, else where the field (or its owner) was."""
    if index is not None and f"{field}[{index}]" in owner.locs:
        return owner.locs[f"{field}[{index}]"]
    return value_loc(owner, field)


@dataclass(frozen=True)
class Named:
    """An entry another entry names, as written there: the id it gives, where, and where to look for it.

    ``among`` are the places to look, in order, the first that has the id wins: a section, or ``keyword`` (a
    declared keyword by its name), ``row`` (a row of the matrix this is ``inside``), ``hero`` (a hero of the
    ruleset's own) or ``troop`` (a row of any of its matrices). None of them: any section, an entry of the
    game-master's first. ``inside`` are names that count only once this one is found (an army's troops, its
    heroes and its spells, once its matrix is)."""

    id: str
    loc: Location
    among: tuple[str, ...] = ()
    inside: tuple[Named, ...] = ()
