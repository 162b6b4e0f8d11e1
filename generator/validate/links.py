"""Links in prose: every MyST role (`{rule}`, `{term}`, `{entry}`...) names an entry that exists."""

from __future__ import annotations

import re

from ..diagnostics import Code, Diagnostic, Location, Severity, TextLocation, did_you_mean
from ..model.base import QuickMark, value_loc
from ..model.entries import gm_only
from ..model.ruleset import PAGED_SECTIONS, ROLE_SECTIONS, SECTIONS, Ruleset, term_names
from ..model.text import anchor
from .references import entry_or_none, unknown_ref

ROLE = re.compile(
    r"\{(?P<role>term|rule|table|spell|profile|value|formula|chart|lookup|entry|roll)\}(?P<ticks>`+)(?P<target>.+?)"
    r"(?P=ticks)(?!`)",
    re.S,
)
PDF_ROLE = re.compile(r"\{pdf\}(?P<ticks>`+)(?P<target>.+?)(?P=ticks)(?!`)", re.S)  # {pdf}`Title <sheets/x.pdf>`
RAN_ON = re.compile(r"\{[a-z]+\}$")  # a role's target that ends where the next role begins: `name, see {term}`
ANCHOR_LINK = re.compile(r"\]\(\s*<?#([^)\s>]+)>?\s*\)")  # [the ambush](#game-rules-ambush)
_ROLE_SECTIONS = {**ROLE_SECTIONS, "value": "values"}  # a {term} is read before, by its spellings


def _short(text: str, most: int = 40) -> str:
    """A role's run-on target, its start and its end: the end is the role it ran into."""
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most // 2] + "…" + text[-(most // 2 - 1) :]


def role_target(target: str) -> str:
    match = re.fullmatch(r"(?s).*<(.+)>", target)
    return (match[1] if match else target).strip()


def prose_fields(entry, holding: str = "{"):
    """(owner, field, text) for every text field of an entry and of its rows (a list of lines too) that holds
    ``holding`` (a role's brace; `>>>` for worked examples)."""
    for name, value in vars(entry).items():
        if isinstance(value, str) and holding in value:
            yield entry, name, value
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    if holding in item:
                        yield entry, f"{name}[{index}]" if f"{name}[{index}]" in entry.locs else name, item
                elif hasattr(item, "locs"):
                    yield from prose_fields(item, holding)
        elif isinstance(value, QuickMark):  # a quick-reference summary is player prose like any other
            yield from prose_fields(value, holding)


def prose_loc(owner, name: str, text: str, offset: int) -> Location:
    loc = value_loc(owner, name)
    return loc.at(text, offset) if isinstance(loc, TextLocation) else loc


def pdf_links(ruleset: Ruleset):
    """(target, location, whether players read it) for every `{pdf}` role in a ruleset's text: the players read
    none of the game-master's entries, rows or notes. Which PDFs a build makes is the build's to say."""
    for entry in (ruleset.meta, *(entry for _section, entry in ruleset.all_entries())):
        for owner, name, value in prose_fields(entry, "{pdf}"):
            players = not (gm_only(entry) or gm_only(owner) or name == "gm_note")
            for match in PDF_ROLE.finditer(value):
                yield role_target(match["target"]), prose_loc(owner, name, value, match.start()), players


def check_prose_links(ruleset: Ruleset):
    terms = term_names(ruleset)
    for entry in (ruleset.meta, *(entry for _section, entry in ruleset.all_entries())):  # the summary is prose too
        for owner, name, value in prose_fields(entry):
            for match in ROLE.finditer(value):
                target = role_target(match["target"])
                loc = prose_loc(owner, name, value, match.start())
                if RAN_ON.search(match["target"]):  # its closing backtick missing, it ends at the next role's
                    role = match["role"]
                    yield Diagnostic(
                        Code.UNKNOWN_REF,
                        f"{{{role}}}`{_short(match['target'])}` runs on into the next role: its closing backtick is "
                        "missing",
                        loc,
                        f"close it where its name ends: {{{role}}}`name`",
                    )
                elif match["role"] == "term":
                    if target.casefold() not in terms and not ruleset.is_unloaded(target, "glossary"):
                        yield Diagnostic(
                            Code.UNKNOWN_REF,
                            f"glossary term `{target}` is not in `glossary:`",
                            loc,
                            _by_its_id(ruleset, target) or did_you_mean(target, [t.term for t in ruleset.glossary]),
                        )
                elif match["role"] == "entry":
                    section, _, id = target.partition(".")
                    if section not in SECTIONS:
                        yield Diagnostic(
                            Code.UNKNOWN_REF,
                            f"`{target}` names no section: write {{entry}}`section.id`",
                            loc,
                            did_you_mean(section, list(SECTIONS)),
                        )
                    elif section == "sheets":  # no page prints a sheet: the site's build stops at the link
                        yield Diagnostic(
                            Code.UNKNOWN_REF,
                            f"{{entry}}`{target}` links a sheet, which the site prints as a PDF, not on a page",
                            loc,
                            f"link its PDF: {{pdf}}`Title <sheets/{ruleset.id}-{id.replace('_', '-')}-a4.pdf>` "
                            "(`-letter.pdf` for its US Letter one; `papers:` in rulepress.yaml says which are made)",
                        )
                    elif ruleset.base_having(section, id) is None and (
                        (d := unknown_ref(ruleset, section, id, loc, section.removesuffix("s"))) is not None
                    ):
                        yield d
                elif match["role"] == "roll":
                    yield from _roll_problems(ruleset, target, loc)
                elif ruleset.base_having(_ROLE_SECTIONS[match["role"]], target) is None and (
                    (d := unknown_ref(ruleset, _ROLE_SECTIONS[match["role"]], target, loc, match["role"])) is not None
                ):
                    yield d
                elif (repeated := _repeated_word(ruleset, match, value)) is not None:
                    yield Diagnostic(
                        Code.REPEATED_WORD,
                        f"{{{match['role']}}}`{match['target']}` prints as “{repeated[0]}”, so the text reads "
                        f"“{repeated[0]} {repeated[1]}”",
                        loc,
                        severity=Severity.WARNING,
                    )


