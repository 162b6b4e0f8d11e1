"""Army lists and army limits: limits parse, lists name real troops and add up, and keep within their limits."""

from __future__ import annotations

import ast
import dataclasses
import re

from ..diagnostics import Code, Diagnostic, Severity, did_you_mean
from ..mechanics import armies
from ..model.base import NotGiven, item_loc, value_loc
from ..model.points import points_text, points_words
from ..model.ruleset import ROW_SECTION, Ruleset
from ..source.project import RULES_DIR
from .references import entry_or_none, unknown_ref


def check_army_matrices(ruleset: Ruleset):
    """One army matrix to a ruleset that has armies or limits: the builder and the limits assume it."""
    found = armies.army_matrices(ruleset)
    if len(found) > 1 and (ruleset.armies or ruleset.army_limits):
        yield Diagnostic(
            Code.ARMY_MATRICES,
            f"`{ruleset.id}` chooses armies from {len(found)} profile matrices ({', '.join(m.id for m in found)}): "
            "the army builder works from one, so the site has none, and every army limit counts each army alike",
            found[1].loc,
            severity=Severity.WARNING,
        )


def check_army_limits(ruleset: Ruleset):
    """Each limit is arithmetic on the army's counts, and some army is held to it."""
    problems = list(_limit_expressions(ruleset))
    yield from problems
    if ruleset.army_limits and not problems and not armies.army_matrices(ruleset):
        yield Diagnostic(
            Code.LIMITS_ALONE,
            f"`{ruleset.id}` has army limits but no army matrix to choose armies from: no list is held to them, and a "
            "ruleset that `extends` this one does not take them",
            ruleset.army_limits[0].loc,
            severity=Severity.WARNING,
        )


def _divided_by_zero(tree: ast.expr, loc):
    """A division in a limit by what names no count and is 0: every list would divide by zero. Told here, where it is
    written, not only against each list (a project with no list would never hear of it)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv)) and armies.fixed(node.right):
            try:
                zero = armies.evaluate(node.right, {}) == 0
            except ZeroDivisionError:
                zero = False  # the division inside it is the one told
            if zero:
                yield Diagnostic(
                    Code.BAD_EXPRESSION,
                    f"`{ast.unparse(node)}` divides by zero in every list"
                    + ("" if isinstance(node.right, ast.Constant) else f": `{ast.unparse(node.right)}` is 0"),
                    loc,
                    "divide by a number other than 0, or by a count",
                )


def _limit_expressions(ruleset: Ruleset):
    names = armies.count_names(ruleset)
    counts = ", ".join(sorted(armies.count_descriptions(ruleset)))
    headless = [m for m in armies.army_matrices(ruleset) if not armies.models_column(m)]
    for limit in ruleset.army_limits:
        for field in ("count", "at_most", "at_least"):
            if field != "count" and not str(getattr(limit, field)).strip():
                continue  # a bound the limit does not have
            try:
                tree = armies.parse_limit(getattr(limit, field), names)
                if headless and any(isinstance(n, ast.Name) and n.id == "models" for n in ast.walk(tree)):
                    yield _models_uncounted(headless[0], value_loc(limit, field))
                yield from _divided_by_zero(tree, value_loc(limit, field))
            except armies.LimitExpressionError as error:
                if isinstance(error, armies.LimitTooLarge):
                    yield Diagnostic(
                        Code.TOO_LARGE,
                        str(error),
                        value_loc(limit, field),
                        "write a shorter limit; split it into two limits",
                    )
                    continue
                name = getattr(error, "name", "")
                below = _base_counting(ruleset, name) if name else None
                if below is not None:
                    yield _base_count(ruleset, below, name, value_loc(limit, field))
                    continue
                close = did_you_mean(name, names) if name else None
                yield Diagnostic(
                    Code.BAD_EXPRESSION,
                    str(error),
                    value_loc(limit, field),
                    (f"{close} " if close else "") + "counts: " + counts + f", and any cost, hero or troop id of "
                    f"`{ruleset.id}`",
                )


def _base_counting(ruleset: Ruleset, name: str) -> Ruleset | None:
    """The ruleset below ``ruleset`` (`extends:`) whose armies have the count ``name``, which ``ruleset``'s do not."""
    below = ruleset.base
    while below is not None and name not in armies.count_names(below):
        below = below.base
    return below


