"""Presentation helpers shared by every renderer: model values to display text.

The model knows nothing of HTML or Markdown; these functions turn its values
(exact Fractions, `not given`, roll ranges) into what people read.
"""

from __future__ import annotations

import ast
import re
from fractions import Fraction

from markupsafe import Markup

from ..diagnostics import plural  # noqa: F401 (kept light for `check`; printed through here)
from ..mechanics import armies
from ..model.base import NotGiven
from ..model.dice import percent
from ..model.entries import (  # noqa: F401 (the model's audience rule)
    AUTHORS,
    SEES_EVERYTHING,
    RollTable,
    for_audience,
    gm_only,
    visible_to,
)
from ..model.numbers import number_text
from ..model.points import points_text  # noqa: F401  (the renderers' one way to print points)
from ..model.ruleset import SHARED_SECTIONS
from ..model.units import unit_text

NOT_GIVEN_TEXT = "not given in the source"
HIDDEN_REFERENCE = "[game-master material]"  # what players see where gm-only material is named


def hidden_tasks_hint(ruleset) -> str:
    """Where victory points the game-master keeps are left out of a player's page or booklet."""
    return f"Some tasks are hidden: the {ruleset.game_master()} tells you when you complete one."


def gm_words(ruleset) -> dict[str, str]:
    """What the templates call the game-master, as the ruleset declares (`declares: game_master:`): mid-sentence
    (`word`), at a sentence's start (`start`), possessive (`own`, `own_start`), and its copy as a CSS string
    (``css_copy``, `"Game-master's copy"` quoted and escaped, for a page's running head)."""
    own_start = ruleset.game_master(start=True, possessive=True)
    css = "".join(f"\\{ord(c):x} " if c in '\\"<>' or not c.isprintable() else c for c in f"{own_start} copy")
    return {
        "word": ruleset.game_master(),
        "start": ruleset.game_master(start=True),
        "own": ruleset.game_master(possessive=True),
        "own_start": own_start,
        "css_copy": Markup(f'"{css}"'),
    }


# -- the one gap mark ---------------------------------------------------------------------------------
# Every output marks a value the source leaves out the same quiet way: on screen an em dash with a small
# note mark whose tooltip is GAP_NOTE; in print an empty write-in box (no text inside). A column the
# source gives nowhere says so once, in its header (column_head), and its cells are plain marks.
GAP_DASH = "—"
GAP_NOTE = NOT_GIVEN_TEXT  # the mark's tooltip, and what each output's key says it means
GAP_NOTE_MARK = "*"  # the small note mark beside the dash on screen
GAP_KEY_SCREEN = f"{GAP_DASH}{GAP_NOTE_MARK} {NOT_GIVEN_TEXT}: left blank rather than guessed."
GAP_KEY_PRINT = f"{NOT_GIVEN_TEXT}: left blank rather than guessed; write it in if your group agrees on one."


def given_nowhere(values) -> bool:
    """True when there are values and every one of them is `not given` (a column the source gives nowhere)."""
    values = list(values)
    return bool(values) and all(isinstance(v, NotGiven) for v in values)


def column_head(label: str, values) -> str:
    """A column's header: its label, plus "(not given in the source)" when the source gives none of its values."""
    return f"{label} ({NOT_GIVEN_TEXT})" if given_nowhere(values) else label


def shown(value, none: str = "—") -> str:
    """A value for display; `not given` becomes a visible mark, never a guess."""
    if isinstance(value, NotGiven):
        return NOT_GIVEN_TEXT
    if value is None or value == "" or value == ():
        return none
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):  # the model's only Fractions outside chances are points
        return points_text(value)
    return str(value)


def bounds_text(at_least="", at_most="", show=str) -> str:
    """An army limit's bounds in words: ``at least 2``, ``at most 3``, ``at least 2 and at most 3``;
    ``show`` prints each bound (an expression, or a value with :func:`points_text`)."""
    parts = [
        f"{words} {show(bound)}"
        for words, bound in (("at least", at_least), ("at most", at_most))
        if bound is not None and str(bound).strip()
    ]
    return " and ".join(parts)


