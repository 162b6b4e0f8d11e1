"""Whether the text states something: a value, a profile cell, a table row's range (``not given`` is not)."""

from __future__ import annotations

from ..model import base
from ..model.computed import Value
from ..model.entries import TableRow

__all__ = ["is_given"]


def is_given(thing) -> bool:
    """False for what the text marks `not given` (``values.x``, ``rules.value("x")``, a cell, a row's roll), else
    True."""
    if isinstance(thing, Value):
        return is_given(thing.value)
    if isinstance(thing, TableRow):
        return is_given(thing.roll)
    return base.is_given(thing)
