"""Semantic checks of a loaded ruleset. Each check yields located diagnostics.

Checks are registered by name in ``CHECKS`` and all run, so a rules author sees
every problem at once. They point at the value at fault, via ``value_loc``.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from ..diagnostics import BlockLocation, Code, Diagnostic, Location, did_you_mean
from ..mechanics import armies
from ..model.base import NotGiven, QuickMark, Source, value_loc
from ..model.dice import RollRange
from ..model.computed import Chart, Formula, Sheet, Value
from ..model.entries import ArmyLimit, ArmyList, Column, Item, ProfileMatrix, RollTable, Spell, ValueCell, gm_only
from ..model.points import points_text
from ..model.ruleset import PAGED_SECTIONS, SECTIONS, SITE_PAGE_NAMES, Ruleset
from .memo import formula_names
from .sections import Sections, find_sections, plain

Check = Callable[[Ruleset], Iterable[Diagnostic]]
CHECKS: dict[str, Check] = {}


def check(function: Check) -> Check:
    CHECKS[function.__name__.removeprefix("check_")] = function
    return function


def run_checks(ruleset: Ruleset) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for name, function in CHECKS.items():
        found.extend(_bounded(name, function, ruleset))
    return found


def _bounded(name: str, function: Check, ruleset: Ruleset) -> list[Diagnostic]:
    """What one check finds; one that runs out of memory or stack (some entry beyond every cap foreseen) is a
    located ``too-large`` error at the ruleset, after what it found before, never an internal error."""
    found: list[Diagnostic] = []
    try:
        for diagnostic in function(ruleset):
            found.append(diagnostic)
    except (MemoryError, RecursionError) as error:
        what = "memory" if isinstance(error, MemoryError) else "stack"
        found.append(Diagnostic(Code.TOO_LARGE, f"checking the {name.replace('_', ' ')} of `{ruleset.id}` ran out of "
                                f"{what}", ruleset.meta.loc, "look for an entry far larger than a rule needs"))
    return found


def _ref(ruleset: Ruleset, section: str, id: str, loc: Location, what: str) -> Diagnostic | None:
    if not id or ruleset.is_unloaded(id, section):
        return None
    ids = [e.id for e in ruleset.reachable(section)]
    if id in ids:
        return None
    return Diagnostic(Code.UNKNOWN_REF, f"{what} `{id}` is not in `{section}:`", loc, did_you_mean(id, ids))


# -- references -------------------------------------------------------------------------
@check
def check_references(ruleset: Ruleset):
    all_ids = ruleset.ids()
    for section, entry in ruleset.all_entries():
        for name, target in (("chapter", "chapters"), ("phase", "phases"), ("table", "tables")):
            value = getattr(entry, name, "")
            if isinstance(value, str) and value:
                if (d := _ref(ruleset, target, value, value_loc(entry, name), name)) is not None:
                    yield d
        for index, target in enumerate(getattr(entry, "see_also", ())):
            if target not in all_ids and not ruleset.is_unloaded(target):
                yield Diagnostic(Code.UNKNOWN_REF, f"see_also `{target}` names no entry",
                                 entry.locs.get(f"see_also[{index}]", value_loc(entry, "see_also")), did_you_mean(target, all_ids))
        for index, target in enumerate(getattr(entry, "charts", ()) if section == "rules" else ()):
            if (d := _ref(ruleset, "charts", target, entry.locs.get(f"charts[{index}]", value_loc(entry, "charts")),
                          "charts")) is not None:
                yield d
        if isinstance(entry, RollTable):
            for row in entry.rows:
                if row.ref and row.ref not in all_ids and not ruleset.is_unloaded(row.ref):
                    yield Diagnostic(Code.UNKNOWN_REF, f"row `{row.result}` refers to `{row.ref}`, which names no entry",
                                     value_loc(row, "ref"), did_you_mean(row.ref, all_ids))


@check
def check_spells(ruleset: Ruleset):
    for spell in ruleset.spells:
        if not spell.table or spell.roll is None or spell.table not in {t.id for t in ruleset.tables}:
            continue
        table = ruleset.table(spell.table)
        if table.ranges_given and not any(spell.roll in row.roll for row in table.rows):
            yield Diagnostic(Code.UNKNOWN_REF, f"spell `{spell.id}` sits at {spell.roll} on `{table.id}`, which has no such row",
                             value_loc(spell, "roll"))


# -- tables ---------------------------------------------------------------------------
def _spans(values: list[int]) -> str:
    spans, start = [], None
    for index, value in enumerate(values):
        if start is None:
            start = value
        if index + 1 == len(values) or values[index + 1] != value + 1:
            spans.append(str(start) if start == value else f"{start}-{value}")
            start = None
    return ", ".join(spans)


@check
def check_tables(ruleset: Ruleset):
    for table in ruleset.tables:
        if not table.ranges_given:
            continue  # a gap in the source, shown as such by the outputs
        yield from table_coverage(table)


def table_coverage(table: RollTable) -> list[Diagnostic]:
    """Every possible result of the table's dice is covered by exactly one row."""
    found = []
    rows_loc = value_loc(table, "rows")
    if table.dice.stats:
        lowest = any(r.roll.low is None for r in table.rows) or (table.clamp is not None and table.clamp.low is not None)
        highest = any(r.roll.high is None for r in table.rows) or (table.clamp is not None and table.clamp.high is not None)
        if not (lowest and highest):
            found.append(Diagnostic(Code.TABLE_UNBOUNDED,
                                    f"`{table.dice}` can roll any total, but `{table.id}` has no "
                                    f"{'lowest' if not lowest else 'highest'} open row and no clamp",
                                    value_loc(table, "dice")))
            return found
    try:
        outcomes = _outcomes(table)
    except TableTooWide as error:
        return found + [Diagnostic(Code.TOO_LARGE, str(error), rows_loc, "write open-ended rows such as `6+` and `1-` for the far ends")]
    covered: dict[int, object] = {}
    for row in table.rows:
        hits = row.roll.within(outcomes)
        if not hits:
            found.append(Diagnostic(Code.TABLE_UNREACHABLE, f"row `{row.roll.text}` of `{table.id}` can never be rolled with {table.dice}"
                                    + (f" clamped to {table.clamp}" if table.clamp else ""), value_loc(row, "roll")))
        overlap = [o for o in hits if o in covered]
        if overlap:
            found.append(Diagnostic(Code.TABLE_OVERLAP, f"row `{row.roll.text}` of `{table.id}` covers {_spans(overlap)} again",
                                    value_loc(row, "roll"), "make the row ranges disjoint"))
        for outcome in hits:
            covered.setdefault(outcome, row)
    missing = [o for o in outcomes if o not in covered]
    if missing:
        found.append(Diagnostic(Code.TABLE_GAP, f"`{table.id}` has no row for {_spans(missing)} on {table.dice}", rows_loc))
    return found