def _roll_problems(ruleset: Ruleset, target: str, loc: Location):
    """A `{roll}`table:Result`` role names a table and one of its rows (by its result, or the id its `ref:` names)."""
    table_id, colon, name = target.partition(":")
    if not colon:
        yield Diagnostic(
            Code.UNKNOWN_REF, f"{{roll}}`{target}` names no row of a table", loc, "write {roll}`table:Result`"
        )
        return
    if (d := unknown_ref(ruleset, "tables", table_id.strip(), loc, "table")) is not None:
        yield d
        return
    table = entry_or_none(ruleset, "tables", table_id.strip())
    if table is None:
        return  # one that did not load: told where it is
    try:
        table.row_named(name.strip())
    except KeyError:
        results = [row.result for row in table.rows]
        yield Diagnostic(
            Code.UNKNOWN_REF,
            f"table `{table.id}` has no row `{name.strip()}`",
            loc,
            did_you_mean(name.strip(), results) or f"its rows: {', '.join(results)}",
        )


PAGES = ("index", "glossary", *PAGED_SECTIONS)  # a ruleset's pages on the players' site, by their key


def site_anchors(ruleset: Ruleset) -> dict[str, tuple[str, object]]:
    """Every place on the site a ruleset's prose may link as `#anchor`, mapped to (section, entry), its pages' to
    ("page", None): those of the ruleset, of the rulesets it extends and of the one it overlays, whose text it
    prints (each entry is printed by the ruleset that defines it). A sheet's page is linked with its {pdf} role."""
    places, seen, below = {}, set(), [ruleset]
    while below:
        owner = below.pop()
        if owner is None or owner.id in seen:
            continue
        seen.add(owner.id)
        places.update(
            {anchor(owner.id, section, e.id): (section, e) for section, e in owner.all_entries() if section != "sheets"}
        )
        places.update({anchor(owner.id, "page", key): ("page", None) for key in PAGES})
        below += [owner.base, owner.original]
    return places


def check_anchor_links(ruleset: Ruleset):
    """A `[text](#anchor)` link names a place the site makes: the site's build stops at one that names none."""
    places = None
    for entry in (ruleset.meta, *(entry for _section, entry in ruleset.all_entries())):
        for owner, name, text in prose_fields(entry, "](#"):
            for match in ANCHOR_LINK.finditer(text):
                places = places if places is not None else site_anchors(ruleset)
                if match[1] not in places:
                    yield Diagnostic(
                        Code.UNKNOWN_REF,
                        f"the link `#{match[1]}` names no place on the site",
                        prose_loc(owner, name, text, match.start(1) - 1),  # at the `#`
                        _anchor_hint(match[1], places),
                    )


def _anchor_hint(link: str, places: dict) -> str:
    role = "link an entry with its role ({rule}`id`, {table}`id`, {term}`word`...): the site makes its link"
    close = did_you_mean(link, list(places))
    return f"{close.replace('`', '`#', 1)} Better, {role}" if close else role


def _by_its_id(ruleset: Ruleset, target: str) -> str | None:
    """The hint for a {term} role that names a term by its id, which roles of terms do not read."""
    term = entry_or_none(ruleset, "glossary", target)
    if term is None:
        return None
    return (
        f"`{target}` is the id of “{term.term}”; a {{term}} role names a term as it is written: {{term}}`{term.term}`"
    )


_EXPLICIT = re.compile(r"(?s)^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")


def _repeated_word(ruleset: Ruleset, match: re.Match, text: str) -> tuple[str, str] | None:
    """(what a role that prints a title prints, the word after it) when that word is the title's last word."""
    if match["role"] in ("term", "value"):  # a term prints as written; a value prints its number
        return None
    explicit = _EXPLICIT.match(match["target"])
    if explicit:
        shown = explicit["title"]
    else:
        entry = role_entry(ruleset, match["role"], role_target(match["target"]), {})
        shown = str(getattr(entry, "title", "") or getattr(entry, "name", "")) if entry is not None else ""
    last, after = re.findall(r"\w+", shown)[-1:], re.match(r"\s+(\w+)", text[match.end() :])
    if last and after and last[0].casefold() == after[1].casefold():
        return shown, after[1]
    return None


def role_entry(ruleset: Ruleset, role: str, target: str, terms: dict[str, str]):
    """The entry a prose role names, looked up in the role's own section (ids may repeat across sections)."""
    if role == "term":
        return entry_or_none(ruleset, "glossary", terms.get(target.casefold(), ""))
    if role == "entry":
        section, _, id = target.partition(".")
        return _linked_or_none(ruleset, section, id) if section in SECTIONS else None
    if role == "roll":  # `table:Result`: the table's row
        return entry_or_none(ruleset, "tables", target.partition(":")[0].strip())
    return _linked_or_none(ruleset, _ROLE_SECTIONS[role], target)


def _linked_or_none(ruleset: Ruleset, section: str, id: str):
    """The entry a role links, a base's of any section too (``Ruleset.linked``), or None."""
    try:
        return ruleset.linked(section, id)[1]
    except KeyError:
        return None
