"""Search players can trust: a Pagefind index of each built site, scoped to the ruleset being read.

Pages are marked for Pagefind as Sphinx writes them:

- ``data-pagefind-body`` wraps the article only (never navigation, sidebar or footer), with a
  ``ruleset`` filter naming the page's ruleset; author pages (names for worked examples, the format
  reference) are left out of the index;
- each section heading gets an id ``<type>--<section id>``: Pagefind makes a sub-result of every
  heading with an id, and the search box shows the type (rule, table, term, spell, sheet...) from it;
  every such section that matches is a result of its own, ranked by the tier of its type
  (:data:`RESULT_TYPES`: rules, terms, tables, spells and the other entries first, numbers and formulas
  last), and the box filters them by type and shows them all, a few more at a time;
- code, the "how this is checked" details, source lines and chart grids carry ``data-pagefind-ignore``,
  so snippets never show code, file names or a flattened chart.

After Sphinx, :func:`index_site` runs Pagefind's own binary (the ``pagefind[extended]`` package) on the
built folder alone; the index lands in ``<site>/_pagefind``. Pagefind has no synonyms, so the search
box (``static/rulepress-search.js``) also searches each spelling variant and merges the results: the
common British and American spellings below ("armor" finds the texts' "armour"), and the one-word
differences between each glossary term and its aliases, so a ruleset that lists "Grey" as an alias of
its "Gray" finds one from the other. The box runs as a classic script, so a page opened from a file (where
Pagefind cannot load) still says that search needs the site served, and offers the pages and sections whose
titles match, and the ruleset's contents and glossary (:func:`fallback_links`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from ..present import for_audience
from .state import model

TEMPLATES = Path(__file__).parent / "templates"
INDEX_DIR = "_pagefind"  # beside the pages, served by the site itself

# spelling variant -> the other spelling; the search box tries both ways. Ordinary English only:
# a game's own spellings come from its glossary's aliases.
VARIANTS = {
    "armor": "armour",
    "armors": "armours",
    "armored": "armoured",
    "color": "colour",
    "colors": "colours",
    "colored": "coloured",
    "maneuver": "manoeuvre",
    "maneuvers": "manoeuvres",
    "defense": "defence",
    "honor": "honour",
    "valor": "valour",
}

# The kind in a Rulepress label (``<ruleset>-<kind>-<id>``) -> the type a result shows.
TYPES = {
    "rules": "rule",
    "tables": "table",
    "lookups": "table",
    "charts": "chart",
    "glossary": "term",
    "spells": "spell",
    "profiles": "profile",
    "keywords": "special rule",
    "heroes": "hero",
    "items": "item",
    "armies": "army",
    "costs": "army",
    "army-limits": "army",
    "victory-points": "victory points",
    "values": "number",
    "formulas": "formula",
    "phases": "turn",
    "chapters": "chapter",
}
# Pages of a ruleset named by ``page`` labels: the type of their text before any entry.
PAGE_TYPES = {
    "glossary": "term",
    "spells": "spell",
    "keywords": "special rule",
    "heroes": "hero",
    "items": "item",
    "army": "army",
    "victory-points": "victory points",
    "lookups": "table",
    "charts": "chart",
    "values": "number",
    "formulas": "formula",
    "examples": "example",
    "index": "overview",
}
# Every type a result can show, in the order the type filter lists them, with the filter's label and the tier the
# results are ranked in: what players look up (rules, terms, tables, spells and the other entries) first, then
# pages that gather them, then the numbers and formulas behind the rules. Within a tier a result whose title is
# the words searched for comes first, then Pagefind's own score of the section.
RESULT_TYPES = {
    "rule": ("Rules", 0),
    "term": ("Terms", 0),
    "table": ("Tables", 0),
    "spell": ("Spells", 0),
    "chart": ("Charts", 0),
    "special rule": ("Special rules", 0),
    "profile": ("Profiles", 0),
    "hero": ("Heroes", 0),
    "item": ("Items", 0),
    "army": ("Armies", 0),
    "victory points": ("Victory points", 0),
    "turn": ("Turn", 0),
    "chapter": ("Chapters", 1),
    "overview": ("Overviews", 1),
    "sheet": ("Sheets", 1),
    "example": ("Examples", 1),
    "page": ("Pages", 1),
    "number": ("Numbers", 2),
    "formula": ("Formulas", 2),
}
UNINDEXED_PAGES = ("names",)  # author pages: every name a worked example can use, with code

# Opening tags whose element (and everything in it) stays out of the index and its snippets.
_IGNORED = re.compile(r"<(?P<tag>div|details|pre|table|span|code|p|aside|a)(?P<attrs>\s[^>]*?)?>")
_IGNORED_CLASSES = re.compile(
    r'class="(?:[^"]*\s)?(?:highlight(?:-[\w-]+)?|verified-example|formula-expression|how-checked|source-cite|'
    r'rulepress-charts|chart-grid|headerlink)(?:\s[^"]*)?"'
)
_PLAIN_LITERAL = 'class="docutils literal notranslate"'  # code and file names; values are `rp-value` literals


def search_ruleset(app: Sphinx, pagename: str):
    """The ruleset a page belongs to (a ruleset's folder, or a cheat sheet named after it), or None."""
    try:
        project = model(app.env).project
    except (KeyError, RuntimeError):
        return None
    first, _, rest = pagename.partition("/")
    ids = sorted((r.id for r in project.rulesets), key=len, reverse=True)
    if first == "sheets":
        found = next((i for i in ids if rest.startswith(i + "-")), None)
    else:
        found = first if rest and first in ids else None
    return project.ruleset(found) if found else None


def _type_of(section_id: str, ruleset_id: str, default: str) -> str:
    prefix = ruleset_id.replace("_", "-") + "-"
    if not section_id.startswith(prefix):
        return default
    rest = section_id[len(prefix) :]
    if rest.startswith("page-"):
        return PAGE_TYPES.get(rest[len("page-") :], default)
    for kind in sorted(TYPES, key=len, reverse=True):
        if rest.startswith(kind + "-"):
            return TYPES[kind]
    return default


def mark_headings(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give each section heading an id naming the section's result type (``rule--<section id>``)."""
    ruleset = search_ruleset(app, docname) if ours(app) else None
    if ruleset is None:
        return
    default = "sheet" if docname.startswith("sheets/") else "page"

    def walk(node: nodes.Element, inherited: str) -> None:
        for section in node.children:
            if not isinstance(section, nodes.section):
                continue
            kind = inherited
            if default != "sheet":
                kind = next((t for t in (_type_of(id, ruleset.id, "") for id in section["ids"]) if t), inherited)
            title = section.next_node(nodes.title)
            if title is not None and section["ids"] and not title["ids"]:
                title["ids"].append(f"{kind.replace(' ', '-')}--{section['ids'][0]}")
            walk(section, kind)

    walk(doctree, default)


def mark_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Tell the page template what to mark for Pagefind, and mark what the index must skip."""
    context["rp_search_box"] = ours(app)
    if not ours(app):
        context["rp_search_indexed"] = False
        return
    ruleset = search_ruleset(app, pagename)
    context["rp_search_ruleset"] = ruleset.title if ruleset is not None else ""
    context["rp_search_short"] = (ruleset.meta.short_title or ruleset.title) if ruleset is not None else ""
    name = pagename.rpartition("/")[2]
    context["rp_search_type"] = (
        "sheet"
        if pagename.startswith("sheets/")
        else PAGE_TYPES.get(
            name.removesuffix("-list"),
            "chapter" if ruleset is not None and name in {c.id for c in ruleset.chapters} else "page",
        )
    )
    indexed = ruleset is not None and pagename.rpartition("/")[2] not in UNINDEXED_PAGES
    context["rp_search_indexed"] = indexed
    context["rp_search_fallback"] = fallback_links(app, pagename, ruleset)
    if indexed and "body" in context:
        context["body"] = ignore_for_search(context["body"])


def fallback_links(app: Sphinx, pagename: str, ruleset) -> list[tuple[str, str]]:
    """What the search box offers where Pagefind cannot load (a page opened from a file): the ruleset's
    contents and glossary, and the site's front page, as (label, link relative to ``pagename``)."""
    docs = app.env.found_docs
    wanted = []
    if ruleset is not None:
        short = ruleset.meta.short_title or ruleset.title
        wanted += [(f"{ruleset.id}/index", f"{short}: contents"), (f"{ruleset.id}/glossary", f"{short}: glossary")]
    wanted.append(("index", "Every ruleset"))
    return [(label, app.builder.get_relative_uri(pagename, doc)) for doc, label in wanted if doc in docs]


def ignore_for_search(html: str) -> str:
    """``html`` with ``data-pagefind-ignore`` on code, how-checked details, source lines and chart grids."""

    def mark(match: re.Match) -> str:
        attrs = match["attrs"] or ""
        tag = match["tag"]
        if "data-pagefind-ignore" in attrs:
            return match[0]
        if tag == "pre" or _IGNORED_CLASSES.search(attrs) or (tag == "code" and _PLAIN_LITERAL in attrs):
            return f"<{tag}{attrs} data-pagefind-ignore>"
        return match[0]

    return _IGNORED.sub(mark, html)


def glossary_variants(terms) -> dict[str, str]:
    """Word -> other spelling, from glossary aliases that differ from their term in one word only
    ("Grey knight" for "Gray knight" gives gray -> grey)."""
    found: dict[str, str] = {}
    for term in terms:
        words = term.term.lower().split()
        for alias in term.aliases:
            other = alias.lower().split()
            changed = [(a, b) for a, b in zip(words, other) if a != b]
            if len(other) == len(words) and len(changed) == 1:
                found.setdefault(*changed[0])
    return found


def variants_json(terms=()) -> str:
    """Every spelling pair, both ways; the engine's common ones win over a glossary's."""
    pairs = {**glossary_variants(terms), **VARIANTS}
    both = {**{b: a for a, b in pairs.items()}, **pairs}
    return json.dumps(both, sort_keys=True)


def types_json() -> str:
    """The result types in the type filter's order, each with its label and ranking tier."""
    return json.dumps([{"type": t, "label": label, "tier": tier} for t, (label, tier) in RESULT_TYPES.items()])


VARIANTS_FILE = "rulepress-variants.js"


def _write_variants(app: Sphinx, exception) -> None:
    """The spellings and the result types as a static script, written on every build: a changed alias reaches
    pages Sphinx did not rewrite. Left as it is when unchanged, so an unchanged site keeps its files."""
    if exception is not None or app.builder.format != "html" or not ours(app):
        return
    target = Path(app.outdir, "_static", VARIANTS_FILE)
    text = (
        f"window.RULEPRESS_VARIANTS = {variants_json(_glossary_terms(app))};\n"
        f"window.RULEPRESS_TYPES = {types_json()};\n"
    )
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def _glossary_terms(app: Sphinx) -> list:
    """The glossary terms the site shows (a player site leaves out the game-master's)."""
    try:
        project = model(app.env).project
    except (KeyError, RuntimeError, AttributeError):
        return []
    return [
        term for ruleset in project.rulesets for term in for_audience(ruleset.glossary, app.config.rulepress_audience)
    ]


def ours(app: Sphinx) -> bool:
    """Whether the site searches with Rulepress's box (``rulepress_search = True``: Rulepress's own sites) rather than
    its theme's own search (a Sphinx project of one's own, unless it opts in and makes the index: README)."""
    return bool(app.config.rulepress_search)


def install_search(app: Sphinx) -> None:
    app.add_config_value("rulepress_search", False, "env")
    app.connect("config-inited", _templates)
    app.connect("builder-inited", _no_sphinx_search)
    app.connect("doctree-resolved", mark_headings)
    app.connect("html-page-context", mark_page)
    app.connect("env-updated", _variants_before_pages)
    app.connect("build-finished", _write_variants)


def _variants_before_pages(app: Sphinx, env) -> list:
    """The spellings written before any page is: a page links its scripts with a checksum of the file
    (``?v=``), so a file written only after the pages would give a first build's pages links that the
    next build changes, and pages Sphinx writes again would differ from untouched ones for no reason."""
    _write_variants(app, None)
    return []


def _templates(app: Sphinx, config) -> None:
    config.templates_path = [str(TEMPLATES), *config.templates_path]


def _no_sphinx_search(app: Sphinx) -> None:
    """One search on the site: Pagefind's. Sphinx writes no search page or index of its own, and its inventory
    names no search page (`search` in objects.inv would be a dead link for intersphinx)."""
    if not ours(app):
        return
    labels = app.env.domains.standard_domain
    labels.labels.pop("search", None)
    labels.anonlabels.pop("search", None)
    if hasattr(app.builder, "search"):
        app.builder.search = False
    app.add_js_file(VARIANTS_FILE, priority=900)
    # A classic script, deferred: Chromium refuses module scripts on a page opened from a file, and the box must
    # still run there to say that search needs the site served.
    app.add_js_file("rulepress-search.js", defer="defer", priority=901)
    app.add_css_file("rulepress-search.css")


# -- the index -------------------------------------------------------------------------------
class SearchIndexError(Exception):
    """Pagefind could not index the built site."""


def pagefind_binary() -> Path:
    try:
        from pagefind.service import get_executable
    except ImportError:
        raise SearchIndexError(
            "the search index needs Pagefind: the Python package `pagefind[extended]==1.5.2` "
            "is not installed (`make build` installs it)"
        ) from None
    binary = get_executable()
    if binary is None or not Path(binary).is_file():
        raise SearchIndexError(
            "the search index needs Pagefind's binary, and none was found: install "
            "`pagefind[extended]==1.5.2` (it brings `pagefind_bin_extended`)"
        )
    return Path(binary)


def index_site(site: Path) -> Path:
    """Index the built ``site`` with Pagefind into ``site/_pagefind``; only that folder is read.

    Pagefind runs in the site folder with no PAGEFIND_* settings from the environment, so neither a
    configuration file elsewhere nor a variable changes what it reads; it fetches nothing."""
    binary = pagefind_binary()
    target = site / INDEX_DIR
    shutil.rmtree(target, ignore_errors=True)  # no fragment of an earlier index survives
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGEFIND_")}
    try:
        done = subprocess.run(
            [str(binary), "--site", ".", "--output-subdir", INDEX_DIR, "--silent"],
            cwd=site,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    except OSError as error:
        raise SearchIndexError(
            f"the search index could not be built: Pagefind ({binary}) did not start: {error.strerror or error}"
        ) from None
    except subprocess.TimeoutExpired:
        raise SearchIndexError("the search index could not be built: Pagefind took over 10 minutes") from None
    if done.returncode != 0 or not (target / "pagefind.js").is_file():
        said = " ".join((done.stderr or done.stdout or "").split())[:300]
        raise SearchIndexError(
            f"the search index could not be built: Pagefind exited with {done.returncode}"
            + (f": {said}" if said else "")
        )
    stable_index(target)
    return target


# -- the same bytes from every build ---------------------------------------------------------------
# Pagefind writes a filter's values in hash-map order, which changes from run to run; everything else it
# writes is stable. The filter chunks are rewritten with their values sorted, renamed by their content,
# and the metadata file that names them (and the entry file that names it) follow.
_MAGIC = b"pagefind_dcd"


def _cbor_read(data: bytes, at: int):
    head = data[at]
    major, info = head >> 5, head & 31
    at += 1
    if info < 24:
        value = info
    else:
        size = {24: 1, 25: 2, 26: 4, 27: 8}[info]
        value = int.from_bytes(data[at : at + size], "big")
        at += size
    if major == 0:
        return value, at
    if major in (2, 3):
        raw = data[at : at + value]
        return (raw.decode("utf-8") if major == 3 else raw), at + value
    if major == 4:
        items = []
        for _ in range(value):
            item, at = _cbor_read(data, at)
            items.append(item)
        return items, at
    raise ValueError(f"unexpected CBOR major type {major} in a Pagefind filter chunk")


def _cbor_head(major: int, value: int) -> bytes:
    if value < 24:
        return bytes([major << 5 | value])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * size):
            return bytes([major << 5 | info]) + value.to_bytes(size, "big")
    raise ValueError("CBOR value too large")


def _cbor_write(value) -> bytes:
    if isinstance(value, int):
        return _cbor_head(0, value)
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return _cbor_head(3, len(raw)) + raw
    if isinstance(value, bytes):
        return _cbor_head(2, len(value)) + value
    return _cbor_head(4, len(value)) + b"".join(_cbor_write(v) for v in value)


def _gzip(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, compresslevel=9, mtime=0)


def _filters_in_order(meta: bytes, name: str) -> bytes:
    """Pagefind's metadata with its filters listed by name: it lists them in hash-map order too, so a site with
    two filters would otherwise give one of two files at random."""
    value, end = _cbor_read(meta, len(_MAGIC)) if meta.startswith(_MAGIC) else (None, -1)
    if end != len(meta) or not (isinstance(value, list) and len(value) > 3 and isinstance(value[3], list)):
        raise SearchIndexError(f"the search index could not be made reproducible: unknown metadata {name}")
    value[3] = sorted(value[3], key=lambda pair: pair[0])
    return _MAGIC + _cbor_write(value)


def stable_index(index: Path) -> None:
    """Make Pagefind's output in ``index`` the same bytes on every run (filter values sorted)."""
    import gzip
    import hashlib

    renamed: dict[str, str] = {}
    for chunk in sorted((index / "filter").glob("*.pf_filter")):
        data = gzip.decompress(chunk.read_bytes())
        if not data.startswith(_MAGIC):
            raise SearchIndexError(
                f"the search index could not be made reproducible: unknown filter chunk {chunk.name}"
            )
        value, end = _cbor_read(data, len(_MAGIC))
        if end != len(data) or not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], list)):
            raise SearchIndexError(
                f"the search index could not be made reproducible: unknown filter chunk {chunk.name}"
            )
        value[1] = sorted(value[1], key=lambda pair: pair[0])
        data = _MAGIC + _cbor_write(value)
        language, _, old = chunk.stem.partition("_")
        new = hashlib.sha256(data).hexdigest()[: len(old)]
        chunk.unlink()
        (index / "filter" / f"{language}_{new}.pf_filter").write_bytes(_gzip(data))
        renamed[old] = new
    entry_path = index / "pagefind-entry.json"
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    for language in entry["languages"].values():
        meta_path = index / f"pagefind.{language['hash']}.pf_meta"
        data = gzip.decompress(meta_path.read_bytes())
        for old, new in renamed.items():
            data = data.replace(old.encode(), new.encode())
        data = _filters_in_order(data, meta_path.name)
        prefix, _, old_hash = language["hash"].partition("_")
        new_hash = f"{prefix}_{hashlib.sha256(data).hexdigest()[: len(old_hash)]}"
        meta_path.unlink()
        (index / f"pagefind.{new_hash}.pf_meta").write_bytes(_gzip(data))
        language["hash"] = new_hash
    entry_path.write_text(json.dumps(entry, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