MAX_TABLE_SPAN = 10_000  # results between a modified table's lowest and highest row


class TableTooWide(ValueError):
    pass


def _outcomes(table: RollTable) -> list[int]:
    """The totals the table must read: the dice's outcomes, or every total within its clamp."""
    if table.dice.stats:
        ends = [v for r in table.rows for v in (r.roll.low, r.roll.high) if v is not None]
        if table.clamp is not None:
            ends += [v for v in (table.clamp.low, table.clamp.high) if v is not None]
        if not ends:
            return [0]
        if max(ends) - min(ends) > MAX_TABLE_SPAN:
            raise TableTooWide(f"the rows of `{table.id}` span {min(ends):,} to {max(ends):,}; a modified table may span at most "
                               f"{MAX_TABLE_SPAN:,} results")
        # a window one wider than every number written, read through the clamp
        return sorted({table.read(total) for total in range(min(ends) - 1, max(ends) + 2)})
    die = table.dice.die()
    return sorted({table.read(o) for o in die.outcomes()})


# -- keywords ----------------------------------------------------------------------------
def split_keyword(written: str) -> tuple[str, tuple[str, ...]]:
    words = written.split()
    params = []
    while len(words) > 1 and re.fullmatch(r"-?[0-9]+", words[-1]):
        params.insert(0, words.pop())
    return " ".join(words), tuple(params)


@check
def check_keywords(ruleset: Ruleset):
    declared = {k.name.casefold(): k for k in ruleset.keywords}
    users = [(m, row) for m in ruleset.profiles for row in m.rows] + [(None, item) for item in ruleset.items]
    for _matrix, entry in users:
        for index, written in enumerate(() if isinstance(entry.keywords, NotGiven) else entry.keywords):
            name, params = split_keyword(written)
            keyword = declared.get(name.casefold())
            loc = entry.locs.get(f"keywords[{index}]", value_loc(entry, "keywords"))
            if keyword is None:
                yield Diagnostic(Code.UNKNOWN_KEYWORD, f"`{name}` is not declared in `keywords:`", loc,
                                 did_you_mean(name, [k.name for k in ruleset.keywords]))
            elif len(params) != len(keyword.params):
                wanted = " ".join([keyword.name, *(p.upper() for p in keyword.params)])
                yield Diagnostic(Code.KEYWORD_PARAMS, f"`{written}` gives {len(params)} parameter(s); `{keyword.name}` takes {len(keyword.params)}",
                                 loc, f"write it as `{wanted}`")


# -- lists a ruleset declares -------------------------------------------------------------------
DECLARED = (  # (section, field, the `ruleset:` list it must be in, what it is)
    ("heroes", "level", "hero_levels", "hero level"),
    ("keywords", "kind", "keyword_kinds", "keyword kind"),
    ("items", "kind", "item_kinds", "item kind"),
    ("victory_points", "kind", "victory_point_kinds", "victory-point kind"),
)


