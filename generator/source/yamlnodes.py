"""Safe YAML loading that keeps a location on every value.

PyYAML's ``safe_load`` forgets where values came from and reads YAML 1.1
surprises (``no`` as False, ``2:1`` as 121, ``1.10`` as 1.1). Rules authors mean
what they typed, so we read the event stream of the C safe parser ourselves and
build a small tree of located nodes:

* plain scalars become ``int`` (``12``, ``-3``), ``bool`` (``true``/``false``),
  ``None`` (``null``, ``~``, empty) or else the text exactly as typed;
* quoted and block scalars are always text;
* tags, anchors and aliases, duplicate keys, tabs, invalid UTF-8, several
  documents and empty files are refused with a located diagnostic.

Reading events never expands an alias, so an alias bomb fails in microseconds.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Union

import yaml

from ..diagnostics import Code, Diagnostic, Diagnostics, Location, TextLocation
from ..model.quantity import MAX_MAGNITUDE

try:  # the C parser is much faster; fall back for machines without libyaml
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

_INT = re.compile(r"[-+]?[0-9]+")
_DECIMAL = re.compile(r"[-+]?[0-9]+\.[0-9]*|[-+]?\.[0-9]+")  # a plain decimal, as YAML 1.1 would make a float
_NULLS = {"", "~", "null", "Null", "NULL"}
_BOOLS = {"true": True, "True": True, "false": False, "False": False}

MAX_DEPTH = 40  # nesting levels of mappings and lists; rules data uses fewer than ten
MAX_FILE_BYTES = 5_000_000  # per rules file or source text; RULEPRESS_MAX_FILE_BYTES overrides it (tests)
# Characters an editor shows differently from YAML or a terminal: C0/C1 controls but tab, line feed and
# carriage return; NEL and the Unicode line and paragraph separators, which YAML counts as line breaks.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


def max_file_bytes() -> int:
    try:
        return int(os.environ.get("RULEPRESS_MAX_FILE_BYTES", "")[:12])
    except ValueError:
        return MAX_FILE_BYTES


def too_big_file(path: Path, shown: str, diagnostics: Diagnostics) -> bool:
    """True (after a located diagnostic) when ``path`` is larger than the file size cap; checked before reading."""
    limit = max_file_bytes()
    try:
        size = path.stat().st_size
    except OSError:
        return False
    if size <= limit:
        return False
    diagnostics.add(
        Code.TOO_LARGE,
        f"the file is {size:,} bytes; the limit is {limit:,} bytes per file",
        Location(shown, 1, 1),
        "split it into several files, or keep only the text the rules cite",
    )
    return True


def _too_large_int(value: str) -> bool:
    """A plain scalar that would be an integer beyond MAX_MAGNITUDE (decided before int() on a huge string)."""
    digits = value.lstrip("+-").lstrip("0")
    return len(digits) > len(str(MAX_MAGNITUDE)) or (bool(digits) and int(digits) > MAX_MAGNITUDE)


@dataclass(frozen=True)
class Scalar:
    value: str | int | bool | None
    loc: Location
    style: str | None = None  # None plain, "'" or '"' quoted, "|" or ">" block
    body: TextLocation | None = None  # where the text lies, when its positions map to the file's (``_text_body``)
    refused: bool = False  # a diagnostic already refused this value (a number beyond the cap): build nothing from it
    written: str = ""  # a plain number as written where that says more than the number: `+1`, a modifier

    @cached_property
    def text(self) -> str:
        """The value as text, for keys and names (asked for again and again: kept)."""
        if self.value is None:
            return ""
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        return str(self.value)

    @property
    def content_loc(self) -> Location:
        """Where the value's text lies (``body``: a block scalar's first content line, or a one-line value whose
        positions map to the file's), else where the value is written."""
        return self.body or self.loc


@dataclass(frozen=True)
class Mapping:
    items: tuple[tuple[Scalar, Node], ...]
    loc: Location

    def get(self, key: str) -> Node | None:
        return self._by_key.get(key)

    @cached_property
    def _by_key(self) -> dict:
        """Each key's node (the first, if a key is written twice), made once: a mapping is asked for many keys."""
        found: dict = {}
        for k, v in self.items:
            found.setdefault(k.text, v)
        return found

    def keys(self) -> list[str]:
        return [k.text for k, _ in self.items]