def _base_count(ruleset: Ruleset, base: Ruleset, name: str, loc) -> Diagnostic:
    """A limit of a ruleset that extends ``base`` counting what ``base``'s armies have: a ruleset that extends
    another fields armies of its own matrix alone, so the count would be 0 in every list, a ban that bans nothing."""
    own = armies.army_matrices(ruleset)
    fielded = f"fields armies from `{own[0].id}` alone" if own else "has no army matrix to field armies from"
    return Diagnostic(
        Code.BAD_EXPRESSION,
        f"`{name}` is a count of `{base.id}`'s armies, and `{ruleset.id}`, which extends it, {fielded}",
        loc,
        f"limits on `{base.id}`'s armies (a tournament pack's ban or points cap) go in an overlay of it: "
        f"`extends: {base.id}` with `overlay: true`, and `army_limits:` beside its house values",
    )


def _models_uncounted(matrix, loc) -> Diagnostic:
    """A limit counting `models` in a game whose army matrix has no `models` column: every list would field 0."""
    return Diagnostic(
        Code.BAD_EXPRESSION,
        f"`models` adds up the `models` column of `{matrix.id}`, which it does not have: every list would count 0",
        loc,
        f"give `{matrix.id}` a column of `type: models` (how many models each row fields), or count `units` where "
        "each unit is one model",
    )


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
                yield Diagnostic(
                    Code.BAD_ID,
                    f"`{row.id}` counts as `{row.counts_as}`, which is not a lower_snake_case name",
                    value_loc(row, "counts_as"),
                    "name the count army limits use, as in `counts_as: guns`",
                )
            elif row.counts_as in taken:
                yield Diagnostic(
                    Code.DUPLICATE_ID,
                    f"`{row.id}` counts as `{row.counts_as}`, which is already a count of the army",
                    value_loc(row, "counts_as"),
                    "name a count of the ruleset's own (`guns`), or leave it out to count as `units`",
                )


def _worked(value, text: str) -> str:
    """` (units // 2)`: the expression behind a bound, unless it is the number itself."""
    text = str(text).strip()
    return "" if text == points_text(value) else f" ({text})"


def _stated(agreed) -> bool:
    """An army's agreed size as a number to check against: neither left out nor `not given`."""
    return agreed is not None and not isinstance(agreed, NotGiven)


def check_armies(ruleset: Ruleset):
    """Each army list names real entries, adds up, and keeps within its agreed size and the limits. In an overlay,
    the text's own sample lists are checked as the text gives them (their errors are the base's): what the house
    values and house limits make of them is no error, and the overlay's outputs show them under the house rules. A
    list read from elsewhere (`rulepress list --ruleset`) is checked under the house rules."""
    text, folders = ruleset, set()
    while text.original is not None:
        folders.add(f"{RULES_DIR}/{text.id}/")
        text = text.original
    if text is ruleset:
        yield from _check_armies(ruleset)
        return
    folders.add(f"{RULES_DIR}/{text.id}/")
    samples = tuple(army for army in ruleset.armies if army.loc.path.startswith(tuple(folders)))
    yield from _check_armies(dataclasses.replace(text, armies=samples))
    read_in = tuple(army for army in ruleset.armies if not any(army is sample for sample in samples))
    yield from _check_armies(dataclasses.replace(ruleset, armies=read_in))


