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
    return dataclasses.replace(ruleset, base=base)


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
