"""Write the site's MyST pages from the model, then run Sphinx on them.

Pages hold headings, labels and ``rulepress`` directives; the directives fill
in the values. A page is rewritten only when its text changes, so Sphinx's
incremental build re-reads only what changed (plus pages whose YAML changed,
which the directives register as dependencies).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from ...check_cache import CheckCache
from ...diagnostics import Code, Diagnostic, Location
from ...keys import code_digest, generator_hash, ruleset_key
from ...model.base import value_loc
from ...model.ruleset import GAME_MASTER, Ruleset, game_master_words
from ...model.settings import DEFAULT_SITE_NAME
from ...model.text import initial, sort_key
from ...source.project import Project
from ..army_builder import builder_data, has_builder
from ..calculators import calculators, computed_key
from ..handouts.cards import PAPERS, Paper, card_key, card_pages, papers_of
from ..handouts.jobs import output_name
from ..markdown import esc, role_text
from ..order import CHAPTER_ORDER, SECTION_PAGES, section_page_title
from ..present import (
    AUTHORS,
    SEES_EVERYTHING,
    chapter_phases,
    entry_title,
    for_audience,
    gm_only,
    plural,
    printed_edition,
    shown_count,
    shown_examples,
    source_title,
    step_text,
    visible_to,
)
from ..reference import codes_reference, format_reference, names_reference
from ..sheets.jobs import sheet_pages
from ..worked import house_hidden, house_phrase
from .myst import ENTRY_LINES, code, label, prose, render_entry
from .search import index_site


@dataclass
class Pages:
    files: dict[str, str] = field(default_factory=dict)  # path relative to srcdir -> MyST text

    def add(self, path: str, text: str) -> None:
        self.files[path] = text.rstrip() + "\n"


def _heading(level: int, ruleset: Ruleset, section: str, entry, title: str) -> str:
    return f"({label(ruleset.id, section, entry.id)})=\n{'#' * level} {esc(title)}\n"


def _directive(section: str, id: str = "") -> str:
    return f"```{{rulepress}} {section} {id}".rstrip() + "\n```\n"


def _entry(ruleset: Ruleset, section: str, entry, title: str, level: int = 2) -> str:
    return _heading(level, ruleset, section, entry, title) + "\n" + _directive(section, entry.id)


TABLE_SECTIONS = ("costs", "army_limits", "victory_points", "values")  # shown as one table per chapter


_title_of = entry_title  # the one function for an entry's display text (present.py)

AUTHOR_AUDIENCE = AUTHORS  # the site that carries the authors' pages: worked-example lists, names, format and codes


def editions(gm: str) -> dict[str, str]:
    """What the landing page says the game-master's and the authors' sites are, ``gm`` what the site calls the
    game-master (:func:`site_game_master`)."""
    own = game_master_words(gm, possessive=True)
    return {
        "gm": f"This is the {own} edition: it holds what only the {gm} may see, marked as such.",
        "author": f"This is the authors' edition: the {own}, with each worked example's code and the place "
        "it is written, each formula as written, the names worked examples can use, the data format and the "
        "diagnostic codes.",
    }


def _chapter_of(ruleset: Ruleset, section: str, entry) -> str:
    chapter = getattr(entry, "chapter", "")
    if not chapter and section == "spells" and entry.table:
        chapter = next((t.chapter for t in ruleset.tables if t.id == entry.table), "")
    return chapter


def _entries_block(
    ruleset: Ruleset, section: str, entries: list, audience: str, chapter: str = "", calculated: frozenset = frozenset()
) -> list[str]:
    if section in TABLE_SECTIONS:
        anchors = [f"({label(ruleset.id, section, e.id)})=\n" for e in entries if visible_to(e, audience)]
        option = f"\n:chapter: {chapter}" if chapter else "\n:chapter: -"
        heading = {
            "costs": "Costs",
            "army_limits": "Army limits",
            "victory_points": "Victory points",
            "values": "Every number the rules state",
        }[section]
        block = f"## {heading}\n\n" + "".join(anchors) + f"```{{rulepress}} {section}{option}\n```\n"
        return [block]
    level = 3 if section == "spells" else 2
    return [
        _entry(ruleset, section, e, _title_of(e), level) + _calculator_link(ruleset, section, e, calculated)
        for e in entries
    ]


def _calculator_link(ruleset: Ruleset, section: str, entry, calculated: frozenset) -> str:
    """Under a formula that has an odds calculator (``calculated``: their formulas' ids), a link to it."""
    if section != "formulas" or entry.id not in calculated:
        return ""
    words = "Work it out for any inputs" if entry.inputs else "The chance of each result"  # a roll with none
    return f"\n{words}: {{ref}}`its odds calculator <{calculator_label(ruleset, entry.id)}>`.\n"


def calculator_label(ruleset: Ruleset, formula_id: str) -> str:
    return f"{ruleset.id}-calculator-{formula_id}"


def page_title(ruleset: Ruleset, title: str) -> str:
    """A page heading that names its ruleset, so search results and tabs say which game they are from."""
    return f"{esc(title)} · {esc(ruleset.meta.short_title or ruleset.meta.title)}"


def chapter_page(ruleset: Ruleset, chapter, audience: str, placed: set, calculated: frozenset = frozenset()) -> str:
    parts = [f"({label(ruleset.id, 'chapters', chapter.id)})=\n# {page_title(ruleset, chapter.title)}\n"]
    if chapter.intro:
        parts.append(prose(chapter.intro, ruleset))
    steps = chapter_phases(ruleset, chapter.id, audience)
    if steps:  # the phases this chapter gives the rules of, by their step in the turn
        lines = (f"- **{esc(p.title)}**, {esc(step_text(n, p))} — {' '.join(p.summary.split())}" for n, p in steps)
        parts.append("\n".join(lines) + "\n")
    for section in CHAPTER_ORDER:
        entries = [
            e
            for e in ruleset.section(section)
            if _chapter_of(ruleset, section, e) == chapter.id
            and visible_to(e, audience)
            and (section, e.id) not in placed
        ]
        if section == "victory_points":
            entries = [e for e in ruleset.section(section) if _chapter_of(ruleset, section, e) == chapter.id]
        if not entries:
            continue
        if section == "tables":
            for table in entries:
                parts += _entries_block(ruleset, "tables", [table], audience)
                placed.add(("tables", table.id))
                spells = [
                    s
                    for s in ruleset.spells
                    if s.table == table.id
                    and _chapter_of(ruleset, "spells", s) == chapter.id
                    and visible_to(s, audience)
                ]
                parts += _entries_block(ruleset, "spells", spells, audience)
                placed.update(("spells", s.id) for s in spells)
            continue
        parts += _entries_block(ruleset, section, entries, audience, chapter.id, calculated)
        placed.update((section, e.id) for e in entries)
    return "\n".join(parts)


def section_page(
    ruleset: Ruleset, key: str, audience: str, placed: set, base_title: str = "", calculated: frozenset = frozenset()
) -> str | None:
    title = section_page_title(ruleset, key)
    parts = [f"({label(ruleset.id, 'page', key)})=\n# {page_title(ruleset, title)}\n"]
    sections = ("costs", "army_limits", "armies") if key == "army" else (key,)
    found = False
    for section in sections:
        entries = [
            e
            for e in ruleset.section(section)
            if (section, e.id) not in placed and (visible_to(e, audience) or section == "victory_points")
        ]
        if entries:
            found = True
            parts += _entries_block(ruleset, section, entries, audience, calculated=calculated)
            placed.update((section, e.id) for e in entries)
    if key == "values" and found and ruleset.meta.overlay:
        parts.insert(1, _house_banner(ruleset, audience, base_title))  # the base by its title, never its folder name
    if key == "formulas" and found:
        parts.insert(
            1,
            "For rules authors: each formula's inputs, what it gives and the expression every chart, "
            "sheet and worked example of this ruleset computes with.\n",
        )
    return "\n".join(parts) if found else None


def glossary_page(ruleset: Ruleset, audience: str) -> str | None:
    terms = sorted((t for t in ruleset.glossary if visible_to(t, audience)), key=lambda t: sort_key(t.term))
    if not terms:
        return None
    parts = [
        f"({label(ruleset.id, 'page', 'glossary')})=\n# {page_title(ruleset, 'Glossary')}\n",
        az_bar(ruleset, terms),
    ]
    parts += [_entry(ruleset, "glossary", t, t.term) for t in terms]
    return "\n".join(parts)


def az_bar(ruleset: Ruleset, terms: list) -> str:
    """A line of initial letters, each a link to the first term that starts with it (terms sorted already)."""
    first: dict[str, str] = {}
    for term in terms:
        first.setdefault(initial(term.term), label(ruleset.id, "glossary", term.id))
    links = " ".join(f"{{ref}}`{letter} <{target}>`" for letter, target in first.items())
    return f":::{{container}} rp-az\n{links}\n:::\n"


CALCULATORS_TITLE = "Odds calculators"
ARMY_TITLE = "Army builder"


def army_page(ruleset: Ruleset, audience: str, downloads: list[tuple[str, str]] = ()) -> str | None:
    """The army builder of a ruleset with an army matrix: its picks, points and limits as data for the page, each
    troop type and hero with where its rules are (a label the page's writer resolves) and its card in the card
    sheet PDF of this build (A4 where it prints A4), when there is one."""
    if not has_builder(ruleset):
        return None
    data = builder_data(ruleset, audience)
    matrix = data["matrix"]["id"]
    for troop in data["troops"]:
        troop["rules"] = label(ruleset.id, "profiles", matrix)
        troop["card"] = card_key("profiles", matrix, troop["id"])
    for hero in data["heroes"]:
        hero["rules"] = label(ruleset.id, "heroes", hero["id"])
        hero["card"] = card_key("heroes", hero["id"])
    sheet, paper = _cards_pdf(ruleset, audience, downloads)
    if sheet:  # the page is <ruleset>/army-builder: one folder below the site's own printouts
        data["cards"] = {"href": f"../{PRINTOUTS}/{sheet}", "pages": card_pages(ruleset, audience, paper)}
    return (
        f"# {page_title(ruleset, ARMY_TITLE)}\n\n"
        "Pick units, heroes and upgrades: the points and every army limit are worked out as you pick, the way these "
        "rules check the text's own lists. The list stays in this page's address (a link reopens it) and in this "
        "browser.\n\n"
        f"````{{army-builder}}\n{json.dumps(data, ensure_ascii=False)}\n````\n"
    )


def _cards_pdf(ruleset: Ruleset, audience: str, downloads) -> tuple[str, Paper | None]:
    """The card sheet PDF this audience gets (the game-master's where there is one) and its paper: on A4 where the
    build prints A4, else on US Letter; empty and None when none."""
    hrefs = {href.rsplit("/", 1)[-1]: href for _title, href in downloads}
    for paper in PAPERS:
        for name in (
            output_name(ruleset.id, "cards", audience, paper),
            output_name(ruleset.id, "cards", "player", paper),
        ):
            if name in hrefs:
                return hrefs[name], paper
    return "", None


def calculators_page(
    ruleset: Ruleset, audience: str, key: str | None = None, store=None, found: list | None = None
) -> str | None:
    """A calculator for each formula whose inputs take few enough values, with the answers the engine gives for
    every combination; the formulas that have none are named, with why. ``key``, ``store``: see ``calculators``;
    ``found``: what it gave already."""
    found = calculators(ruleset, audience, key, store) if found is None else found
    tabled = [c for c in found if c.data]
    if not tabled:
        return None
    parts = [
        f"# {page_title(ruleset, CALCULATORS_TITLE)}",
        "Pick a value for each; every answer was worked out from these rules, exactly, when this site was built.",
    ]
    for c in tabled:
        parts.append(f"({calculator_label(ruleset, c.formula.id)})=\n## {esc(c.formula.title)}")
        parts.append(f"````{{calculator}}\n{json.dumps(c.data, ensure_ascii=False)}\n````")
    untabled = [c for c in found if not c.data]
    if untabled:
        parts.append("## Not worked out here")
        parts.append("\n".join(f"- {esc(c.formula.title)}: {esc(c.why)}." for c in untabled))
    return "\n\n".join(parts) + "\n"


def examples_page(ruleset: Ruleset, audience: str = "player") -> str | None:
    examples = shown_examples(ruleset, audience)
    if not examples:
        return None
    lines = [
        f"({label(ruleset.id, 'page', 'examples')})=\n# {page_title(ruleset, 'Worked examples')}\n",
        f"All {len(examples)} worked examples of this ruleset run against the rules model on every build "
        "and test run; a build with a failing example is refused. Each is shown with the rule it illustrates.\n",
    ]
    changed = {(r.path, r.line): r for r in ruleset.house_results}
    if changed:
        lines.append(
            f"These house rules give another result than the text in {plural(len(changed), 'example')}, "
            "marked ≠: their sentences say both results.\n"
        )
    hidden = house_hidden(ruleset) and audience not in SEES_EVERYTHING
    for example in examples:
        section, _, id = example.entry.partition(".")
        target = f"{{entry}}`{section}.{id}`" if section else "(outside an entry)"
        where = f"{code(example.path)} line {example.line}"
        house = changed.get((example.path, example.line))
        if house is not None:
            lines.append(
                f"- ≠ {target} — "
                f"{esc(house_phrase(house, hidden, raw=True, game_master=ruleset.game_master()))}, {where}"
            )
        else:
            lines.append(f"- ✔ {target} — {plural(example.statements, 'checked statement')}, {where}")
    return "\n".join(lines)


def house_rules(ruleset: Ruleset, audience: str) -> list:
    """The values an overlay changes that the audience may see (a game-master's house value is no player's)."""
    return [value for value in ruleset.values if value.is_house_rule and visible_to(value, audience)]


def house_limits(ruleset: Ruleset, audience: str) -> list:
    """The army limits an overlay adds (a tournament pack's) that the audience may see."""
    return [limit for limit in ruleset.army_limits if limit.house and visible_to(limit, audience)]


def _house_changes(ruleset: Ruleset, audience: str) -> str:
    """`changes 2 values`, and `, adds 1 army limit` where the overlay adds limits."""
    added = len(house_limits(ruleset, audience))
    return f"changes {plural(len(house_rules(ruleset, audience)), 'value')}" + (
        f", adds {plural(added, 'army limit')}" if added else ""
    )


def _house_banner(ruleset: Ruleset, audience: str, base_title: str = "") -> str:
    base = base_title or ruleset.meta.extends
    limits = " and each army limit added says (house rule)" if house_limits(ruleset, audience) else ""
    return (
        f":::{{admonition}} House rules on {esc(base)}\n:class: house-rules-banner\nHouse rules on {esc(base)}: "
        f"{_house_changes(ruleset, audience)}. Each changed value is marked and shows what the text says{limits}.\n:::"
    )


def names_page(ruleset: Ruleset, root, audience: str = "player") -> str:
    """Every name the ruleset's worked examples can use (for authors), generated from their namespace."""
    text = names_reference(ruleset, root, audience)
    heading, _, rest = text.partition("\n")
    return f"({label(ruleset.id, 'page', 'names')})=\n# {page_title(ruleset, 'Names for worked examples')}\n" + rest


# a PDF's title names its paper last (pipeline.plan.downloads): "Handout (A4)", "Charts (US Letter)"
_TITLE_AND_PAPER = re.compile(r"^(?P<name>.*?)(?: \((?P<paper>[^()]+)\))?$")
KINDS = {"handouts": "Handouts", "sheets": "Cheat sheets"}
# Each site's own copy of the PDFs it links (`printouts/sheets/...`, as under build/): a site published alone opens them
PRINTOUTS = "printouts"  # the build's folders, in the order players want them


def downloads_md(downloads: list[tuple[str, str]]) -> str:
    """A ruleset's PDFs as players look for them: by kind (handouts, then cheat sheets), one line per printout in
    alphabetical order, with a link per paper size ("Handout: A4 · US Letter")."""
    grouped: dict[str, dict[str, list[tuple[str, str]]]] = {}
    for title, href in downloads:
        found = _TITLE_AND_PAPER.match(title)
        kind = href.split("/", 1)[0]
        grouped.setdefault(kind, {}).setdefault(found["name"], []).append((found["paper"] or "PDF", href))
    parts = []
    for kind in sorted(grouped, key=lambda k: (list(KINDS).index(k) if k in KINDS else len(KINDS), k)):
        lines = [
            f"- {esc(name)}: " + " · ".join(f"{{pdf}}`{role_text(paper)} <{href}>`" for paper, href in links)
            for name, links in sorted(grouped[kind].items())
        ]
        parts.append(f"### {KINDS.get(kind, kind.capitalize())}\n\n" + "\n".join(lines))
    return "\n\n".join(parts)


def ruleset_index(
    ruleset: Ruleset,
    toc: list[str],
    downloads: list[tuple[str, str]],
    sheets: list[str] = (),
    audience: str = "player",
    base_title: str = "",
    users: list[str] = (),
) -> str:
    meta = ruleset.meta
    parts = [f"({label(ruleset.id, 'page', 'index')})=\n# {esc(meta.title)}\n"]
    if meta.overlay:
        parts.append(_house_banner(ruleset, audience, base_title))
        changed = house_rules(ruleset, audience)
        listed = [f"- {esc(v.label or v.id.replace('_', ' '))}: {{value}}`{v.id}`" for v in changed] + [
            f"- {{entry}}`army_limits.{limit.id}`" for limit in house_limits(ruleset, audience)
        ]
        if listed:
            parts.append("\n".join(listed))
    if meta.extends and not meta.overlay:  # what it plays by, its title from the data, with a way there
        parts.append(
            f"Builds on {{ref}}`{role_text(base_title or meta.extends)} <{label(meta.extends, 'page', 'index')}>`."
        )
    if meta.kind == "base":
        parts.append(
            "*Standard charts and numbers, not a game of its own*"
            + (f", used by {', '.join(esc(u) for u in users)}." if users else ".")
        )
    byline = " — ".join(
        x
        for x in (
            f"*{esc(meta.subtitle)}*" if meta.subtitle else "",
            f"by {esc(meta.author)}" if meta.author else "",
            esc(meta.version) if meta.version else "",  # the edition the printouts carry, on the page too
        )
        if x
    )
    if byline:
        parts.append(byline)
    if meta.summary:
        parts.append(prose(meta.summary, ruleset))
    if meta.needs:
        parts.append("## What you need\n\n" + "\n".join(f"- {esc(n)}" for n in meta.needs))
    phases = [p for p in ruleset.phases if visible_to(p, audience)]
    if phases:  # one anchor per phase, so rules and terms can link to it
        anchors = "".join(f"({label(ruleset.id, 'phases', p.id)})=\n" for p in phases)
        parts.append("## Turn sequence\n\n" + anchors + _directive("phases"))
    if sheets:
        parts.append("## Cheat sheets\n\n" + "\n".join(f"- {{doc}}`/sheets/{name}`" for name in sheets))
    if downloads:
        parts.append("## Downloads\n\n" + downloads_md(downloads))
    parts.append("## Contents\n\n```{toctree}\n:maxdepth: 1\n\n" + "\n".join(toc) + "\n```")
    if meta.source:
        parts.append(
            f"{{source}}`{role_text(source_title(ruleset))}` — the source text this ruleset encodes; "
            "every entry says which section of it it comes from."
        )
    return "\n\n".join(parts)


def landing(project: Project, audience: str, sheets: bool = False) -> str:
    parts = [
        f"# {esc(project.settings.site_name)}\n",
        "Every table, number and worked example here is checked against the rules: roll tables cover every "
        "result exactly once, army lists add up, and every example's numbers are worked out from the rules."
        + (f" **{esc(editions(site_game_master(project))[audience])}**" if audience in ("gm", AUTHORS) else ""),
        "## Rulesets\n",
    ]
    bases = [r for r in project.rulesets if r.meta.kind == "base"]
    for ruleset in project.rulesets:
        if ruleset.meta.kind == "base":
            continue
        author = f" by {esc(ruleset.meta.author)}" if ruleset.meta.author else ""
        facts = _landing_facts(project, ruleset, audience)
        chapters = for_audience(ruleset.chapters, audience)
        start = (
            f" Start with [{esc(chapters[0].title)}]({ruleset.id}/{chapters[0].id}.md)."
            if chapters and not ruleset.meta.overlay
            else ""
        )
        parts.append(
            f"- **[{esc(ruleset.title)}]({ruleset.id}/index.md)**{author}" + (f" — {facts}." if facts else ".") + start
        )
    if bases:
        parts.append("## Standard charts\n\nRulesets that others build on, not games of their own:")
    for base in bases:
        users = [esc(r.title) for r in project.rulesets if r.meta.extends == base.id]
        parts.append(
            f"- **[{esc(base.title)}]({base.id}/index.md)** — standard charts used by "
            + (", ".join(users) if users else "no ruleset yet")
        )
    if sheets:
        parts.append(
            "## Cheat sheets\n\nOne-page charts and quick references, every number computed by the rules model: "
            "[all cheat sheets](sheets/index.md)."
        )
    authors = audience == AUTHOR_AUDIENCE
    parts.append(
        "```{toctree}\n:hidden:\n:maxdepth: 1\n\n"
        + "\n".join(f"{r.id}/index" for r in project.rulesets)
        + ("\nsheets/index" if sheets else "")
        + ("\nreference/format\nreference/codes" if authors else "")
        + "\n```"
    )
    if authors:
        parts.append(
            "For rules authors: the [data format reference](reference/format.md) and the "
            "[diagnostic codes](reference/codes.md)."
        )
    return "\n\n".join(parts)


def _landing_facts(project: Project, ruleset: Ruleset, audience: str) -> str:
    """What the front page says of a ruleset: what it is (its subtitle) for its readers; for its authors, how much
    there is (a count of what the game-master sees, and of the worked examples)."""
    if ruleset.meta.overlay:
        return f"house rules on {esc(_title_by_id(project, ruleset.meta.extends))}: {_house_changes(ruleset, audience)}"
    if audience != AUTHOR_AUDIENCE:
        return esc(ruleset.meta.subtitle.rstrip(".")) if ruleset.meta.subtitle else ""
    counted = [
        (shown_count(ruleset, "rules", audience), "rule"),
        (shown_count(ruleset, "tables", audience), "table"),
        (len(shown_examples(ruleset, audience)), "verified example"),
    ]
    return ", ".join(plural(n, word) for n, word in counted)


def site_pages(project: Project, audience: str, downloads: dict[str, list[tuple[str, str]]] | None = None) -> Pages:
    pages = Pages()
    downloads = {
        owner: [(t, h) for t, h in links if audience in SEES_EVERYTHING or "-gm-" not in h]
        for owner, links in (downloads or {}).items()
    }
    sheet_names = add_sheet_pages(pages, project, audience, downloads)
    pages.add("index.md", landing(project, audience, bool(sheet_names)))
    if audience == AUTHOR_AUDIENCE:  # author material: never on the players' site
        pages.add("reference/format.md", format_reference())
        pages.add("reference/codes.md", codes_reference())
    for ruleset in project.rulesets:
        placed: set = set()
        toc = []  # docnames; `titles` gives the navigation its short titles (pages' own name the ruleset)
        titles: dict[str, str] = {}
        found = calculators(ruleset, audience, computed_key(ruleset), CheckCache(project.root))
        calculated = frozenset(c.formula.id for c in found if c.data)  # each links its calculator
        for chapter in for_audience(ruleset.chapters, audience):
            pages.add(f"{ruleset.id}/{chapter.id}.md", chapter_page(ruleset, chapter, audience, placed, calculated))
            toc.append(chapter.id)
            titles[chapter.id] = chapter.title
        for key in SECTION_PAGES:
            text = section_page(ruleset, key, audience, placed, _title_by_id(project, ruleset.meta.extends), calculated)
            if text:
                name = key.replace("_", "-")
                if name in toc:  # a chapter already has this name
                    name += "-list"
                pages.add(f"{ruleset.id}/{name}.md", text)
                toc.append(name)
                titles[name] = section_page_title(ruleset, key)
        authors = audience == AUTHOR_AUDIENCE
        for name, text, title in (
            ("glossary", glossary_page(ruleset, audience), "Glossary"),
            (
                "calculators",
                calculators_page(ruleset, audience, found=found),
                CALCULATORS_TITLE,
            ),
            ("army-builder", army_page(ruleset, audience, downloads.get(ruleset.id, [])), ARMY_TITLE),
            ("examples", examples_page(ruleset, audience) if authors else None, "Worked examples"),
            ("names", names_page(ruleset, project.root, audience) if authors else None, "Names for worked examples"),
        ):
            if text:
                pages.add(f"{ruleset.id}/{name}.md", text)
                toc.append(name)
                titles[name] = title
        for section in ("rules", "tables", "profiles"):  # entries with no chapter still get shown
            rest = [
                e
                for e in ruleset.section(section)
                if (section, e.id) not in placed and not e.chapter and visible_to(e, audience)
            ]
            if rest:
                name = f"more-{section}"
                pages.add(
                    f"{ruleset.id}/{name}.md",
                    f"# {page_title(ruleset, 'More ' + section)}\n\n"
                    + "\n".join(_entry(ruleset, section, e, getattr(e, "title", e.id)) for e in rest),
                )
                toc.append(name)
                titles[name] = f"More {section}"
        toc = [f"{_toc_title(titles[name])} <{name}>" for name in toc]
        own_sheets = [name for name in sheet_names if name.startswith(ruleset.id + "-")]
        users = [r.title for r in project.rulesets if r.meta.extends == ruleset.id]
        pages.add(
            f"{ruleset.id}/index.md",
            ruleset_index(
                ruleset,
                toc,
                downloads.get(ruleset.id, []),
                own_sheets,
                audience,
                _title_by_id(project, ruleset.meta.extends),
                users,
            ),
        )
    return pages


def _title_by_id(project: Project, id: str) -> str:
    for ruleset in project.rulesets:
        if ruleset.id == id:
            return ruleset.title
    return id


def add_sheet_pages(pages: Pages, project: Project, audience: str, downloads: dict) -> list[str]:
    """A site page per cheat sheet, with links to its PDFs, and an index of them all."""
    written = []
    all_pdfs = [href for links in downloads.values() for _title, href in links]
    for name, text in sheet_pages(project, printed_edition(audience)).items():
        pdfs = sorted(
            h
            for h in all_pdfs
            if h.startswith(f"sheets/{name}-")
            and (audience in SEES_EVERYTHING or "-gm-" not in h)
            and h.removeprefix(f"sheets/{name}-").count("-") <= 1
        )
        links = [f"- {{pdf}}`{_paper_title(h, site_game_master(project))} <{h}>`" for h in pdfs]
        pages.add(
            f"sheets/{name}.md",
            f"({name}-sheet)=\n" + text.rstrip() + ("\n\n## Print it\n\n" + "\n".join(links) if links else ""),
        )
        written.append(name)
    if written:
        items = "\n".join(f"- {{doc}}`{name}`" for name in written)
        pages.add(
            "sheets/index.md",
            "# Cheat sheets\n\nEvery number on these sheets is computed exactly by the rules "
            f"model and rounded only when printed. Each sheet fits one page of {_paper_names(project)}.\n\n"
            + items
            + "\n\n```{toctree}\n:hidden:\n\n"
            + "\n".join(written)
            + "\n```",
        )
    return written


def _toc_title(title: str) -> str:
    """A title for a toctree entry: no angle brackets, which would end it early."""
    return " ".join(title.replace("<", "‹").replace(">", "›").split())


def _paper_names(project: Project) -> str:
    """The project's paper sizes as a sentence names them: `A4 or US Letter`."""
    return " or ".join(paper.name for paper in papers_of(project.settings))


def _paper_title(href: str, gm: str) -> str:
    stem = Path(href).stem
    paper = "A4" if stem.endswith("-a4") else "US Letter"
    return f"{paper}{f' ({_toc_title(gm)})' if '-gm-' in href else ''}"


def site_key(project: Project, audience: str, downloads: dict | None, code: str, pages: Pages | None = None) -> str:
    """A hash of everything the site is made from: pages (``site_pages``'s, made here unless given), rules
    data, downloads, the site's name, code."""
    import hashlib

    digest = hashlib.sha256(
        f"{audience}\n{code}\n{project.settings.site_name}\n{sorted((downloads or {}).items())}".encode()
    )
    pages = pages if pages is not None else site_pages(project, audience, downloads)
    for relative, text in sorted(pages.files.items()):
        digest.update(relative.encode() + b"\0" + text.encode())
    for ruleset in project.rulesets:
        for file in ruleset.files:
            digest.update(file.encode() + (project.root / file).read_bytes())
        for name, text in sorted(ruleset.sources.items()):
            digest.update(name.encode() + text.encode())
    return digest.hexdigest()


def write_pages(pages: Pages, srcdir: Path) -> tuple[list[str], list[str]]:
    """Write changed pages and delete stale ones; return the paths written and removed."""
    written, removed = [], []
    srcdir.mkdir(parents=True, exist_ok=True)
    for relative, text in pages.files.items():
        path = srcdir / relative
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(relative)
    for path in srcdir.rglob("*.md"):
        if path.relative_to(srcdir).as_posix() not in pages.files:
            path.unlink()
            removed.append(path.relative_to(srcdir).as_posix())
    return written, removed


_DIRECTIVE = re.compile(
    r"^```\{rulepress\} (?P<section>\S+)(?: (?P<id>\S+))?\n(?P<options>(?::[a-z]+: .*\n)*)```", re.M
)


def input_path(srcdir: Path, ruleset_id: str, section: str, id: str = "", chapter: str = "") -> Path:
    """The file whose change means one ``rulepress`` directive must be read again: beside the pages,
    named by what the directive shows."""
    import hashlib

    name = hashlib.sha256(f"{ruleset_id}\0{section}\0{id}\0{chapter}".encode()).hexdigest()[:24]
    return Path(srcdir).parent / "inputs" / ruleset_id / f"{name}.sha"


_INPUTS_WRITTEN: dict[
    tuple[str, str, str], str
] = {}  # (srcdir, audience, ruleset id) -> what its inputs were written from


def write_inputs(project: Project, pages: Pages, srcdir: Path, audience: str) -> int:
    """For every ``rulepress`` directive of the pages, a file holding a hash of what it shows (its
    MyST, and what the roles in it read: names, titles and values of its ruleset), rewritten only
    when that hash changes. A directive depends on this file rather than on its whole YAML file,
    so a word changed in one rule makes Sphinx read again only the page that shows it (and the
    pages of an overlay that shows it too). Returns how many files changed.

    A process that builds again (`serve`) skips a ruleset whose files (and bases', and the generator)
    and directives are those it wrote the inputs from last time: rendering every entry is the cost."""
    changed = 0
    for ruleset_id, directives in _directives_by_ruleset(project, pages).items():
        ruleset = project.ruleset(ruleset_id)
        memo, key = (str(srcdir), audience, ruleset.id), _inputs_source(project, ruleset, directives)
        if _INPUTS_WRITTEN.get(memo) == key and input_path(srcdir, ruleset.id, "", "").parent.is_dir():
            continue
        _INPUTS_WRITTEN.pop(memo, None)
        context = _role_inputs(ruleset)
        for section, id, chapter in directives:
            try:
                entry = ruleset.get(section, id) if id else None
                shown = render_entry(ruleset, section, entry, audience, chapter)
            except KeyError:  # the directive itself says what is wrong; it depends on its YAML files
                continue
            changed += _write_if_changed(
                input_path(srcdir, ruleset.id, section, id, chapter or ""), _sha(audience, context, shown)
            )
        _INPUTS_WRITTEN[memo] = key
    return changed


def _directives_by_ruleset(project: Project, pages: Pages) -> dict:
    """Ruleset id -> the (section, id, chapter) of every ``rulepress`` directive showing it, in page order."""
    found: dict = {}
    for relative, text in pages.files.items():
        for match in _DIRECTIVE.finditer(text):
            options = dict(re.findall(r"^:([a-z]+): (.*)$", match["options"], re.M))
            try:
                ruleset = project.ruleset(options.get("ruleset") or relative.split("/")[0])
            except KeyError:
                continue
            found.setdefault(ruleset.id, []).append((match["section"], match["id"] or "", options.get("chapter")))
    return found


def _inputs_source(project: Project, ruleset: Ruleset, directives: list) -> str:

    return _sha(ruleset_key(project.root, ruleset, generator_hash()), repr(directives))


def _role_inputs(ruleset: Ruleset) -> str:
    """A hash of what the roles inside a directive's text read from its ruleset and the bases it extends (a role
    naming a base's entry prints its title and links to its page): every entry's id, title and audience (links and
    their text), the values (``{value}``) and the meta (banners)."""
    chain = [ruleset]
    while chain[-1].base is not None:
        chain.append(chain[-1].base)
    named = [
        (
            owner.id,
            section,
            e.id,
            entry_title(e),
            getattr(e, "term", ""),
            getattr(e, "spellings", ()),
            getattr(e, "audience", ""),
            gm_only(e),
        )
        for owner in chain
        for section, e in owner.all_entries()
    ]
    return _sha(repr(named), *(repr(owner.values) for owner in chain), repr(ruleset.meta))


def _sha(*parts: str) -> str:
    import hashlib

    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _write_if_changed(path: Path, text: str) -> int:
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return 0  # the same mtime: Sphinx reads no page for it
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return 1


@dataclass(frozen=True)
class SiteResult:
    outdir: Path
    pages_written: int
    warnings: str


def banners(gm: str) -> dict[str, str]:
    """The banner atop every page of the game-master's and the authors' sites (HTML; ``gm`` as written)."""
    own = escape(game_master_words(gm, possessive=True), quote=False)
    return {
        "gm": f'<span class="gm-banner">{escape(game_master_words(gm, start=True, possessive=True), quote=False)} '
        "copy</span> — with what players do not see",
        "author": f"<span class=\"gm-banner\">Authors' copy</span> — the {own}, with worked examples' code, "
        "formulas as written and the data format",
    }


def titles(gm: str) -> dict[str, str]:
    """What the game-master's and the authors' sites add to the site's name."""
    return {"gm": f" ({gm})", "author": " (authors)"}


def site_game_master(project: Project) -> str:
    """What a site calls the game-master: the rulesets' word (`declares: game_master:`), where they share one,
    else the neutral one (a site has one banner for every ruleset)."""
    words = {ruleset.game_master() for ruleset in project.rulesets if ruleset.meta.kind != "base"}
    return words.pop() if len(words) == 1 else GAME_MASTER


def site_language(project: Project) -> str:
    """The language a site's pages say they are in: the rulesets', where they share one, else English (Sphinx gives
    a site one language)."""
    languages = {ruleset.language for ruleset in project.rulesets}
    return languages.pop() if len(languages) == 1 else "en"


def sphinx_config(
    root: Path,
    audience: str,
    only: str = "",
    name: str = DEFAULT_SITE_NAME,
    language: str = "en",
    game_master: str = GAME_MASTER,
) -> dict:
    """Sphinx's settings for one audience's site; ``name`` is what the project calls it (``rulepress.yaml``), and
    ``language`` the tag its pages give (to browsers, screen readers and the search index), ``game_master`` what
    its banner and title call the game-master (:func:`site_game_master`)."""
    vendor = "vendor"  # sphinx-tippy adds these under _static/
    # furo prints the title raw in the navigation's heading (and escapes it, tags stripped first, in the tab): given
    # escaped, it reads as written in both, and no name makes markup of a page (`check` refuses `<` and `>` too)
    name = escape(name, quote=False)
    return {
        "project": name,
        "html_title": name + escape(titles(game_master).get(audience, ""), quote=False),
        "extensions": ["myst_parser", "sphinx_tippy", "generator.render.site"],
        "myst_enable_extensions": ["colon_fence", "deflist"],
        "myst_heading_anchors": 0,
        "html_theme": "furo",
        # the tab's icon (a die): without one every page asks the server for /favicon.ico and gets a 404
        "html_favicon": str(Path(__file__).parent / "static" / "favicon.svg"),
        "html_show_sourcelink": False,
        "html_show_copyright": False,
        "html_show_sphinx": False,  # a rules page credits its rules, not the tools that printed it
        "html_copy_source": False,
        "html_last_updated_fmt": None,
        "language": language,
        # quotes print as written, as in the PDFs: Sphinx would curl an inch mark (`6"`) into a closing quote
        "smartquotes": False,
        "rulepress_root": str(root),
        "rulepress_audience": audience,
        "rulepress_ruleset": only,
        "rulepress_search": True,  # Rulepress's search box and Pagefind's index (build_site makes it)
        "rulepress_code_hash": code_digest(),
        "tippy_js": (f"{vendor}/popper.min.js", f"{vendor}/tippy-bundle.umd.min.js"),
        "tippy_enable_wikitips": False,
        "tippy_enable_doitips": False,
        "tippy_props": {"placement": "auto-start", "maxWidth": 500, "interactive": True, "delay": [200, 100]},
        # app.add_*: a warm `serve` builds in a process where Sphinx ran before, and its nodes, roles and
        # directives are registered again; that is not a problem of the rules text
        "suppress_warnings": ["myst.header", "app.add_node", "app.add_directive", "app.add_role"],
        "exclude_patterns": [],
        # the game-master's and the authors' sites say so at the top of every page (furo's announcement banner)
        "html_theme_options": {"announcement": banners(game_master)[audience]} if audience in ("gm", AUTHORS) else {},
        "html_js_files": [  # furo's menu buttons, and boxes of wide tables, for the keyboard
            ("rulepress-menu.js", {"defer": "defer"}),
            ("rulepress-tables.js", {"defer": "defer"}),
        ],
    }


PLAN_FILE = "plan.json"  # beside the pages in the site cache: what every page links and names, as last built
_LABEL_LINE = re.compile(r"^\((?P<label>[^()\s]+)\)=$", re.M)
_TOCTREE = re.compile(r"^```\{toctree\}\n(?P<body>.*?)^```", re.M | re.S)


def site_plan(pages: Pages) -> dict:
    """What pages know of each other: the page of every label (links point there), and each page's title and
    toctrees (every page's navigation shows them). Sphinx reads again only pages whose text changed, so a page
    that links to a label that moved, or whose sidebar names a page whose title changed, would keep the old."""
    labels, navigation = {}, {}
    for relative, text in sorted(pages.files.items()):
        labels.update((match["label"], relative) for match in _LABEL_LINE.finditer(text))
        title = next((line for line in text.splitlines() if line.startswith("# ")), "")
        navigation[relative] = [title, [match["body"] for match in _TOCTREE.finditer(text)]]
    return {"labels": labels, "navigation": navigation}


def plan_changed(pages: Pages, path: Path) -> bool:
    """Whether a label the previous build's pages defined now sits elsewhere or nowhere, or the navigation
    changed (a new label changes no page built before); the new plan is written for the next build. A plan
    that cannot be read is a change: the site is built afresh."""
    import json

    plan = site_plan(pages)
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
        changed = old["navigation"] != plan["navigation"] or any(
            plan["labels"].get(label) != page for label, page in old["labels"].items()
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        changed = True
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(plan, sort_keys=True), encoding="utf-8")
    return changed


TIPPY_FETCHED = ("tippy_wiki_cache.json", "tippy_doi_cache.json", "tippy_rtd_cache.json")


def _forget_fetched_tips(html: Path) -> None:
    """sphinx-tippy keeps tooltips it fetched from the network in the output folder and reads them back with
    no care for an empty or broken file; this site fetches none (wiki, DOI and RTD tips are off), so each
    build starts without them, and the site a reader gets holds none (empty ones are written every build)."""
    for name in TIPPY_FETCHED:
        (html / name).unlink(missing_ok=True)


# What a site build imports beside Sphinx's own extensions: its HTML builder and English search, MyST, the tooltips,
# the theme and the search index. Loaded once by a process that builds each site in a fresh child
# (pipeline.workers.site_worker), every child has them: measured 0.2 s less a site after the first (homebrew's three
# sites 4.73 s -> 4.39 s).
SITE_MODULES = (
    "sphinx.builders.html",
    "sphinx.search.en",
    "myst_parser.parsers.sphinx_",
    "myst_parser.sphinx_ext.main",
    "myst_parser.sphinx_ext.directives",
    "myst_parser.sphinx_ext.mathjax",
    "myst_parser.sphinx_ext.myst_refs",
    "sphinx_tippy",
    "furo",
    "pagefind.service",
)


def load_site_modules() -> None:
    """Import what a site build uses, registering nothing: roles and directives are registered by an application's
    set-up (each extension's ``setup``), in the child that builds."""
    import importlib

    from sphinx import application

    first_party = getattr(application, "_first_party_extensions", ())  # Sphinx's own, not public: none if it goes
    for name in (*application.builtin_extensions, *first_party, *SITE_MODULES):
        importlib.import_module(name)


def build_site(
    project: Project,
    cache: Path,
    outdir: Path,
    audience: str = "player",
    downloads: dict | None = None,
    only: str = "",
    pages: Pages | None = None,
    index: bool = True,
) -> SiteResult:
    """Build the HTML site incrementally in ``cache`` and return where it is; warnings are errors.
    ``pages``: ``site_pages(project, audience, downloads)`` when the caller made them already (for the site's key);
    ``index``: False leaves Pagefind's index to the caller."""
    from sphinx.application import Sphinx

    srcdir, doctrees, html = cache / "src", cache / "doctrees", outdir
    pages = pages if pages is not None else site_pages(project, audience, downloads)
    moved = plan_changed(pages, cache / PLAN_FILE)
    written, removed = write_pages(pages, srcdir)
    write_inputs(project, pages, srcdir, audience)
    if removed or moved:  # Sphinx keeps the HTML of deleted pages, and rewrites no page for a link or title
        shutil.rmtree(html, ignore_errors=True)  # that moved elsewhere: start that output afresh
        shutil.rmtree(doctrees, ignore_errors=True)
    _forget_fetched_tips(html)
    status, warnings = io.StringIO(), io.StringIO()
    os.environ["DOCUTILSCONFIG"] = os.devnull  # no docutils.conf (./, ~/, /etc/) overrides the extension's settings
    app = Sphinx(
        str(srcdir),
        None,
        str(html),
        str(doctrees),
        "html",
        confoverrides=sphinx_config(
            project.root,
            audience,
            only,
            project.settings.site_name,
            site_language(project),
            site_game_master(project),
        ),
        status=status,
        warning=warnings,
        warningiserror=True,
        keep_going=True,
    )
    try:
        app.build()
    except Exception as error:  # Sphinx or an extension gave up on the pages: a message, never a traceback
        failed = f"the site build stopped: {type(error).__name__}: {' '.join(str(error).split())[:300]}"
        raise SiteFailed(_uncached(failed, srcdir, cache)) from None
    if app.statuscode or warnings.getvalue().strip():  # builds that warn are broken
        entries = getattr(app.env, "rulepress_entry_lines", {})
        raise SiteWarnings(
            located_warnings(warnings.getvalue(), srcdir, project, cache, entries) or "sphinx-build failed"
        )
    _forget_fetched_tips(html)
    if index:  # (serve indexes later, after the page is on disk)
        index_site(html)  # Pagefind's index of the built pages, in html/_pagefind
    return SiteResult(html, len(written), warnings.getvalue())


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_WARNING = re.compile(r"^(?P<where>.*?): (?P<level>WARNING|ERROR|CRITICAL|SEVERE): (?P<message>.*)$")
_PROSE_FIELDS = ("body", "definition", "summary", "description", "effect", "text", "title", "name", "term")


def located_warnings(
    text: str, srcdir: Path, project: Project, cache: Path | None = None, entries: dict | None = None
) -> str:
    """Sphinx's warnings about generated pages, each located in the YAML it came from.

    A warning inside an entry's text has a line from ENTRY_LINES * n on (see the ``rulepress``
    directive), and ``entries`` says which entry the n-th of its page is: the warning points at that
    entry's prose field. Any other warning points at the page's ruleset (or rules_src/). No path into
    the cache folder is ever printed as a location."""

    entries = entries or {}
    found = []
    for line in _ANSI.sub("", text).strip().splitlines():
        match = _WARNING.match(line)
        if not match:
            if line.strip():
                found.append("  " + _uncached(line.strip(), srcdir, cache))
            continue
        where, message = match["where"], _uncached(match["message"], srcdir, cache)
        path, _, number = where.rpartition(":")
        if not number.isdigit():
            path, number = where, "0"
        try:
            docname = Path(path).resolve().relative_to(srcdir.resolve()).with_suffix("").as_posix()
        except (ValueError, OSError):
            docname = ""
        ruleset_id, section, id = entries.get(
            f"{docname}:{int(number) // ENTRY_LINES}", (docname.split("/")[0], "", "")
        )
        location = Location("rules_src", 1, 1)
        try:
            ruleset = project.ruleset(ruleset_id)
            location = Location(ruleset.files[0] if ruleset.files else f"rules_src/{ruleset.id}", 1, 1)
            if id:
                entry = ruleset.get(section, id)
                field = next((f for f in _PROSE_FIELDS if f in entry.locs), None)
                location = value_loc(entry, field) if field else entry.loc
                message += f" (in {section} entry `{entry.id}`)"
        except (KeyError, IndexError, AttributeError):
            pass
        told = Diagnostic(Code.SITE_WARNING, message, location).format()
        if told not in found:  # Sphinx warns of a text once per place it prints (its page, the quick reference...)
            found.append(told)
    return "\n".join(found)


def _uncached(text: str, srcdir: Path, cache: Path | None) -> str:
    """``text`` with the cache folder's paths shown as page names (``page game/play.md``)."""
    for folder in (srcdir, srcdir.resolve(), *((cache, cache.resolve()) if cache is not None else ())):
        text = text.replace(str(folder) + "/", "page ").replace(str(folder), "the site")
    return text


class SiteWarnings(Exception):
    """Sphinx warned while building the site; the build is refused."""


class SiteFailed(Exception):
    """Sphinx or an extension raised while building the site: an internal error, not a problem of the rules text
    (which `check` and Sphinx's warnings report, located). The site's cache is not sealed, so the next build
    starts that site afresh."""