@check
def check_declared_kinds(ruleset: Ruleset):
    """Hero levels and the kinds of keywords, items and victory points are those `ruleset:` declares, if it declares any."""
    for section, field, declaring, what in DECLARED:
        declared = getattr(ruleset.meta, declaring)
        if not declared:
            continue  # nothing declared: any value
        for entry in ruleset.section(section):
            value = getattr(entry, field)
            if value in declared:
                continue
            listed = ", ".join(declared)
            if not value:  # no default: an entry of a ruleset that declares the list gives its own
                yield Diagnostic(Code.UNDECLARED_KIND, f"`{entry.id}` gives no `{field}:`; `{declaring}:` of "
                                 f"`ruleset: declares:` says which {what}s there are", value_loc(entry, field),
                                 f"give it one of {listed}")
                continue
            hint = did_you_mean(value, declared) or f"`{declaring}:` declares {listed}; add it there or use one of those"
            default = "" if field in entry.locs else f" (the default, as `{entry.id}` gives no `{field}:`)"
            yield Diagnostic(Code.UNDECLARED_KIND, f"{what} `{value}`{default} is not in `{declaring}:` of `ruleset: declares:`",
                             value_loc(entry, field), hint)


@check
def check_declared_words(ruleset: Ruleset):
    """The pages `page_titles:` titles are pages the site makes, and the kinds the victory-point sheet heads are kinds
    the ruleset declares (when it declares them)."""
    declares = ruleset.meta.declares
    if declares is None:
        return
    for page in declares.page_titles:
        if page.id not in PAGED_SECTIONS:
            yield Diagnostic(Code.UNKNOWN_SECTION, f"`page_titles:` names `{page.id}`, which has no page of its own",
                             page.loc,
                             did_you_mean(page.id, PAGED_SECTIONS) or f"title one of: {', '.join(PAGED_SECTIONS)}")
    kinds = ruleset.meta.victory_point_kinds
    for heading in declares.victory_point_sheet.kinds if declares.victory_point_sheet and kinds else ():
        if heading.id not in kinds:
            yield Diagnostic(Code.UNDECLARED_KIND, f"victory-point kind `{heading.id}` is not in `victory_point_kinds:` "
                             "of `ruleset: declares:`", heading.loc,
                             did_you_mean(heading.id, kinds) or f"`victory_point_kinds:` declares {', '.join(kinds)}")


# -- sources -----------------------------------------------------------------------------
def _normal(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split()).casefold()


def _cited(entry):
    """An entry and every row or part of it that can cite a source."""
    yield entry
    for value in vars(entry).values():
        if isinstance(value, tuple):
            for item in value:
                if hasattr(item, "locs") and not isinstance(item, str):
                    yield from _cited(item)


@check
def check_sources(ruleset: Ruleset):
    normal = {name: _normal(text) for name, text in ruleset.sources.items()}
    sections = _cited_sections(ruleset)
    if ruleset.meta.source and ruleset.meta.source not in ruleset.sources:
        yield Diagnostic(Code.SOURCE_FILE, f"source text `{ruleset.meta.source}` is not in `sources/`",
                         value_loc(ruleset.meta, "source"), did_you_mean(ruleset.meta.source, ruleset.sources))
    for _section, entry in ruleset.all_entries():
        for part in _cited(entry):
            source = getattr(part, "source", None)
            if not isinstance(source, Source) or not source.file:
                continue
            if source.file not in ruleset.sources:
                if source.file != ruleset.meta.source:
                    yield Diagnostic(Code.SOURCE_FILE, f"source text `{source.file}` is not in `sources/`", source.loc,
                                     did_you_mean(source.file, ruleset.sources))
                continue
            yield from _citation_problems(source, normal[source.file], sections[source.file])


def _cited_sections(ruleset: Ruleset) -> dict[str, Sections]:
    """Each source text's sections, found with the names the ruleset's entries cite from it."""
    names: dict[str, set[str]] = {name: set() for name in ruleset.sources}
    for _section, entry in ruleset.all_entries():
        for part in _cited(entry):
            source = getattr(part, "source", None)
            if isinstance(source, Source) and source.section and source.file in names:
                names[source.file].add(source.section)
    return {name: find_sections(text, names[name]) for name, text in ruleset.sources.items()}


def _citation_problems(source: Source, text: str, sections: Sections):
    """A citation's section stands as a heading in its text, and its quote lies inside that section."""
    section = plain(source.section)
    if source.quote and _normal(source.quote) not in text:
        yield Diagnostic(Code.SOURCE_QUOTE, f"the quote is not in {source.file}: “{source.quote[:60]}”",
                         value_loc(source, "quote"))
        return
    if not section:
        return
    if section not in sections.starts:
        where = "is no heading of" if _normal(section) in text else "is not in"
        yield Diagnostic(Code.SOURCE_SECTION, f"section “{section[:60]}” {where} {source.file}", value_loc(source, "section"),
                         did_you_mean(section, sections.headings) or "copy the heading as the source writes it")
        return
    if source.quote and section not in (holding := sections.holding(source.quote, _normal)):
        under = f"did you mean `{holding[0]}`? the quote stands under it" if holding else \
            "cite the section whose text holds the quote"
        yield Diagnostic(Code.QUOTE_SECTION, f"the quote is not in section “{section[:60]}” of {source.file}: "
                         f"“{source.quote[:60]}”", value_loc(source, "section"), under)


