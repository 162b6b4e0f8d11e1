"""Prose is content, not commands: the MyST a rules author may write, and nothing more.

Every Markdown field (a rule's body, a note, a definition...) is parsed by the same
MyST parser the site uses, and every directive, role, link and image in it is judged
against an allow-list. Anything else is a located error at its place in the YAML:

* directives: the admonitions (``note``, ``warning``, ``tip``...) and the ```` ```python ````
  fence of worked examples; never ``include``, ``literalinclude``, ``eval-rst``, ``raw``,
  ``image``, ``figure``, ``toctree``, ``math``, ``csv-table`` or any other (they read files,
  run reStructuredText, or load scripts from the network);
* roles: Rulepress's own (``term``, ``rule``, ``value``...); never ``download``, ``math``,
  ``raw`` or any other;
* links: to ``http:``, ``https:``, ``mailto:`` and ``#anchors`` only; never ``javascript:``,
  ``data:``, ``file:`` or a path (absolute, relative or with ``..``), which would be read or
  copied from the disk by the site builder;
* images: none. The site and the PDFs print no image named in rules prose, so nothing is read
  from a path an author chose, and nothing is fetched from the network.

Raw HTML is not judged here: every output prints it as text.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from fractions import Fraction
from functools import cache

from ..diagnostics import Code, Diagnostic, Location, Severity, TextLocation, closest
from ..examples.judge import EXPECTS
from ..examples.languages import DIGITS_ONLY, language_of
from ..examples.sentence import evidence, stated, unstated, unverified
from ..model.base import Markdown, item_loc, value_loc
from ..model.dice import RollRange
from ..model.quantity import Quantity
from ..model.ruleset import Ruleset
from .memo import remembered, text_key

ROLES = frozenset(
    {
        "term",
        "rule",
        "table",
        "spell",
        "profile",
        "entry",
        "gap",
        "source",
        "pdf",
        "value",
        "formula",
        "chart",
        "lookup",
        "roll",
    }
)
ADMONITIONS = frozenset(
    {"note", "warning", "tip", "hint", "important", "caution", "attention", "danger", "error", "seealso", "admonition"}
)
LINK_SCHEMES = ("http://", "https://", "mailto:")
_EXPLICIT = re.compile(r"(?s)^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")
_PDF_TARGET = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*\.pdf")

ROLES_HINT = "roles: " + ", ".join(f"{{{r}}}" for r in sorted(ROLES))
DIRECTIVES_HINT = "write prose; use a ```python block for a worked example, or an admonition: " + ", ".join(
    sorted(ADMONITIONS)
)


@cache
def _parser():
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    md = create_md_parser(MdParserConfig(enable_extensions={"colon_fence", "deflist"}), RendererHTML)
    md.validateLink = lambda url: True  # see every link, then judge it here
    return md


@dataclasses.dataclass(frozen=True)
class Finding:
    """A problem in one text: its code, message and hint, at a 0-based line and column of the text."""

    code: Code
    message: str
    line: int
    column: int
    hint: str


def prose_findings(text: str) -> list[Finding]:
    """Every directive, role, link and image of ``text`` that prose may not hold."""
    lines = text.split("\n")
    found: list[Finding] = []
    _blocks(_parser().parse(text), lines, 0, found)
    return found


def _blocks(tokens, lines: list[str], base: int, found: list[Finding]) -> None:
    line = base
    for token in tokens:
        if token.map:
            line = base + token.map[0]
        if token.type in ("fence", "colon_fence"):
            _fence(token, lines, line, found)
        if token.children:
            _inline(token.children, lines, line, found)


def _fence(token, lines: list[str], line: int, found: list[Finding]) -> None:
    """A fence read as MyST reads it: ```{name} is a directive, ```lang is code, :::lang is a div of Markdown."""
    parts = token.info.strip().split(maxsplit=1)
    name = parts[0] if parts else ""
    argument = parts[1] if len(parts) > 1 else ""
    if name.startswith("{") and name.endswith("}"):
        if name[1:-1] not in ADMONITIONS:
            found.append(
                _finding(
                    Code.PROSE_DIRECTIVE,
                    f"the directive `{name}` is not allowed in prose",
                    lines,
                    line,
                    name,
                    DIRECTIVES_HINT,
                )
            )
            return
        # its title (or, for an admonition that takes none, its first line), options and content are Markdown
        _blocks(_parser().parse(argument + "\n" + token.content), lines, line, found)
    elif token.type == "colon_fence":
        _blocks(_parser().parse(token.content), lines, line + 1, found)
    # any other fence is code, shown as text and never run (```python ones run as worked examples)


def _inline(children, lines: list[str], line: int, found: list[Finding]) -> None:
    cursor = [line, 0]  # where to look for the next thing found, so two on one line get their own columns
    for child in children:
        if child.type == "myst_role":
            name = child.meta.get("name", "")
            if name not in ROLES:
                close = closest(name, sorted(ROLES))
                found.append(
                    _finding(
                        Code.PROSE_ROLE,
                        f"the role `{{{name}}}` is not allowed in prose",
                        lines,
                        cursor,
                        "{" + name + "}",
                        f"did you mean `{{{close}}}`? {ROLES_HINT}" if close else ROLES_HINT,
                    )
                )
            elif name == "pdf":
                explicit = _EXPLICIT.match(child.content)
                target = (explicit["target"] if explicit else child.content).strip()
                if not _PDF_TARGET.fullmatch(target) or ".." in target.split("/"):
                    found.append(
                        _finding(
                            Code.PROSE_LINK,
                            f"`{{pdf}}` names `{target}`, which is not a PDF of the build",
                            lines,
                            cursor,
                            "{pdf}",
                            "name a PDF of the build, such as `sheets/x-a4.pdf`",
                        )
                    )
                else:
                    _seek(lines, cursor, "{pdf}")
            else:
                _seek(lines, cursor, "{" + name + "}")
        elif child.type == "image":
            src = child.attrs.get("src", "")
            found.append(
                _finding(
                    Code.PROSE_IMAGE,
                    f"an image (`{_short(src)}`): prose may not show images",
                    lines,
                    cursor,
                    "![",
                    "describe it in words; a ruleset's outputs show no image named in its prose",
                )
            )
        elif child.type == "link_open":
            href = str(child.attrs.get("href", ""))
            if not _allowed_link(href):
                found.append(
                    _finding(
                        Code.PROSE_LINK,
                        f"a link to `{_short(href)}`",
                        lines,
                        cursor,
                        _link_needle(href, lines, cursor),
                        "link to an http(s) address or, with a role such as {rule}`id`, to an entry of the rules",
                    )
                )
        if child.children:
            _inline(child.children, lines, cursor[0], found)


def _allowed_link(href: str) -> bool:
    plain = "".join(href.split()).lower()
    return plain.startswith("#") or plain.startswith(LINK_SCHEMES)


def _link_needle(href: str, lines: list[str], cursor: list[int]) -> str:
    from urllib.parse import unquote

    for needle in (href, unquote(href), href.split(":")[0] + ":"):
        if any(needle in row for row in lines[cursor[0] :]):
            return needle
    return "]("


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _seek(lines: list[str], where, needle: str) -> tuple[int, int]:
    """The first ``needle`` from ``where`` (a line, or a [line, column] cursor, moved past it), else the line's
    start."""
    line, column = (where[0], where[1]) if isinstance(where, list) else (where, 0)
    for index in range(max(line, 0), len(lines)):
        at = lines[index].find(needle, column if index == line else 0)
        if at >= 0:
            if isinstance(where, list):
                where[0], where[1] = index, at + len(needle)
            return index, at
    line = min(max(line, 0), max(len(lines) - 1, 0))
    row = lines[line] if lines else ""
    return line, len(row) - len(row.lstrip())


def _finding(code: Code, message: str, lines: list[str], where, needle: str, hint: str) -> Finding:
    return Finding(code, message, *_seek(lines, where, needle), hint)


# -- which fields are prose --------------------------------------------------------------------
def _is_markdown(tp) -> bool:
    if tp is Markdown:
        return True
    return any(_is_markdown(arg) for arg in typing.get_args(tp))


@cache
def _markdown_fields(cls) -> tuple[str, ...]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return tuple(
        f.name for f in dataclasses.fields(cls) if not f.metadata.get("internal") and _is_markdown(hints[f.name])
    )


def markdown_texts(entry):
    """(text, location of the text) for every Markdown field of an entry, of its rows and parts."""
    if not dataclasses.is_dataclass(entry) or isinstance(entry, type):
        return
    for name in _markdown_fields(type(entry)):
        value = getattr(entry, name, "")
        if isinstance(value, str):
            yield value, value_loc(entry, name)
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    yield item, item_loc(entry, name, index)
    for value in vars(entry).values():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if dataclasses.is_dataclass(item) and hasattr(item, "locs") and not isinstance(item, type):
                yield from markdown_texts(item)


def _location(loc: Location, text: str, finding: Finding) -> Location:
    if not isinstance(loc, TextLocation):
        return loc
    offset = sum(len(row) + 1 for row in text.split("\n")[: finding.line]) + finding.column
    return loc.at(text, offset)


def check_prose_safety(ruleset: Ruleset):
    """Directives, roles, links and images in prose are those of the allow-list."""
    for entry in (ruleset.meta, *(e for _s, e in ruleset.all_entries())):
        for text, loc in markdown_texts(entry):
            if not text.strip():
                continue
            for finding in _remembered_findings(text):
                yield Diagnostic(finding.code, finding.message, _location(loc, text, finding), finding.hint)


def _remembered_findings(text: str) -> list[Finding]:
    """``prose_findings``, kept by the text's hash (a finding is where it is in the text, not in the file)."""
    return remembered(
        "prose",
        lambda: text_key(text),
        lambda: prose_findings(text),
        lambda found: [[f.code.value, f.message, f.line, f.column, f.hint] for f in found],
        _load_findings,
    )