def _check_armies(ruleset: Ruleset):
    limits_ok = not any(d.severity is Severity.ERROR for d in check_army_limits(ruleset))
    for army in ruleset.armies:
        matrix_refs = list(_matrix_refs(ruleset, army))
        yield from matrix_refs
        if matrix_refs:
            continue  # nothing of the list can be priced
        extras = [(index, extra) for index, extra in enumerate(army.extras) if not ruleset.is_unloaded(extra, "costs")]
        wrong = {extra: d for index, extra in extras if (d := _extra_ref(ruleset, army, index, extra)) is not None}
        yield from wrong.values()
        priced = []
        whole = len(extras) == len(army.extras) and not wrong and not ruleset.lacks_items(army.id, "units")
        for unit in army.units:
            refs = list(_unit_refs(ruleset, army, unit))
            yield from refs
            if refs or _unit_unloaded(ruleset, army, unit):
                whole = False  # its points cannot be added up until those errors are fixed
                continue
            priced.append(unit)
            yield from _line_points(ruleset, army, unit)
            yield from _line_models(ruleset, army, unit)
        if not whole:
            good_extras = [e for _i, e in extras if e not in wrong]
            yield from _over_already(ruleset, army, priced, good_extras)
            if limits_ok:
                yield from _broken_already(ruleset, army, priced, good_extras)
            continue
        total = armies.army_points(ruleset, army)
        if army.total is not None and army.total != total:
            yield Diagnostic(
                Code.POINTS_MISMATCH,
                f"`{army.id}` adds up to {points_words(total)}, not {points_text(army.total)}",
                value_loc(army, "total"),
            )
        if _stated(army.agreed_points) and total > army.agreed_points:
            yield Diagnostic(
                Code.OVER_POINTS,
                f"`{army.id}` spends {points_words(total)} of the {points_text(army.agreed_points)} agreed",
                value_loc(army, "agreed_points"),
            )
        models = armies.army_models(ruleset, army)
        if _stated(army.agreed_models) and models > army.agreed_models:
            yield Diagnostic(
                Code.OVER_MODELS,
                f"`{army.id}` fields {models} models of the {army.agreed_models} agreed",
                value_loc(army, "agreed_models"),
            )
        if limits_ok:
            counts = armies.army_counts(ruleset, army)
            for limit in ruleset.army_limits:
                try:
                    result = armies.apply_limit(ruleset, limit, counts)
                except ZeroDivisionError:
                    yield Diagnostic(
                        Code.BAD_EXPRESSION,
                        f"“{limit.title}” divides by zero for `{army.id}`: a count it divides by is 0 in this list",
                        army.loc,
                        f"limit defined at {limit.loc}; divide by a number, or by a count no list leaves at 0",
                    )
                    continue
                yield from _limit_broken(ruleset, army, result)


def _limit_broken(ruleset: Ruleset, army, result, within: str = ""):
    """A limit ``army`` breaks, with its numbers, located where the list goes over it; ``within``: the part of the
    list counted, where that is not the whole."""
    limit = result.limit
    broken = []
    if result.too_few:
        broken.append(f"at least {points_text(result.at_least)}{_worked(result.at_least, limit.at_least)} is required")
    if result.too_many:
        broken.append(f"at most {points_text(result.at_most)}{_worked(result.at_most, limit.at_most)} is allowed")
    if broken:
        counted = _counted_at(ruleset, army, limit) if result.too_many else []
        yield Diagnostic(
            Code.LIMIT_BROKEN,
            f"`{army.id}` breaks “{limit.title}”: {limit.count} is {points_text(result.count)}{within}, "
            f"but {' and '.join(broken)}",
            counted[-1] if counted else army.loc,
            (f"counted at {_places(counted)}; " if len(counted) > 1 else "") + f"limit defined at {limit.loc}",
        )


def _broken_already(ruleset: Ruleset, army, priced: list, extras: list):
    """A list with errors in some lines: a limit its lines without errors already go over is told now, where the
    other lines can only add to what it counts and its most allowed is a number (`at most 1`, not `units // 2`)."""
    part = dataclasses.replace(army, units=tuple(priced), extras=tuple(extras))
    names, growing = armies.count_names(ruleset), armies.growing_counts(ruleset)
    try:
        results = armies.check_limits(ruleset, part)
    except ZeroDivisionError:
        return  # told once the list's other errors are fixed
    for result in results:
        count, most = result.limit.count, result.limit.at_most
        if result.too_many and armies.only_grows(armies.parse_limit(count, names), growing):
            if armies.fixed(armies.parse_limit(most, names)):
                yield from _limit_broken(
                    ruleset, part, dataclasses.replace(result, at_least=None), " in its lines without errors"
                )


def _counted_at(ruleset: Ruleset, army, limit) -> list:
    """Where the parts of a list that a limit counts are written: each line or extra without which the list would
    count fewer, in the file's order (the last is where it goes over)."""
    whole = _limit_count(ruleset, army, limit)
    if whole is None:
        return []
    parts = [
        (unit.loc, dataclasses.replace(army, units=army.units[:index] + army.units[index + 1 :]))
        for index, unit in enumerate(army.units)
    ] + [
        (
            item_loc(army, "extras", index),
            dataclasses.replace(army, extras=army.extras[:index] + army.extras[index + 1 :]),
        )
        for index in range(len(army.extras))
    ]
    counted = [
        loc for loc, without in parts if (count := _limit_count(ruleset, without, limit)) is not None and count < whole
    ]
    return sorted(counted, key=lambda loc: (loc.line, loc.column))