# -- armies -------------------------------------------------------------------------------
@check
def check_army_limits(ruleset: Ruleset):
    names = armies.count_names(ruleset)
    counts = ", ".join(sorted(armies.count_descriptions(ruleset)))
    for limit in ruleset.army_limits:
        for field in ("count", "at_most", "at_least"):
            if field != "count" and not str(getattr(limit, field)).strip():
                continue  # a bound the limit does not have
            try:
                armies.parse_limit(getattr(limit, field), names)
            except armies.LimitExpressionError as error:
                if isinstance(error, armies.LimitTooLarge):
                    yield Diagnostic(Code.TOO_LARGE, str(error), value_loc(limit, field), "write a shorter limit; split it into two limits")
                    continue
                yield Diagnostic(Code.BAD_EXPRESSION, str(error), value_loc(limit, field),
                                 "counts: " + counts + ", and any cost, hero or troop id")


@check
def check_row_counts(ruleset: Ruleset):
    """A row's `counts_as:` names a count of the ruleset's own, which no other count (or entry id) already is."""
    taken = set(armies.BASE_COUNTS) - {armies.UNITS}
    for level in armies.hero_levels(ruleset):
        taken.update(armies.level_counts(level))
    taken.update(e.id for section in ("costs", "heroes") for e in getattr(ruleset, section))
    taken.update(row.id for matrix in ruleset.profiles for row in matrix.rows)
    for matrix in ruleset.profiles:
        for row in matrix.rows:
            if not re.fullmatch(r"[a-z][a-z0-9_]*", row.counts_as):
                yield Diagnostic(Code.BAD_ID, f"`{row.id}` counts as `{row.counts_as}`, which is not a lower_snake_case name",
                                 value_loc(row, "counts_as"), "name the count army limits use, as in `counts_as: guns`")
            elif row.counts_as in taken:
                yield Diagnostic(Code.DUPLICATE_ID, f"`{row.id}` counts as `{row.counts_as}`, which is already a count of the army",
                                 value_loc(row, "counts_as"), "name a count of the ruleset's own (`guns`), or leave it out to count as `units`")


@check
def check_play_aids(ruleset: Ruleset):
    """A matrix's movement names a distance in `values:`, and what it tracks names real terms and rules, once each."""
    for matrix in ruleset.profiles:
        for owner in (matrix, *matrix.rows):
            if not owner.movement:
                continue
            if (d := _ref(ruleset, "values", owner.movement, value_loc(owner, "movement"), "movement")) is not None:
                yield d
            elif not ruleset.is_unloaded(owner.movement, "values"):
                stated = ruleset.value(owner.movement).value
                if not isinstance(stated, NotGiven) and getattr(stated, "kind", "") != "distance":
                    yield Diagnostic(Code.BAD_VALUE, f"movement `{owner.movement}` is {stated}, not a distance",
                                     value_loc(owner, "movement"), "name a value written as a distance: 6\", 2 hexes")
        labels: dict[str, str] = {}
        for track in matrix.tracks:
            for name, section in (("term", "glossary"), ("rule", "rules")):
                target = getattr(track, name)
                if target and (d := _ref(ruleset, section, target, value_loc(track, name), name)) is not None:
                    yield d
            if track.boxes is not None and not 1 <= track.boxes <= 12:
                yield Diagnostic(Code.OUT_OF_RANGE, f"`{track.id}` asks for {track.boxes} boxes; a unit's row holds 1 to 12",
                                 value_loc(track, "boxes"), "leave `boxes` out for an open count: a tally space is printed")
            key = track.label.casefold()
            if key in labels:
                yield Diagnostic(Code.DUPLICATE_ID, f"`{track.id}` tracks {track.label!r}, as `{labels[key]}` already does",
                                 value_loc(track, "label"), "track each thing once")
            labels[key] = track.id
            if not (track.term or track.rule or track.source):
                yield Diagnostic(Code.UNKNOWN_REF, f"`{track.id}` says what is tracked but not where the rules say so",
                                 track.loc, "name the glossary `term`, the `rule` or the `source` that makes players track it")


@check
def check_value_cells(ruleset: Ruleset):
    """A profile cell that names a value names one the ruleset has, of the column's kind and within its bounds:
    checked with this ruleset's values, so an overlay's house value that breaks the column is refused too."""
    for matrix in ruleset.profiles:
        for row in matrix.rows:
            for column_id, written in row.named_values():
                column = matrix.column(column_id)
                if ruleset.is_unloaded(written.value, "values"):
                    continue  # its own error is reported
                ids = [v.id for v in ruleset.reachable("values")]
                if written.value not in ids:
                    yield Diagnostic(Code.UNKNOWN_REF, f"{column.label} of `{row.id}` names value `{written.value}`, "
                                     "which is not in `values:`", written.loc, did_you_mean(written.value, ids))
                else:
                    value = ruleset.value(written.value)
                    problem = _cell_misfit(column, value.value)
                    if problem:
                        # a house value that breaks a column the text's value fits is the overlay's doing: say so there
                        overlays = value.is_house_rule and _cell_misfit(column, value.original) is None
                        where = value.loc if overlays else written.loc
                        yield Diagnostic(Code.WRONG_TYPE if problem[0] == "kind" else Code.OUT_OF_RANGE,
                                         f"{column.label} of `{row.id}` names value `{value.id}`, which is {problem[1]}",
                                         where, _CELL_KINDS[column.type][1] if problem[0] == "kind" else
                                         "name a value within the column's bounds, or widen `min`/`max`")


