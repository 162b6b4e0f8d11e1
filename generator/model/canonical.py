"""Model content as text that is the same wherever it was written: what content keys hash (``validate.memo``'s
items, the calculators a site holds)."""

from __future__ import annotations

import dataclasses
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from .formula import Expression

LOCATIONS = frozenset({"loc", "locs"})  # where an entry was written: never what is computed from it


def canonical(value) -> str:
    """A text that is the same for equal model content wherever it was written, and differs when any
    field a check could read differs (locations are left out; an expression is its text)."""
    if isinstance(value, Expression):
        return f"Expression({value.text!r})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ",".join(
            f"{f.name}={canonical(getattr(value, f.name))}"
            for f in dataclasses.fields(value)
            if f.name not in LOCATIONS
        )
        return f"{type(value).__qualname__}({fields})"
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__}[{','.join(canonical(item) for item in value)}]"
    if isinstance(value, (dict, MappingProxyType)):
        return (
            "{"
            + ",".join(f"{canonical(k)}:{canonical(v)}" for k, v in sorted(value.items(), key=lambda kv: repr(kv[0])))
            + "}"
        )
    if isinstance(value, (str, int, float, bool, Fraction, Enum, type(None))):
        return f"{type(value).__name__}:{value!r}"
    return f"{type(value).__qualname__}:{value!r}"  # any other object: its repr (at worst a key that never hits)