@dataclass(frozen=True)
class Sequence:
    items: tuple[Node, ...]
    loc: Location


Node = Union[Scalar, Mapping, Sequence]

KIND_NAMES = {Scalar: "a single value", Mapping: "a mapping (key: value lines)", Sequence: "a list (- item lines)"}


def describe(node: Node) -> str:
    if isinstance(node, Scalar):
        if node.value is None:
            return "an empty value"
        if isinstance(node.value, bool):
            return f"the boolean `{node.text}`"
        if isinstance(node.value, int) or (not node.style and _DECIMAL.fullmatch(node.value)):
            return f"the number `{node.value}`"  # `1.5` is kept as written (exact), but reads as a number
        return f"the text `{_short(node.value)}`"
    return KIND_NAMES[type(node)]


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _typed(value: str, style: str | None):
    if style:
        return value
    if value in _NULLS:
        return None
    if value in _BOOLS:
        return _BOOLS[value]
    if _INT.fullmatch(value):
        return int(value) if not _too_large_int(value) else value  # kept as typed; the loader reports it
    return value


def _written(value: str, style: str | None) -> str:
    """`+1` as written: YAML reads it as the number 1, and a modifier prints with its sign."""
    return value if not style and value.startswith("+") and _INT.fullmatch(value) else ""


def _loc(path: str, mark) -> Location:
    return Location(path, mark.line + 1, mark.column + 1)


