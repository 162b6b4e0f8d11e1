"""What the rules data was read for while worked examples ran: the measure behind ``rulepress coverage``.

Off unless switched on, and then only in the confined child that runs one ruleset's examples (a forked
process that ends with the run), so a check or a build never records anything. The model notes here each
formula it evaluates, each table and lookup row it reads, each value a formula or an example reads by name,
each army limit it applies and each entry looked up by id; the child turns those into the places they were
written and sends them back, as claims about its own run (see ``examples.confined``).
"""

from __future__ import annotations

_entries: dict[int, object] | None = None  # id -> the entry (kept alive, so an id is never reused)
_values: set[str] | None = None  # value ids read by name


def start() -> None:
    """Record from now on, forgetting what was recorded before."""
    global _entries, _values
    _entries, _values = {}, set()


def recording() -> bool:
    return _entries is not None


def entry(found) -> None:
    """An entry (or a row of one) that was read: a formula evaluated, a row looked up, a limit applied."""
    if _entries is not None:
        _entries[id(found)] = found


def value(name: str) -> None:
    """A value read by its id (in a formula, or as ``values.<id>``); names that are no value are sorted out later."""
    if _values is not None:
        _values.add(name)


def taken() -> tuple[list, set[str]]:
    """What was recorded since the last ``start`` or ``taken``, and a fresh record from here."""
    global _entries, _values
    found = (list((_entries or {}).values()), set(_values or ()))
    if _entries is not None:
        _entries, _values = {}, set()
    return found


class WatchedScope(dict):
    """A formula's scope that notes each name read from it that it was not given locally (an input or a
    ``let`` step shadows a value of the same name)."""

    def __init__(self, *args):
        super().__init__(*args)
        self._local: set[str] = set()

    def __setitem__(self, name, item):
        self._local.add(name)
        super().__setitem__(name, item)

    def __getitem__(self, name):
        if name not in self._local:
            value(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        if name not in self._local and name in self:
            value(name)
        return super().get(name, default)


def scope(base: dict) -> dict:
    """A copy of ``base`` for one formula evaluation: watched while recording, a plain dict otherwise."""
    return WatchedScope(base) if _entries is not None else dict(base)