def chance_text(probability: Fraction) -> str:
    """A chance for people: rounded to 0.1%, but never 100% or 0% unless it is certain."""
    text = percent(probability)
    if text == "100%" and probability != 1:
        return ">99.9%"
    if text == "0%" and probability != 0:
        return "<0.1%"
    return text


def exact_chance_text(chance: Fraction) -> str:
    """An exact chance and its percentage: ``1/3 (33.3%)``."""
    exact = str(chance.numerator) if chance.denominator == 1 else f"{chance.numerator}/{chance.denominator}"
    return f"{exact} ({chance_text(chance)})"


def table_odds(table: RollTable) -> dict[int, str]:
    """Row index to its chance as text, when the table's dice need no stats and its ranges are given."""
    if table.dice.stats or not table.ranges_given:
        return {}
    return {index: chance_text(chance) for index, (_row, chance) in enumerate(table.odds())}


def profile_text(column, written, none: str = "—") -> str:
    """A profile cell as written, printed by its column's type: a target roll `4+`, a distance in inches `6"`;
    any other cell as `shown` prints it. The model keeps the number alone, which formulas compute with."""
    if isinstance(written, int) and not isinstance(written, bool):
        if column.type == "target":
            return f"{number_text(written)}+"
        if column.type == "inches":
            return unit_text(written, "inches")
    return shown(written, none)


def paid_text(cost, ruleset, audience: str) -> str:
    """How a cost is paid: once for the force, or on top of a unit's, of the troop types it names alone (a
    game-master's troop type unnamed for players)."""
    if not cost.added_to_unit:
        return "once for the force"
    rows = {row.id: row for matrix in ruleset.profiles for row in matrix.rows}
    names = [
        (rows[id].name if visible_to(rows[id], audience) else HIDDEN_REFERENCE) if id in rows else id
        for id in cost.troops
    ]
    return "on top of the unit" + (f": {alternatives(names)} alone" if names else "")


def range_text(roll) -> str:
    """A roll range as printed: `1–2` (en dash), `6+`, `1 or less`, `−2` (a minus sign).

    An open top keeps the tables' `6+`; an open bottom is spelt out, since `1−` reads as a minus sign."""

    def number(n: int) -> str:
        return str(n).replace("-", "−")

    if roll.low is not None and roll.low == roll.high:
        return number(roll.low)
    if roll.high is None:
        return f"{number(roll.low)}+"
    if roll.low is None:
        return f"{number(roll.high)} or less"
    return f"{number(roll.low)}–{number(roll.high)}"


def named_roll_text(ruleset, target: str) -> str:
    """What a `{roll}`table:Result`` role prints: the range of that row (`51–56`), as the table prints it. KeyError
    for a table or row there is not."""
    return roll_text(ruleset.table_row(target)[1])


def key_text(row) -> str:
    """A lookup row's key as printed: its word, or its range with an en dash (`1–2`)."""
    return row.match or (range_text(row.when) if row.when is not None else "")


def roll_text(row) -> str:
    return NOT_GIVEN_TEXT if isinstance(row.roll, NotGiven) else range_text(row.roll)


def keywords_label(ruleset) -> str:
    """What a ruleset heads a troop's keywords with on a profile, a roster and a card (`declares: keywords_label:`)."""
    return ruleset.meta.keywords_label


def source_title(ruleset, file: str = "") -> str:
    """The title a citation names a source text by: never its file name.

    The ruleset's `source_title` for its own source (an overlay's is its base's), else the ruleset's title."""
    meta = ruleset.meta
    if meta.overlay and not meta.source and getattr(ruleset, "original", None) is not None:
        return source_title(ruleset.original, file)
    if file and meta.source and file != meta.source:
        return "the source text"  # a second text with no title in the data; its file name is not for readers
    return meta.source_title or meta.title