# What a profile cell naming a value may name, by column type: (the kinds and units that fit, the hint)
_CELL_KINDS = {
    "int": ((("number", ""), ("count", None)), "name a whole number such as 3", "a whole number"),
    "dice": ((("number", ""), ("count", None)), "name a number of dice such as 3", "a number of dice"),
    "models": ((("number", ""), ("count", "models")), "name a number of models such as 10", "a number of models"),
    "points": ((("number", ""), ("count", "points")), "name a number of points such as 3 or 1½", "a number of points"),
    "number": ((("number", ""), ("count", None)), "name a number such as 3 or 1½", "a number"),
    "target": ((("target", ""),), "name a target roll such as 4+", "a target roll"),
    "inches": ((("number", ""), ("distance", "inches")), 'name a distance in inches such as 6"', "a distance in inches"),
    "text": ((), "any value fits a text column", "a text"),
}

_FRACTIONS_FIT = {"points", "number"}  # a score such as 1½ is a number; a count of dice or models is whole


def _cell_misfit(column: Column, stated) -> tuple[str, str] | None:
    """("kind" or "bounds", what is wrong) when a stated value cannot stand in the column's cell; None when it fits
    (a value the text does not give is a gap, as `not given` is)."""
    if isinstance(stated, NotGiven) or column.type == "text":
        return None
    fits, _hint, wanted = _CELL_KINDS[column.type]
    if not any(stated.kind == kind and (unit is None or stated.unit == unit) for kind, unit in fits):
        return "kind", f"{stated}, not {wanted}"
    magnitude = stated.magnitude
    if column.type not in _FRACTIONS_FIT and getattr(magnitude, "denominator", 1) != 1:
        return "kind", f"{stated}, not {wanted} (a whole number)"
    if (column.min is not None and magnitude < column.min) or (column.max is not None and magnitude > column.max):
        low = "" if column.min is None else f"at least {column.min}"
        high = "" if column.max is None else f"at most {column.max}"
        return "bounds", f"{stated}; {column.label} is {' and '.join(p for p in (low, high) if p)}"
    return None


def _worked(value, text: str) -> str:
    """` (units // 2)`: the expression behind a bound, unless it is the number itself."""
    text = str(text).strip()
    return "" if text == points_text(value) else f" ({text})"


def _stated(agreed) -> bool:
    """An army's agreed size as a number to check against: neither left out nor `not given`."""
    return agreed is not None and not isinstance(agreed, NotGiven)


@check
def check_armies(ruleset: Ruleset):
    limits_ok = not list(check_army_limits(ruleset))
    for army in ruleset.armies:
        refs = list(_army_refs(ruleset, army))
        yield from refs
        if refs or _names_unloaded(ruleset, army):
            continue  # its points cannot be added up until those errors are fixed
        for unit in army.units:
            cost = armies.line_cost(ruleset, army, unit)
            if isinstance(cost.total, NotGiven):
                if _stated(army.agreed_points) or unit.points is not None:
                    yield Diagnostic(Code.POINTS_NOT_GIVEN, f"the source gives no points for `{unit.troop}`", value_loc(unit, "troop"))
            elif unit.points is not None and unit.points != cost.total:
                yield Diagnostic(Code.POINTS_MISMATCH,
                                 f"{unit.count}x {unit.troop} costs {points_text(cost.total)} points, not {points_text(unit.points)}",
                                 value_loc(unit, "points"), f"{unit.count} x {points_text(cost.each)} = {points_text(cost.total)}")
            yield from _line_models(ruleset, army, unit)
        total = armies.army_points(ruleset, army)
        if army.total is not None and army.total != total:
            yield Diagnostic(Code.POINTS_MISMATCH, f"`{army.id}` adds up to {points_text(total)} points, not {points_text(army.total)}",
                             value_loc(army, "total"))
        if _stated(army.agreed_points) and total > army.agreed_points:
            yield Diagnostic(Code.OVER_POINTS, f"`{army.id}` spends {points_text(total)} points of the {points_text(army.agreed_points)} agreed",
                             value_loc(army, "agreed_points"))
        models = armies.army_models(ruleset, army)
        if _stated(army.agreed_models) and models > army.agreed_models:
            yield Diagnostic(Code.OVER_MODELS, f"`{army.id}` fields {models} models of the {army.agreed_models} agreed",
                             value_loc(army, "agreed_models"))
        if limits_ok:
            try:
                results = armies.check_limits(ruleset, army)
            except ZeroDivisionError:
                yield Diagnostic(Code.BAD_EXPRESSION, f"an army limit divides by zero for `{army.id}`", army.loc,
                                 "make sure no limit divides by a count that can be 0")
                continue
            for result in results:
                limit = result.limit
                broken = []
                if result.too_few:
                    broken.append(f"at least {points_text(result.at_least)}{_worked(result.at_least, limit.at_least)} is required")
                if result.too_many:
                    broken.append(f"at most {points_text(result.at_most)}{_worked(result.at_most, limit.at_most)} is allowed")
                if broken:
                    yield Diagnostic(Code.LIMIT_BROKEN,
                                     f"`{army.id}` breaks “{limit.title}”: {limit.count} is {points_text(result.count)}, "
                                     f"but {' and '.join(broken)}", army.loc, f"limit defined at {limit.loc}")