def decode(data: bytes, path: str, diagnostics: Diagnostics) -> str | None:
    """UTF-8 text of ``data``, or None after a located diagnostic."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        column = len(data[line_start : error.start].decode("utf-8", errors="replace")) + 1  # characters, not bytes
        diagnostics.add(
            Code.ENCODING,
            f"byte 0x{data[error.start]:02x} is not valid UTF-8{_read_as_windows(data, error.start)}",
            Location(path, line, column),
        )
        return None


def _read_as_windows(data: bytes, at: int) -> str:
    """What the byte is in Windows-1252, which Word and Notepad save as "ANSI" (`’` is 0x92): the likely cause."""
    try:
        character = data[at : at + 1].decode("cp1252")
    except UnicodeDecodeError:
        return ""
    return f' (in Windows-1252, as Word saves "ANSI" text, it is `{character}`)' if character.isprintable() else ""


def _check_controls(text: str, path: str, diagnostics: Diagnostics) -> bool:
    """Refuse control characters and Unicode line separators, located where an editor shows them
    (YAML would count NEL and U+2028 as line breaks, shifting every later location)."""
    found = [m for _, m in zip(range(1000), _CONTROL.finditer(text))]
    if not found:
        return False
    first = found[0]
    before = text[: first.start()]
    line = before.count("\n") + 1
    column = first.start() - (before.rfind("\n") + 1) + 1
    more = len(found) - 1
    name = {
        "\x00": "NUL",
        "\x1b": "escape",
        "\x85": "next line (NEL)",
        "\u2028": "line separator",
        "\u2029": "paragraph separator",
    }.get(first[0], "control")
    diagnostics.add(
        Code.CONTROL_CHARACTER,
        f"{name} character U+{ord(first[0]):04X} in rules data"
        + (f" (and {more}{'+' if more == 999 else ''} more in this file)" if more else ""),
        Location(path, line, column),
    )
    return True


def _check_tabs(text: str, path: str, diagnostics: Diagnostics) -> bool:
    found = False
    for number, line in enumerate(text.splitlines(), start=1):
        column = line.find("\t")
        if column >= 0:
            leading = not line[:column].strip()
            hint = (
                "indent with spaces"
                if leading
                else "replace the tab with spaces; tabs hide alignment in tables and prose"
            )
            diagnostics.add(Code.TAB, "tab character in rules data", Location(path, number, column + 1), hint)
            found = True
    return found


def parse_text(text: str, path: str, diagnostics: Diagnostics) -> Node | None:
    """The located node tree of one YAML document, or None after diagnostics."""
    if not text.strip() or all(not l.strip() or l.lstrip().startswith("#") for l in text.splitlines()):
        diagnostics.add(Code.EMPTY_FILE, "the file has no content", Location(path, 1, 1))
        return None
    if _check_controls(text, path, diagnostics):
        return None
    if _check_tabs(text, path, diagnostics):
        return None
    fast = _compose_fast(text, path)
    if fast is not None:
        return fast
    # The careful path: read events one by one, so every refusal gets its exact place.
    builder = _TreeBuilder(path, diagnostics, text)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if not builder.feed(event):
                break
    except yaml.MarkedYAMLError as error:
        builder.finish()
        told = _syntax_diagnostic(error, path, text)
        odd = _odd_space_near(text, told.location.line)
        diagnostics.append(dataclasses.replace(told, hint=odd) if odd else told)
        return None
    except yaml.YAMLError as error:  # pragma: no cover - unmarked errors are rare
        builder.finish()
        diagnostics.add(Code.YAML_SYNTAX, f"YAML syntax: {error}", Location(path))
        return None
    builder.finish()
    return None if builder.refused else builder.root


_CORE = "tag:yaml.org,2002:"
_IMPLICIT_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")}


class _Suspicious(Exception):
    """The fast path saw something the careful path must report."""


def _compose_fast(text: str, path: str) -> Node | None:
    """The C composer builds the node graph; convert it unless anything is off (then None).

    An alias makes the composer share one node in two places, so a node met twice
    means an alias; an unusual tag, a duplicate key or a second document also send
    the file down the careful path, which locates each problem exactly.
    """
    try:
        nodes = list(yaml.compose_all(text, Loader=_Loader))
        if len(nodes) != 1 or nodes[0] is None:
            return None
        return _convert(nodes[0], path, set(), text, 0)
    except (yaml.YAMLError, _Suspicious):
        return None


def _convert(node, path: str, seen: set[int], text: str, depth: int) -> Node:
    mark = node.start_mark
    # A node's start mark sits on its anchor or tag, if it has one: `&x`, `!!python/...`.
    if id(node) in seen or node.tag not in _IMPLICIT_TAGS or text[mark.index : mark.index + 1] in ("&", "!", "*"):
        raise _Suspicious
    if depth >= MAX_DEPTH or (
        isinstance(node, yaml.ScalarNode)
        and not node.style
        and _INT.fullmatch(node.value)
        and _too_large_int(node.value)
    ):
        raise _Suspicious
    seen.add(id(node))
    loc = Location(path, mark.line + 1, mark.column + 1)
    if isinstance(node, yaml.ScalarNode):
        body = _text_body(text, node, path)
        return Scalar(
            _typed(node.value, node.style), loc, node.style or None, body, written=_written(node.value, node.style)
        )
    if isinstance(node, yaml.SequenceNode):
        return Sequence(tuple(_convert(item, path, seen, text, depth + 1) for item in node.value), loc)
    items, keys = [], set()
    for key_node, value_node in node.value:
        key = _convert(key_node, path, seen, text, depth + 1)
        if not isinstance(key, Scalar) or key.text in keys:
            raise _Suspicious
        keys.add(key.text)
        items.append((key, _convert(value_node, path, seen, text, depth + 1)))
    return Mapping(tuple(items), loc)


def _text_body(text: str, scalar, path: str) -> TextLocation | None:
    """Where a scalar's (node's or event's) text lies such that its positions map to the file's: a block scalar's first
    content line, or a value on one line written as it reads (no escape, no doubled quote); else None."""
    start, end = scalar.start_mark, scalar.end_mark
    if scalar.style == "|":
        return _block_body(text, start.index, path, start.line)
    if scalar.style == ">":
        return _folded_body(text, scalar, path)
    quote = 1 if scalar.style in ("'", '"') else 0
    if start.line != end.line or text[start.index + quote : end.index - quote] != scalar.value:
        return None
    return TextLocation(path, start.line + 1, start.column + 1, shift=quote)


def _block_body(text: str, index: int, path: str, line: int) -> TextLocation:
    """The first content line of the block scalar whose indicator is at ``index`` (0-based ``line``)."""
    rest = text[index:].split("\n")[1:]
    for offset, content in enumerate(rest, start=1):
        if content.strip():
            return TextLocation(path, line + 1 + offset, len(content) - len(content.lstrip(" ")) + 1)
    return TextLocation(path, line + 2, 1)


def _folded_body(text: str, scalar, path: str) -> TextLocation:
    """A folded block's body, with where each of its lines starts in its text: folding turns line breaks into spaces
    (or drops them) and leaves each line's characters as written, so each line is found in the text in order."""
    body = _block_body(text, scalar.start_mark.index, path, scalar.start_mark.line)
    indent, starts, at = body.column - 1, [], 0
    lines = text[scalar.start_mark.index : scalar.end_mark.index].split("\n")[1:]  # after the `>` line
    for number, line in enumerate(lines, start=scalar.start_mark.line + 2):
        written = line[indent:].rstrip()
        if not written.strip():
            continue
        found = scalar.value.find(written, at)
        if found < 0:  # not as written (a tab, a line break escaped): the lines found so far
            break
        starts.append((found, number, indent + 1))
        at = found + len(written)
    return dataclasses.replace(body, starts=tuple(starts))


