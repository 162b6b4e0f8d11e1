"""References between entries: what an entry names by id is in the section it names."""

from __future__ import annotations

from ..diagnostics import Code, Diagnostic, Location, Severity, did_you_mean
from ..model.base import NotGiven, item_loc, value_loc
from ..model.dice import RollRange
from ..model.entries import RollTable, gm_only
from ..model.ruleset import SECTIONS, SHARED_SECTIONS, SITE_PAGE_NAMES, Ruleset


def unknown_ref(ruleset: Ruleset, section: str, id: str, loc: Location, what: str) -> Diagnostic | None:
    if not id or ruleset.is_unloaded(id, section):
        return None
    ids = [e.id for e in ruleset.reachable(section)]
    if id in ids:
        return None
    if (base := ruleset.base_having(section, id)) is not None:
        return Diagnostic(
            Code.UNKNOWN_REF,
            f"{what} `{id}` is in `{section}:` of the base ruleset `{base.id}`, which `{ruleset.id}` does not inherit",
            loc,
            not_inherited(section, id),
        )
    return Diagnostic(
        Code.UNKNOWN_REF, f"{what} `{id}` is not in `{section}:`", loc, ref_hint(ruleset, id, ids, section)
    )


def not_inherited(section: str, id: str) -> str:
    """The hint for an entry of a base named where only the ruleset's own (or inherited) entries fit."""
    shared = ", ".join(f"`{s}:`" for s in SHARED_SECTIONS)
    return (
        f"`extends:` shares a base's {shared} alone; its `{section}:` are its own: write the entry here, or name "
        f"the base's in prose ({_role_for(section, id)}), which links to the base's page"
    )


def ref_hint(ruleset: Ruleset, id: str, ids, section: str) -> str | None:
    """For an id not among ``ids`` (the entries of ``section``): the one it was likely meant to be, else the
    section it is an entry of (a roll table named where a chart must be), else None (the code's own hint)."""
    elsewhere = ruleset.ids().get(id)
    declare = f", or declare `{id}: {{title: ...}}` in `{section}:`" if section in ("chapters", "phases") else ""
    return did_you_mean(id, ids) or (
        f"`{id}` is in `{elsewhere}:`; only an entry of `{section}:` fits here{declare}" if elsewhere else None
    )


def entry_or_none(ruleset: Ruleset, section: str, id: str):
    """The entry ``id`` of ``section`` (a base's too, where shared), or None."""
    try:
        return ruleset.find(section, id)
    except (KeyError, AttributeError, TypeError):
        return None


def check_references(ruleset: Ruleset):
    all_ids = ruleset.ids()
    for section, entry in ruleset.all_entries():
        for name, target in (("chapter", "chapters"), ("phase", "phases"), ("table", "tables")):
            value = getattr(entry, name, "")
            if isinstance(value, str) and value:
                if (d := unknown_ref(ruleset, target, value, value_loc(entry, name), name)) is not None:
                    yield d
        for index, target in enumerate(getattr(entry, "see_also", ())):
            if target not in all_ids and not ruleset.is_unloaded(target):
                loc = item_loc(entry, "see_also", index)
                if (found := _in_a_base(ruleset, target)) is not None:
                    base, kind = found
                    yield Diagnostic(
                        Code.UNKNOWN_REF,
                        f"see_also `{target}` is in `{kind}:` of the base ruleset `{base.id}`: see_also names "
                        f"entries of `{ruleset.id}`",
                        loc,
                        f"link the base's in the text instead ({_role_for(kind, target)}): it goes to the base's page",
                    )
                    continue
                yield Diagnostic(
                    Code.UNKNOWN_REF, f"see_also `{target}` names no entry", loc, did_you_mean(target, all_ids)
                )
        for index, target in enumerate(getattr(entry, "charts", ()) if section == "rules" else ()):
            if (d := unknown_ref(ruleset, "charts", target, item_loc(entry, "charts", index), "chart")) is not None:
                yield d
        if isinstance(entry, RollTable):
            for row in entry.rows:
                if row.ref and row.ref not in all_ids and not ruleset.is_unloaded(row.ref):
                    yield _row_ref_of_a_base(ruleset, row) or Diagnostic(
                        Code.UNKNOWN_REF,
                        f"row `{row.result}` refers to `{row.ref}`, which names no entry",
                        value_loc(row, "ref"),
                        did_you_mean(row.ref, all_ids),
                    )


def _row_ref_of_a_base(ruleset: Ruleset, row) -> Diagnostic | None:
    """A row's `ref:` naming an entry of a base: the row's own entry it is not (a spell's card gives its own table
    and roll, the base's), so the way to point at it is said; None when no base has it."""
    if (found := _in_a_base(ruleset, row.ref)) is None:
        return None
    base, section = found
    return Diagnostic(
        Code.UNKNOWN_REF,
        f"row `{row.result}` refers to `{row.ref}`, which is in `{section}:` of the base ruleset `{base.id}`: "
        f"a row's `ref:` names an entry of `{ruleset.id}`",
        value_loc(row, "ref"),
        "a row's `ref:` makes the entry the row's own (a spell's card prints the row's table and roll); "
        f"link the base's in the row's `effect:` instead ({_role_for(section, row.ref)}): it goes to the base's page",
    )


def _in_a_base(ruleset: Ruleset, id: str) -> tuple[Ruleset, str] | None:
    """(the base, the section) of the first entry ``id`` of a base this ruleset extends, or None."""
    for section in SECTIONS:
        if (base := ruleset.base_having(section, id)) is not None:
            return base, section
    return None