def _line_models(ruleset: Ruleset, army, unit):
    """A line's stated models against its matrix, and a head-count army's lines whose models nobody gives."""
    from_matrix = armies.matrix_models(ruleset, army, unit)
    if isinstance(from_matrix, int) and unit.models is not None and unit.models != from_matrix:
        each = from_matrix // unit.count
        yield Diagnostic(Code.POINTS_MISMATCH, f"{unit.count}x {unit.troop} is {from_matrix} models, not {unit.models}",
                         value_loc(unit, "models"), f"{unit.count} x {each} = {from_matrix}")
    elif _stated(army.agreed_models) and isinstance(armies.line_models(ruleset, army, unit), NotGiven):
        why = "says `not given`" if from_matrix is not None else "has no `models` column"
        yield Diagnostic(Code.MISSING_FIELD, f"`{army.id}` is balanced by head-count, but the models of `{unit.troop}` are not known",
                         value_loc(unit, "troop"), f"`{army.matrix}` {why}: state the line's models, as in `models: 10`")


def _names_unloaded(ruleset: Ruleset, army) -> bool:
    """True when the list uses an entry that failed to load (its own error is already reported)."""
    used = [("profiles", army.matrix)] + [("costs", c) for c in army.extras]
    for unit in army.units:
        used += [("costs", c) for c in unit.upgrades] + [("heroes", h) for h in unit.heroes] + [("spells", s) for s in unit.spells]
    return any(ruleset.is_unloaded(id, section) for section, id in used)


def _army_refs(ruleset: Ruleset, army):
    if (d := _ref(ruleset, "profiles", army.matrix, value_loc(army, "matrix"), "matrix")) is not None:
        yield d
        return
    if ruleset.is_unloaded(army.matrix, "profiles"):
        yield Diagnostic(Code.UNKNOWN_REF, f"matrix `{army.matrix}` has errors of its own, so `{army.id}` cannot be checked",
                         value_loc(army, "matrix"), "fix the matrix first")
        return
    matrix = ruleset.profile(army.matrix)
    for index, extra in enumerate(army.extras):
        if (d := _ref(ruleset, "costs", extra, army.locs.get(f"extras[{index}]", value_loc(army, "extras")), "extra")) is not None:
            yield d
    for unit in army.units:
        troops = [r.id for r in matrix.rows]
        if unit.troop not in troops:
            yield Diagnostic(Code.UNKNOWN_REF, f"troop `{unit.troop}` is not a row of `{matrix.id}`", value_loc(unit, "troop"),
                             did_you_mean(unit.troop, troops))
        for section, field, what in (("costs", "upgrades", "upgrade"), ("heroes", "heroes", "hero"), ("spells", "spells", "spell")):
            for index, id in enumerate(getattr(unit, field)):
                loc = unit.locs.get(f"{field}[{index}]", value_loc(unit, field))
                if (d := _ref(ruleset, section, id, loc, what)) is not None:
                    yield d


# -- prose ----------------------------------------------------------------------------------
ROLE = re.compile(r"\{(?P<role>term|rule|table|spell|profile|value|formula|chart|lookup|entry)\}(?P<ticks>`+)(?P<target>.+?)"
                  r"(?P=ticks)(?!`)", re.S)
_ROLE_SECTIONS = {"rule": "rules", "table": "tables", "spell": "spells", "profile": "profiles", "value": "values",
                  "formula": "formulas", "chart": "charts", "lookup": "lookups"}


def _term_key(text: str) -> str:
    """A term as a reader sees it: the same word in any case, Unicode form (NFC or NFD) or spacing."""
    import unicodedata

    return unicodedata.normalize("NFC", " ".join(unicodedata.normalize("NFKC", str(text)).casefold().split()))


@check
def check_glossary_terms(ruleset: Ruleset):
    """Two glossary terms (or aliases) that read as one word would send links to whichever came last."""
    own = ruleset.section("glossary")
    own_ids = {entry.id for entry in own}
    seen: dict[str, tuple[str, object]] = {}
    for entry in ruleset.reachable("glossary"):
        if entry.id not in own_ids:  # a base's terms: taken first, checked with the base
            for spelling in (entry.term, *entry.aliases):
                seen.setdefault(_term_key(spelling), (spelling, entry))
    for entry in own:
        for index, spelling in enumerate((entry.term, *entry.aliases)):
            key = _term_key(spelling)
            loc = value_loc(entry, "term") if index == 0 else entry.locs.get(f"aliases[{index - 1}]", value_loc(entry, "aliases"))
            if key in seen and seen[key][1] is not entry:
                first, other = seen[key]
                where = "in the base ruleset" if other.id not in own_ids else f"at {value_loc(other, 'term')}"
                yield Diagnostic(Code.DUPLICATE_TERM, f"glossary term `{spelling}` of `{entry.id}` is the term `{first}` of "
                                 f"`{other.id}` {where}", loc)
                continue
            seen.setdefault(key, (spelling, entry))