def cites_a_source(ruleset) -> bool:
    """Whether the ruleset encodes a source text: one its `ruleset:` names (an overlay's base's too) or an entry
    cites. A game written as data from the start has none, and no output prints a citation of it."""
    meta = ruleset.meta
    original = getattr(ruleset, "original", None)
    if meta.source or meta.source_title or (meta.overlay and original is not None and cites_a_source(original)):
        return True
    return any(getattr(entry, "source", None) is not None for _section, entry in ruleset.all_entries())


def source_text(source, ruleset) -> str:
    """A citation for readers: the source's title and section (``Siege of the Old Mill, FIGHTING``)."""
    if source is None:
        return ""
    name = source_title(ruleset, source.file)
    return f"{name}, {source.section}" if source.section else name


def defined_in(ruleset, entry):
    """The ruleset that writes an entry ``ruleset`` prints: the base it extends, for an entry it reaches there (a
    base game's keyword on a supplement's roster), else itself. An entry's source is that ruleset's text, and it is
    cited by that ruleset's title, never by the title of the ruleset printing it."""
    base = ruleset.base
    while base is not None:
        if any(own is entry for section in SHARED_SECTIONS for own in base.section(section)):
            return base
        base = base.base
    return ruleset


def entry_source_text(entry, ruleset) -> str:
    """Where an entry comes from, for readers (`source_text`), named by the ruleset that writes it (`defined_in`)."""
    return source_text(getattr(entry, "source", None), defined_in(ruleset, entry))


def inherited_from(ruleset, entry) -> str:
    """The title of the base an entry ``ruleset`` prints comes from (`defined_in`), or '' for its own: every output
    of a ruleset that extends another says so beside what it prints of the base's."""
    owner = defined_in(ruleset, entry)
    return owner.title if owner is not ruleset else ""


def hero_kind(hero) -> str:
    """What a hero is, with its level: `low level hero`, or `hero` where the ruleset has no levels."""
    return f"{hero.level} level hero" if hero.level else "hero"


def rule_charts(ruleset, rule, audience: str) -> tuple[str, ...]:
    """The charts a rule prints within it: those it names, but for one printed as an entry of its own in the rule's
    chapter (once on the page, with its notes and its anchor)."""
    charts = (ruleset.get("charts", id) for id in rule.charts)
    return tuple(c.id for c in charts if not (c.chapter and c.chapter == rule.chapter and visible_to(c, audience)))


def chapter_phases(ruleset, chapter: str, audience: str) -> list[tuple[int, object]]:
    """The phases whose rules a chapter gives (`chapter:` on a phase), each with its step number in its sequence as
    this audience reads it: the chapter's page and the booklet's chapter open with them."""
    steps: dict[str, int] = {}
    found = []
    for phase in ruleset.phases:
        if visible_to(phase, audience):
            steps[phase.sequence] = steps.get(phase.sequence, 0) + 1
            if phase.chapter == chapter:
                found.append((steps[phase.sequence], phase))
    return found


def step_text(number: int, phase) -> str:
    """Where a phase comes in its sequence, in words: ``step 2 of the turn``."""
    return f"step {number} of the {phase.sequence}"


def alternatives(words) -> str:
    """Words as a choice: `leader, relic or deed`."""
    words = list(words)
    return " or ".join(filter(None, (", ".join(words[:-1]), *words[-1:])))


def count_label(name: str) -> str:
    """A count of the ruleset's own as a roster heads it: ``war_machines`` → ``War machines``."""
    return name.replace("_", " ").capitalize()


def capitalized(text: str) -> str:
    """``text`` with its first letter upper-case and the rest as written (`charms` -> `Charms`)."""
    return text[:1].upper() + text[1:]


# -- references: the one place a reference's display text comes from ------------------------------
def entry_title(entry) -> str:
    """What an entry is called where it is shown or named: its title, name or term; its id only if it has none."""
    for name in ("title", "name", "term", "label"):
        if getattr(entry, name, ""):
            return getattr(entry, name)
    return entry.id