def _limit_count(ruleset: Ruleset, army, limit):
    """What ``limit`` counts in ``army`` (None where its count divides by zero there)."""
    names = armies.count_names(ruleset)
    try:
        return armies.evaluate(armies.parse_limit(limit.count, names), armies.army_counts(ruleset, army))
    except ZeroDivisionError:
        return None


def _places(locations: list) -> str:
    """``30:9``, or ``31:20 and 31:29``: where each counted part is written (line and column: extras share a line)."""
    places = [f"{loc.line}:{loc.column}" for loc in locations]
    return places[0] if len(places) == 1 else f"{', '.join(places[:-1])} and {places[-1]}"


def _line_models(ruleset: Ruleset, army, unit):
    """A line's stated models against its matrix, and a head-count army's lines whose models nobody gives."""
    from_matrix = armies.matrix_models(ruleset, army, unit)
    if isinstance(from_matrix, int) and unit.models is not None and unit.models != from_matrix:
        each = from_matrix // unit.count
        yield Diagnostic(
            Code.POINTS_MISMATCH,
            f"{unit.count}x {unit.troop} is {from_matrix} models, not {unit.models}",
            value_loc(unit, "models"),
            f"{unit.count} x {each} = {from_matrix}",
        )
    elif _stated(army.agreed_models) and isinstance(armies.line_models(ruleset, army, unit), NotGiven):
        why = "says `not given`" if from_matrix is not None else "has no `models` column"
        yield Diagnostic(
            Code.MISSING_FIELD,
            f"`{army.id}` is balanced by head-count, but the models of `{unit.troop}` are not known",
            value_loc(unit, "troop"),
            f"`{army.matrix}` {why}: state the line's models, as in `models: 10`",
        )


def _over_already(ruleset: Ruleset, army, priced: list, extras: list):
    """A list with errors in some lines: what the lines without errors add up to is already spent, so a list over
    its agreed points by those alone is told so now, not after the other errors are fixed."""
    spent = armies.army_points(ruleset, dataclasses.replace(army, units=tuple(priced), extras=tuple(extras)))
    if _stated(army.agreed_points) and spent > army.agreed_points:
        yield Diagnostic(
            Code.OVER_POINTS,
            f"`{army.id}` spends at least {points_words(spent)} of the {points_text(army.agreed_points)} "
            "agreed, in its lines without errors",
            value_loc(army, "agreed_points"),
        )


def _unit_unloaded(ruleset: Ruleset, army, unit) -> bool:
    """True when the line uses an entry that failed to load (its own error is already reported)."""
    used = (
        [(ROW_SECTION, f"{army.matrix}.{unit.troop}")]
        + [("costs", c) for c in unit.upgrades]
        + [("heroes", h) for h in unit.heroes]
        + [("spells", s) for s in unit.spells]
    )
    return any(ruleset.is_unloaded(id, section) for section, id in used)


def _matrix_refs(ruleset: Ruleset, army):
    if (d := unknown_ref(ruleset, "profiles", army.matrix, value_loc(army, "matrix"), "matrix")) is not None:
        yield d
    elif ruleset.is_unloaded(army.matrix, "profiles"):
        yield Diagnostic(
            Code.UNKNOWN_REF,
            f"matrix `{army.matrix}` has errors of its own, so `{army.id}` cannot be checked",
            value_loc(army, "matrix"),
            "fix the matrix first",
        )


def _extra_ref(ruleset: Ruleset, army, index: int, extra: str) -> Diagnostic | None:
    loc = item_loc(army, "extras", index)
    if (unknown := unknown_ref(ruleset, "costs", extra, loc, "extra")) is not None:
        return unknown
    if entry_or_none(ruleset, "costs", extra).added_to_unit:
        return Diagnostic(
            Code.UPGRADE_PLACE,
            f"`{extra}` is paid on top of a unit (`added_to_unit: true`), not once for the force",
            loc,
            "buy it in the `upgrades:` of the line it is for",
        )
    return None