def _load_findings(stored) -> list[Finding]:
    if not isinstance(stored, list):
        raise ValueError("not findings")
    found = []
    for code, message, line, column, hint in stored:
        if not (isinstance(message, str) and type(line) is int and type(column) is int and isinstance(hint, str)):
            raise ValueError("not a finding")
        found.append(Finding(Code(code), message, line, column, hint))
    return found


def check_examples_stated(ruleset: Ruleset):
    """Every worked example follows a sentence: players read that sentence, marked checked, never the code."""
    for entry in (ruleset.meta, *(e for _s, e in ruleset.all_entries())):
        for text, loc in markdown_texts(entry):
            for line in unstated(text):
                where = (
                    loc.at(text, sum(len(row) + 1 for row in text.split("\n")[:line]))
                    if isinstance(loc, TextLocation)
                    else loc
                )
                yield Diagnostic(
                    Code.EXAMPLE_UNSTATED,
                    "a worked example follows no sentence: players, who never see its code, would read nothing of it",
                    where,
                )


_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")


def check_language(ruleset: Ruleset):
    """A ruleset's own `language:` is a language tag, and one whose numbers `check` reads in words, where its
    worked examples' sentences need reading."""
    written = ruleset.meta.language
    if not written:
        return
    loc = value_loc(ruleset.meta, "language")
    if not _LANGUAGE_TAG.fullmatch(written):
        yield Diagnostic(
            Code.EXAMPLE_LANGUAGE,
            f"`language: {written}` is no language tag",
            loc,
            "write a tag: `en` (English), `fr` (French), `de` (German), `fr-CA`...",
        )
    elif language_of(written) is None and _has_stated_examples(ruleset):
        yield Diagnostic(
            Code.EXAMPLE_LANGUAGE,
            f"`check` does not know the number words of `{written}`: the sentences before its worked examples are "
            "read for their numbers in digits alone",
            loc,
            severity=Severity.WARNING,
        )


