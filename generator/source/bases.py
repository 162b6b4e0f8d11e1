"""Rulesets that build on others: ``extends:`` bases and overlays (house rules, errata).

A ruleset that ``extends`` a base reaches the base's values, formulas, tables,
lookups, charts and terms as if written in it, and may not repeat their ids. An
*overlay* is a ruleset whose ``extends`` names the rules it changes and which holds
only ``values:``, each with the id of a value of its base, and ``army_limits:`` of its own: the result is the base
with those values changed, each marked as a house rule with its original kept (and, on an
overlay of an overlay, the lower overlay's house value), each keeping the stricter audience, and with the house
limits added to the text's, each marked as a house rule (a tournament pack's ban or points cap).
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from ..diagnostics import Code, Diagnostic, Diagnostics, did_you_mean
from ..model.base import value_loc
from ..model.computed import EarlierHouseValue, Value
from ..model.entries import Meta, gm_only
from ..model.quantity import Quantity
from ..model.ruleset import SHARED_SECTIONS, Ruleset
from ..model.units import measure
from .yamlnodes import Mapping, Node, Scalar


def resolve_bases(loaded: dict[str, Ruleset], diagnostics: Diagnostics) -> dict[str, Ruleset]:
    """Each ruleset with its base attached (or, for an overlay, applied); ids keep their order."""
    resolved: dict[str, Ruleset] = {}

    def resolve(id: str, seen: tuple[str, ...]) -> Ruleset | None:
        if id in resolved:
            return resolved[id]
        ruleset = loaded[id]
        base_id = ruleset.meta.extends
        if not base_id:
            resolved[id] = ruleset
            return ruleset
        where = value_loc(ruleset.meta, "extends")
        if base_id not in loaded:
            diagnostics.add(
                Code.BASE_RULESET,
                f"`{id}` extends `{base_id}`, which is not a ruleset of this project",
                where,
                did_you_mean(base_id, loaded) or "name a folder of rules_src/",
            )
            resolved[id] = ruleset
            return ruleset
        if base_id in seen or base_id == id:
            diagnostics.add(
                Code.BASE_RULESET,
                f"`{id}` extends itself through {' → '.join(seen + (id, base_id))}",
                where,
                "a ruleset cannot be its own base",
            )
            resolved[id] = ruleset
            return ruleset
        base = resolve(base_id, seen + (id,))
        result = overlay(ruleset, base, diagnostics) if ruleset.meta.overlay else extend(ruleset, base, diagnostics)
        resolved[id] = result
        return result

    for id in loaded:
        resolve(id, ())
    return {id: resolved[id] for id in loaded}


def extend(ruleset: Ruleset, base: Ruleset, diagnostics: Diagnostics) -> Ruleset:
    for section in SHARED_SECTIONS:
        inherited = {entry.id for entry in base.reachable(section)}
        for entry in ruleset.section(section):
            if entry.id in inherited:
                diagnostics.add(
                    Code.BASE_RULESET,
                    f"{section} entry `{entry.id}` is already in the base ruleset `{base.id}`",
                    entry.loc,
                    "give it another id, or change the base's through an overlay",
                )
    _keyword_names(ruleset, base, diagnostics)
    _base_titles(ruleset, base, diagnostics)
    return dataclasses.replace(ruleset, base=base)


def _said(text: str) -> str:
    """A name or title as a reader tells it from another: case and spacing aside."""
    return " ".join(str(text).split()).casefold()


def _keyword_names(ruleset: Ruleset, base: Ruleset, diagnostics: Diagnostics) -> None:
    """A keyword named as one of its base's: a troop's `NAME 3` would read as either, and every output printed this
    one's definition for the base's without a word. (One with the base's id is told above.)"""
    named = {_said(keyword.name): keyword for keyword in base.reachable("keywords")}
    ids = {keyword.id for keyword in base.reachable("keywords")}
    for keyword in ruleset.keywords:
        other = named.get(_said(keyword.name))
        if other is None or keyword.id in ids:
            continue
        diagnostics.add(
            Code.BASE_RULESET,
            f"keyword `{keyword.id}` is named `{keyword.name}`, as the keyword `{other.id}` of the base ruleset "
            f"`{base.id}` is: a troop's `{other.name}` would read as either",
            value_loc(keyword, "name"),
            f"give it a name of its own; troops here carry the base's `{other.name}` without declaring it again",
        )


# What a reader looks up by its title in both books: a ruleset's entries of these sections that repeat an id or a
# title of its base's are told (`shadows-base`). Glossary terms and keyword names have checks of their own
# (`duplicate-term`, `_keyword_names`); chapters may share a title (a supplement's chapter on a subject the game's
# has a chapter on).
TITLED_SECTIONS = ("rules", "spells", "items", "heroes", "profiles", "tables", "lookups", "charts", "formulas")


def _base_titles(ruleset: Ruleset, base: Ruleset, diagnostics: Diagnostics) -> None:
    """An entry with an id or a title of one of its base's (a second rule under a title of the game's): readers of
    both books find two of one name, and nothing says which holds."""
    bases = []
    while base is not None:
        bases.append(base)
        base = base.base
    for section in TITLED_SECTIONS:
        theirs = [(b, entry) for b in bases for entry in b.section(section)]
        by_id = {entry.id: (b, entry) for b, entry in reversed(theirs)}
        by_title = {_said(_title(entry)): (b, entry) for b, entry in reversed(theirs) if _title(entry)}
        reached = {entry.id for entry in bases[0].reachable(section)} if section in SHARED_SECTIONS else set()
        for entry in ruleset.section(section):
            if entry.id in reached:
                continue  # an id of the base's this ruleset reaches: an error above
            same_id = by_id.get(entry.id)
            same_title = by_title.get(_said(_title(entry))) if _title(entry) else None
            found = same_id or same_title
            if found is None:
                continue
            owner, other = found
            field = "title" if getattr(entry, "title", "") else "name"
            what = f"the id and the {field}" if same_id and same_title else "the id" if same_id else f"the {field}"
            diagnostics.add(
                Code.SHADOWS_BASE,
                f"{section} entry `{entry.id}` has {what} of `{other.id}` (“{' '.join(_title(other).split())}”) of "
                f"the base ruleset `{owner.id}`: readers of both find two alike and cannot tell which holds",
                entry.loc if same_id or field not in entry.locs else value_loc(entry, field),
            )


def _title(entry) -> str:
    printed = getattr(entry, "title", "") or getattr(entry, "name", "")
    return printed if isinstance(printed, str) else ""


# What an overlay may hold: house values for its base's values, and army limits of its own (a tournament pack's
# ban or points cap), each marked a house rule. Every other section is its base's alone (`overlay_refused`).
OVERLAY_SECTIONS = ("values", "army_limits")
HOUSE_LIMIT = "house rule"  # what every output prints after a house limit's title, as beside a house value


def overlay_refused(section: str, key: Scalar, node: Node, base_id: str) -> list[Diagnostic]:
    """One located `overlay-change` for each entry an overlay writes in a section it cannot hold, with the way to
    do what it tried: a profile's cell changes through a value the base's cell names."""
    keys = [k for k, _v in node.items] if isinstance(node, Mapping) else [key]
    return [
        Diagnostic(
            Code.OVERLAY_CHANGE,
            f"an overlay changes values and adds army limits only; `{section}` entry `{k.text}` cannot be changed "
            f"or added in an overlay of `{base_id}`"
            if k is not key
            else f"an overlay changes values and adds army limits only; it cannot hold `{section}:`",
            k.loc,
            _refused_hint(section, node.get(k.text) if k is not key else None, base_id),
        )
        for k in keys
    ]


def _refused_hint(section: str, entry: Node | None, base_id: str) -> str:
    if section != "profiles":
        return (
            "an overlay gives its base's values house values (`values:`) and adds army limits (`army_limits:`); "
            f"anything else is a ruleset of its own that `extends: {base_id}`"
        )
    rows = entry.get("rows") if isinstance(entry, Mapping) else None
    row, cell = "row", "column"
    if isinstance(rows, Mapping) and rows.items:
        row = str(rows.items[0][0].text)
        cells = rows.items[0][1]
        if isinstance(cells, Mapping) and cells.items:
            cell = str(cells.items[0][0].text)
    return (
        f"make the cell name a value in `{base_id}` (`{cell}: {{value: {row}_{cell}}}`, with the text's number in "
        f"`values: {row}_{cell}:`), then change that value here under `values:`"
    )


def overlay(house: Ruleset, base: Ruleset, diagnostics: Diagnostics) -> Ruleset:
    originals = {value.id: value for value in base.reachable("values")}
    changed = {}
    for value in house.values:
        original = originals.get(value.id)
        if original is None and base.unreadable:
            continue  # the value may be in the base's file that did not read (reported there)
        if original is None:
            diagnostics.add(
                Code.OVERLAY_CHANGE,
                f"`{base.id}` has no value `{value.id}` for the overlay to change",
                value.loc,
                did_you_mean(value.id, originals) or "an overlay changes values its base has",
            )
            continue
        mixed = _other_measure(original.value, value.value)
        if mixed:
            diagnostics.add(
                Code.UNIT_MISMATCH,
                f"the overlay makes `{value.id}` {value.value}, but the text gives {original.value}: {mixed}",
                value.locs.get("value", value.loc),
                f"write the house value in {original.value.unit}"
                + (" (or another length, if it is one)" if original.value.kind == "distance" else ""),
            )
            continue
        changed[value.id] = dataclasses.replace(
            original,
            value=value.value,
            house_note=value.house_note or value.label,
            audience=_audience(original, value),
            loc=value.loc,
            locs=value.locs,
            source=value.source or original.source,
            **_history(original, base),
        )
    limits = base.army_limits + tuple(_house_limits(house, base, diagnostics))
    own = tuple(changed.pop(v.id, v) for v in base.values)
    inherited = tuple(changed.values())  # values of the base's own bases, now changed here
    # the base's examples run again under the house values (``examples.run``), so each sentence stays true
    return dataclasses.replace(
        base,
        id=house.id,
        meta=_house_meta(house.meta, base.meta),
        values=own + inherited,
        army_limits=limits,
        original=base,
        house_results=(),
        files=base.files + house.files,
        unreadable=base.unreadable + house.unreadable,
        unloaded=base.unloaded | house.unloaded,
        sources=MappingProxyType({**base.sources, **house.sources}),
    )


def _house_limits(house: Ruleset, base: Ruleset, diagnostics: Diagnostics):
    """The overlay's own army limits, each marked a house rule where it is printed; the text's limits all hold, so
    one with the id of a limit of the base is refused."""
    texts = {limit.id for limit in base.army_limits}
    for limit in house.army_limits:
        if limit.id in texts:
            diagnostics.add(
                Code.OVERLAY_CHANGE,
                f"`{base.id}` has the army limit `{limit.id}`: an overlay adds limits, the text's all hold",
                limit.loc,
                "give the house limit another id; to allow more than the text does, the game is a ruleset of its own",
            )
            continue
        yield dataclasses.replace(limit, title=f"{limit.title} ({HOUSE_LIMIT})", house=True)


SHARED_META = ("declares", "subtitle", "author", "needs", "summary", "language")


def _house_meta(house: Meta, base: Meta) -> Meta:
    """An overlay's own `ruleset:`, with what it leaves out the base's: it is the base game with other values, so
    it speaks the base's words (`declares:`), needs what the base needs and has its author and its strap line."""
    return dataclasses.replace(house, **{name: getattr(base, name) for name in SHARED_META if not getattr(house, name)})


def _other_measure(original, house) -> str:
    """Why a house value measures what the text's does not (hexes for inches), or ''."""
    if not (isinstance(original, Quantity) and isinstance(house, Quantity)):
        return ""
    if (original.kind == "distance") != (house.kind == "distance"):
        if {original.kind, house.kind} == {"distance", "number"}:
            return "one is a distance and the other a bare number"
        counted = original if original.kind == "count" else house
        return f"one is a distance and the other counts {counted.unit}" if counted.kind == "count" else ""
    if original.kind == house.kind == "count" and original.unit != house.unit:
        return f"one counts {house.unit} and the other {original.unit}"
    if original.kind == "distance" and measure(original.unit) != measure(house.unit):
        return f"{house.unit} and {original.unit} are different measures, which no rule converts"
    return ""


def _audience(original: Value, house: Value) -> str:
    """A changed value is the game-master's if the base's value or the overlay's is: an overlay can hide a value
    (its house value may be a game-master's secret), never publish one the base keeps for the game-master."""
    return "gm" if gm_only(original) or gm_only(house) else "player"


def _history(original: Value, base: Ruleset) -> dict:
    """What a changed value was: the text's value and, when the base is itself an overlay that changed it,
    that overlay's house value too (after any it built on), so each stays labelled as what it is."""
    if not original.is_house_rule:
        return {"original": original.value, "earlier": ()}
    return {
        "original": original.original,
        "earlier": original.earlier + (EarlierHouseValue(ruleset=base.title, value=original.value),),
    }
