"""Rules coverage: which entries no worked example exercises, the way coverage.py lists lines no test ran.

What is measured. While the examples run (``rulepress coverage`` asks the confined children to record,
``model.reads``) the model notes each formula evaluated, each roll-table and lookup row read (a roll
through a table reads every row it can land on), each value read by a formula, a mechanic or an example
(``values.x``), each army limit applied and each entry looked up by id (``rules.get(...)``). The children
send back where those entries were written; the command matches the places against the entries it
loaded itself, so a child can only claim what its own examples did.

What is decided statically. A chart shows its formula's results, every cell computed by ``check``: it is
exercised when its formula is (or when an example looks it up). A value or a table row the text does not
give cannot be read, and is excused on its own. Any other entry that no example can exercise says why
in its data (``coverage: prose only: a timer``), and is excused rather than missed.

Every ruleset's examples run, and an entry counts as exercised by the examples of any ruleset that can
read it (a base's values by the games that extend it). An overlay is not measured: its examples are its base's,
run again under its values.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Location
from ..model.base import NotGiven
from ..model.text import range_words

NOT_GIVEN = "not given in the text"


@dataclass(frozen=True)
class Item:
    """One thing a worked example can exercise: an entry, or a row of a table or lookup."""

    kind: str  # value, formula, lookup, lookup row, table, table row, chart, army limit, keyword
    name: str  # the entry's id, or `table[3] (result)` for a row
    loc: Location
    excused: str = ""  # why no example can exercise it

    @property
    def place(self) -> tuple[str, int, int]:
        return (self.loc.path, self.loc.line, self.loc.column)


@dataclass(frozen=True)
class RulesetCoverage:
    ruleset: str
    items: tuple[Item, ...]
    exercised: frozenset  # the items some example exercised

    @property
    def missed(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i not in self.exercised and not i.excused)

    @property
    def excused(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i not in self.exercised and i.excused)

    @property
    def needlessly_excused(self) -> tuple[Item, ...]:
        """Items whose data says no example can exercise them, which one does: the excuse is stale."""
        return tuple(i for i in self.items if i in self.exercised and i.excused and i.excused != NOT_GIVEN)

    @property
    def percent(self) -> int:
        counted = len(self.items) - len(self.excused)
        return 100 if counted == 0 else (100 * (counted - len(self.missed))) // counted


def _roll_words(roll) -> str:
    return str(roll) if isinstance(roll, NotGiven) else range_words(roll)


def _rows(kind: str, entry, rows, given) -> list[Item]:
    found = []
    for index, row in enumerate(rows, 1):
        key = row.key_text if hasattr(row, "key_text") else _roll_words(row.roll)
        words = f"{key}: {row.result}"
        excused = row.coverage or ("" if given(row) else NOT_GIVEN)
        found.append(Item(kind, f"{entry.id}[{index}] ({words})", row.loc, excused))
    return found


def items_of(ruleset) -> list[Item]:
    """Everything of the ruleset's own (not its bases') that a worked example can exercise, in file order."""
    found: list[Item] = []
    for value in ruleset.values:
        found.append(
            Item(
                "value", value.id, value.loc, value.coverage or (NOT_GIVEN if isinstance(value.value, NotGiven) else "")
            )
        )
    for formula in ruleset.formulas:
        found.append(Item("formula", formula.id, formula.loc, formula.coverage))
    for lookup in ruleset.lookups:
        found.append(Item("lookup", lookup.id, lookup.loc, lookup.coverage))
        found += _rows("lookup row", lookup, lookup.rows, lambda row: True)
    for table in ruleset.tables:
        found.append(Item("table", table.id, table.loc, table.coverage))
        found += _rows("table row", table, table.rows, lambda row: not isinstance(row.roll, NotGiven))
    for chart in ruleset.charts:
        found.append(Item("chart", chart.id, chart.loc, chart.coverage))
    for limit in ruleset.army_limits:
        found.append(Item("army limit", limit.id, limit.loc, limit.coverage))
    for keyword in ruleset.keywords:
        found.append(Item("keyword", keyword.id, keyword.loc, keyword.coverage))
    return sorted(found, key=lambda i: (i.loc.path, i.loc.line, i.loc.column))


def measure(ruleset, reads: set) -> RulesetCoverage:
    """The ruleset's items, and which of them the places in ``reads`` (from every ruleset's examples) exercised."""
    items = items_of(ruleset)
    read = {item for item in items if item.place in reads}
    formulas = {formula.id: formula for formula in ruleset.reachable("formulas")}
    shown_by = {chart.id: formulas.get(chart.formula) for chart in ruleset.charts}
    for item in items:  # a chart shows its formula's results: exercised with it
        formula = shown_by.get(item.name) if item.kind == "chart" else None
        if formula is not None and (formula.loc.path, formula.loc.line, formula.loc.column) in reads:
            read.add(item)
    return RulesetCoverage(ruleset.id, tuple(items), frozenset(read))


def report_lines(coverage: RulesetCoverage) -> list[str]:
    """``path:line: kind name`` for each item missed, as coverage.py lists the lines no test ran."""
    lines = [
        f"{i.loc.path}:{i.loc.line}: {i.kind} `{i.name}` is exercised by no worked example" for i in coverage.missed
    ]
    lines += [
        f"{i.loc.path}:{i.loc.line}: {i.kind} `{i.name}` says `coverage: {i.excused}`, but an example exercises it"
        for i in coverage.needlessly_excused
    ]
    return lines


def summary_line(coverage: RulesetCoverage) -> str:
    counted = len(coverage.items) - len(coverage.excused)
    excused = f", {len(coverage.excused)} excused" if coverage.excused else ""
    return f"{coverage.ruleset}: {counted - len(coverage.missed)} of {counted} exercised ({coverage.percent}%){excused}"
