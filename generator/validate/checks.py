"""Semantic checks of a loaded ruleset. Each check yields located diagnostics.

Checks are registered by name in ``CHECKS`` and all run, so a rules author sees
every problem at once. They point at the value at fault, via ``value_loc``.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from ..diagnostics import BlockLocation, Code, Diagnostic, Location, did_you_mean
from ..mechanics import armies
from ..model.base import NotGiven, Source, value_loc
from ..model.dice import RollRange
from ..model.entries import RollTable
from ..model.points import points_text
from ..model.ruleset import Ruleset

Check = Callable[[Ruleset], Iterable[Diagnostic]]
CHECKS: dict[str, Check] = {}


def check(function: Check) -> Check:
    CHECKS[function.__name__.removeprefix("check_")] = function
    return function


def run_checks(ruleset: Ruleset) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for function in CHECKS.values():
        found.extend(function(ruleset))
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
    outcomes = _outcomes(table)
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


def _outcomes(table: RollTable) -> list[int]:
    """The totals the table must read: the dice's outcomes, or every total within its clamp."""
    if table.dice.stats:
        ends = [v for r in table.rows for v in (r.roll.low, r.roll.high) if v is not None]
        if table.clamp is not None:
            ends += [v for v in (table.clamp.low, table.clamp.high) if v is not None]
        if not ends:
            return [0]
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
            default = "" if field in entry.locs else f" (the default, as `{entry.id}` gives no `{field}:`)"
            yield Diagnostic(Code.UNDECLARED_KIND, f"{what} `{value}`{default} is not in `{declaring}:` of `ruleset: declares:`",
                             value_loc(entry, field),
                             did_you_mean(value, declared) or f"`{declaring}:` declares {', '.join(declared)}; add it there or use one of those")


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
            text = normal[source.file]
            if source.section and _normal(source.section) not in text:
                yield Diagnostic(Code.SOURCE_SECTION, f"section “{source.section[:60]}” is not in {source.file}",
                                 value_loc(source, "section"))
            if source.quote and _normal(source.quote) not in text:
                yield Diagnostic(Code.SOURCE_QUOTE, f"the quote is not in {source.file}: “{source.quote[:60]}”",
                                 value_loc(source, "quote"))


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
                yield Diagnostic(Code.BAD_EXPRESSION, str(error), value_loc(limit, field),
                                 "counts: " + counts + ", and any cost, hero or troop id")


def _worked(value, text: str) -> str:
    """` (units // 2)`: the expression behind a bound, unless it is the number itself."""
    text = str(text).strip()
    return "" if text == points_text(value) else f" ({text})"


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
                if army.agreed_points is not None or unit.points is not None:
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
        if army.agreed_points is not None and total > army.agreed_points:
            yield Diagnostic(Code.OVER_POINTS, f"`{army.id}` spends {points_text(total)} points of the {points_text(army.agreed_points)} agreed",
                             value_loc(army, "agreed_points"))
        models = armies.army_models(ruleset, army)
        if army.agreed_models is not None and models > army.agreed_models:
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
    elif army.agreed_models is not None and isinstance(armies.line_models(ruleset, army, unit), NotGiven):
        why = "says `not given`" if from_matrix is not None else "has no `models` column"
        yield Diagnostic(Code.MISSING_FIELD, f"`{army.id}` is balanced by head-count, but the models of `{unit.troop}` are not known",
                         value_loc(unit, "troop"), f"`{army.matrix}` {why}: state the line's models, as in `models: 10`")


def _names_unloaded(ruleset: Ruleset, army) -> bool:
    """True when the list uses an entry that failed to load (its own error is already reported)."""
    used = [("profiles", army.matrix)] + [("costs", c) for c in army.extras]
    for unit in army.units:
        used += [("costs", c) for c in unit.upgrades] + [("heroes", h) for h in unit.heroes] + [("spells", s) for s in unit.scrolls]
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
        for section, field, what in (("costs", "upgrades", "upgrade"), ("heroes", "heroes", "hero"), ("spells", "scrolls", "scroll")):
            for index, id in enumerate(getattr(unit, field)):
                loc = unit.locs.get(f"{field}[{index}]", value_loc(unit, field))
                if (d := _ref(ruleset, section, id, loc, what)) is not None:
                    yield d