def term_names(ruleset: Ruleset) -> dict[str, str]:
    """Every spelling of every glossary term, casefolded, mapped to the term's id."""
    names = {}
    for term in ruleset.reachable("glossary"):
        for spelling in (term.term, *term.aliases):
            names[spelling.casefold()] = term.id
    return names


def _role_target(target: str) -> str:
    match = re.fullmatch(r"(?s).*<(.+)>", target)
    return (match[1] if match else target).strip()


def _prose_fields(entry):
    """(owner, field, text) for every text field of an entry and of its rows (a list of lines too)."""
    for name, value in vars(entry).items():
        if isinstance(value, str) and "{" in value:
            yield entry, name, value
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    if "{" in item:
                        yield entry, f"{name}[{index}]" if f"{name}[{index}]" in entry.locs else name, item
                elif hasattr(item, "locs"):
                    yield from _prose_fields(item)
        elif isinstance(value, QuickMark):  # a quick-reference summary is player prose like any other
            yield from _prose_fields(value)


def _at(owner, name: str, text: str, offset: int) -> Location:
    loc = value_loc(owner, name)
    return loc.at(text, offset) if isinstance(loc, BlockLocation) else loc


@check
def check_chapter_ids(ruleset: Ruleset):
    for chapter in ruleset.chapters:
        if chapter.id in SITE_PAGE_NAMES:
            yield Diagnostic(Code.PAGE_NAME, f"chapter `{chapter.id}` would take the name of the site's page of "
                             f"{SITE_PAGE_NAMES[chapter.id]}", chapter.loc,
                             f"give the chapter another id, such as `{chapter.id}_chapter`, and write that in its entries' `chapter:`")


@check
def check_prose_links(ruleset: Ruleset):
    terms = term_names(ruleset)
    for _section, entry in (("ruleset", ruleset.meta), *ruleset.all_entries()):  # the summary is prose too
        for owner, name, value in _prose_fields(entry):
            for match in ROLE.finditer(value):
                target = _role_target(match["target"])
                loc = _at(owner, name, value, match.start())
                if match["role"] == "term":
                    if target.casefold() not in terms and not ruleset.is_unloaded(target, "glossary"):
                        yield Diagnostic(Code.UNKNOWN_REF, f"glossary term `{target}` is not in `glossary:`", loc,
                                         did_you_mean(target, [t.term for t in ruleset.glossary]))
                elif match["role"] == "entry":
                    section, _, id = target.partition(".")
                    if section not in SECTIONS:
                        yield Diagnostic(Code.UNKNOWN_REF, f"`{target}` names no section: write {{entry}}`section.id`", loc,
                                         did_you_mean(section, list(SECTIONS)))
                    elif (d := _ref(ruleset, section, id, loc, section.removesuffix("s"))) is not None:
                        yield d
                elif (d := _ref(ruleset, _ROLE_SECTIONS[match["role"]], target, loc, match["role"])) is not None:
                    yield d


def _get(ruleset: Ruleset, section: str, id: str):
    """The entry ``id`` of ``section`` (a base's too, where shared), or None."""
    try:
        return ruleset.get(section, id)
    except (KeyError, AttributeError, TypeError):
        return None


def _role_entry(ruleset: Ruleset, role: str, target: str, terms: dict[str, str]):
    """The entry a prose role names, looked up in the role's own section (ids may repeat across sections)."""
    if role == "term":
        return _get(ruleset, "glossary", terms.get(target.casefold(), ""))
    if role == "entry":
        section, _, id = target.partition(".")
        return _get(ruleset, section, id) if section in SECTIONS else None
    return _get(ruleset, _ROLE_SECTIONS[role], target)


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
    the heroes, troops and spells of armies, the counts of limits, the tables of spells, what formulas compute with,
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
                if (found := _get(ruleset, "values", written.value)) is not None:
                    yield found, written.loc
            if row.movement and (found := _get(ruleset, "values", row.movement)) is not None:
                yield found, value_loc(row, "movement")
        if entry.movement and (found := _get(ruleset, "values", entry.movement)) is not None:
            yield found, value_loc(entry, "movement")
    if isinstance(entry, Spell) and entry.table and (found := _get(ruleset, "tables", entry.table)) is not None:
        yield found, value_loc(entry, "table")
    if isinstance(entry, ArmyList):
        if (matrix := _get(ruleset, "profiles", entry.matrix)) is not None:
            yield matrix, value_loc(entry, "matrix")
            rows = {row.id: row for row in matrix.rows}
            for unit in entry.units:
                if unit.troop in rows:
                    yield rows[unit.troop], value_loc(unit, "troop")
                for field, section in (("heroes", "heroes"), ("spells", "spells")):
                    for index, id in enumerate(getattr(unit, field)):
                        if (found := _get(ruleset, section, id)) is not None:
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
                if (found := _get(ruleset, section, name)) is not None:
                    yield found, value_loc(entry, "expr")
                    break
    if isinstance(entry, Chart):
        for field, id in (("formula", entry.formula), ("chance", entry.chance)):
            if id and (found := _get(ruleset, "formulas", id)) is not None:
                yield found, value_loc(entry, field)
        for axis in (entry.columns, entry.rows):
            if axis is not None and axis.note_formula and (found := _get(ruleset, "formulas", axis.note_formula)) is not None:
                yield found, value_loc(axis, "note_formula")
            for value in (axis.values if axis is not None else ()):
                text = value if isinstance(value, (str, bool)) else getattr(value, "value", value)
                if isinstance(text, str):
                    for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text):
                        if (found := _get(ruleset, "values", name)) is not None:
                            yield found, value_loc(axis, "values")
    if isinstance(entry, Sheet):
        for index, id in enumerate(entry.charts):
            if (found := _get(ruleset, "charts", id)) is not None:
                yield found, _loc_of(entry, "charts", index)
        for index, id in enumerate(entry.cites):
            if (found := _get(ruleset, "rules", id)) is not None:
                yield found, _loc_of(entry, "cites", index)
    terms = term_names(ruleset)
    for owner, name, value in _prose_fields(entry):
        if name == "gm_note" or (owner is not entry and gm_only(owner)):
            continue  # the game-master's own text may name what it likes
        for match in ROLE.finditer(value):
            if (found := _role_entry(ruleset, match["role"], _role_target(match["target"]), terms)) is not None:
                yield found, _at(owner, name, value, match.start())