def _has_stated_examples(ruleset: Ruleset) -> bool:
    return any(
        stated(text)
        for entry in (ruleset.meta, *(e for _s, e in ruleset.all_entries()))
        for text, _ in markdown_texts(entry)
    )


def check_example_sentences(ruleset: Ruleset):
    """Every number of the paragraph a worked example follows is one the example states (see examples/sentence.py).

    An overlay's sentences are its base's, judged there (where its house values change a result, both are shown)."""
    if ruleset.meta.overlay:
        return
    language = language_of(ruleset.language) or DIGITS_ONLY
    found_in = _evidence_in(ruleset)
    for entry in (ruleset.meta, *(e for _s, e in ruleset.all_entries())):
        for text, loc in markdown_texts(entry):
            for offset, paragraph, code in stated(text):
                for problem in unverified(paragraph, found_in(code), language):
                    yield _sentence_error(problem, text, loc, offset)


def _sentence_error(problem, text: str, loc: Location, offset: int) -> Diagnostic:
    where = loc.at(text, offset + problem.start) if isinstance(loc, TextLocation) else loc
    return Diagnostic(
        Code.EXAMPLE_SENTENCE,
        f"`{problem.text}` in the sentence before a worked example is {problem.why}: players read it marked checked",
        where,
    )


def _evidence_in(ruleset: Ruleset):
    """What an example's code states, with what it reads of ``ruleset``: the numbers its sentence may state."""
    rolled = {table.id: table.dice.text for table in ruleset.reachable("tables")}  # a table the example names
    rolled |= {formula.id: _expressions(formula) for formula in ruleset.reachable("formulas")}
    keys = {table.id: _row_keys(table) for table in ruleset.reachable("tables")}
    return lambda code: evidence(
        code,
        lambda id: _value_text(ruleset, id),
        rolled.get,
        lambda how, id, field: _field_text(ruleset, how, id, field),
        keys.get,
    )


_GAVE = re.compile(r"`(?P<source>.*)` gave (?P<got>.*?)" + re.escape(EXPECTS) + r"(?P<want>.*)", re.S)