def _unit_refs(ruleset: Ruleset, army, unit):
    troops = [r.id for r in ruleset.profile(army.matrix).rows]
    if unit.troop not in troops and not ruleset.is_unloaded(f"{army.matrix}.{unit.troop}", ROW_SECTION):
        yield _base_troop(ruleset, army, unit, troops) or Diagnostic(
            Code.UNKNOWN_REF,
            f"troop `{unit.troop}` is not a row of `{army.matrix}`",
            value_loc(unit, "troop"),
            did_you_mean(unit.troop, troops),
        )
    for section, field, what in (
        ("costs", "upgrades", "upgrade"),
        ("heroes", "heroes", "hero"),
        ("spells", "spells", "spell"),
    ):
        for index, id in enumerate(getattr(unit, field)):
            loc = item_loc(unit, field, index)
            if (d := unknown_ref(ruleset, section, id, loc, what)) is not None:
                yield d
            elif section == "costs":
                yield from _upgrade_refs(ruleset, unit, index, id, loc)


def _base_troop(ruleset: Ruleset, army, unit, troops: list[str]) -> Diagnostic | None:
    """A line fielding a troop of a base's matrix: a ruleset that extends a game fields its own matrix's troops
    alone (the base's are the base's armies'), said so, with no guess at a row of its own; None when no base has it."""
    below = ruleset.base
    while below is not None:
        for matrix in below.profiles:
            if any(row.id == unit.troop for row in matrix.rows):
                return Diagnostic(
                    Code.UNKNOWN_REF,
                    f"troop `{unit.troop}` is a row of `{matrix.id}` of the base ruleset `{below.id}`, not of "
                    f"`{army.matrix}`: a ruleset that extends a game fields only its own matrix's troops",
                    value_loc(unit, "troop"),
                    f"field a troop of `{army.matrix}` ({', '.join(troops) or 'it has no rows'}), or give "
                    f"`{army.matrix}` a row for `{unit.troop}`; a list of the game's troops is the game's: "
                    f"`rulepress list FILE --ruleset {below.id}`",
                )
        below = below.base
    return None


def _upgrade_refs(ruleset: Ruleset, unit, index: int, id: str, loc):
    """An upgrade a line buys: once, a unit's upgrade (not a cost for the whole force), for a troop it is for."""
    cost = entry_or_none(ruleset, "costs", id)
    if cost is None:
        return  # it did not load: its own error is told
    if id in unit.upgrades[:index]:
        yield Diagnostic(
            Code.BOUGHT_TWICE,
            f"`{id}` is bought twice in the `upgrades:` of this `{unit.troop}` line",
            loc,
            "name it once: each unit of the line has it once",
        )
    elif not cost.added_to_unit:
        yield Diagnostic(
            Code.UPGRADE_PLACE,
            f"`{id}` is bought once for the force, not for a unit (it has no `added_to_unit: true`)",
            loc,
            "buy it in the army's `extras:`, or mark it `added_to_unit: true` if each unit pays it",
        )
    elif cost.troops and unit.troop not in cost.troops:
        troops = cost.troops
        yield Diagnostic(
            Code.UPGRADE_TROOP,
            f"`{id}` is bought for `{unit.troop}`, but it is for {', '.join(f'`{t}`' for t in troops)} alone",
            loc,
        )


def check_upgrade_troops(ruleset: Ruleset):
    """An upgrade's `troops:` names troop types: rows of the ruleset's matrices."""
    rows = [row.id for matrix in ruleset.profiles for row in matrix.rows]
    for cost in ruleset.costs:
        for index, troop in enumerate(cost.troops):
            if troop not in rows and not any(
                troop == id.partition(".")[2] for s, id in ruleset.unloaded if s == ROW_SECTION
            ):
                yield Diagnostic(
                    Code.UNKNOWN_REF,
                    f"troop `{troop}` is not a row of any profile matrix",
                    item_loc(cost, "troops", index),
                    did_you_mean(troop, rows),
                )


def _line_points(ruleset: Ruleset, army, unit):
    """A line's points: given by the source where the list needs them, and as stated where it states them."""
    cost = armies.line_cost(ruleset, army, unit)
    if isinstance(cost.total, NotGiven):
        if _stated(army.agreed_points) or unit.points is not None:
            yield Diagnostic(
                Code.POINTS_NOT_GIVEN, f"the source gives no points for `{unit.troop}`", value_loc(unit, "troop")
            )
    elif unit.points is not None and unit.points != cost.total:
        yield Diagnostic(
            Code.POINTS_MISMATCH,
            f"{unit.count}x {unit.troop} costs {points_words(cost.total)}, not {points_text(unit.points)}",
            value_loc(unit, "points"),
            f"{unit.count} x {points_text(cost.each)} = {points_text(cost.total)}",
        )