def _role_for(section: str, id: str) -> str:
    """The prose role that links entry ``id`` of ``section``."""
    role = {"rules": "rule", "spells": "spell", "tables": "table", "profiles": "profile"}.get(section)
    return f"{{{role}}}`{id}`" if role else f"{{entry}}`{section}.{id}`"


def check_spells(ruleset: Ruleset):
    """A spell's `roll:` is the whole range of one row of its table, not another spell's row: its card and pages
    print that roll beside the row's chance."""
    for spell in ruleset.spells:
        if not spell.table or spell.roll is None or spell.table not in {t.id for t in ruleset.reachable("tables")}:
            continue
        table = ruleset.table(spell.table)
        if not table.ranges_given:
            continue
        roll = spell.roll
        at = [row for row in table.rows if _overlap(roll, row.roll)]
        own = [row.roll.text for row in table.rows if row.ref == spell.id]
        if not at:
            yield Diagnostic(
                Code.UNKNOWN_REF,
                f"spell `{spell.id}` sits at {roll.text} on `{table.id}`, which has no such row",
                value_loc(spell, "roll"),
            )
        elif at[0].ref and at[0].ref != spell.id and at[0].ref in {s.id for s in ruleset.reachable("spells")}:
            yield Diagnostic(
                Code.UNKNOWN_REF,
                f"spell `{spell.id}` sits at {roll.text} on `{table.id}`, where the row `{at[0].roll.text}` is "
                f"spell `{at[0].ref}`: its card and the table disagree",
                value_loc(spell, "roll"),
                f"give it a roll of its own row, `{own[0]}`" if own else "give it the roll of the row that names it",
            )
        elif (row := ruleset.spell_row(spell)) is None or (own and row.ref != spell.id):
            whole = own[0] if own else at[0].roll.text
            wrong = "its card and pages would print a roll that is not the row's beside the row's chance"
            if row is not None:
                where = f"but the row that names it is `{whole}`: its card and the table disagree"
            elif len(at) > 1:
                where = "across the rows " + " and ".join(f"`{r.roll.text}`" for r in at) + f": {wrong}"
            else:
                where = f"only part of its row `{at[0].roll.text}`: {wrong}"
            yield Diagnostic(
                Code.SPELL_ROLL,
                f"spell `{spell.id}` has roll `{roll.text}` on `{table.id}`, {where}",
                value_loc(spell, "roll"),
                f"write `roll: {whole}`, the whole row, or leave `roll:` out to take the range of the row whose "
                "`ref:` names the spell",
            )


def _overlap(one: RollRange, other) -> bool:
    """Whether two roll ranges share a result (an open end reaches as far as rolls go)."""
    if isinstance(other, NotGiven):
        return False
    below = one.high is not None and other.low is not None and one.high < other.low
    above = one.low is not None and other.high is not None and one.low > other.high
    return not (below or above)


def check_repeated_titles(ruleset: Ruleset):
    """Two entries of one section printed under one title (or name): the site's pages and search, the booklet's
    contents and index show both alike, and players cannot tell which is which. A ruleset's own entries: an
    overlay's pages print its base's, told there."""
    for section in SECTIONS:
        first: dict[str, object] = {}
        for entry in ruleset.section(section):
            printed = getattr(entry, "title", "") or getattr(entry, "name", "")
            if not isinstance(printed, str) or not printed.strip():
                continue
            key = " ".join(printed.split()).casefold()
            if key not in first:
                first[key] = entry
                continue
            other = first[key]
            at = other.loc
            where = f"{at.line}:{at.column}" if at.path == entry.loc.path else str(at)
            yield Diagnostic(
                Code.REPEATED_TITLE,
                f"`{entry.id}` and `{other.id}` ({where}) of {section} are both titled "
                f"“{' '.join(printed.split())}”: players see two alike",
                entry.loc,
                severity=Severity.WARNING,
            )


def check_empty_chapters(ruleset: Ruleset):
    """A chapter something is printed in: an entry placed in it (a phase placed in it opens its page) or an intro;
    for the players, an entry they may see (of victory points the game-master keeps, their page says some are
    hidden). Its own chapters only: an overlay's pages print its base's."""
    placed, shown = set(), set()
    for section, entry in ruleset.all_entries():
        if section != "chapters":
            placed.add(getattr(entry, "chapter", ""))
            if section == "victory_points" or not gm_only(entry):
                shown.add(getattr(entry, "chapter", ""))
    for chapter in ruleset.chapters:
        if chapter.intro.strip() or chapter.id in (placed if gm_only(chapter) else shown):
            continue
        secret = chapter.id in placed
        if not secret and ruleset.unloaded:
            continue  # what was placed in it may be what did not load: told once that is fixed
        said = "only game-master material: the players' page" if secret else "nothing: its page"
        yield Diagnostic(
            Code.EMPTY_CHAPTER,
            f"chapter `{chapter.id}` holds {said} prints its title alone",
            chapter.loc,
            "mark the chapter `audience: gm` to keep it and its title from the players" if secret else None,
            severity=Severity.WARNING,
        )


def check_chapter_ids(ruleset: Ruleset):
    for chapter in ruleset.chapters:
        if chapter.id in SITE_PAGE_NAMES:
            yield Diagnostic(
                Code.PAGE_NAME,
                f"chapter `{chapter.id}` would take the name of the site's page of {SITE_PAGE_NAMES[chapter.id]}",
                chapter.loc,
                f"give the chapter another id, such as `{chapter.id}_chapter`, and write that in its entries' "
                f"`chapter:`",
            )
