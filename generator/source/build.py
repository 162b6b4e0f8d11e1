"""Turn located YAML nodes into model values, driven by the dataclass schema.

Every mismatch becomes a located diagnostic and the converter carries on, so
one run reports every problem of every file.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
import typing
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from ..diagnostics import Code, Diagnostics, closest, did_you_mean
from ..model.base import QUICK_REFERENCE_FORMS, Bounds, Markdown, NotGiven, QuickMark, Source
from ..model.computed import Value
from ..model.dice import DiceExpr, DiceSyntaxError, DiceTooLarge, RollRange
from ..model.entries import Column, Entry, ProfileMatrix, ProfileRow, ValueCell
from ..model.formula import Expression, FormulaError, FormulaTooLarge
from ..model.points import Number, Points, points_text
from ..model.quantity import Quantity, QuantityError, QuantityMixesMeasures, QuantityTooLarge, parse_number
from ..model.ruleset import ITEM_SECTION, ROW_SECTION
from ..model.units import unit_text
from .ids import ID, id_like
from .yamlnodes import Mapping, Node, Scalar, Sequence, describe

INVALID = object()
NOT_GIVEN_WORDS = ("not given", "not_given")  # exactly so: `Not Given` and `not givne` are typos, not text
MAX_TEXT = 100_000  # characters in one text of the rules: the samples' longest is under 3,000
_GAP_NOTE = re.compile(r"(?P<words>not[ _]given)\s*:\s*(?P<note>.*)", re.S)  # `not given: the text omits it`
_GAP_TYPO_LIKENESS = 0.85  # how close to "notgiven" a written word must be to be taken for a mistyped gap


@cache
def schema_fields(cls) -> tuple[tuple[str, dataclasses.Field, Any], ...]:
    """(yaml key, field, type) for each author-facing field of a model class."""
    hints = typing.get_type_hints(cls, include_extras=True)
    own = cls.__dict__.get("__annotations__", {})
    fields = [f for f in dataclasses.fields(cls) if not f.metadata.get("internal")]
    # a class's own fields first, then those every entry shares (source, audience)
    fields.sort(key=lambda f: f.name not in own)
    return tuple((f.metadata.get("key") or f.name, f, hints[f.name]) for f in fields)


def is_required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


POINTS_FORMS = "a whole number or an exact fraction such as 1½, 1 1/2, 3/2 or 1.5"


def parse_points(written) -> Number:
    """A points value as an author writes it: ``3``, ``1½``, ``1 1/2``, ``3/2`` or ``1.5``.

    Exact (``1.5`` is 3/2, never a float), an ``int`` when whole, else a Fraction; read
    by the same reader as every other stated number. Raises ValueError for anything else.
    """
    if isinstance(written, bool) or not isinstance(written, (int, str)):
        raise ValueError(f"points are {POINTS_FORMS}, not {written!r}")
    if isinstance(written, int):
        return written
    try:
        return parse_number(written)
    except QuantityError as error:
        if "below 1" in str(error) or "divides by zero" in str(error) or isinstance(error, QuantityTooLarge):
            raise ValueError(str(error)) from None
        raise ValueError(f"`{written}` is not {POINTS_FORMS}") from None


def _secret_field_hint(name: str, kind: str, fields) -> str | None:
    """The hint for a game-master's field (`gm_...`) an entry does not have: never the close field players read
    (`note` for `gm_note`), which would print the secret, but how to keep it from them."""
    if not name.startswith("gm_"):
        return None
    if "audience" in fields:
        return f"a {kind} has no `{name}`, and its other fields print to the players: mark it `audience: gm`"
    return f"a {kind} has no `{name}`, and its fields print to the players: keep the remark in a rule's `gm_note:`"


class Builder:
    def __init__(self, diagnostics: Diagnostics, default_source: str = ""):
        self.diagnostics = diagnostics
        self.default_source = default_source
        self.failed: set[tuple[str, str]] = set()  # (section, id) of entries already reported broken
        # profile rows left out for an error in a cell: their keywords are still checked, so that one run tells all
        self.rows_with_errors: list[ProfileRow] = []

    def error(self, code: Code, message: str, node: Node, hint: str | None = None):
        self.diagnostics.add(code, message, node.loc, hint)
        return INVALID

    # -- entry points --------------------------------------------------------------
    def entries(self, cls, node: Node, section: str, field: bool = False) -> list:
        """A section (or, ``field``, an entry's field such as `inputs:`): a mapping from ids to entries of ``cls``."""
        if not isinstance(node, Mapping):
            self.not_keyed(cls, node, section, field)
            return []
        built = []
        for key, value in node.items:
            if not ID.fullmatch(key.text):
                self.error(
                    Code.BAD_ID,
                    f"id `{key.text}` in `{section}` is not lower_snake_case",
                    key,
                    f"write it as `{id_like(key.text)}`",
                )
                self._failed_unnamed(section, key.text, value)
                continue
            entry = self.entry(cls, value, key.text, key.loc)
            if entry is not INVALID:
                built.append(entry)
            else:
                self.failed.add((section, key.text))
        return built

    def not_keyed(self, cls, node: Node, key: str, field: bool = True):
        """A section or field of entries written as something other than a mapping of ids (or names) to entries,
        most often a list: one error where it is written, with the mapping it should be."""
        what = f"`{key}`" if field else f"section `{key}`"
        return self.error(
            Code.WRONG_TYPE,
            f"{what} must be a mapping of {cls.KEY}s to entries, not {describe(node)}",
            node,
            f"write each entry under its {cls.KEY}{', not as a list item' if isinstance(node, Sequence) else ''}: "
            f"`{key}: {_keyed_example(cls, node)}`",
        )

    def _failed_unnamed(self, section: str, written: str, node: Node) -> None:
        """An entry whose id is no id: what names it as written, as its hint writes it, or (a glossary term) by its
        term is not told that it names nothing as well."""
        self.failed.update({(section, written), (section, id_like(written))})
        term = node.get("term") if isinstance(node, Mapping) else None
        if isinstance(term, Scalar) and isinstance(term.value, str):
            self.failed.add((section, term.value))

    def entry(self, cls, node: Node, id: str | None = None, at=None):
        """One entry; ``at`` is where its id is written, which is where it is reported."""
        if cls is ProfileMatrix:
            return self._matrix(node, id, at)
        built = self.dataclass(cls, node, id, at=at)
        if isinstance(built, Value):
            return self._typed_value(built)
        return built

    def _typed_value(self, value: Value):
        """A value read again as its declared `type`, when the way it is written leaves that open."""
        if not value.type or not isinstance(value.value, Quantity) or value.value.kind == value.type:
            return value
        try:
            return dataclasses.replace(value, value=Quantity.parse(value.value.written, value.type))
        except QuantityError as error:
            self.diagnostics.add(
                _quantity_code(error), f"value `{value.id}`: {error}", value.locs.get("value", value.loc)
            )
            return INVALID

    # -- generic conversion -----------------------------------------------------------
    def dataclass(
        self, cls, node: Node, id: str | None = None, extra: dict | None = None, skip: frozenset = frozenset(), at=None
    ):
        if cls is Source and isinstance(node, Scalar) and isinstance(node.value, str):
            return Source(section=node.value, file=self.default_source, loc=node.loc)
        shorthand = getattr(cls, "SHORTHAND", None)
        if shorthand and (isinstance(node, Scalar) or _one_key(node) and (_looks_not_given(node) or _gap_typo(node))):
            node = Mapping(((Scalar(shorthand, node.loc), node),), node.loc)  # `move: 6"` is `move: {value: 6"}`
        if not isinstance(node, Mapping):
            return self.error(
                Code.WRONG_TYPE, f"expected a mapping of {_kind(cls)} fields, found {describe(node)}", node
            )
        where = at or node.loc
        fields = {key: (f, tp) for key, f, tp in schema_fields(cls)}
        misspelt = set()
        before = None
        for key, _value in node.items:
            if key.text not in fields and key.text not in skip:
                close = closest(key.text, fields)
                misspelt.update([close] if close else [])
                hint = (
                    _decimal_comma_hint(before, key)
                    or _comma_in_text_hint(before, key, _value)
                    or _secret_field_hint(key.text, _kind(cls), fields)
                    or did_you_mean(key.text, fields)
                    or _text_as_field_hint(key)
                    or f"{_kind(cls)} fields are: {', '.join(fields)}"
                )
                self.error(Code.UNKNOWN_FIELD, f"unknown field `{key.text}` in {_kind(cls)}", key, hint)
            before = _value
        values: dict[str, Any] = {}
        locs = {}
        ok = True
        # a part whose fields hang on nothing else (`declares:`): one written wrong is reported and left at its
        # default, and the others are kept, so that the checks of the others still run in the same check
        partial = getattr(cls, "PARTIAL", False)
        for key, (f, tp) in fields.items():
            value_node = node.get(key)
            if value_node is None and f.name in (extra or {}):
                continue
            if value_node is None:
                if is_required(f):
                    if key not in misspelt:  # the unknown-field error already says `did you mean`
                        self.diagnostics.add(
                            Code.MISSING_FIELD,
                            f"{_kind(cls)} `{id or ''}` needs the field `{key}`".replace(" ``", ""),
                            where,
                            f"{key}: {f.metadata.get('help', '')}",
                        )
                    ok = False
                continue
            apart = f.metadata.get("apart") and id is not None and isinstance(value_node, Sequence)
            if apart:
                value, kept = self._apart(get_args(tp)[0], value_node, key, id)
            elif partial and isinstance(value_node, Mapping) and _entry_type(tp):  # keeps the entries that load
                value, kept = tuple(self.entries(_entry_type(tp), value_node, key, field=True)), value_node
            else:
                value, kept = self.value(tp, value_node, key), value_node
            if value is INVALID:
                if not partial or is_required(f):  # else the field is left at its default, its error said
                    ok = False
                continue
            if is_required(f) and tp in (str, Markdown) and not value.strip():  # `chart: ""` names nothing
                self.diagnostics.add(
                    Code.MISSING_FIELD,
                    f"{_kind(cls)} `{id or ''}` has `{key}` empty".replace(" ``", ""),
                    value_node.loc,
                    f"{key}: {f.metadata.get('help', '')}",
                )
                ok = False
                continue
            values[f.name] = value
            locs[f.name] = value_node.content_loc if isinstance(value_node, Scalar) else value_node.loc
            if isinstance(kept, Sequence):
                locs.update((f"{f.name}[{i}]", item.loc) for i, item in enumerate(kept.items))
        for group in getattr(cls, "one_of", ()):  # fields of which an entry needs at least one
            if not any(node.get(k) is not None or k in (extra or {}) for k in group):
                self._none_of(cls, id, group, fields, misspelt, where, " (or both)")
                ok = False
        for group in getattr(cls, "one_only", ()):  # fields of which an entry has exactly one
            written = [k for k in group if node.get(k) is not None]
            if len(written) > 1:
                both = " and ".join(f"`{k}`" for k in written)
                self.diagnostics.add(
                    Code.WRONG_TYPE,
                    f"{_kind(cls)} `{id or ''}` has {both}; it takes one of them".replace(" ``", ""),
                    where,
                    "keep " + " or ".join(f"`{k}`" for k in group),
                )
                ok = False
            elif not written:
                self._none_of(cls, id, group, fields, misspelt, where)
                ok = False
        if not ok:
            return INVALID
        if cls is Source and not values.get("file"):
            values["file"] = self.default_source
        if id is not None:
            values["id"] = id
        values.update(extra or {})
        return cls(**values, loc=where, locs=MappingProxyType(locs))

    def _apart(self, item_type, node: Sequence, key: str, id: str) -> tuple[tuple, Sequence]:
        """The items of an `apart` list that load, and their nodes; each one that does not is reported, left out
        and recorded as what the entry lacks (``Ruleset.lacks_items``)."""
        built, kept = [], []
        for index, item in enumerate(node.items):
            value = self.value(item_type, item, key)
            if value is INVALID:
                self.failed.add((ITEM_SECTION, f"{id}.{key}.{index}"))
                continue
            built.append(value)
            kept.append(item)
        return tuple(built), Sequence(tuple(kept), node.loc)

    def _none_of(self, cls, id, group: tuple, fields: dict, misspelt: set, where, more: str = "") -> None:
        """An entry that has none of a ``group`` of fields it needs one of: said, unless one of them is misspelt
        (the unknown-field error already says `did you mean`)."""
        if misspelt & set(group):
            return
        named = " or ".join(f"`{k}`" for k in group)
        self.diagnostics.add(
            Code.MISSING_FIELD,
            f"{_kind(cls)} `{id or ''}` needs {named}{more}".replace(" ``", ""),
            where,
            "add " + " or ".join(f"`{k}: {fields[k][0].metadata.get('example')}`" for k in group),
        )

    def value(self, tp, node: Node, key: str):
        if isinstance(node, Scalar) and node.refused:  # the loader reported it already (a number beyond the cap)
            return INVALID
        origin = get_origin(tp)
        if origin is Annotated:
            base, *marks = get_args(tp)
            value = self.value(base, node, key)
            for mark in marks:
                if isinstance(mark, Bounds) and isinstance(value, (int, Fraction)) and not isinstance(value, bool):
                    if (mark.low is not None and value < mark.low) or (mark.high is not None and value > mark.high):
                        return self.error(
                            Code.OUT_OF_RANGE, f"`{key}` is {points_text(value)}; it must be {mark}", node
                        )
            return value
        if origin in (Union, types.UnionType):
            return self._union(get_args(tp), node, key)
        if origin is Literal:
            choices = get_args(tp)
            if isinstance(node, Scalar) and node.value in choices:
                return node.value
            hint = did_you_mean(getattr(node, "text", ""), choices) or "one of: " + ", ".join(map(str, choices))
            return self.error(
                Code.WRONG_TYPE,
                f"`{key}` must be one of {', '.join(map(str, choices))}, not {describe(node)}",
                node,
                hint,
            )
        if origin is tuple:
            item_type = get_args(tp)[0]
            if isinstance(node, Scalar) and node.value is None:
                return ()
            if _entry_type(tp):  # keyed by id, never a list
                built = self.entries(item_type, node, key, field=True)
                return tuple(built) if isinstance(node, Mapping) and len(built) == len(node.items) else INVALID
            if isinstance(node, Scalar) and item_type is str and isinstance(node.value, str):
                return (node.value,)  # one keyword or id may be written without a list
            if isinstance(node, Scalar) and get_origin(item_type) is Literal and isinstance(node.value, str):
                item = self.value(item_type, node, key)  # and one choice (`papers: letter`)
                return INVALID if item is INVALID else (item,)
            if not isinstance(node, Sequence):
                return self.error(Code.WRONG_TYPE, f"`{key}` must be a list, not {describe(node)}", node)
            items = [self.value(item_type, item, key) for item in node.items]
            return INVALID if any(i is INVALID for i in items) else tuple(items)
        if tp is NotGiven:
            return self._not_given(node, key)
        if tp in (str, Markdown):
            if isinstance(node, Scalar) and node.value is not None and not isinstance(node.value, bool):
                if len(text := str(node.value)) > MAX_TEXT:  # a page Sphinx would take hours over (a CI left hung)
                    return self.error(
                        Code.TOO_LARGE,
                        f"`{key}` has {len(text):,} characters; the limit is {MAX_TEXT:,}",
                        node,
                        "split the text into rules of their own: no one rule needs that much",
                    )
                return text
            if isinstance(node, Scalar) and node.value is None:
                return ""
            return self.error(Code.WRONG_TYPE, f"`{key}` must be text, not {describe(node)}", node)
        if tp is int:
            if isinstance(node, Scalar) and isinstance(node.value, int) and not isinstance(node.value, bool):
                return node.value
            return self.error(Code.WRONG_TYPE, f"`{key}` must be a whole number, not {describe(node)}", node)
        if tp is bool:
            if isinstance(node, Scalar) and isinstance(node.value, bool):
                return node.value
            return self.error(Code.WRONG_TYPE, f"`{key}` must be true or false, not {describe(node)}", node)
        if tp is Points:
            return self._points(node, key)
        if tp is DiceExpr:
            return self._dice(node, key)
        if tp is Quantity:
            return self._quantity(node, key)
        if tp is Expression:
            return self._expression(node, key)
        if tp is RollRange:
            return self._roll(node, key)
        if dataclasses.is_dataclass(tp):
            return self.dataclass(tp, node)
        raise TypeError(f"no converter for {tp!r}")  # a schema bug, not an authoring error

    def _union(self, options, node: Node, key: str):
        if isinstance(node, Scalar) and node.value is None and type(None) in options:
            return None
        if NotGiven in options and _looks_not_given(node):
            return self._not_given(node, key)
        if NotGiven in options and _gap_typo(node):
            return self._gap_typo(node)
        real = [o for o in options if o not in (type(None), NotGiven)]
        if QuickMark in real:  # `quick_reference: true`, or a mapping whose errors are reported where they are
            if isinstance(node, Scalar) and isinstance(node.value, bool):
                return node.value
            if isinstance(node, Mapping):
                return self.dataclass(QuickMark, node)
            return self.error(
                Code.WRONG_TYPE,
                f"`{key}` must be {QUICK_REFERENCE_FORMS}, not {describe(node)}",
                node,
                "write `quick_reference: true`, or `quick_reference: {summary: ...}`",
            )
        if len(real) == 1:
            return self.value(real[0], node, key)
        for option in real:  # pragma: no cover - the schema has no such unions yet
            trial = Builder(Diagnostics(), self.default_source).value(option, node, key)
            if trial is not INVALID:
                return trial
        return self.error(Code.WRONG_TYPE, f"`{key}` has an unexpected value", node)

    def _not_given(self, node: Node, key: str):
        """`not given`, `"not given: why"`, or a mapping `{not given: why}`: a gap and the note on it."""
        if isinstance(node, Scalar) and isinstance(node.value, str):
            text = node.value.strip()
            if text in NOT_GIVEN_WORDS:
                return NotGiven()
            noted = _GAP_NOTE.fullmatch(text)
            if noted:
                return NotGiven(noted["note"].strip())
        if isinstance(node, Mapping) and len(node.items) == 1 and node.items[0][0].text in NOT_GIVEN_WORDS:
            note = node.items[0][1]
            if isinstance(note, Scalar) and (note.value is None or isinstance(note.value, str)):
                return NotGiven(str(note.value or "").strip())
        return self.error(
            Code.WRONG_TYPE,
            f"`{key}` must be `not given`, or `not given: why` with the why in words",
            node,
            'write `not given`, or `"not given: the text omits it"` (quoted, for the colon)',
        )

    def _gap_typo(self, node: Node):
        written = node.value if isinstance(node, Scalar) else node.items[0][0].text
        return self.error(
            Code.GAP_TYPO,
            f"`{written}` is not `not given`, the only way to write a gap",
            node if isinstance(node, Scalar) else node.items[0][0],
            "did you mean `not given`? (lower case, two words; a note goes after a colon: "
            '`"not given: the text omits it"`)',
        )

    def _points(self, node: Node, key: str, what: str | None = None):
        """A points value, or a located `wrong-type` error naming the forms it may take."""
        hint = "write points as 3, 1½, 1 1/2, 3/2 or 1.5, without units"
        if isinstance(node, Scalar) and node.value is not None:
            if node.style is not None:  # quoted text is text, as everywhere: a number is written plain
                hint = "write the number without quotes"
            else:
                try:
                    return parse_points(node.value)
                except ValueError:
                    pass
        return self.error(
            Code.WRONG_TYPE, f"{what or f'`{key}`'} must be {POINTS_FORMS}, not {describe(node)}", node, hint
        )

    def _dice(self, node: Node, key: str):
        if not isinstance(node, Scalar) or not isinstance(node.value, str):
            return self.error(
                Code.DICE_SYNTAX, f"`{key}` must be a dice expression such as D6, not {describe(node)}", node
            )
        try:
            return DiceExpr.parse(node.value)
        except DiceSyntaxError as error:
            shift = error.offset + (1 if node.style in ("'", '"') else 0)
            self.diagnostics.add(
                Code.TOO_LARGE if isinstance(error, DiceTooLarge) else Code.DICE_SYNTAX,
                str(error),
                node.loc.shifted(0, node.loc.column + shift),
            )
            return INVALID

    def _quantity(self, node: Node, key: str, kind: str = ""):
        if not isinstance(node, Scalar) or node.value is None or isinstance(node.value, bool):
            return self.error(
                Code.BAD_VALUE, f'`{key}` must be a value such as 2, 1½, 6" or 4+, not {describe(node)}', node
            )
        try:
            return Quantity.parse(node.written or node.value, kind)
        except QuantityError as error:
            return self.error(_quantity_code(error), f"`{key}`: {error}", node)

    def _expression(self, node: Node, key: str):
        if not isinstance(node, Scalar) or node.value is None or isinstance(node.value, bool):
            return self.error(Code.BAD_FORMULA, f"`{key}` must be an expression, not {describe(node)}", node)
        try:
            return Expression.parse(node.value)
        except FormulaError as error:
            code = Code.TOO_LARGE if isinstance(error, FormulaTooLarge) else Code.BAD_FORMULA
            if error.offset and node.body is not None:  # told where in the expression, where the file shows it
                self.diagnostics.add(code, str(error), node.body.at(str(node.value), error.offset))
                return INVALID
            return self.error(code, str(error), node)

    def _roll(self, node: Node, key: str):
        if not isinstance(node, Scalar) or node.value is None:
            return self.error(Code.ROLL_KEY, f"`{key}` must be a roll such as 5, 1-2 or 6+, not {describe(node)}", node)
        try:
            return RollRange.parse(node.value)
        except DiceSyntaxError as error:
            code = Code.TOO_LARGE if isinstance(error, DiceTooLarge) else Code.ROLL_KEY
            return self.error(code, str(error), node, _worded_roll(node.value, key))

    # -- profile matrices: columns declared in the data type the cells ---------------------------
    def _matrix(self, node: Node, id: str | None, at=None):
        if not isinstance(node, Mapping):
            return self.error(
                Code.WRONG_TYPE, f"expected a mapping of profile matrix fields, found {describe(node)}", node
            )
        columns_node, rows_node = node.get("columns"), node.get("rows")
        columns = self.entries(Column, columns_node, "columns", field=True) if columns_node is not None else []
        rows = []
        if isinstance(rows_node, Mapping):
            for key, row_node in rows_node.items:
                if not ID.fullmatch(key.text):
                    self.error(
                        Code.BAD_ID,
                        f"id `{key.text}` in `rows` is not lower_snake_case",
                        key,
                        f"write it as `{id_like(key.text)}`",
                    )
                    continue
                row = self._profile_row(row_node, key.text, columns, key.loc)
                if row is not INVALID:
                    rows.append(row)
                elif id is not None:  # reported: what names the row (an army's troop) is not told it is missing
                    self.failed.add((ROW_SECTION, f"{id}.{key.text}"))
        elif rows_node is not None:
            self.error(
                Code.WRONG_TYPE, f"`rows` must be a mapping of ids to rows, not {describe(rows_node)}", rows_node
            )
        matrix = self.dataclass(
            ProfileMatrix,
            _without(node, "columns", "rows"),
            id,
            extra={"columns": tuple(columns), "rows": tuple(rows)},
            at=at,
        )
        for name, missing in (("columns", columns_node), ("rows", rows_node)):
            if missing is None:
                self.diagnostics.add(
                    Code.MISSING_FIELD, f"profile matrix `{id}` needs the field `{name}`", at or node.loc
                )
                matrix = INVALID
        return matrix

    def _profile_row(self, node: Node, id: str, columns: list[Column], at=None):
        if not isinstance(node, Mapping):
            return self.error(Code.WRONG_TYPE, f"profile row `{id}` must be a mapping, not {describe(node)}", node)
        by_id = {c.id: c for c in columns}
        cells, locs, ok = {}, {}, True
        for column in columns:
            cell = node.get(column.id)
            if cell is None and isinstance(column.cells, NotGiven):  # a column the text gives nowhere
                cells[column.id], locs[column.id] = column.cells, column.locs.get("cells", column.loc)
                continue
            if cell is None:
                self.diagnostics.add(
                    Code.MISSING_FIELD,
                    f"profile row `{id}` has no `{column.id}` ({column.label})",
                    at or node.loc,
                    f"write `{column.id}: not given` if the source leaves it out, or `cells: not given` "
                    "on the column if it leaves out the whole column",
                )
                ok = False
                continue
            value = self._cell(column, cell)
            if value is INVALID:
                ok = False
                continue
            cells[column.id], locs[column.id] = value, cell.loc
        base_fields = {k for k, _f, _t in schema_fields(ProfileRow)}
        unknown = set()
        for key, _value in node.items:
            if key.text not in by_id and key.text not in base_fields:
                hint = did_you_mean(key.text, list(by_id) + list(base_fields)) or (
                    f"columns are: {', '.join(by_id)}" if by_id else "the matrix has no `columns:` to name it"
                )
                self.error(
                    Code.UNKNOWN_FIELD, f"`{key.text}` is neither a column of the matrix nor a row field", key, hint
                )
                unknown.add(key.text)
                ok = False
        row = self.dataclass(ProfileRow, _without(node, *by_id), id, skip=frozenset(by_id) | unknown, at=at)
        if row is INVALID:
            return INVALID
        if not ok:
            self.rows_with_errors.append(row)
            return INVALID
        return dataclasses.replace(row, values=MappingProxyType(cells), locs=MappingProxyType({**row.locs, **locs}))

    def _cell(self, column: Column, node: Node):
        if isinstance(node, Scalar) and node.refused:
            return INVALID
        if _looks_not_given(node):
            return self._not_given(node, column.id)
        if _gap_typo(node):
            return self._gap_typo(node)
        if isinstance(
            node, Mapping
        ):  # `score: {value: bowmen_score}`: the value's type and bounds are checked once all are loaded
            return self._value_cell(column, node)
        if column.type == "text":
            return self.value(str, node, column.id)
        if column.type in ("points", "number"):
            value = self._points(node, column.id, what=column.label)
            if value is INVALID:
                return value
            if (column.min is not None and value < column.min) or (column.max is not None and value > column.max):
                return self.error(
                    Code.OUT_OF_RANGE,
                    f"{column.label} is {points_text(value)}; it must be {Bounds(column.min, column.max)}",
                    node,
                )
            return value
        value = node.value if isinstance(node, Scalar) else None
        if column.type == "target" and isinstance(value, str) and re.fullmatch(r"[0-9]+\+", value.strip()):
            value = int(value.strip()[:-1])
        if column.type == "inches" and isinstance(value, str):
            value = self._inches(column, node, value)
            if value is INVALID:
                return value
        if not isinstance(value, int) or isinstance(value, bool):
            kinds = {
                "target": "a target roll such as 4+",
                "dice": "a number of dice such as 3",
                "models": "a number of models such as 10",
                "inches": 'a distance in inches such as 6 or 6"',
                "int": "a whole number such as 3",
            }
            return self.error(
                Code.WRONG_TYPE, f"{column.label} must be {kinds[column.type]}, not {describe(node)}", node
            )
        if (column.min is not None and value < column.min) or (column.max is not None and value > column.max):
            bounds = str(Bounds(column.min, column.max))
            if column.type == "target":  # said as the rolls are written: 7+, from 2+ to 6+
                value, bounds = f"{value}+", re.sub(r"(\d+)", r"\1+", bounds)
            elif column.type == "inches":  # as the column prints its cells: 30", from 0" to 24"
                value, bounds = unit_text(value, "inches"), re.sub(r"(\d+)", r'\1"', bounds)
            return self.error(Code.OUT_OF_RANGE, f"{column.label} is {value}; it must be {bounds}", node)
        return value

    def _inches(self, column: Column, node: Scalar, text: str):
        """A cell of a column of inches written with its unit, as values are (`8"`, `8 inches`): its number of
        inches, which the column prints as it prints a cell written `8`. A distance in another unit is refused,
        both units named; text that is no distance is left for the column's own refusal."""
        try:
            quantity = Quantity.parse(text, "distance")
        except QuantityError:
            return text
        if quantity.kind != "distance":
            return text
        distance = quantity.value
        if distance.unit != "inches":
            if distance.measure != "length":
                hint = (
                    f"{distance.unit} count cells of a grid, which no length converts to: give the distance in inches"
                )
            elif (inches := distance.in_unit("inches")).denominator == 1:
                hint = f"write `{unit_text(inches, 'inches')}`, the same distance in inches"
            else:
                hint = "give the distance in inches, as the column's other cells are"
            return self.error(
                Code.UNIT_MISMATCH,
                f"{column.label} is a column of inches, and `{text.strip()}` is in {distance.unit}",
                node,
                hint,
            )
        if distance.magnitude.denominator != 1:
            return self.error(
                Code.WRONG_TYPE,
                f"{column.label} is a whole number of inches, not `{text.strip()}`",
                node,
                "a column of inches holds whole inches: make it `type: text` to print a fraction as written",
            )
        return int(distance.magnitude)

    def _value_cell(self, column: Column, node: Mapping):
        """A cell naming a value, as the `{value}` role names one in prose."""
        if node.keys() != ["value"]:
            return self.error(
                Code.WRONG_TYPE,
                f"a cell of {column.label} that names a value is written `{{value: id}}`, not {describe(node)}",
                node,
                f"write `{column.id}: {{value: some_value}}`",
            )
        named = node.get("value")
        if not isinstance(named, Scalar) or not isinstance(named.value, str) or not ID.fullmatch(named.value):
            return self.error(
                Code.WRONG_TYPE,
                f"`value:` in a cell of {column.label} is the id of a value, not {describe(named)}",
                named,
            )
        return ValueCell(value=named.value, loc=named.content_loc, locs=MappingProxyType({"value": named.content_loc}))


def _quantity_code(error: QuantityError) -> Code:
    if isinstance(error, QuantityTooLarge):
        return Code.TOO_LARGE
    return Code.UNIT_MISMATCH if isinstance(error, QuantityMixesMeasures) else Code.BAD_VALUE


def _worded_roll(written, key: str) -> str | None:
    """Where a row keyed by a word goes (`roll: hearts`, which no die rolls): a roll table's rows are rolls, a
    lookup's row answers a word with `match:`. None for a roll written wrong (`1--2`) or a field of another name."""
    text = str(written) if isinstance(written, str) else ""
    if not re.fullmatch(r"[^\W\d_][\w' -]*", text.strip()) or key not in ("roll", "when"):
        return None
    word = text.strip()
    if key == "when":
        return f"a row keyed by a word answers it with `match: {word}` (in place of `when:`)"
    return (
        f"rows keyed by words go in a `lookups:` entry, read without dice, each with `match:` "
        f"(`- {{match: {word}, result: ...}}`); formulas call it by id as they call a table"
    )


def _looks_not_given(node: Node) -> bool:
    """Written as a gap: `not given`, `not given: why`, or a mapping whose one key is `not given`."""
    if isinstance(node, Scalar) and isinstance(node.value, str):
        text = node.value.strip()
        return text in NOT_GIVEN_WORDS or _GAP_NOTE.fullmatch(text) is not None
    return isinstance(node, Mapping) and any(key.text in NOT_GIVEN_WORDS for key, _value in node.items)


def _one_key(node: Node) -> bool:
    return isinstance(node, Mapping) and len(node.items) == 1


def _gap_typo(node: Node) -> bool:
    """Written nearly as a gap and not quite: `not givne`, `Not Given`, `notgiven`, `not-given: why`."""
    if isinstance(node, Scalar) and isinstance(node.value, str):
        written = node.value
    elif isinstance(node, Mapping) and len(node.items) == 1:
        written = node.items[0][0].text
    else:
        return False
    head = written.strip().split(":", 1)[0]
    if len(head) > 14 or head in NOT_GIVEN_WORDS:
        return False
    squashed = re.sub(r"[^a-z]", "", head.casefold())
    return difflib.SequenceMatcher(None, squashed, "notgiven").ratio() >= _GAP_TYPO_LIKENESS


def _without(node: Mapping, *keys: str) -> Mapping:
    return Mapping(tuple((k, v) for k, v in node.items if k.text not in keys), node.loc)


def _decimal_comma_hint(before: Node | None, key: Scalar) -> str | None:
    """`{value: 1,5}`: YAML reads the comma of a decimal comma as the end of the field, and `5` as the next one."""
    whole = isinstance(before, Scalar) and isinstance(before.value, int) and not isinstance(before.value, bool)
    if whole and key.text.isdigit() and before.loc.line == key.loc.line:
        return f"a decimal comma? `{before.value},{key.text}` is read as two fields: write `{before.value}.{key.text}`"
    return None


def _comma_in_text_hint(before: Node | None, key: Scalar, value: Node) -> str | None:
    """`{result: Roll twice, ignore duplicates}`: YAML ends a text at the comma inside `{...}`, and reads what follows
    as a field of no value."""
    text = isinstance(before, Scalar) and isinstance(before.value, str)
    if text and isinstance(value, Scalar) and value.value is None and before.loc.line == key.loc.line:
        quoted = f'"{before.value}, {key.text}"'
        return f"a comma inside `{{...}}` ends a field: put the text between double quotes, {quoted}"
    return None


def _text_as_field_hint(key: Scalar) -> str | None:
    """A line of text YAML read as a field, its words before a `:` taken for the field's name: no field's name has a
    space, but a sentence dedented out of its `body: |` does."""
    if " " not in key.text.strip():
        return None
    return (
        "this reads as a line of text: the lines of a text written after `|` are indented further than its field's "
        "name, every one of them (`body: |`, then the text two spaces in)"
    )


def _entry_type(tp) -> type | None:
    """The entry type of a field written as a mapping of ids (or names) to entries, such as `inputs:`; else None."""
    if get_origin(tp) is not tuple:
        return None
    item_type = get_args(tp)[0]
    return item_type if isinstance(item_type, type) and issubclass(item_type, Entry) else None


def _keyed_example(cls, node: Node) -> str:
    """A mapping of entries of ``cls`` as a flow mapping: under the id an item of ``node`` (a list) names, if one
    does, else a placeholder, one field of the entry with its example."""
    first = node.items[0] if isinstance(node, Sequence) and node.items else node
    if _one_key(first) and isinstance(first.items[0][1], Mapping):  # `- an_id: {...}`: a list of one-key mappings
        first = first.items[0][0]
    named = isinstance(first, Scalar) and isinstance(first.value, str) and ID.fullmatch(first.value)
    key = first.value if named else f"some_{cls.KEY}"
    fields = [(name, f) for name, f, _tp in schema_fields(cls) if f.metadata.get("example")]
    shorthand = [(name, f) for name, f in fields if name == getattr(cls, "SHORTHAND", None)]
    required = [(name, f) for name, f in fields if is_required(f)]
    if not fields:
        return f"{{{key}: {{...}}}}"
    name, f = (shorthand or required or fields)[0]
    example = f.metadata["example"]
    if example[0] not in "[{" and re.search(r"[,:{}\[\]#]", example):  # YAML ends a text at a comma inside {...}
        example = '"' + example.replace('"', '\\"') + '"'
    return f"{{{key}: {{{name}: {example}}}}}"


def _kind(cls) -> str:
    """What an author calls an entry of ``cls``: its class's name in words (`table row`), or the name it gives."""
    return getattr(cls, "KIND", None) or re.sub(r"(?<!^)([A-Z])", r" \1", cls.__name__).lower()