def _syntax_diagnostic(error: yaml.MarkedYAMLError, path: str, text: str = ""):
    """Locate a syntax error where the broken construct starts (an unclosed quote opens
    there), and say where the parser gave up."""
    problem = error.problem or "invalid YAML"
    if _colon_in_flow_value(error, text):
        return Diagnostic(
            Code.YAML_SYNTAX,
            "YAML syntax: inside `{...}` this `: ` ends a key, so the value before it cannot hold it",
            _loc(path, error.problem_mark),
            'put the value that holds `: ` (or `, `) between double quotes: `result: "Plague: roll again"`',
        )
    unclosed = "end of stream" in problem  # a quote or bracket never closed: where it opened is the place
    if unclosed and error.context_mark is not None and error.context:
        gave_up = error.problem_mark
        where = f" (found at {gave_up.line + 1}:{gave_up.column + 1})" if gave_up is not None else ""
        return Diagnostic(
            Code.YAML_SYNTAX, f"YAML syntax: {error.context}: {problem}{where}", _loc(path, error.context_mark)
        )
    if problem.startswith("mapping values are not allowed") and error.problem_mark is not None:
        # PyYAML's words for a line indented deeper than the line above it allows (or a value with ": " in it)
        above = error.problem_mark.line  # the line before, counted from 1
        problem = (
            f"a `key:` cannot start here, below line {above}: one of the two is indented wrong, or a value holding "
            "`: ` needs quotes"
        )
    if (above := _misaligned_field(error, text)) is not None:
        here, (first, column) = error.problem_mark, above
        return Diagnostic(
            Code.YAML_SYNTAX,
            f"YAML syntax: this line starts at column {here.column + 1}, but the fields above it (from line {first}) "
            f"start at column {column}",
            _loc(path, here),
            "the fields of one entry line up, each as far in as the first: indent this line, or those above it, "
            "to the same column",
        )
    opened = _FLOW_OPENERS.get(error.context or "")
    if opened and error.context_mark is not None:  # a bracket left open is found only where the next line starts
        mark = error.context_mark
        problem += f" (the `{opened}` at {mark.line + 1}:{mark.column + 1} is not closed)"
    return Diagnostic(Code.YAML_SYNTAX, f"YAML syntax: {problem}", _loc(path, error.problem_mark))


