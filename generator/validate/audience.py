"""Who may see an entry: player text names no game-master-only entry, and hidden tasks are the game-master's."""

from __future__ import annotations

import re

from ..diagnostics import Code, Diagnostic, Location
from ..model.base import value_loc
from ..model.computed import Chart, Formula, Sheet, Value
from ..model.entries import ArmyLimit, ArmyList, Item, ProfileMatrix, RollTable, Spell, gm_only
from ..model.ruleset import Ruleset
from .glossary import term_names
from .links import ROLE, prose_fields, prose_loc, role_entry, role_target
from .memo import formula_names
from .references import entry_or_none


def _any_entry(ruleset: Ruleset, id: str):
    """For a bare id (see_also): a game-master-only entry of that id if there is one, else any entry of it."""
    found = [e for _s, e in ruleset.all_entries() if e.id == id]
    return next((e for e in found if gm_only(e)), found[0] if found else None)


def _limit_names(text: str) -> set[str]:
    import ast

    try:
        return {node.id for node in ast.walk(ast.parse(str(text).strip() or "0", mode="eval")) if isinstance(node, ast.Name)}
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()  # reported by the limits check


def _formula_names(formula) -> set[str]:
    """Values, formulas, tables and lookups a formula computes with (not its own inputs and steps)."""
    own = {i.id for i in formula.inputs} | {b.id for b in formula.let}
    return formula_names(formula) - own


def _loc_of(owner, field: str, index: int | None = None) -> Location:
    if index is not None and f"{field}[{index}]" in owner.locs:
        return owner.locs[f"{field}[{index}]"]
    return value_loc(owner, field)