def reference_title(entry, written: str = "") -> str:
    """The text of a reference to ``entry`` written as ``written`` (a role's target, a see-also id).

    A glossary term named by one of its spellings keeps that spelling (the sentence's grammar needs it);
    any reference by id shows the entry's title, never the id."""
    term = getattr(entry, "term", "")
    if (
        term
        and written
        and written != entry.id
        and written.casefold() in {term.casefold(), *(a.casefold() for a in getattr(entry, "aliases", ()))}
    ):
        return written
    return entry_title(entry)


# -- audiences --------------------------------------------------------------------------------------
def _in_gm_note(ruleset, example) -> bool:
    """An example written in a rule's `gm_note` (the game-master's), not in its body."""
    section, _, id = example.entry.partition(".")
    rule = next((r for r in ruleset.rules if r.id == id), None) if section == "rules" else None
    if rule is None or not rule.gm_note:
        return False
    note = rule.locs.get("gm_note")
    start = getattr(note, "line", None)
    return (
        start is not None
        and getattr(note, "path", "") == example.path
        and start <= example.line <= start + rule.gm_note.count("\n") + 1
    )


def printed_edition(audience: str) -> str:
    """The printed edition a site's audience links and describes: the authors' site, the game-master's."""
    return "gm" if audience in SEES_EVERYTHING else "player"


def shown_examples(ruleset, audience: str) -> list:
    """The ruleset's worked examples the audience may see: none of a gm-only entry's, none in a `gm_note`."""
    if audience in SEES_EVERYTHING:
        return list(ruleset.examples)
    visible = {f"{section}.{entry.id}" for section, entry in ruleset.all_entries() if visible_to(entry, audience)}
    return [e for e in ruleset.examples if e.entry in visible and not _in_gm_note(ruleset, e)]


def shown_count(ruleset, section: str, audience: str) -> int:
    """How many entries of a section the audience sees."""
    return len(for_audience(ruleset.section(section), audience))


def one_of(unit: str) -> str:
    """The singular of a unit a formula counts in: `hits` → `hit`, `inches` → `inch`, `feet` → `foot`."""
    if unit == "feet":
        return "foot"
    if unit.endswith(("ches", "shes", "sses", "xes", "zes")):
        return unit[:-2]
    return unit[:-1] if unit.endswith("s") and not unit.endswith("ss") else unit


# -- cross-references ---------------------------------------------------------------------------------
KIND_WORDS = {"rules": "rule", "glossary": "term", "tables": "table", "spells": "spell", "profiles": "profile"}


def list_separator(texts) -> str:
    """What parts the items of a list in a sentence: semicolons when one holds a comma ("Lost, out of combat")."""
    return "; " if any("," in text for text in texts) else ", "


def see_also(ruleset, entry, audience: str) -> list[tuple[str, str, str]]:
    """``(section, id, text)`` of each entry ``entry``'s `see_also` names that ``audience`` sees, in the order written:
    each once, never ``entry`` itself. Where two share a title, or one shares ``entry``'s own title (a term and the
    rule of the same name), each such text says what kind of entry it is: "Rout (rule), Rout (term)"."""
    sections = ruleset.ids()
    found = []
    for id in dict.fromkeys(getattr(entry, "see_also", ())):
        section = sections.get(id)
        if section is None or id == entry.id:
            continue
        if audience not in SEES_EVERYTHING and any(gm_only(e) for e in _entries_named(ruleset, id)):
            continue  # game-master material, whichever entry of that id it is
        found.append((section, id, entry_title(ruleset.get(section, id))))
    titles = [title.casefold() for _s, _i, title in found] + [entry_title(entry).casefold()]
    return [
        (section, id, f"{title} ({_kind_word(ruleset, section, id)})" if titles.count(title.casefold()) > 1 else title)
        for section, id, title in found
    ]


def _kind_word(ruleset, section: str, id: str) -> str:
    """What kind of entry it is, in words: a keyword by the kind the ruleset gives it ("drill")."""
    return getattr(ruleset.get(section, id), "kind", "") if section == "keywords" else KIND_WORDS.get(section, "entry")


