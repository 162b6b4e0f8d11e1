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
class TextLocation(Location):
    """Where a text value is written, such that positions inside the text map to lines and columns of the file: the
    first content line of a block scalar (`|` or `>`), or a value on one line whose characters are the file's
    (no escape, no line folded). ``shift``: the columns from here to the text's first character (1 after an opening
    quote), so that the value itself is still told where it is written."""

    shift: int = field(default=0, compare=False)  # not compared: a diagnostic read back from the check cache has none
    # A folded block's (`>`): (offset in the text, line, column) where each of its lines starts, for its lines are
    # joined in the text (a line break read as a space)
    starts: tuple[tuple[int, int, int], ...] = field(default=(), compare=False)

    def at(self, text: str, offset: int) -> Location:
        if self.starts:
            start, line, column = max((s for s in self.starts if s[0] <= offset), default=self.starts[0])
            return Location(self.path, line, column + offset - start)
        before = text[:offset]
        line_start = before.rfind("\n") + 1
        column = self.column + (self.shift if line_start == 0 else 0) + offset - line_start
        return Location(self.path, self.line + before.count("\n"), column)


def _code(code: str, catches: str, hint: str, warning: bool = False) -> tuple[str, str, str, bool]:
    """One diagnostic code, what it catches (the reference page of codes prints it), the hint printed after a
    diagnostic that gives none of its own, and whether it is a warning (told, and no failure) rather than an error."""
    return code, catches, hint, warning