def _references(ruleset: Ruleset, entry):
    """(target entry, location) for every entry that ``entry`` names: prose roles of every kind, see_also, row refs,
    the heroes, troops and scrolls of armies, the counts of limits, the tables of spells, what formulas compute with,
    what charts and sheets show."""
    for index, target in enumerate(getattr(entry, "see_also", ())):
        if (found := _any_entry(ruleset, target)) is not None:
            yield found, _loc_of(entry, "see_also", index)
    if isinstance(entry, RollTable):
        for row in entry.rows:
            if row.ref and (found := _any_entry(ruleset, row.ref)) is not None:
                yield found, value_loc(row, "ref")
    if isinstance(entry, (ProfileMatrix, Item)):
        keywords = {k.name.casefold(): k for k in ruleset.keywords}
        for owner in (r for r in entry.rows if not gm_only(r)) if isinstance(entry, ProfileMatrix) else (entry,):
            written = owner.keywords if isinstance(owner.keywords, tuple) else ()
            for index, text in enumerate(written):
                words = str(text).split()
                while words and words[-1].lstrip("-").isdigit():
                    words.pop()
                if (found := keywords.get(" ".join(words).casefold())) is not None:
                    yield found, _loc_of(owner, "keywords", index)
    if isinstance(entry, ProfileMatrix):
        for row in (r for r in entry.rows if not gm_only(r)):
            for _column, written in row.named_values():
                if (found := entry_or_none(ruleset, "values", written.value)) is not None:
                    yield found, written.loc
            if row.movement and (found := entry_or_none(ruleset, "values", row.movement)) is not None:
                yield found, value_loc(row, "movement")
        if entry.movement and (found := entry_or_none(ruleset, "values", entry.movement)) is not None:
            yield found, value_loc(entry, "movement")
    if isinstance(entry, Spell) and entry.table and (found := entry_or_none(ruleset, "tables", entry.table)) is not None:
        yield found, value_loc(entry, "table")
    if isinstance(entry, ArmyList):
        if (matrix := entry_or_none(ruleset, "profiles", entry.matrix)) is not None:
            yield matrix, value_loc(entry, "matrix")
            rows = {row.id: row for row in matrix.rows}
            for unit in entry.units:
                if unit.troop in rows:
                    yield rows[unit.troop], value_loc(unit, "troop")
                for field, section in (("heroes", "heroes"), ("scrolls", "spells")):
                    for index, id in enumerate(getattr(unit, field)):
                        if (found := entry_or_none(ruleset, section, id)) is not None:
                            yield found, _loc_of(unit, field, index)
    if isinstance(entry, ArmyLimit):
        heroes = {h.id: h for h in ruleset.heroes}
        rows = {row.id: row for matrix in ruleset.profiles for row in matrix.rows}
        for field in ("count", "at_most", "at_least"):
            for name in sorted(_limit_names(getattr(entry, field))):
                if (found := heroes.get(name) or rows.get(name)) is not None:
                    yield found, value_loc(entry, field)
    if isinstance(entry, Formula):
        for name in sorted(_formula_names(entry)):
            for section in ("values", "formulas", "tables", "lookups"):
                if (found := entry_or_none(ruleset, section, name)) is not None:
                    yield found, value_loc(entry, "expr")
                    break
    if isinstance(entry, Chart):
        for field, id in (("formula", entry.formula), ("chance", entry.chance)):
            if id and (found := entry_or_none(ruleset, "formulas", id)) is not None:
                yield found, value_loc(entry, field)
        for axis in (entry.columns, entry.rows):
            if axis is not None and axis.note_formula and (found := entry_or_none(ruleset, "formulas", axis.note_formula)) is not None:
                yield found, value_loc(axis, "note_formula")
            for value in (axis.values if axis is not None else ()):
                text = value if isinstance(value, (str, bool)) else getattr(value, "value", value)
                if isinstance(text, str):
                    for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text):
                        if (found := entry_or_none(ruleset, "values", name)) is not None:
                            yield found, value_loc(axis, "values")
    if isinstance(entry, Sheet):
        for index, id in enumerate(entry.charts):
            if (found := entry_or_none(ruleset, "charts", id)) is not None:
                yield found, _loc_of(entry, "charts", index)
        for index, id in enumerate(entry.cites):
            if (found := entry_or_none(ruleset, "rules", id)) is not None:
                yield found, _loc_of(entry, "cites", index)
    terms = term_names(ruleset)
    for owner, name, value in prose_fields(entry):
        if name == "gm_note" or (owner is not entry and gm_only(owner)):
            continue  # the game-master's own text may name what it likes
        for match in ROLE.finditer(value):
            if (found := role_entry(ruleset, match["role"], role_target(match["target"]), terms)) is not None:
                yield found, prose_loc(owner, name, value, match.start())


def check_gm_references(ruleset: Ruleset):
    for _section, entry in (("ruleset", ruleset.meta), *ruleset.all_entries()):
        if gm_only(entry):
            continue
        seen = set()
        for target, loc in _references(ruleset, entry):
            if gm_only(target) and (id(target), str(loc)) not in seen:
                seen.add((id(target), str(loc)))
                yield Diagnostic(Code.GM_REFERENCE, f"`{entry.id or 'ruleset'}` is for players but names game-master-only "
                                 f"`{target.id}`", loc, _hidden_by_overlay(ruleset, target))


def _hidden_by_overlay(ruleset: Ruleset, target) -> str | None:
    """The hint when an overlay made a value its base's player text prints the game-master's."""
    if not (ruleset.meta.overlay and isinstance(target, Value) and target.is_house_rule and "audience" in target.locs):
        return None
    return (f"the overlay `{ruleset.id}` marks its house value `{target.id}` `audience: gm` ({target.locs['audience']}), "
            f"but player text of `{ruleset.meta.extends}` prints it: keep that house value for players")


def check_audience(ruleset: Ruleset):
    for vp in ruleset.victory_points:
        if vp.hidden and vp.audience != "gm":
            yield Diagnostic(Code.HIDDEN_NOT_GM, f"hidden task `{vp.id}` must be `audience: gm`", value_loc(vp, "hidden"))
