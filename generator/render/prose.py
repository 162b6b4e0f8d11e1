"""Author prose for print (handouts and cheat sheets): MyST Markdown to escaped HTML.

Raw HTML in prose is escaped, worked examples are marked verified, and what a
printed page needs is there too: definition lists (MyST's
``Term`` / ``: definition``), roles printed as the title of the entry they name
and linked inside the PDF when that entry is printed, and a role naming a
game-master-only entry printed as a neutral mark in player handouts, so not even
its name reaches the players.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markupsafe import Markup, escape
from mdit_py_plugins.deflist import deflist_plugin

from ..model.base import NotGiven
from ..model.ruleset import ROLE_SECTIONS, Ruleset, term_names
from .present import HIDDEN_REFERENCE, NOT_GIVEN_TEXT, named_roll_text, reference_title, visible_to
from .worked import HOUSE_RULE, for_readers, house_hidden

_ROLE = re.compile(r"\{(?P<role>[a-z-]+)\}`(?P<text>[^`]*)`")
_EXPLICIT = re.compile(r"(?s)^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~])")
_TOKEN = re.compile("\ue000(\\d+)\ue001")  # a placeholder for HTML made after Markdown (which escapes HTML)
_md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table").use(deflist_plugin)

GAP_TEXT = "not given"  # a value the text does not give, boxed like every other gap in print


def _untokened(text) -> str:
    return str(text or "").replace("\ue000", "").replace("\ue001", "")


def _printed(quantity) -> str:
    return GAP_TEXT if isinstance(quantity, NotGiven) else str(quantity)


def house_history(value) -> str:
    """What a house rule's value was, after `house rule; `: `the text: 1½`; on an overlay of an overlay
    `house rule of <that overlay>: 2; the text: 1½` (each earlier value labelled as what it is)."""
    earlier = [f"{HOUSE_RULE} of {step.ruleset}: {_printed(step.value)}" for step in reversed(value.earlier)]
    return "; ".join([*earlier, f"the text: {_printed(value.original)}"])


def value_parts(ruleset: Ruleset, id: str) -> tuple[str | None, str | None, str]:
    """A value's printed text (None: not given), what a house rule's value was (or None: see `house_history`)
    and its house note."""
    value = ruleset.value(id)
    text = None if isinstance(value.value, NotGiven) else str(value.value)
    if not value.is_house_rule:
        return text, None, ""
    return text, house_history(value), " ".join(str(value.house_note).split())


def value_text(ruleset: Ruleset, id: str) -> str:
    """A value as plain text: `6"`, `not given`, `2 (house rule; the text: 1½)`."""
    text, history, _note = value_parts(ruleset, id)
    shown = GAP_TEXT if text is None else text
    return shown if history is None else f"{shown} ({HOUSE_RULE}; {history})"


def gap_box() -> Markup:
    """The one gap mark in print: an empty write-in box (thin outline, no text inside; the output's key says
    what it means). The title is what a screen reader says for it, of the HTML and of the tagged PDF, where it is
    the box's alternate description (pdf.py); WeasyPrint prints no text for it."""
    return Markup('<span class="gap" title="{}"></span>').format(NOT_GIVEN_TEXT)


def value_html(ruleset: Ruleset, id: str) -> Markup:
    """A value for print: a gap box when not given; a house rule marked, with the original and a footnote."""
    text, history, note = value_parts(ruleset, id)
    shown = gap_box() if text is None else escape(text)
    if history is None:
        return Markup('<span class="value">{}</span>').format(shown)
    footnote = Markup('<span class="house-note">{}</span>').format(note) if note else ""
    return Markup(
        '<span class="house-rule" title="{note}"><span class="value">{shown}</span> '
        '<span class="house-original">({house}; {history})</span></span>{footnote}'
    ).format(note=note, shown=shown, house=HOUSE_RULE, history=history, footnote=footnote)