def _entries_named(ruleset, id: str):
    return (e for _section, e in ruleset.all_entries() if e.id == id)


# -- army limits in words ----------------------------------------------------------------------------
_OPERATORS = {ast.Add: "+", ast.Sub: "−", ast.Mult: "×", ast.FloorDiv: "÷", ast.Div: "÷"}


def limit_words(text: str, ruleset) -> str:
    """An army limit expression in words: ``units // 2`` is "units in the force ÷ 2, rounded down"; a part in
    brackets is read as one (``(units + 9) // 10 * 2``: "((units in the force + 9) ÷ 10, rounded down) × 2")."""
    try:
        tree = armies.parse_limit(text, armies.count_names(ruleset))
    except armies.LimitExpressionError:
        return str(text)
    return _words(tree, ruleset, alone=True)


_BINDS = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.FloorDiv: 2}  # how tightly each operator holds


def _words(node: ast.expr, ruleset, alone: bool = False) -> str:
    """``node`` in words; a division rounded down says so right after it, in brackets unless it is ``alone``."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.Name):
        return _count_name(node.id, ruleset)
    binds = _BINDS[type(node.op)]
    left, right = _operand(node.left, binds, ruleset), _operand(node.right, binds, ruleset, on_the_right=node.op)
    text = f"{left} {_OPERATORS[type(node.op)]} {right}"
    if isinstance(node.op, ast.FloorDiv):
        return f"{text}, rounded down" if alone else f"({text}, rounded down)"
    return text


def _operand(node: ast.expr, binds: int, ruleset, on_the_right=None) -> str:
    """An operand in words, in brackets where it holds less tightly than its operator (or as tightly, on the right
    of a − or a ÷: 8 − (2 − 1))."""
    text = _words(node, ruleset)
    if not isinstance(node, ast.BinOp) or isinstance(node.op, ast.FloorDiv):  # a rounded division has its own
        return text
    looser = _BINDS[type(node.op)] < binds
    if looser or (
        on_the_right is not None
        and isinstance(on_the_right, (ast.Sub, ast.Div, ast.FloorDiv))
        and _BINDS[type(node.op)] == binds
    ):
        return f"({text})"
    return text


def limit_bounds_words(limit, ruleset) -> str:
    """``at most units in the force ÷ 2, rounded down``; both bounds when the limit has both."""
    return bounds_text(limit.at_least, limit.at_most, show=lambda text: limit_words(text, ruleset))


def _count_name(name: str, ruleset) -> str:
    described = armies.count_descriptions(ruleset)
    if name in described:
        return described[name]
    for section in ("costs", "heroes"):
        try:
            return f"“{entry_title(ruleset.get(section, name))}” bought"
        except KeyError:
            pass
    for matrix in ruleset.profiles:
        for row in matrix.rows:
            if row.id == name:  # a row counted apart (`counts_as: guns`) is no unit
                return (
                    f"units of {row.name}"
                    if row.counts_as == armies.UNITS
                    else f"{row.name} ({row.counts_as.replace('_', ' ')})"
                )
    return name


_TAGS = re.compile(r"(<[^>]+>)")
_NEGATIVE = re.compile(r"(?<![\w.\-\u2212])-(?=\d)")  # "-1" as a word of its own, not "2-6" nor "D6-1"
_VERBATIM = ("code", "pre", "style", "script")  # text printed as written, or no text at all


def minus_text(text: str) -> str:
    """Plain text with each negative number's hyphen made the minus sign (`minus_signs` for text, not HTML)."""
    return _NEGATIVE.sub("\u2212", text)


def minus_signs(html: str) -> str:
    """A printout's HTML with each negative number's hyphen made the minus sign the engine prints numbers with
    (`roll_text`, formulas), so the rules' "-1" and a chart's "\u22121" beside it read alike; code and styles keep
    what was written."""
    parts, verbatim = _TAGS.split(html), 0
    for index, part in enumerate(parts):
        if index % 2:
            name = part.strip("</ >").split(None, 1)[0].lower() if part.strip("</ >") else ""
            if name in _VERBATIM and not part.endswith("/>"):
                verbatim += -1 if part.startswith("</") else 1
        elif not verbatim:
            parts[index] = _NEGATIVE.sub("\u2212", part)
    return "".join(parts)


