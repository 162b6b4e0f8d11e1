"""Diagnostics: one coded enum, located values, compiler-style formatting.

Every problem Rulepress finds in rules data is a :class:`Diagnostic` with a
:class:`Code`. Checks return diagnostics instead of raising, so a run reports
all problems at once. The reference page of codes is generated from ``Code``.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based position in a source file, relative to the project folder."""

    path: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, lines: int = 0, column: int | None = None) -> Location:
        return Location(self.path, self.line + lines, self.column if column is None else column)


@dataclass(frozen=True, order=True)
class BlockLocation(Location):
    """Where the first content line of a block scalar (`|` or `>`) starts: positions
    inside its text map to lines and columns of the file."""

    def at(self, text: str, offset: int) -> Location:
        before = text[:offset]
        line_start = before.rfind("\n") + 1
        return Location(self.path, self.line + before.count("\n"), self.column + offset - line_start)


class Code(enum.Enum):
    """Diagnostic codes. The value is the code; the docstring-like tuple holds what it catches."""

    def __new__(cls, code: str, catches: str, hint: str):
        member = object.__new__(cls)
        member._value_ = code
        member.catches = catches
        member.default_hint = hint
        return member

    # -- reading files ---------------------------------------------------------
    ENCODING = ("encoding", "a file that is not valid UTF-8", "save the file as UTF-8")
    EMPTY_FILE = ("empty-file", "a rules file with no content", "add entries or delete the file")
    TAB = ("tab", "a tab character, which YAML forbids for indentation and which hides alignment mistakes", "indent with spaces")
    YAML_SYNTAX = ("yaml-syntax", "text that is not well-formed YAML", "check indentation, colons and quotes near this position")
    YAML_TAG = ("yaml-tag", "an explicit YAML tag such as !!python/object, which could run code or change types", "remove the tag; write plain values")
    YAML_ALIAS = ("yaml-alias", "anchors (&) and aliases (*), which can multiply a small file into a huge one", "write the value out in full")
    DUPLICATE_KEY = ("duplicate-key", "the same key twice in one mapping, where YAML would silently keep the last", "remove or rename one of the keys")
    SYMLINK_OUTSIDE = ("symlink-outside", "a file or folder under `rules_src/` (rules file, source text, `sources/`, ruleset folder, mechanics, template) that is a link to somewhere outside the project", "copy the file into the project instead of linking to it")
    TOO_LARGE = ("too-large", "a file, nesting, number, die, dice pool, table or lookup span, chart, text or expression beyond the limit the message names, or a formula or chart whose check takes more work than one check may", "no rule needs that much: split the file, or write a smaller value")
    CONTROL_CHARACTER = ("control-character", "a control character (NUL, escape...) or a Unicode line separator in a rules file, which a terminal or YAML reads differently from an editor", "delete the character; write a plain space or a line break")
    # -- shape of the data -------------------------------------------------------
    UNKNOWN_SECTION = ("unknown-section", "a top-level key that is not a known section, or a `page_titles:` entry naming a section that has no page of its own", "use one of the sections listed in the format reference")
    UNKNOWN_FIELD = ("unknown-field", "a key that the entry's schema does not declare", "check the spelling against the field reference")
    MISSING_FIELD = ("missing-field", "a required field left out", "add the field; write `not given` if the source text leaves the value out")
    WRONG_TYPE = ("wrong-type", "a value of the wrong kind (text where a number belongs, a list where a mapping belongs...)", "write a value of the expected kind")
    OUT_OF_RANGE = ("out-of-range", "a number outside the bounds its column or field declares", "use a value within the declared bounds")
    BAD_ID = ("bad-id", "an entry id that is not lower_snake_case", "use lower-case letters, digits and underscores")
    PAGE_NAME = ("page-name", "a chapter whose id is the name of a page the site makes for every ruleset (`index`, `glossary`, `examples`, `names`), so one page would hide the other", "give the chapter another id: its page is named after it")
    DUPLICATE_ID = ("duplicate-id", "two entries of the same kind with one id, possibly in different files", "give each entry its own id")
    DUPLICATE_TERM = ("duplicate-term", "two glossary terms (or aliases) that are the same word up to case or Unicode form, so links to it would silently pick one", "merge the two entries, or make one term differ")
    # -- dice and tables ---------------------------------------------------------
    DICE_SYNTAX = ("dice-syntax", "a dice expression that does not parse (`D6`, `2D6 + 1`, `D6 + S - T - W`)", "write terms like NDX, whole numbers and stat names joined by + and -")
    ROLL_KEY = ("roll-key", "a table row key that is not a result, a range `1-2`, `6+` or `1-`", "write a single result (5), a range (1-2), or an open end (6+, 1-)")
    TABLE_GAP = ("table-gap", "a possible result of the table's dice that no row covers", "add a row for the missing results, widen a range, or clamp the roll")
    TABLE_OVERLAP = ("table-overlap", "a result covered by more than one row", "make the row ranges disjoint")
    TABLE_UNREACHABLE = ("table-unreachable", "a row no roll of the table's dice can reach", "remove the row or correct its range")
    TABLE_UNBOUNDED = ("table-unbounded", "a modified roll with no lowest or highest row and no clamp", "add `clamp:` or open-ended rows such as `6+` and `1-`")
    # -- references and values ------------------------------------------------------
    UNKNOWN_REF = ("unknown-ref", "a reference to an entry that does not exist", "check the id against the entries of that section")
    UNDECLARED_KIND = ("undeclared-kind", "a hero level, or a keyword, item or victory-point kind, that the ruleset's `ruleset:` section does not declare (`hero_levels:`, `keyword_kinds:`, `item_kinds:`, `victory_point_kinds:`, also where `victory_point_sheet:` heads a kind), or a hero with no `level:` where levels are declared", "use a declared value, or declare it in `ruleset:`")
    UNKNOWN_KEYWORD = ("unknown-keyword", "a special rule or keyword that is not declared in `keywords:`", "declare the keyword or fix its spelling")
    KEYWORD_PARAMS = ("keyword-params", "a keyword used with the wrong number or kind of parameters", "match the parameters declared for the keyword")
    SOURCE_FILE = ("source-file", "a citation of a source text that is not in the ruleset's `sources/`", "copy the source text into the ruleset's sources/ folder or fix the name")
    SOURCE_SECTION = ("source-section", "a cited section that stands nowhere as a heading in the cited source text (a truncated heading, a word of a sentence)", "copy the heading as the source writes it")
    QUOTE_SECTION = ("quote-section", "a quote that is in the cited source text but not in the section its citation names", "cite the section the quote stands under")
    SOURCE_QUOTE = ("source-quote", "a quoted phrase that does not occur in the cited source text", "quote the source word for word (spacing may differ)")
    BAD_EXPRESSION = ("bad-expression", "an army-limit expression that is not arithmetic on known counts", "use whole numbers, + - * / // and the counts named in the hint")
    # -- points and armies ----------------------------------------------------------
    POINTS_MISMATCH = ("points-mismatch", "a stated points cost or total, or a stated number of models, that does not equal what the model computes", "correct the stated number or the entries it adds up")
    POINTS_NOT_GIVEN = ("points-not-given", "an army list using a troop type whose points the source does not give", "choose a troop type whose points the text gives; else the list cannot be costed: write `agreed_points: not given` and leave out the line's `points:` (a matrix cell takes no house value)")
    GAP_TYPO = ("gap-typo", "a gap written nearly as `not given` and not quite (`not givne`, `Not Given`, `notgiven`), which would otherwise be read as text", "write `not given`, lower case, two words; a note goes after a colon")
    OVER_POINTS = ("over-points", "an army list that spends more than its agreed points", "remove units or raise the agreed total")
    OVER_MODELS = ("over-models", "an army list balanced by head-count that fields more models than its agreed models", "remove models or raise the agreed head-count")
    LIMIT_BROKEN = ("limit-broken", "an army list that breaks one of the ruleset's army limits", "change the list so that the limit holds")
    GM_REFERENCE = ("gm-reference", "player text that names a game-master-only entry, which would reveal it", "link it only from game-master material, or mark the linking entry `audience: gm`")
    HIDDEN_NOT_GM = ("hidden-not-gm", "a hidden task not marked for the game-master, which would leak into player outputs", "add `audience: gm`")
    # -- values, formulas, charts, mechanics ----------------------------------------
    UNIT_MISMATCH = ("unit-mismatch", "a distance in a grid unit (hexes, squares) mixed with a length (inches, feet, cm...), or with the other grid, in a value, a formula, a chart axis or a comparison", "measure both in one unit: lengths convert to each other, hexes and squares to nothing")
    BAD_VALUE = ("bad-value", "a stated value that is not a number, distance, target, dice or count of its declared type", "write it as the rules do: 2, 1½, 3/2, 6\", 3 hexes, 4+, 2D6")
    BAD_FORMULA = ("bad-formula", "a formula that does not parse, names an unknown input, value or table, or fails for some of its inputs", "use the inputs, values, `let` names, tables and functions listed in the format reference")
    BAD_CHART = ("bad-chart", "a chart whose formula, inputs or axes do not fit together", "vary two inputs of the formula and hold the others with `fixed:`")
    BASE_RULESET = ("base-ruleset", "an `extends:` naming no ruleset, a ruleset extending itself through others, or an entry that repeats one of its base's ids", "extend an existing ruleset; change a base's entries through an overlay")
    OVERLAY_CHANGE = ("overlay-change", "an overlay that changes an entry its base does not have, or adds anything but values", "change only values the base ruleset has, with the same id")
    MECHANIC_LITERAL = ("mechanic-literal", "a number other than 0 and 1 written in a ruleset's own mechanics, where it cannot follow the data", "name the number in `values:` and read it with `values.id`")
    MECHANIC_ERROR = ("mechanic-error", "a ruleset's own mechanics module that does not load", "fix the Python error the message names")
    QUICKREF_TOO_LONG = ("quickref-too-long", "an entry marked for the quick reference whose text (a rule's body, or the summary written for the sheet) is too long for one page of them", "write `quick_reference: {summary: ...}`: the procedure in a sentence or two, as the source says it")
    SHEET_OVERFLOW = ("sheet-overflow", "a one-page sheet (a quick reference, a `sheets:` entry, a victory-point checklist) whose content takes more than its page, even in the smaller type tried after the first layout", "mark fewer entries for it (`quick_reference: false`), or give them shorter summaries (`quick_reference: {summary: ...}`)")
    QUICKREF_GM = ("quickref-gm", "a game-master-only entry marked for the quick reference, which players get", "remove the mark, or make the entry `audience: player`")
    # -- examples and build -------------------------------------------------------
    EXAMPLE_FAILED = ("example-failed", "a worked example whose stated result differs from the model", "fix the model if the text is right, or the example if it misquotes the text")
    EXAMPLE_UNSTATED = ("example-unstated", "a worked example that follows no sentence (it opens the text, or comes right after a heading, a table or another example): players never see its code, so they would read nothing of it", "write the sentence before the example that states its checked result in words")
    EXAMPLE_SENTENCE = ("example-sentence", "a number in the paragraph a worked example follows (digits, a fraction, a percentage, a die, a number word such as `two` or `half`) that the example does not state: players read that paragraph marked checked, so each number in it must be a number of the example's code, of its stated results or of a value it reads; a chance (`19 times in 27`) must be one it states, a percentage must round from one, a sum (`3 + 5 = 8`) must be true", "make the sentence say what the example computes, or make the example state the number; a number the text means as plain prose goes in a paragraph of its own, before the sentence that states the result")
    EXAMPLE_UNCHECKED = ("example-unchecked", "a worked-example statement whose result nothing checks: a call with no stated result, or a setup line (an assignment or import) that no later statement of its block checks", "state the result on the line after the `>>>`, or end the block with a statement whose result is stated")
    RESOURCE_OUTSIDE = ("resource-outside", "a template, image or stylesheet that points outside the project or to the network", "use a file inside the project")
    TEMPLATE_ERROR = ("template-error", "a template in the project's `templates/` that is not UTF-8, does not parse, names a template outside the templates folders or none at all, or fails while rendering (an undefined value, something the template sandbox refuses, work or output beyond its limits)", "fix the template at the place named; start again from the default of the same path in `generator/templates`")
    PROSE_DIRECTIVE = ("prose-directive", "a MyST directive in prose that is not on the allow-list (`{include}`, `{eval-rst}`, `{raw}`, `{image}`, `{toctree}`, `{math}`...), which could read files, run reStructuredText or load scripts", "write prose; use a fenced python block for a worked example, or an admonition such as note or warning")
    PROSE_ROLE = ("prose-role", "a MyST role in prose that is not one of Rulepress's (term, rule, table, spell, profile, entry, gap, source, pdf, value, formula, chart, lookup)", "use one of Rulepress's roles, or plain text")
    PROSE_LINK = ("prose-link", "a link in prose to anything but an http(s) or mailto address or a #anchor: `javascript:`, `data:`, `file:`, or a path the site would read from the disk", "link to an http(s) address, or to an entry with one of Rulepress's roles (rule, term, table...)")
    PROSE_IMAGE = ("prose-image", "an image in prose: outputs show no image named in rules prose, so none is read from a path or fetched from the network", "describe it in words")
    SITE_WARNING = ("site-warning", "a problem the site build (Sphinx) found in an entry's text, which `check` let through", "fix the text of the entry named; `rulepress build --only site` checks it again")

    @property
    def code(self) -> str:
        return self.value


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    code: Code
    message: str
    location: Location
    hint: str | None = None
    severity: Severity = field(default=Severity.ERROR)

    def format(self) -> str:
        hint = self.hint or self.code.default_hint
        text = f"{printable(str(self.location))}: {self.severity.value}[{self.code.code}]: {printable(self.message)}"
        return f"{text}\n  hint: {printable(hint)}" if hint else text

    def __str__(self) -> str:
        return self.format()


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str, keep: str = "\n\t") -> str:
    """``text`` safe for a terminal: control characters, Unicode line separators and bidirectional
    overrides from rules data are shown escaped (ESC as ``\\x1b``), so a value can neither clear the
    screen nor fake a line of output; the characters in ``keep`` stay as they are."""
    return _UNPRINTABLE.sub(lambda m: m[0] if m[0] in keep else _escaped(m[0]), str(text))


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def did_you_mean(word: str, choices) -> str | None:
    """The closest of ``choices`` to ``word``, phrased as a hint, or None."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


class Diagnostics(list):
    """A list of diagnostics with a helper to add one."""

    def add(self, code: Code, message: str, location: Location, hint: str | None = None,
            severity: Severity = Severity.ERROR) -> None:
        self.append(Diagnostic(code, message, location, hint, severity))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self if d.severity is Severity.ERROR]

    def sorted(self) -> list[Diagnostic]:
        return sorted(self, key=lambda d: (d.location.path, d.location.line, d.location.column, d.code.code, d.message))