def bracketed_house_value_html(ruleset: Ruleset, id: str) -> tuple[Markup, Markup] | None:
    """A house rule's value the author wrote inside brackets, in two parts: the value, marked, where the role stands;
    and what the text gave, with the reason's footnote, for the brackets' own end (it ends them: `)`), so the marks
    print once, unnested: "(4 hexes for riders; house rule; the text: 3 hexes)". None for a value no house rule
    changed, or one not given."""
    text, history, note = value_parts(ruleset, id)
    if history is None or text is None:
        return None
    footnote = Markup('<span class="house-note">{}</span>').format(note) if note else ""
    value = Markup('<span class="house-rule" title="{}"><span class="value">{}</span></span>').format(note, text)
    end = Markup(
        '<span class="house-rule" title="{note}"><span class="house-original">; {house}; {history})</span></span>'
        "{footnote}"
    ).format(note=note, house=HOUSE_RULE, history=history, footnote=footnote)
    return value, end


_HOUSE_NOTE = re.compile(r'\)</span></span><span class="house-note">(.*?)</span>', re.S)  # value_html's


def house_notes_once(html: str) -> str:
    """A booklet gives a house rule's reason in full at its first footnote only; each later mark of the same reason
    says on which page it is, "(house rule; the text: 3 hexes; reason on p. 3)", with no footnote (a riders' note
    ran six times, twice on one page). The page number is `a.page-ref`'s, as the booklet's contents and index
    print theirs; in the text, not in a footnote, where WeasyPrint drops a page number's footnote that it
    carries to the next page."""
    first: dict[str, str] = {}

    def once(match: re.Match) -> str:
        reason = match[1]
        if reason not in first:
            first[reason] = f"house-note-{len(first) + 1}"
            return f')</span></span><span class="house-note" id="{first[reason]}">{reason}</span>'
        return f'; reason on p. <a class="page-ref" href="#{first[reason]}"></a>)</span></span>'

    return _HOUSE_NOTE.sub(once, html)


# A checked sentence carries no mark in print (a booklet says once that its examples are checked): this empty
# element only lets the booklet count them.
CHECKED_HTML = Markup('<span class="checked-example"></span>')


def anchor(section: str, id: str) -> str:
    """The HTML id an entry is printed under."""
    return f"{section}-{id}".replace("_", "-")


