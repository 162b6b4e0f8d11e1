"""Costly checks pay once per content: each item's result kept by a hash of exactly what it reads.

A check of a ruleset runs again whenever a file of the ruleset changes; most of its items did not.
Three checks are costly, and each reads only what its key holds:

* a formula tried with every input (``computed``) reads its own definition and, by name, every
  value, table, lookup and formula its expressions reach, and theirs in turn (formulas see nothing
  else: the expression language has no other way out, and its functions are the generator's code);
* a chart's cells (``computed``) read the chart and what its formulas and axis words reach, the same way;
* a text judged for what prose may hold (``prose``) reads the text alone.

Keys are made from the model as loaded, without its locations (``canonical``), so an item that only
moved in its file (a longer rule above it) still hits, and its diagnostic is located anew. Every key
also holds the generator (``check_cache.Memo``), so a new generator checks everything again.

Outside ``remembering(cache)`` (``check_project`` without a cache or a checker: an export, the names
of an example's namespace) nothing is remembered.

Worked examples are not kept one by one: an example's namespace holds ``rules`` (the whole ruleset,
prose and all), callables whose closures lead to it, and ``open`` on any file of its ruleset's folder,
so what one example can read is its ruleset's folder and its bases', which is what the
``examples-<ruleset>`` slot of ``check_cache`` is keyed by already.
"""

from __future__ import annotations

import hashlib
import re
from contextlib import contextmanager
from contextvars import ContextVar

from ..model.canonical import canonical
from ..model.computed import formula_names

_memo: ContextVar = ContextVar("rulepress_check_memo", default=None)
_NAME = re.compile(r"[A-Za-z_]\w*")
SCOPE_SECTIONS = ("values", "tables", "lookups", "formulas")  # what a formula's names can stand for


@contextmanager
def remembering(cache):
    """Within it, costly checks read and fill ``cache``'s memo (a ``check_cache.CheckCache``; None: no memo),
    saved on leaving."""
    if cache is None:
        yield None
        return
    memo = cache.memo()
    token = _memo.set(memo)
    try:
        yield memo
    finally:
        _memo.reset(token)
        memo.save()


def remembered(kind: str, key, compute, dump, load):
    """``load(stored)`` when the memo holds ``key`` for ``kind`` (and it reads back), else ``compute()``,
    kept as ``dump(result)``. ``key`` is called only when a memo is active."""
    memo = _memo.get()
    if memo is None:
        return compute()
    item = key()
    stored = memo.get(kind, item)
    if stored is not None:
        try:
            return load(stored)
        except (KeyError, ValueError, TypeError, IndexError):  # a corrupt entry is a miss
            pass
    result = compute()
    memo.put(kind, item, dump(result))
    return result


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


# -- what an item reads, without where it was written: ``model.canonical`` ------------------------------------


class Reach:
    """The entries of one ruleset a formula can name (values, tables, lookups, formulas, its bases'
    too), and the digests of what each name reaches, made once per ruleset check."""

    def __init__(self, ruleset):
        self.by_name: dict[str, list] = {}
        for section in SCOPE_SECTIONS:
            for entry in ruleset.reachable(section):
                self.by_name.setdefault(entry.id, []).append((section, entry))
        self._digests: dict[int, str] = {}

    def key(self, kind: str, item, names) -> str:
        """The key of ``item`` (its canonical text) with everything ``names`` reach, transitively."""
        digest = hashlib.sha256(f"{kind}\0{canonical(item)}".encode("utf-8", "surrogateescape"))
        for name, section, entry in self._closure(names):
            digest.update(f"\0{name}\0{section}\0{self._digest(entry)}".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    def _closure(self, names):
        """(name, section, entry) for every entry a name reaches, sorted; a name no entry has is kept as such."""
        seen, pending, found = set(), list(names), []
        while pending:
            name = pending.pop()
            if name in seen:
                continue
            seen.add(name)
            entries = self.by_name.get(name)
            if not entries:
                found.append((name, "", ""))
                continue
            for index, (section, entry) in enumerate(entries):
                found.append((name, f"{section}#{index}", entry))
                if section == "formulas":
                    pending.extend(formula_names(entry))
        return sorted(found, key=lambda row: (row[0], row[1]))

    def _digest(self, entry) -> str:
        if entry == "":
            return "<none>"
        known = self._digests.get(id(entry))
        if known is None:
            known = self._digests[id(entry)] = text_key(canonical(entry))
        return known


def words(item) -> set[str]:
    """Every name-like word of an item's canonical text: more than it names (its field names too), so
    every formula and value a chart's fields or axis words (``cover + moving``) name is among them."""
    return set(_NAME.findall(canonical(item)))