class Code(enum.Enum):
    """Diagnostic codes, one member each: the value is the code; ``catches``, ``default_hint`` and ``warning`` go
    with it."""

    def __new__(cls, code: str, catches: str, hint: str, warning: bool):
        member = object.__new__(cls)
        member._value_ = code
        member.catches = catches
        member.default_hint = hint
        member.warning = warning
        return member

    # -- reading files ---------------------------------------------------------
    ENCODING = _code("encoding", catches="a file that is not valid UTF-8", hint="save the file as UTF-8")
    EMPTY_FILE = _code("empty-file", catches="a rules file with no content", hint="add entries or delete the file")
    TAB = _code(
        "tab",
        catches="a tab character, which YAML forbids for indentation and which hides alignment mistakes",
        hint="indent with spaces",
    )
    YAML_SYNTAX = _code(
        "yaml-syntax",
        catches="text that is not well-formed YAML",
        hint="check indentation, colons and quotes near this position",
    )
    YAML_TAG = _code(
        "yaml-tag",
        catches="an explicit YAML tag such as !!python/object, which could run code or change types",
        hint="remove the tag; write plain values",
    )
    YAML_ALIAS = _code(
        "yaml-alias",
        catches="anchors (&) and aliases (*), which can multiply a small file into a huge one",
        hint="write the value out in full",
    )
    DUPLICATE_KEY = _code(
        "duplicate-key",
        catches="the same key twice in one mapping, where YAML would silently keep the last",
        hint="remove or rename one of the keys",
    )
    SYMLINK_OUTSIDE = _code(
        "symlink-outside",
        catches="a file or folder under `rules_src/` (rules file, source text, `sources/`, ruleset folder, "
        "mechanics, template) that is a link to somewhere outside the project",
        hint="copy the file into the project instead of linking to it",
    )
    TOO_LARGE = _code(
        "too-large",
        catches="a file, nesting, number, die, dice pool, table or lookup span, chart, text or expression beyond the "
        "limit the message names, or a formula or chart whose check takes more work than one check may",
        hint="no rule needs that much: write a smaller value",
    )
    CONTROL_CHARACTER = _code(
        "control-character",
        catches="a control character (NUL, escape...) or a Unicode line separator in a rules file, which a terminal "
        "or YAML reads differently from an editor",
        hint="delete the character; write a plain space or a line break",
    )
    # -- shape of the data -------------------------------------------------------
    UNKNOWN_SECTION = _code(
        "unknown-section",
        catches="a top-level key that is not a known section, or a `page_titles:` entry naming a section that has "
        "no page of its own",
        hint="use one of the sections listed in the format reference",
    )
    UNKNOWN_FIELD = _code(
        "unknown-field",
        catches="a key that the entry's schema does not declare",
        hint="check the spelling against the field reference",
    )
    MISSING_FIELD = _code(
        "missing-field",
        catches="a required field left out",
        hint="add the field; write `not given` if the source text leaves the value out",
    )
    WRONG_TYPE = _code(
        "wrong-type",
        catches="a value of the wrong kind (text where a number belongs, a list where a mapping belongs...)",
        hint="write a value of the expected kind",
    )
    OUT_OF_RANGE = _code(
        "out-of-range",
        catches="a number outside the bounds its column or field declares",
        hint="use a value within the declared bounds",
    )
    BAD_ID = _code(
        "bad-id",
        catches="an entry id that is not lower_snake_case",
        hint="use lower-case letters, digits and underscores",
    )
    PAGE_NAME = _code(
        "page-name",
        catches="a chapter whose id is the name of a page the site makes for every ruleset (`index`, `glossary`, "
        "`examples`, `names`), or a ruleset folder named as a folder the site makes beside them (`sheets`, "
        "`handouts`), so one page would hide the other",
        hint="give the chapter another id, or the folder another name: its pages are named after it",
    )
    REPEATED_TITLE = _code(
        "repeated-title",
        catches="two entries of one section with the same title (or name): the site, its search and the booklet's "
        "contents and index show both alike",
        hint="give each its own title, as players will look for it",
        warning=True,
    )
    EMPTY_CHAPTER = _code(
        "empty-chapter",
        catches="a chapter no entry is placed in, or only the game-master's, and with no `intro:`: its "
        "page and the booklet (the players') print its title alone",
        hint="place entries in it with `chapter:`, give it an `intro:`, or remove it",
        warning=True,
    )
    REPEATED_WORD = _code(
        "repeated-word",
        catches="prose where a role prints a title ending in the word written right after it: a "
        "table titled “X table” named as ``the {table}`x` table`` reads “the X table table”",
        hint="leave out the word after the role, or give the role its own text, as in ``{table}`that one <x>` ``",
        warning=True,
    )
    DUPLICATE_ID = _code(
        "duplicate-id",
        catches="two entries of the same kind with one id, possibly in different files",
        hint="give each entry its own id",
    )
    RESERVED_NAME = _code(
        "reserved-name",
        catches="a value, formula, table or lookup whose id is the name of a formula function (`max`, `floor`...) "
        "or a word of the formula language (`never`): a formula naming it could not tell the entry from it",
        hint="choose another id for the entry",
    )
    DUPLICATE_TERM = _code(
        "duplicate-term",
        catches="two glossary terms (or aliases) that are the same word up to case or Unicode form, so links to it "
        "would silently pick one",
        hint="merge the two entries, or make one term differ",
    )
    # -- dice and tables ---------------------------------------------------------
    DICE_SYNTAX = _code(
        "dice-syntax",
        catches="a dice expression that does not parse (`D6`, `2D6 + 1`, `D6 + S - T - W`)",
        hint="write terms like NDX, whole numbers and stat names joined by + and -",
    )
    ROLL_KEY = _code(
        "roll-key",
        catches="a table row key that is not a result, a range `1-2`, `6+` or `1-`",
        hint="write a single result (5), a range (1-2), or an open end (6+, 1-)",
    )
    TABLE_GAP = _code(
        "table-gap",
        catches="a possible result of the table's dice that no row covers",
        hint="add a row for the missing results, widen a range, or clamp the roll",
    )
    TABLE_OVERLAP = _code(
        "table-overlap", catches="a result covered by more than one row", hint="make the row ranges disjoint"
    )
    TABLE_UNREACHABLE = _code(
        "table-unreachable",
        catches="a row no roll of the table's dice can reach",
        hint="remove the row or correct its range",
    )
    TABLE_UNBOUNDED = _code(
        "table-unbounded",
        catches="a modified roll with no lowest or highest row and no clamp",
        hint="add `clamp:` or open-ended rows such as `6+` and `1-`",
    )
    # -- references and values ------------------------------------------------------
    UNKNOWN_REF = _code(
        "unknown-ref",
        catches="a reference to an entry that does not exist",
        hint="check the id against the entries of that section",
    )
    SPELL_ROLL = _code(
        "spell-roll",
        catches="a spell's `roll:` that is not the whole range of one row of its table, or not that of the row whose "
        "`ref:` names it (its card would print a roll players do not get beside the row's chance)",
        hint="write the row's range as the table does (`1-2`), or leave `roll:` out to take it from the row",
    )
    UNDECLARED_KIND = _code(
        "undeclared-kind",
        catches="a hero level, or a keyword, item or victory-point kind, that the ruleset's `ruleset:` section does "
        "not declare (`hero_levels:`, `keyword_kinds:`, `item_kinds:`, `victory_point_kinds:`, also where "
        "`victory_point_sheet:` heads a kind), or a hero with no `level:` where levels are declared",
        hint="use a declared value, or declare it in `ruleset:`",
    )
    UNKNOWN_KEYWORD = _code(
        "unknown-keyword",
        catches="a special rule or keyword that is not declared in `keywords:`",
        hint="declare the keyword or fix its spelling",
    )
    KEYWORD_PARAMS = _code(
        "keyword-params",
        catches="a keyword used with the wrong number or kind of parameters",
        hint="match the parameters declared for the keyword",
    )
    SOURCE_FILE = _code(
        "source-file",
        catches="a citation of a source text that is not in the ruleset's `sources/`, or a quote in a ruleset that "
        "names no source text (nothing to check it against)",
        hint="copy the source text into the ruleset's sources/ folder or fix the name",
    )
    SOURCE_SECTION = _code(
        "source-section",
        catches="a cited section that stands nowhere as a heading in the cited source text (a truncated heading, a "
        "word of a sentence)",
        hint="copy the heading as the source writes it",
    )
    QUOTE_SECTION = _code(
        "quote-section",
        catches="a quote that is in the cited source text but not in the section its citation names",
        hint="cite the section the quote stands under",
    )
    SOURCE_QUOTE = _code(
        "source-quote",
        catches="a quoted phrase that does not occur in the cited source text",
        hint="quote the source word for word (spacing may differ)",
    )
    BAD_EXPRESSION = _code(
        "bad-expression",
        catches="an army-limit expression that is not arithmetic on known counts",
        hint="use whole numbers, + - * / // and the counts named in the hint",
    )
    # -- points and armies ----------------------------------------------------------
    POINTS_MISMATCH = _code(
        "points-mismatch",
        catches="a stated points cost or total, or a stated number of models, that does not equal what the model "
        "computes",
        hint="correct the stated number or the entries it adds up",
    )
    POINTS_NOT_GIVEN = _code(
        "points-not-given",
        catches="an army list using a troop type whose points the source does not give",
        hint="choose a troop type whose points the text gives; else the list cannot be costed: write `agreed_points: "
        "not given` and leave out the line's `points:` (a matrix cell takes no house value)",
    )
    GAP_TYPO = _code(
        "gap-typo",
        catches="a gap written nearly as `not given` and not quite (`not givne`, `Not Given`, `notgiven`), which "
        "would otherwise be read as text",
        hint="write `not given`, lower case, two words; a note goes after a colon",
    )
    UPGRADE_TROOP = _code(
        "upgrade-troop",
        catches="an army list line buying an upgrade for a troop type the upgrade's `troops:` does not name",
        hint="buy it for a troop type it names, or name this one in the upgrade's `troops:`",
    )
    LIMITS_ALONE = _code(
        "limits-alone",
        catches="army limits in a ruleset with no army matrix (a profile matrix with a points or models column): "
        "no army is chosen there to keep them, and a ruleset that `extends` it does not take its limits",
        hint="write the limits in each army's ruleset, beside its matrix",
        warning=True,
    )
    UPGRADE_PLACE = _code(
        "upgrade-place",
        catches="a cost bought where it is not paid: one paid on top of a unit (`added_to_unit: true`) in an army's "
        "`extras:`, or one bought once for the force in a line's `upgrades:`; the army builder offers each in its "
        "own place alone, so the list would add up to other points there",
        hint="buy a unit's upgrade in its line's `upgrades:` and a cost for the whole force in the army's `extras:`",
    )
    BOUGHT_TWICE = _code(
        "bought-twice",
        catches="an upgrade named twice in one line's `upgrades:`: each unit of the line has it or not, and the "
        "second would be paid again (a cost for the force may be bought again, in `extras:`, where limits count it)",
        hint="name it once",
    )
    ARMY_MATRICES = _code(
        "army-matrices",
        catches="a ruleset with armies or army limits and several profile matrices with a points column (or, with "
        "none, a models column): its army builder works from one, so its site has none, and its army "
        "limits count every army alike",
        hint="give each army its own ruleset that `extends:` a shared one (its values, tables, terms and keywords "
        "stay there), with its matrix and its limits",
        warning=True,
    )
    OVER_POINTS = _code(
        "over-points",
        catches="an army list that spends more than its agreed points",
        hint="remove units or raise the agreed total",
    )
    OVER_MODELS = _code(
        "over-models",
        catches="an army list balanced by head-count that fields more models than its agreed models",
        hint="remove models or raise the agreed head-count",
    )
    LIMIT_BROKEN = _code(
        "limit-broken",
        catches="an army list that breaks one of the ruleset's army limits",
        hint="change the list so that the limit holds",
    )
    GM_REFERENCE = _code(
        "gm-reference",
        catches="player text that names a game-master-only entry, which would reveal it",
        hint="link it only from game-master material, or mark the linking entry `audience: gm`",
    )
    HIDDEN_NOT_GM = _code(
        "hidden-not-gm",
        catches="a hidden task not marked for the game-master, which would leak into player outputs",
        hint="add `audience: gm`",
    )
    # -- values, formulas, charts, mechanics ----------------------------------------
    UNIT_MISMATCH = _code(
        "unit-mismatch",
        catches="a distance in a grid unit (hexes, squares) mixed with a length (inches, feet, cm...), or with the "
        "other grid, in a value, a formula, a chart axis or a comparison; or a profile cell in another unit than its "
        "column's (`8 cm` in a column of inches)",
        hint="measure both in one unit: lengths convert to each other, hexes and squares to nothing",
    )
    BAD_VALUE = _code(
        "bad-value",
        catches="a stated value that is not a number, distance, target, dice or count of its declared type",
        hint='write it as the rules do: 2, 1½, 3/2, 6", 3 hexes, 4+, 2D6',
    )
    BAD_FORMULA = _code(
        "bad-formula",
        catches="a formula that does not parse, names an unknown input, value or table, or fails for some of its "
        "inputs",
        hint="use the inputs, values, `let` names, tables and functions listed in the format reference",
    )
    TARGET_DIE = _code(
        "target-die",
        catches="a `target` formula whose targets run past the die it is rolled on, where no `die:` says which die "
        "that is (a target is rolled on a D6 unless `die:` says otherwise)",
        hint="write `die:` with the die the target is rolled on (`die: D10`), or `die: D6` where the targets past 6 "
        "are meant",
        warning=True,
    )
    UNTRIED_INPUTS = _code(
        "untried-inputs",
        catches="a formula whose bounded inputs take more values together than `check` tries (2,000 combinations, "
        "as many as an odds calculator answers): each input's ends alone are tried then, and a failure between them "
        "would not be found",
        hint="narrow the inputs' `min:` and `max:` to what play can give, or leave `max:` out where any value may "
        "come (an input with no bound is never tried)",
        warning=True,
    )
    BAD_CHART = _code(
        "bad-chart",
        catches="a chart whose formula, inputs or axes do not fit together",
        hint="vary two inputs of the formula and hold the others with `fixed:`",
    )
    BASE_RULESET = _code(
        "base-ruleset",
        catches="an `extends:` naming no ruleset, a ruleset extending itself through others, an entry that "
        "repeats one of its base's ids, or a keyword with the name of one of its base's",
        hint="extend an existing ruleset; change a base's entries through an overlay",
    )
    OVERLAY_CHANGE = _code(
        "overlay-change",
        catches="an overlay that changes an entry its base does not have or one of its army limits, or adds "
        "anything but values and army limits",
        hint="change only values the base ruleset has, with the same id; add army limits with ids of their own",
    )
    SHADOWS_BASE = _code(
        "shadows-base",
        catches="a rule, spell, item, hero, profile matrix, table, lookup, chart or formula of a ruleset that "
        "extends another, with the id or the title (or name) of one of its base's: readers of both books find two "
        "alike, and nothing says which holds",
        hint="give it an id and a title of its own, and say in its text what it changes of the base's",
        warning=True,
    )
    MECHANIC_LITERAL = _code(
        "mechanic-literal",
        catches="a number other than 0 and 1 written in a ruleset's own mechanics, where it cannot follow the data",
        hint="name the number in `values:` and read it with `values.id`",
        warning=True,
    )
    MECHANIC_PRIVATE = _code(
        "mechanic-private",
        catches="a ruleset's own mechanics importing a module of Rulepress other than `generator.mechanics`, its API "
        "for mechanics: the rest may change without notice and break the ruleset",
        hint="import what `generator.mechanics` offers (`from generator.mechanics import army_points`); worked "
        "examples see its names without importing them",
        warning=True,
    )
    MECHANIC_ERROR = _code(
        "mechanic-error",
        catches="a ruleset's own mechanics module that does not load",
        hint="fix the Python error the message names",
    )
    QUICKREF_TOO_LONG = _code(
        "quickref-too-long",
        catches="an entry marked for the quick reference whose text (a rule's body, or the summary written for the "
        "sheet) is too long for one page of them",
        hint="write `quick_reference: {summary: ...}`: the procedure in a sentence or two, as the source says it",
    )
    SHEET_OVERFLOW = _code(
        "sheet-overflow",
        catches="a one-page sheet (a quick reference, a `sheets:` entry, a victory-point checklist) whose content "
        "takes more than its page, even in the smaller type tried after the first layout",
        hint="mark fewer entries for it (`quick_reference: false`), or give them shorter summaries "
        "(`quick_reference: {summary: ...}`)",
    )
    QUICKREF_GM = _code(
        "quickref-gm",
        catches="a game-master-only entry marked for the quick reference, which players get",
        hint="remove the mark, or make the entry `audience: player`",
    )
    # -- examples and build -------------------------------------------------------
    EXAMPLE_FAILED = _code(
        "example-failed",
        catches="a worked example whose stated result differs from the model",
        hint="fix the model if the rules give what the example expects; else fix the example's expected result (and "
        "the sentence before it, where that states the result)",
    )
    EXAMPLE_UNSTATED = _code(
        "example-unstated",
        catches="a worked example that follows no sentence (it opens the text, or comes right after a heading, a "
        "table or another example): players never see its code, so they would read nothing of it",
        hint="write the sentence before the example that states its checked result in words",
    )
    EXAMPLE_SENTENCE = _code(
        "example-sentence",
        catches="a number in the paragraph a worked example follows (digits, a fraction, a percentage, a die, a "
        "number word such as `two` or `half`, in the ruleset's `language:`) that the example does not state: "
        "players read that paragraph marked checked, so each number in it must be a number of the example's "
        "code, of its stated results or of a value it reads; a chance (`19 times in 27`) must be one it states, "
        "a percentage must round from one, a sum (`3 + 5 = 8`) must be true",
        hint="make the sentence say what the example computes, or make the example state the number; a number the "
        "text means as plain prose goes in a paragraph of its own, before the sentence that states the result",
    )
    EXAMPLE_LANGUAGE = _code(
        "example-language",
        catches="a ruleset's `language:` that is no language tag (an error), or one whose number words `check` does "
        "not know (a warning): the sentences before its worked examples are read for the numbers written in digits "
        "alone, so a number written in words there is not checked",
        hint="write a tag such as `en`, `fr` or `de-CH`; in a language `check` does not read (it reads English, "
        "French and German), write the numbers players read in digits (2/3, 27.8%)",
    )
    EXAMPLE_UNCHECKED = _code(
        "example-unchecked",
        catches="a worked-example statement whose result nothing checks: a call with no stated result, or a setup "
        "line (an assignment or import) with no statement after it in its block that states a result (whether that "
        "statement reads what the line set is not checked)",
        hint="state the result on the line after the `>>>`, or end the block with a statement whose result is stated",
    )
    RESOURCE_OUTSIDE = _code(
        "resource-outside",
        catches="a template, image or stylesheet that points outside the project or to the network",
        hint="use a file inside the project",
    )
    TEMPLATE_ERROR = _code(
        "template-error",
        catches="a template in the project's `templates/` that is not UTF-8, does not parse, names a template "
        "outside the templates folders or none at all, or fails while rendering (an undefined value, "
        "something the template sandbox refuses, work or output beyond its limits)",
        hint="fix the template at the place named, or start again from the default of the same path that ships "
        "with Rulepress",
    )
    PROSE_DIRECTIVE = _code(
        "prose-directive",
        catches="a MyST directive in prose that is not on the allow-list (`{include}`, `{eval-rst}`, `{raw}`, "
        "`{image}`, `{toctree}`, `{math}`...), which could read files, run reStructuredText or load scripts",
        hint="write prose; use a fenced python block for a worked example, or an admonition such as note or warning",
    )
    PROSE_ROLE = _code(
        "prose-role",
        catches="a MyST role in prose that is not one of Rulepress's (term, rule, table, spell, profile, entry, gap, "
        "source, pdf, value, formula, chart, lookup)",
        hint="use one of Rulepress's roles, or plain text",
    )
    PROSE_LINK = _code(
        "prose-link",
        catches="a link in prose to anything but an http(s) or mailto address or a #anchor: `javascript:`, `data:`, "
        "`file:`, or a path the site would read from the disk; and a `{pdf}` role naming a PDF the build does not "
        "make, or the game-master's in text the players read",
        hint="link to an http(s) address, or to an entry with one of Rulepress's roles (rule, term, table...)",
    )
    PROSE_IMAGE = _code(
        "prose-image",
        catches="an image in prose: outputs show no image named in rules prose, so none is read from a path or "
        "fetched from the network",
        hint="describe it in words",
    )
    SITE_WARNING = _code(
        "site-warning",
        catches="a problem the site build (Sphinx) found in an entry's text, which `check` let through",
        hint="fix the text of the entry named; `rulepress build --only site` checks it again",
    )

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
    severity: Severity | None = None  # the code's own (a warning code's is WARNING) unless said

    def __post_init__(self):
        if self.severity is None:
            object.__setattr__(self, "severity", Severity.WARNING if self.code.warning else Severity.ERROR)

    def format(self) -> str:
        hint = self.hint or self.code.default_hint
        where = printable(str(self.location), keep="")  # a file's name holds no line of its own (no forged line)
        text = f"{where}: {self.severity.value}[{self.code.code}]: {printable(self.message)}"
        return f"{text}\n  hint: {printable(hint)}" if hint else text

    def __str__(self) -> str:
        return self.format()


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def plural(count: int, word: str) -> str:
    """`1 value`, `2 values` (here, not in ``render.present``, so a check its cache answers loads no renderer)."""
    return f"{count} {word}{'' if count == 1 else 's'}"


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
    close = closest(word, choices)
    return f"did you mean `{close}`?" if close else None