@dataclass(frozen=True)
class Prose:
    """Renders prose for one ruleset, audience and set of printed anchors."""

    ruleset: Ruleset
    audience: str
    printed: frozenset[str] = field(default_factory=frozenset)

    def html(self, text: str) -> Markup:
        """Prose for print: a worked example is its sentence (marked invisibly, to count); its code never prints."""
        made: list[str] = [str(CHECKED_HTML)]  # no space before it: WeasyPrint broke a line after the first word
        source = for_readers(
            _untokened(text),
            "\ue0000\ue001",
            house=self.ruleset.house_results,
            escape=lambda phrase: _MARKDOWN_PUNCTUATION.sub(r"\\\1", phrase),
            hidden=house_hidden(self.ruleset) and self.audience != "gm",
            language=self.ruleset.language,
            game_master=self.ruleset.game_master(),
        )
        source = _ROLE.sub(lambda m: self._role(m, made), self._unnested(source, made))
        html = _md.render(source)
        return Markup(_TOKEN.sub(lambda m: made[int(m[1])], html))

    def inline(self, text: str) -> Markup:
        made: list[str] = []
        source = self._unnested(" ".join(_untokened(text).split()), made)
        html = _md.renderInline(_ROLE.sub(lambda m: self._role(m, made), source))
        return Markup(_TOKEN.sub(lambda m: made[int(m[1])], html))

    def _unnested(self, source: str, made: list[str]) -> str:
        """``source`` with the one house rule's value inside a pair of the author's brackets marked where it stands
        and its original given at the brackets' end (`bracketed_house_value_html`): its own brackets inside theirs
        printed "(4 hexes (house rule; the text: 3 hexes) for riders)". Brackets holding two such values are left
        as written (which mark went with which value would be lost); so are brackets a paragraph does not close."""
        roles = {m.start(): m for m in _ROLE.finditer(source)}
        edits: list[tuple[int, int, str]] = []
        open_: list[list[re.Match]] = []  # each open bracket's house values
        at = 0
        while at < len(source):
            role = roles.get(at)
            if role is not None:
                if role["role"] == "value" and open_ and self._house_value(role["text"].strip()):
                    open_[-1].append(role)
                at = role.end()
                continue
            if source.startswith("\n\n", at):
                open_.clear()
            elif source[at] == "(":
                open_.append([])
            elif source[at] == ")" and open_:
                inside = open_.pop()
                if len(inside) == 1:
                    value, end = bracketed_house_value_html(self.ruleset, inside[0]["text"].strip())
                    made += [str(value), str(end)]
                    edits += [(inside[0].start(), inside[0].end(), f"\ue000{len(made) - 2}\ue001")]
                    edits += [(at, at + 1, f"\ue000{len(made) - 1}\ue001")]
            at += 1
        for start, end, token in sorted(edits, reverse=True):
            source = source[:start] + token + source[end:]
        return source

    def _house_value(self, id: str) -> bool:
        try:
            return bracketed_house_value_html(self.ruleset, id) is not None
        except KeyError:
            return False

    def _role(self, match: re.Match, made: list[str] | None = None) -> str:
        role, text = match["role"], match["text"]
        if role == "roll":
            try:
                shown = named_roll_text(self.ruleset, text.strip())
                hidden = not visible_to(self.ruleset.table_row(text.strip())[0], self.audience)
            except KeyError:
                shown, hidden = text, False
            return HIDDEN_REFERENCE if hidden else _MARKDOWN_PUNCTUATION.sub(r"\\\1", shown)
        if role == "value":
            try:
                html = value_html(self.ruleset, text.strip())
            except KeyError:
                return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)
            if made is None:
                return value_text(self.ruleset, text.strip())
            made.append(str(html))
            return f"\ue000{len(made) - 1}\ue001"
        explicit = _EXPLICIT.match(text)
        title, target = (explicit["title"], explicit["target"].strip()) if explicit else ("", text.strip())
        entry, section = self._target(role, target)
        if entry is not None and not visible_to(entry, self.audience):
            return HIDDEN_REFERENCE
        shown = title or (target if entry is None else reference_title(entry, target))
        escaped = _MARKDOWN_PUNCTUATION.sub(r"\\\1", shown)
        if entry is not None and anchor(section, entry.id) in self.printed:
            return f"[{escaped}](#{anchor(section, entry.id)})"
        return escaped

    def _target(self, role: str, target: str):
        if role == "entry":
            section, _, id = target.partition(".")
        elif role == "term":
            section, id = "glossary", term_names(self.ruleset).get(target.casefold(), target)
        else:
            section, id = ROLE_SECTIONS.get(role, ""), target
        try:  # a base's rule or spell, which a base's keyword may name, prints its title too
            return self.ruleset.linked(section, id)[1], section
        except (KeyError, AttributeError):
            return None, section


def role_as_text(match: re.Match, ruleset: Ruleset | None = None) -> str:
    """A role printed as its plain text (for Markdown pages that link nothing): its title, or its target.

    With a ruleset, a {value} role prints the value (and a house rule its original), other roles the entry's title.
    """
    if ruleset is not None:
        target = match["text"].strip()
        if match["role"] == "value":
            try:
                return value_text(ruleset, target)
            except KeyError:
                return target
        if match["role"] == "roll":
            try:
                return named_roll_text(ruleset, target)
            except KeyError:
                return target
        section, id = ROLE_SECTIONS.get(match["role"]), target
        if match["role"] == "entry":  # `section.id`
            section, _, id = target.partition(".")
        if section and not _EXPLICIT.match(match["text"]):
            try:
                written, id = id, term_names(ruleset).get(id.casefold(), id) if section == "glossary" else id
                return reference_title(ruleset.linked(section, id)[1], written)
            except KeyError:
                pass
    explicit = _EXPLICIT.match(match["text"])
    if explicit and explicit["title"]:
        return explicit["title"]
    target = explicit["target"] if explicit else match["text"]
    return target.split(".")[-1].replace("_", " ") if match["role"] != "term" else target


def count_examples(*html: str) -> int:
    """How many checked worked examples some rendered prose prints (each as its sentence, marked)."""
    return sum(str(h).count(str(CHECKED_HTML)) for h in html)
