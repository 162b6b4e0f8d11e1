"""Roll tables: every possible result of a table's dice is covered by exactly one row."""

from __future__ import annotations

from ..diagnostics import Code, Diagnostic
from ..model.base import value_loc
from ..model.dice import digit_places
from ..model.entries import RollTable
from ..model.ruleset import Ruleset
from ..model.text import range_words


def _spans(values: list[int], outcomes: list[int] | None = None) -> str:
    """``1-3, 5``: runs of results, each run as its ends; a run is of results next to each other among ``outcomes``
    (a D66's 16 and 21 are, as no result lies between them), else among the whole numbers."""
    after = {a: b for a, b in zip(outcomes, outcomes[1:])} if outcomes is not None else {}
    spans, start = [], None
    for index, value in enumerate(values):
        if start is None:
            start = value
        if index + 1 == len(values) or values[index + 1] != after.get(value, value + 1):
            spans.append(str(start) if start == value else f"{start}-{value}")
            start = None
    return ", ".join(spans)


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
        lowest = any(r.roll.low is None for r in table.rows) or (
            table.clamp is not None and table.clamp.low is not None
        )
        highest = any(r.roll.high is None for r in table.rows) or (
            table.clamp is not None and table.clamp.high is not None
        )
        if not (lowest and highest):
            found.append(
                Diagnostic(
                    Code.TABLE_UNBOUNDED,
                    f"`{table.dice}` can roll any total, but `{table.id}` has no "
                    f"{'lowest' if not lowest else 'highest'} open row and no clamp",
                    value_loc(table, "dice"),
                )
            )
            return found
    try:
        outcomes = _outcomes(table)
    except TableTooWide as error:
        return found + [
            Diagnostic(
                Code.TOO_LARGE, str(error), rows_loc, "write open-ended rows such as `6+` and `1-` for the far ends"
            )
        ]
    covered: dict[int, object] = {}
    digits = _digit_dice(table)
    for row in table.rows:
        hits = row.roll.within(outcomes)
        rolled = f"{table.dice}" + (f" clamped to {range_words(table.clamp)}" if table.clamp else "")
        if not hits:
            found.append(
                Diagnostic(
                    Code.TABLE_UNREACHABLE,
                    f"row `{row.roll.text}` of `{table.id}` can never be rolled with {rolled}",
                    value_loc(row, "roll"),
                    _zeros_hint(row.roll.text, outcomes) or (digits and _after(digits, "remove the row or correct it")),
                )
            )
        elif not table.dice.stats and (beyond := _beyond(row.roll, outcomes)):
            kept = _spans(hits, outcomes)
            found.append(
                Diagnostic(
                    Code.TABLE_UNREACHABLE,
                    f"row `{row.roll.text}` of `{table.id}` runs past what {rolled} can roll: {beyond} never comes up",
                    value_loc(row, "roll"),
                    _after(
                        digits, f"write `{kept}`" if "," not in kept else "write the row as the results it can roll"
                    ),
                )
            )
        overlap = [o for o in hits if o in covered]
        if overlap:
            first = value_loc(covered[overlap[0]], "roll")
            found.append(
                Diagnostic(
                    Code.TABLE_OVERLAP,
                    f"row `{row.roll.text}` of `{table.id}` covers {_spans(overlap, outcomes)} again, "
                    f"as row `{covered[overlap[0]].roll.text}` at {first.line}:{first.column} does",
                    value_loc(row, "roll"),
                    "make the row ranges disjoint",
                )
            )
        for outcome in hits:
            covered.setdefault(outcome, row)
    missing = [o for o in outcomes if o not in covered]
    if missing:
        found.append(
            Diagnostic(
                Code.TABLE_GAP, f"`{table.id}` has no row for {_spans(missing, outcomes)} on {table.dice}", rows_loc
            )
        )
    return found


def _digit_dice(table: RollTable) -> str | None:
    """Why the table's dice roll what they do, when a die is written with one digit again and again (`D44`): it is a
    tens die and a units die, as a D66 is, and no single die of that many faces can be written (a row `1-11` of a
    D44 was told that 1-10 never comes up, not why). None for other dice."""
    for term in table.dice.terms:
        read = term.is_dice and digit_places(term.sides)
        if read:
            faces, places = read
            digits = "a tens die and a units die" if places == 2 else "one for each digit"
            alike = "" if term.sides == 66 else ", as a D66 rolls 11-66"
            return (
                f"`D{term.sides}` is read as {places} dice of {faces} faces, {digits} ({'1' * places}-{term.sides}"
                f"{alike}): no single die of {term.sides} faces can be written"
            )
    return None


def _after(note: str | None, hint: str) -> str:
    """``hint``, after ``note`` where there is one."""
    return f"{note}; {hint}" if note else hint


def _zeros_hint(written: str, outcomes: list[int]) -> str | None:
    """`00` on percentile dice is their highest roll, 100 (`000`: 1000), and a D10's `0` is its 10: the number to
    write instead. YAML reads a bare `00` as the number 0, so a `0` on a die of 10, 100 or 1000 faces (rolled alone:
    1 to its faces) is one of those."""
    written = written.strip()
    places = len(written)
    top = max(outcomes)
    if written == "0" and top in (10, 100, 1000) and sorted(outcomes) == list(range(1, top + 1)):  # one die
        zeros = "0" * len(str(top // 10))
        read = f" (YAML reads a bare `{zeros}` as 0)" if len(zeros) > 1 else ""
        return f"`{zeros}` on these dice is their {top}{read}: write `{top}`"
    if places < 2 or written != "0" * places or 10**places not in outcomes:
        return None
    return f"`{written}` on these dice is {10**places}: write `{10**places}`"


def _beyond(roll, outcomes: list[int]) -> str:
    """The part of a closed range past the lowest or highest result the dice can give, as spans (empty: none)."""
    low, high = min(outcomes), max(outcomes)
    below = _span(roll.low, low - 1) if roll.low is not None and roll.low < low else ""
    above = _span(high + 1, roll.high) if roll.high is not None and roll.high > high else ""
    return ", ".join(part for part in (below, above) if part)


def _span(start: int, end: int) -> str:
    return str(start) if start == end else f"{start}-{end}"


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
            raise TableTooWide(
                f"the rows of `{table.id}` span {min(ends):,} to {max(ends):,}; a modified table may span at most "
                f"{MAX_TABLE_SPAN:,} results"
            )
        # a window one wider than every number written, read through the clamp
        return sorted({table.read(total) for total in range(min(ends) - 1, max(ends) + 2)})
    die = table.dice.die()
    return sorted({table.read(o) for o in die.outcomes()})