# -- prose ----------------------------------------------------------------------------------
ROLE = re.compile(r"\{(?P<role>term|rule|table|spell|profile|value|formula|chart|lookup)\}`(?P<target>[^`]+)`")
_ROLE_SECTIONS = {"rule": "rules", "table": "tables", "spell": "spells", "profile": "profiles", "value": "values",
                  "formula": "formulas", "chart": "charts", "lookup": "lookups"}


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
    """(owner, field, text) for every text field of an entry and of its rows."""
    for name, value in vars(entry).items():
        if isinstance(value, str) and "{" in value:
            yield entry, name, value
        elif isinstance(value, tuple):
            for item in value:
                if hasattr(item, "locs") and not isinstance(item, str):
                    yield from _prose_fields(item)


def _at(owner, name: str, text: str, offset: int) -> Location:
    loc = value_loc(owner, name)
    return loc.at(text, offset) if isinstance(loc, BlockLocation) else loc


@check
def check_prose_links(ruleset: Ruleset):
    terms = term_names(ruleset)
    for _section, entry in ruleset.all_entries():
        for owner, name, value in _prose_fields(entry):
            for match in ROLE.finditer(value):
                target = _role_target(match["target"])
                loc = _at(owner, name, value, match.start())
                if match["role"] == "term":
                    if target.casefold() not in terms and not ruleset.is_unloaded(target, "glossary"):
                        yield Diagnostic(Code.UNKNOWN_REF, f"glossary term `{target}` is not in `glossary:`", loc,
                                         did_you_mean(target, [t.term for t in ruleset.glossary]))
                elif (d := _ref(ruleset, _ROLE_SECTIONS[match["role"]], target, loc, match["role"])) is not None:
                    yield d


def _gm_only(entry) -> bool:
    return getattr(entry, "audience", "player") == "gm" or getattr(entry, "gm_only", False)


def _references(ruleset: Ruleset, entry):
    """(target entry, location) for every entry that ``entry`` names: see_also, row refs, prose links."""
    by_id = {e.id: e for _s, e in ruleset.all_entries()}
    for index, target in enumerate(getattr(entry, "see_also", ())):
        if target in by_id:
            yield by_id[target], entry.locs.get(f"see_also[{index}]", value_loc(entry, "see_also"))
    for row in getattr(entry, "rows", ()) if isinstance(entry, RollTable) else ():
        if row.ref in by_id:
            yield by_id[row.ref], value_loc(row, "ref")
    terms = term_names(ruleset)
    for owner, name, value in _prose_fields(entry):
        if name == "gm_note":
            continue
        for match in ROLE.finditer(value):
            target = _role_target(match["target"])
            if match["role"] == "term":
                target = terms.get(target.casefold(), "")
            elif match["role"] == "entry":
                target = target.partition(".")[2]
            if target in by_id:
                yield by_id[target], _at(owner, name, value, match.start())


@check
def check_gm_references(ruleset: Ruleset):
    for _section, entry in ruleset.all_entries():
        if _gm_only(entry):
            continue
        for target, loc in _references(ruleset, entry):
            if _gm_only(target):
                yield Diagnostic(Code.GM_REFERENCE, f"`{entry.id}` is for players but names game-master-only `{target.id}`", loc)


@check
def check_audience(ruleset: Ruleset):
    for vp in ruleset.victory_points:
        if vp.hidden and vp.audience != "gm":
            yield Diagnostic(Code.HIDDEN_NOT_GM, f"hidden task `{vp.id}` must be `audience: gm`", value_loc(vp, "hidden"))