_BLOCK_END = re.compile(r"</(?:p|li|dd|figcaption|td)>", flags=re.I)
SHORT_WORD = 16  # letters: longer last words are not held to the one before (the gap they would leave is worse)
LONG_BLOCK = 6  # words: a shorter block is a line or two of its own (a card's title, a cell, a kicker), left as written


def last_words_together(html: str) -> str:
    """A printout's HTML with the last two words of each paragraph, list item, definition, caption and table cell of
    six words or more joined by a no-break space when both are short, and a hyphenated last word kept whole (a
    non-breaking hyphen, U+2011), so none ends on a line of one short word (a runt); tags between them stay."""
    out, start = [], 0
    for end in _BLOCK_END.finditer(html):
        block = html[start : end.start()]
        opening = block.lower().rfind("<" + end.group()[2:-1].lower())
        if len(_TAGS.sub(" ", block[max(opening, 0) :]).split()) >= LONG_BLOCK:
            block = _join_last_two(block)
        out.append(block)
        out.append(end.group())
        start = end.end()
    out.append(html[start:])
    return "".join(out)


def _join_last_two(block: str) -> str:
    """``block`` (the HTML up to a closing tag) with the space before its last word made a no-break space."""
    parts = _TAGS.split(block)
    letters, word_seen = 0, False
    for index in range(len(parts) - 1, -1, -1):
        if index % 2:  # a tag: words run on across inline tags, a block or a line break ends the search
            if re.match(r"</?(?:p|li|dd|div|br|td|th|pre|code|table|ul|ol|dl)\b", parts[index], flags=re.I):
                return block
            continue
        text = parts[index]
        for position in range(len(text) - 1, -1, -1):
            char = text[position]
            if char.isspace():
                if not word_seen:
                    continue  # spaces after the last word
                if letters > SHORT_WORD or not _short_word_before(parts, index, position):
                    return block
                # re-rolled: its hyphen made the non-breaking one, so the line does not break inside the word either
                last = text[position + 1 :].lstrip().replace("-", "\u2011")
                parts[index] = text[:position] + "\u00a0" + last
                return "".join(parts)
            word_seen = True
            letters += 1
    return block


def _short_word_before(parts: list[str], index: int, position: int) -> bool:
    """Whether the word before the space at ``position`` of text part ``index`` is short."""
    before = "".join(parts[i] for i in range(0, index, 2)) + parts[index][:position]
    return not before[-1:].isspace() and 0 < len(before.split()[-1] if before.split() else "") <= SHORT_WORD


# -- a formula's inputs as a player picks them ----------------------------------------------------------------
def choice_text(spec, value, ruleset=None, unit: str = "") -> str:
    """An input's value as a player picks it: yes / no, a number (signed where the input goes below 0), a distance
    in its ``unit`` (18"), a word: the title of the entry a choice names (a hero's name), else the choice in words."""
    if unit and isinstance(value, int | Fraction) and not isinstance(value, bool):
        return minus_text(unit_text(value, unit))
    if isinstance(value, str):
        return _choice_words(ruleset, value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and spec.min is not None and spec.min < 0:
        return minus_text(f"{value:+d}") if value else "±0"
    return minus_text(number_text(value)) if isinstance(value, int | Fraction) else str(value)


CHOICE_SECTIONS = ("heroes", "spells", "keywords", "items", "rules", "tables", "glossary", "chapters", "phases")


def _choice_words(ruleset, choice: str) -> str:
    for section in CHOICE_SECTIONS if ruleset is not None else ():
        try:
            return entry_title(ruleset.get(section, choice))
        except KeyError:
            continue
    return choice.replace("_", " ")