@check
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


@check
def check_audience(ruleset: Ruleset):
    for vp in ruleset.victory_points:
        if vp.hidden and vp.audience != "gm":
            yield Diagnostic(Code.HIDDEN_NOT_GM, f"hidden task `{vp.id}` must be `audience: gm`", value_loc(vp, "hidden"))


# -- the quick reference ------------------------------------------------------------------------
QUICK_TEXT_LIMIT = 600  # characters of prose (worked examples left out) one entry may print on the quick reference


def _readable(text: str) -> str:
    """Prose as the sheet prints it: worked examples and markup left out, spaces collapsed."""
    text = re.sub(r"(?ms)^(```|~~~).*?^\1[^\n]*$", "", text)
    return " ".join(re.sub(r"\{[a-z]+\}`([^`<]*?)(?:\s*<[^>]*>)?`", r"\1", text).split())


@check
def check_quick_reference(ruleset: Ruleset):
    """Marks for the quick reference: on player entries only, with text short enough for the sheet."""
    for section, entry in ruleset.all_entries():
        mark = getattr(entry, "quick_reference", False)
        if not mark or not isinstance(mark, QuickMark) and not entry.locs.get("quick_reference"):
            continue  # not marked, or printed by default without being written
        loc = value_loc(entry, "quick_reference")
        if gm_only(entry):
            yield Diagnostic(Code.QUICKREF_GM, f"`{entry.id}` is for the game-master but marked for the players' quick "
                             "reference", loc)
            continue
        summary = mark.summary if isinstance(mark, QuickMark) else ""
        if isinstance(mark, QuickMark) and summary and len(_readable(summary)) > QUICK_TEXT_LIMIT:
            yield Diagnostic(Code.QUICKREF_TOO_LONG, f"the quick-reference summary of `{entry.id}` is "
                             f"{len(_readable(summary))} characters; the sheet takes {QUICK_TEXT_LIMIT}",
                             value_loc(mark, "summary"))
        elif section == "rules" and not summary and len(_readable(entry.body)) > QUICK_TEXT_LIMIT:
            yield Diagnostic(Code.QUICKREF_TOO_LONG, f"rule `{entry.id}` is marked for the quick reference, but its body "
                             f"is {len(_readable(entry.body))} characters; the sheet takes {QUICK_TEXT_LIMIT}", loc)


# A statement that only sets up names: it checks nothing itself, but a later statement may use it.
_SETUP = ("Assign", "AnnAssign", "AugAssign", "Import", "ImportFrom", "FunctionDef")


def _statement_kinds(source: str) -> set[str] | None:
    """The kinds of Python statement in one `>>>` statement (None: it does not parse)."""
    import ast

    try:
        return {type(node).__name__ for node in ast.parse(source).body}
    except SyntaxError:
        return None


@check
def check_examples_assert(ruleset: Ruleset):
    """Every `>>>` statement of a worked example checks something: it states its result, is an `assert`, or
    sets up names for a later statement of its block that states one. A bare `>>> f(x)` whose output is
    empty passes doctest whatever f returns, so it would prove nothing."""
    import doctest

    for example in ruleset.examples:
        if example.ruleset != ruleset.id:
            continue  # a base's examples are checked with the base
        statements = doctest.DocTestParser().get_examples(example.source)
        kinds = [_statement_kinds(statement.source) for statement in statements]
        checks = [bool(s.want.strip()) or bool(k) and k <= {"Assert"} for s, k in zip(statements, kinds)]
        for index, statement in enumerate(statements):
            if checks[index] or not kinds[index]:
                continue  # it checks; or it is empty or does not parse, which doctest reports when the example runs
            if kinds[index] <= set(_SETUP) and any(checks[index + 1:]):
                continue
            what = "sets up names no later statement checks" if kinds[index] <= set(_SETUP) else "states no result"
            yield Diagnostic(Code.EXAMPLE_UNCHECKED,
                             f"{example.entry}: `{statement.source.strip()[:60]}` {what}",
                             Location(example.path, example.line + statement.lineno, example.indent + statement.indent + 1))