def settle_example_sentences(project, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` (the checks' and the examples' failures) with each example failure weighed against the
    sentence before its example: where that sentence states what the model gave, the example's expected result is
    the mistake, so its sentence is not blamed too (its `example-sentence` error is dropped) and the failure's hint
    says to fix the expected result; where the sentence states the expected result, the hint says the two agree."""
    failed = {}  # (path, line of the statement) -> (index of its failure, what it gave, what it expects)
    for index, diagnostic in enumerate(diagnostics):
        found = _GAVE.search(diagnostic.message) if diagnostic.code is Code.EXAMPLE_FAILED else None
        if found and found["got"] != "nothing" and ": the same number" not in found["want"]:
            failed[diagnostic.location.path, diagnostic.location.line] = (index, found["got"], found["want"])
    if not failed:
        return diagnostics
    sentences = {
        (d.location.path, d.location.line, d.location.column): index
        for index, d in enumerate(diagnostics)
        if d.code is Code.EXAMPLE_SENTENCE
    }
    dropped, hints = set(), {}
    for ruleset in project.rulesets:
        if ruleset.meta.overlay:
            continue
        language, found_in = language_of(ruleset.language) or DIGITS_ONLY, _evidence_in(ruleset)
        for entry in (ruleset.meta, *(e for _s, e in ruleset.all_entries())):
            for text, loc in markdown_texts(entry):
                if not isinstance(loc, TextLocation):
                    continue
                for offset, paragraph, code in stated(text):
                    first = loc.at(text, text.find(code, offset + len(paragraph))).line
                    mine = [  # (row of the statement in the code, its failure's index, what it gave, expects)
                        (line - first, *failed[loc.path, line])
                        for line in range(first, first + code.count("\n") + 1)
                        if (loc.path, line) in failed
                    ]
                    if not mine:
                        continue
                    corrected = code.split("\n")
                    for row, _index, got, want in mine:
                        after = "\n".join(corrected[row + 1 :])
                        if want in after:  # the statement's expected result, as the model gives it
                            corrected[row + 1 :] = after.replace(want, got, 1).split("\n")
                    before = unverified(paragraph, found_in(code), language)
                    now = unverified(paragraph, found_in("\n".join(corrected)), language)
                    borne = [p for p in before if p.start not in {q.start for q in now}]
                    agreed = [p for p in now if p.start not in {q.start for q in before}]
                    for problem in borne:
                        where = _sentence_error(problem, text, loc, offset).location
                        dropped.add(sentences.get((where.path, where.line, where.column)))
                    said = ", ".join(f"`{p.text}`" for p in borne or agreed)
                    for _row, index, _got, _want in mine:
                        if borne:
                            hints[index] = (
                                f"the sentence before the example states {said}, what the model gives: fix the "
                                "example's expected result (if the model is what is wrong, fix it and that sentence)"
                            )
                        elif agreed:
                            hints[index] = (
                                f"the sentence before the example states {said}, as the example expects: fix the model "
                                "if the rules give that; else fix the example's expected result and that sentence"
                            )
    return [
        dataclasses.replace(d, hint=hints[index]) if index in hints else d
        for index, d in enumerate(diagnostics)
        if index not in dropped
    ]


def _row_keys(table) -> str:
    """The first and last roll each of a table's rows covers, as numbers a sentence may state (`1-` and `6+` have
    one)."""
    rolls = [row.roll for row in table.rows if isinstance(row.roll, RollRange)]  # not a key the source leaves out
    return ", ".join(str(bound) for roll in rolls for bound in (roll.low, roll.high) if bound is not None)


def _expressions(formula) -> str:
    """A formula's expressions (its `let:` steps and results too): the dice it rolls are written there."""
    parts = [formula.expr, *(step.expr for step in formula.let), *(result.expr for result in formula.results)]
    return "\n".join(part.text for part in parts if part is not None)


# what `rules.<how>("id")` looks up in a worked example (each section's entries, by one of them: model.ruleset)
_LOOKED_UP = (
    "value",
    "table",
    "profile",
    "spell",
    "hero",
    "item",
    "cost",
    "army",
    "army_limit",
    "victory_point",
    "keyword",
    "lookup",
    "formula",
    "chart",
    "phase",
    "rule",
    "term",
)


def _field_text(ruleset: Ruleset, how: str, id: str, field: str) -> str | None:
    """A number an entry's field holds, for an example that reads it (``rules.spell("x").casting_value``); None for
    anything else: a text, a list, a field it does not have."""
    if how not in _LOOKED_UP or field.startswith("_"):
        return None
    try:
        held = getattr(getattr(ruleset, how)(id), field)
    except (KeyError, AttributeError):
        return None
    if isinstance(held, RollRange):  # a spell's roll: the row's range as written (`1-2`)
        return held.text
    return str(held) if type(held) in (int, Fraction) or isinstance(held, Quantity) else None


def _value_text(ruleset: Ruleset, id: str) -> str | None:
    """A value's printed text, for the numbers an example reads; None for a name that is no value."""
    try:
        return str(ruleset.value(id).value)
    except KeyError:
        return None
