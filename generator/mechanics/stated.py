"""Whether the text states something: a value, a profile cell, a table row's range (``not given`` is not)."""

from __future__ import annotations

from ..model.base import NotGiven
from ..model.calculate import MissingValue
from ..model.computed import Value
from ..model.entries import TableRow

__all__ = ["given"]


def given(thing) -> bool:
    """False for what the text leaves out (``values.x``, ``rules.value("x")``, a cell, a row's roll), else True."""
    if isinstance(thing, Value):
        return given(thing.value)
    if isinstance(thing, TableRow):
        return given(thing.roll)
    return not isinstance(thing, (NotGiven, MissingValue))