def _misaligned_field(error: yaml.MarkedYAMLError, text: str) -> tuple[int, int] | None:
    """For a field indented other than the fields above it (PyYAML "did not find expected key" while parsing a block
    mapping): the line and column (from 1) of the first of those fields, the one after their entry's name."""
    here = error.problem_mark
    if not (
        error.context == "while parsing a block mapping"
        and (error.problem or "").startswith("did not find expected key")
        and here is not None
    ):
        return None
    lines = text.split("\n")
    content = [
        n for n in range(min(here.line, len(lines))) if lines[n].strip() and not lines[n].lstrip().startswith("#")
    ]
    indent = here.column
    owner = next((n for n in reversed(content) if len(lines[n]) - len(lines[n].lstrip(" ")) < indent), None)
    if owner is None:
        return None
    first = next((n for n in content if n > owner), None)
    if first is None:
        return None
    column = len(lines[first]) - len(lines[first].lstrip(" "))
    return None if column == indent else (first + 1, column + 1)


def _colon_in_flow_value(error: yaml.MarkedYAMLError, text: str) -> bool:
    """`{roll: 1-6, result: Plague: roll again}`: PyYAML stops at the second `: ` of a flow mapping's value and says it
    wanted a `,` or `}`, of a mapping that is closed. A `{` left open on the line above is found at the next line's
    key: the colon's own line opens the mapping here."""
    mark, opened = error.problem_mark, error.context_mark
    return (
        error.context == "while parsing a flow mapping"
        and mark is not None
        and opened is not None
        and opened.line == mark.line
        and (error.problem or "").startswith("did not find expected ',' or '}'")
        and text[mark.index : mark.index + 1] == ":"
    )


_ODD_SPACES = {
    "\u00a0": "a no-break space (U+00A0)",
    "\u202f": "a narrow no-break space (U+202F)",
    "\u2007": "a figure space (U+2007)",
    "\u2009": "a thin space (U+2009)",
    "\u200b": "a zero-width space (U+200B)",
    "\u3000": "an ideographic space (U+3000)",
}


def _odd_space_near(text: str, line: int) -> str | None:
    """The hint for a syntax error a space YAML does not read as one explains: Word and some editors type a no-break
    space after a colon, and YAML then reads `points:\u00a020` as one word, and gives up a line later."""
    lines = text.split("\n")
    for number in range(max(1, line - 3), min(line, len(lines)) + 1):
        for column, character in enumerate(lines[number - 1], start=1):
            if character in _ODD_SPACES:
                return (
                    f"{number}:{column} holds {_ODD_SPACES[character]}, as Word and some editors type: YAML reads it "
                    "as a letter, not a space; type an ordinary space there"
                )
    return None


_FLOW_OPENERS = {"while parsing a flow mapping": "{", "while parsing a flow sequence": "["}


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:") :] if tag.startswith("tag:yaml.org,2002:") else tag


def load_file(path: Path, relative_to: Path, diagnostics: Diagnostics) -> Node | None:
    shown = path.relative_to(relative_to).as_posix() if path.is_relative_to(relative_to) else str(path)
    if too_big_file(path, shown, diagnostics):
        return None
    return load_bytes(path.read_bytes(), shown, diagnostics)


def load_bytes(data: bytes, shown: str, diagnostics: Diagnostics) -> Node | None:
    """A file's bytes, read already, as nodes located in ``shown``."""
    tree, said = _parsed(data, shown)
    diagnostics.extend(said)
    return tree


# A pure function of the bytes: a process that loads a project again, or copies of it (the check daemon, a test run),
# parses each file once.
@functools.lru_cache(maxsize=256)
def _parsed(data: bytes, shown: str) -> tuple[Node | None, tuple]:
    """The nodes (immutable) and the diagnostics of one file's bytes."""
    said = Diagnostics()
    text = decode(data, shown, said)
    return (None if text is None else parse_text(text, shown, said)), tuple(said)