def closest(word: str, choices, cutoff: float = 0.6) -> str | None:
    """The one of ``choices`` fewest edits away from ``word`` (letters added, dropped or changed), among those
    alike enough to be meant (difflib's ratio at least ``cutoff``), or None: `Term05` suggests `Term06`, one
    letter away, before `Term59`, two away, which difflib's ratio ranks the same. Ties go to the more alike, then
    the first in alphabetical order, so every kind of name gets the same suggestion for the same slip."""
    import difflib  # only a mistake needs it, and a check without one should not load it

    word = str(word)
    matcher = difflib.SequenceMatcher(b=word)
    alike = []
    for choice in dict.fromkeys(str(c) for c in choices):
        matcher.set_seq1(choice)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            ratio = matcher.ratio()
            if ratio >= cutoff:
                alike.append((_edits(word, choice), -ratio, choice))
    return min(alike)[2] if alike else None


def _edits(a: str, b: str) -> int:
    """Levenshtein's distance: the fewest letters added, dropped or changed that make ``a`` into ``b``."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


class Diagnostics(list):
    """A list of diagnostics with a helper to add one."""

    def add(
        self, code: Code, message: str, location: Location, hint: str | None = None, severity: Severity | None = None
    ) -> None:
        self.append(Diagnostic(code, message, location, hint, severity))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self if d.severity is Severity.ERROR]

    def sorted(self) -> list[Diagnostic]:
        return sorted(self, key=lambda d: (d.location.path, d.location.line, d.location.column, d.code.code, d.message))