class _TreeBuilder:
    """Builds nodes from parser events; refuses what rules data must not contain."""

    def __init__(self, path: str, diagnostics: Diagnostics, text: str = ""):
        self.path = path
        self.text = text
        self.diagnostics = diagnostics
        self.stack: list[tuple[str, Location, list]] = []
        self.root: Node | None = None
        self.documents = 0
        self.refused = False
        self.refusals: dict[Code, int] = {}
        self.first: dict[Code, tuple] = {}

    def _refuse(self, code: Code, message: str, mark, hint: str | None = None) -> bool:
        """Report the first refusal of each kind and count the rest; the file yields no tree."""
        self.refused = True
        self.refusals[code] = self.refusals.get(code, 0) + 1
        if self.refusals[code] == 1:
            self.first[code] = (message, _loc(self.path, mark), hint)
        return True

    def finish(self) -> None:
        for code, (message, loc, hint) in self.first.items():
            more = self.refusals[code] - 1
            suffix = f" (and {more} more in this file)" if more else ""
            self.diagnostics.add(code, message + suffix, loc, hint)

    def feed(self, event) -> bool:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self._refuse(
                    Code.YAML_SYNTAX,
                    "YAML syntax: a rules file holds one YAML document, this one has several",
                    event.start_mark,
                    "remove the `---` separator, or split the documents into separate files",
                )
                return False
            return True
        loc = _loc(self.path, event.start_mark)
        if isinstance(event, yaml.AliasEvent):
            self._refuse(Code.YAML_ALIAS, f"alias `*{event.anchor}` is not allowed in rules data", event.start_mark)
            return self._add(Scalar(None, loc))
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self._refuse(Code.YAML_ALIAS, f"anchor `&{anchor}` is not allowed in rules data", event.start_mark)
        tag = getattr(event, "tag", None)
        if tag is not None and not (isinstance(event, yaml.ScalarEvent) and tag == "!" and event.style):
            self._refuse(Code.YAML_TAG, f"tag `{_short_tag(tag)}` is not allowed in rules data", event.start_mark)
        if isinstance(event, yaml.ScalarEvent):
            body = _text_body(self.text, event, self.path)
            if not event.style and _INT.fullmatch(event.value) and _too_large_int(event.value):
                # reported here, once, and the value marked so that nothing is built from it; the rest of the file loads
                digits = len(event.value.lstrip("+-"))
                shown = event.value if digits <= 20 else f"{event.value[:12]}… ({digits:,} digits)"
                self.diagnostics.add(
                    Code.TOO_LARGE,
                    f"the number `{shown}` is larger than {MAX_MAGNITUDE:,}, the largest number a rule may state",
                    loc,
                    "write a smaller number; no rule needs more",
                )
                return self._add(Scalar(event.value, loc, None, None, refused=True))
            typed = _typed(event.value, event.style)
            return self._add(Scalar(typed, loc, event.style or None, body, written=_written(event.value, event.style)))
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            kind = "map" if isinstance(event, yaml.MappingStartEvent) else "seq"
            if len(self.stack) >= MAX_DEPTH:
                self._refuse(
                    Code.TOO_LARGE,
                    f"mappings and lists nest more than {MAX_DEPTH} levels deep here",
                    event.start_mark,
                    "rules data needs a few levels; flatten this value",
                )
                return False
            self.stack.append((kind, loc, []))
            return True
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            kind, loc, children = self.stack.pop()
            if kind == "seq":
                return self._add(Sequence(tuple(children), loc))
            return self._add(self._mapping(children, loc))
        return True

    def _mapping(self, children: list, loc: Location) -> Mapping:
        items = []
        seen: dict[str, Location] = {}
        for key, value in zip(children[0::2], children[1::2]):
            if not isinstance(key, Scalar):
                self.diagnostics.add(Code.WRONG_TYPE, "a mapping key must be a single value", key.loc)
                continue
            if key.text in seen:
                self.diagnostics.add(
                    Code.DUPLICATE_KEY,
                    f"key `{key.text}` repeats the key at line {seen[key.text].line}",
                    key.loc,
                )
                continue
            seen[key.text] = key.loc
            items.append((key, value))
        return Mapping(tuple(items), loc)

    def _add(self, node: Node) -> bool:
        if self.stack:
            self.stack[-1][2].append(node)
        else:
            self.root = node
        return True


def walk(node: Node) -> Iterator[Node]:
    yield node
    if isinstance(node, Mapping):
        for key, value in node.items:
            yield key
            yield from walk(value)
    elif isinstance(node, Sequence):
        for item in node.items:
            yield from walk(item)
