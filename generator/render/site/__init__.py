"""Sphinx extension: directives and roles that render a Rulepress model.

Use it in any Sphinx project with ``extensions = ["myst_parser", "generator.render.site"]``
and ``rulepress_root = "/path/to/project"`` (the folder holding ``rules_src/``). Then::

    ```{rulepress} tables my_table
    :ruleset: my_game
    ```

renders the roll table with the odds of each row (``values``, ``formulas``, ``lookups``
and ``charts`` too: a chart's grid with the exact odds of every cell). The
``{value}`id``` role prints a value as the text gives it (a house rule marked, with
the original). Directives write MyST text
from the model and parse it (as MyST-Parser's own docs do), and register the
entry's YAML file as a dependency so an incremental build redoes only the
pages whose data changed.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from ...diagnostics import did_you_mean
from ...model.ruleset import ROLE_SECTIONS, term_names
from ..present import (
    GAP_DASH,
    GAP_NOTE,
    GAP_NOTE_MARK,
    entry_title,
    minus_text,
    named_roll_text,
    reference_title,
)
from ..prose import HOUSE_RULE, value_parts
from ..worked import CHECKED_PAGE, CHECKED_TEXT, CHECKED_TITLE
from . import myst
from .army import setup_army
from .calculator import setup_calculators
from .charts import setup_charts
from .embedded import add_html_node
from .myst import ENTRY_LINES, render_entry
from .pages import AUTHOR_AUDIENCE, PRINTOUTS, input_path
from .phone import setup_phone
from .reproducible import setup_reproducible
from .search import install_search
from .state import init_model as _init_model
from .state import model as _model

STATIC = Path(__file__).parent / "static"
logger = logging.getLogger(__name__)
_EXPLICIT = re.compile(r"(?s)^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")


def _ruleset_of(env, explicit: str | None = None) -> str:
    """The ruleset a page's roles and directives read: the one named, else the one whose text the ``rulepress``
    directive being parsed shows (its `:ruleset:`), else the page's folder's."""
    return explicit or env.temp_data.get(_SHOWN_RULESET) or env.docname.split("/")[0]


_SHOWN_RULESET = "rulepress_shown_ruleset"  # env.temp_data: the ruleset of the entry a directive is parsing
# env.temp_data: the directive being parsed sits on a page of one's own project, which need not show every entry its
# text refers to: a reference to one no page shows reads as its text, unlinked (Rulepress's own site shows them all)
_UNPLACED = "rulepress_unplaced"
LISTED = 12  # ids a directive's error names at most


def _some(names) -> str:
    names = list(names)
    more = f" and {len(names) - LISTED} more" if len(names) > LISTED else ""
    return ", ".join(f"`{n}`" for n in names[:LISTED]) + more


# -- directives -----------------------------------------------------------------------------
class RulepressDirective(SphinxDirective):
    """```{rulepress} SECTION [ID]``` renders one entry, or a whole section's summary. What it cannot show (a
    ruleset, section or id that is not there) is an error at the directive, saying what there is."""

    required_arguments = 1
    optional_arguments = 1
    option_spec = {"ruleset": directives.unchanged, "chapter": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        ruleset, section, entry = self._shown()
        audience = self.config.rulepress_audience
        for path in self._files(ruleset, entry):
            self.env.note_dependency(str(path))
        text = render_entry(ruleset, section, entry, audience, self.options.get("chapter"))
        container = nodes.container()
        # The entry's text gets lines from ENTRY_LINES * (its number on the page) on, and the environment
        # remembers which entry that number is: a warning about the text points at the YAML
        # (pages.located_warnings), never at the generated page in the cache.
        number = self.env.temp_data.get("rulepress_entries", 0) + 1
        self.env.temp_data["rulepress_entries"] = number
        if not isinstance(getattr(self.env, "rulepress_entry_lines", None), dict):
            self.env.rulepress_entry_lines = {}
        self.env.rulepress_entry_lines[f"{self.env.docname}:{number}"] = (
            ruleset.id,
            section,
            entry.id if entry is not None else "",
        )
        targets = self._own_page_targets(ruleset, section, entry)
        outer = {key: self.env.temp_data.get(key) for key in (_SHOWN_RULESET, _UNPLACED)}
        self.env.temp_data[_SHOWN_RULESET] = ruleset.id  # the entry's roles read its ruleset, wherever the page is
        self.env.temp_data[_UNPLACED] = targets is not None
        try:
            self.state.nested_parse(
                StringList(text.splitlines(), self.get_source_info()[0]), ENTRY_LINES * number, container
            )
        finally:
            for key, value in outer.items():
                if value is None:
                    self.env.temp_data.pop(key, None)
                else:
                    self.env.temp_data[key] = value
        # No wrapper in the page: hover previews (sphinx-tippy) show the paragraph right under a heading.
        for table in container.findall(nodes.table):
            table["classes"] += ["rulepress-table", f"rulepress-{section.replace('_', '-')}"]
        return [*(targets or []), *container.children]

    def _own_page_targets(self, ruleset, section, entry) -> list[nodes.Node] | None:
        """On a page of one's own Sphinx project, the label of the entry shown, so that references to it (a spell's
        to its table) link here; the first place it is shown keeps it. None on Rulepress's own pages, which label every
        entry before its directive."""
        shown = [entry] if entry is not None else list(ruleset.section(section))
        labels = [myst.label(ruleset.id, section, e.id) for e in shown]
        if any(name in self.state.document.ids for name in labels):
            return None
        if entry is None:
            return []
        name = labels[0]
        known = self.env.domains.standard_domain.anonlabels
        if name in known:  # shown on a page before: that page keeps the label
            return []
        known[name] = (self.env.docname, name)
        return [nodes.target("", "", ids=[name])]

    def _shown(self):
        """The ruleset, section and entry (None: the whole section) this directive shows; what is not there is
        a DirectiveError, which docutils reports at the directive."""
        try:
            project = _model(self.env).project
        except RuntimeError as error:  # rules_src has errors, or is not there
            raise self.error(f"rulepress: cannot read the project at rulepress_root: {error}") from None
        named = self.options.get("ruleset")
        ids = [r.id for r in project.rulesets]
        if not ids:
            raise self.error(f"rulepress: `rulepress_root` ({project.root}) has no ruleset in its rules_src/")
        try:
            ruleset = project.ruleset(_ruleset_of(self.env, named))
        except KeyError:
            if named:
                close = did_you_mean(named, ids)
                raise self.error(
                    f"rulepress: no ruleset `{named}`" + (f"; {close}" if close else "") + f" (there are: {_some(ids)})"
                ) from None
            raise self.error(
                f"rulepress: which ruleset? give `:ruleset:` (one of {_some(ids)}), or put the page in a folder "
                "named after its ruleset"
            ) from None
        section = self.arguments[0]
        if section not in myst.SHOWN_SECTIONS:
            close = did_you_mean(section, myst.SHOWN_SECTIONS)
            raise self.error(
                f"rulepress: no section `{section}` to show"
                + (f"; {close}" if close else "")
                + f" (the sections are: {', '.join(myst.SHOWN_SECTIONS)})"
            )
        available = [e.id for e in ruleset.reachable(section)]
        if len(self.arguments) < 2:
            if section not in myst.LIST_WRITERS:
                raise self.error(
                    f"rulepress: `{section}` shows one entry: give its id after the section"
                    + (f" (one of {_some(available)})" if available else f" ({ruleset.id} has no {section})")
                )
            return ruleset, section, None
        try:
            entry = ruleset.get(section, self.arguments[1])
        except KeyError as error:
            listed = f" (its {section}: {_some(available)})" if available else f" ({ruleset.id} has no {section})"
            raise self.error(f"rulepress: {error.args[0]}{listed}") from None
        audience = self.config.rulepress_audience
        if not myst.visible_to(entry, audience):
            raise self.error(
                f"rulepress: {section} entry `{entry.id}` of {ruleset.id} is the game-master's, and this site's "
                f"`rulepress_audience` is `{audience}`: it is shown on a site whose audience is `gm` or `author`"
            )
        return ruleset, section, entry

    def _files(self, ruleset, entry):
        shown = input_path(
            Path(self.env.srcdir),
            ruleset.id,
            self.arguments[0],
            entry.id if entry is not None else "",
            self.options.get("chapter") or "",
        )
        if (
            shown.is_file()
        ):  # written by build_site: what this directive shows, so only its own change re-reads the page
            return [shown]
        root = _model(self.env).root
        if entry is not None:
            return [root / entry.loc.path]
        return [root / f for f in ruleset.files]


class how_checked(nodes.General, nodes.Element):
    """A worked example's code, for the curious: a closed box after the sentence it checks."""


def _visit_how_checked(self, node) -> None:
    # data-pagefind-ignore: search indexes the sentence players read, never the code
    self.body.append(f'<details class="how-checked" data-pagefind-ignore><summary>{node["summary"]}</summary>')


def _depart_how_checked(self, node) -> None:
    self.body.append("</details>")


class VerifiedExample(SphinxDirective):
    """A worked example's code, in a closed "How this is checked" box on the authors' site; players and the
    game-master read only the sentence before it. `rulepress build` fails if any example fails.

    An overlay's pages show its base's examples, run under its house values: where those give another
    result, the sentence says both results (the text's and the house rules') instead of a checked mark.
    """

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        if not for_authors(self.env):
            return []
        code = "\n".join(self.content)
        literal = nodes.literal_block(code, code, language="pycon")
        note = nodes.paragraph("", self._note(), classes=["verified-note"])
        box = how_checked("", note, literal, classes=["verified-example"])
        box["summary"] = "How this is checked"
        return [box]

    def _note(self) -> str:
        try:
            overlay = _model(self.env).project.ruleset(_ruleset_of(self.env)).meta.overlay
        except (KeyError, RuntimeError):
            overlay = False
        if overlay:
            return (
                "Run against these house rules' values on every build; where they give another result than "
                "the text, the sentence above says both:"
            )
        return "Run against the rules model on every build; a build with a failing example is refused:"


def checked_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """{checked}`✓`: on the authors' site, the mark after a sentence whose result a worked example checks
    (the other sites say it once a page: :func:`checked_page_note`)."""
    if not for_authors(inliner.document.settings.env):
        return [], []
    return [nodes.abbreviation(rawtext, CHECKED_TEXT, explanation=CHECKED_TITLE, classes=["checked"])], []


def for_authors(env) -> bool:
    """Whether this is the authors' site, the one that shows how each number is checked."""
    return env.config.rulepress_audience == AUTHOR_AUDIENCE


def checked_page_note(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Players and the game-master read once a page, in its footer, that its numbers are checked (the authors'
    site marks each checked sentence and shows its code instead)."""
    shown = not for_authors(app.env) and doctree is not None and pagename != "index"
    context["rp_checked_note"] = CHECKED_PAGE if shown else ""


# -- roles ------------------------------------------------------------------------------------


def _xref_role(kind: str):
    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        env = inliner.document.settings.env
        match = _EXPLICIT.match(text)
        title, target = (match["title"], match["target"].strip()) if match else ("", text.strip())
        ruleset, failed = _role_ruleset(env, rawtext, lineno, inliner)
        if failed:
            return failed
        if kind == "entry":
            section, _, id = target.partition(".")
        elif kind == "term":
            section = "glossary"
            spellings = term_names(ruleset)
            id = spellings.get(target.casefold(), target)
        else:
            section, id = ROLE_SECTIONS[kind], target
        try:
            owner, entry = ruleset.linked(section, id)  # a base's entry links to the base's page
        except KeyError:
            if kind == "term":
                there = sorted({e.term for e in ruleset.reachable(section)})
            elif kind == "entry":
                there = [f"{s}.{e.id}" for s in ROLE_SECTIONS.values() for e in ruleset.reachable(s)]
            else:
                there = [e.id for e in ruleset.reachable(section)] if section in ROLE_SECTIONS.values() else []
            return _not_there(inliner, rawtext, lineno, f"no {section} entry `{target}` in {ruleset.id}", target, there)
        if not myst.visible_to(entry, env.config.rulepress_audience):  # check refuses this; never show it anyway
            return [nodes.inline(myst.HIDDEN_REFERENCE, myst.HIDDEN_REFERENCE, classes=["gm-hidden"])], []
        shown = title or reference_title(entry, target)
        node = addnodes.pending_xref(
            rawtext,
            nodes.inline(shown, shown, classes=["xref", f"rp-{kind}"]),
            refdomain="",
            reftype="rulepress",
            reftarget=myst.label(owner.id, section, entry.id),
            refexplicit=True,
            refdoc=env.docname,
        )
        if env.temp_data.get(_UNPLACED):
            node["rulepress_unplaced"] = True
        return [node], []

    return role


def _page_ruleset(env):
    """The ruleset a role reads (``_ruleset_of``), or None when the page names none. Outside a directive (whose
    own dependency covers the roles in its text), the page depends on that ruleset's files, so an incremental build
    reads it again when they change; a :class:`RuntimeError` when the project cannot be read."""
    try:
        project = _model(env).project
    except RuntimeError:  # rules_src has errors: the page is read again once any of its files changes
        for path in _project_files(_model(env).root):
            env.note_dependency(str(path))
        raise
    try:
        ruleset = project.ruleset(_ruleset_of(env))
    except KeyError:
        return None
    if env.temp_data.get(_SHOWN_RULESET) is None:
        for path in _ruleset_files(_model(env).root, ruleset):
            env.note_dependency(str(path))
    return ruleset


def _ruleset_files(root: Path, ruleset) -> list[Path]:
    """The files a ruleset is read from: its own, those of the ruleset it extends or overlays, and theirs."""
    files, seen, todo = [], set(), [ruleset]
    while todo:
        current = todo.pop()
        if current is None or current.id in seen:
            continue
        seen.add(current.id)
        files += [root / name for name in (*current.files, *current.mechanics)]
        todo += [current.base, current.original]
    return files


def _project_files(root: Path) -> list[Path]:
    """Every rules file of a project (what a page depends on when the project does not read)."""
    folder = root / "rules_src"
    return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml", ".py")) if folder.is_dir() else []


def _role_ruleset(env, rawtext: str, lineno: int, inliner):
    """The ruleset a role reads, or the nodes and messages of the error the role is instead: the page names no
    ruleset, or the project does not read (an error at the role, as at a directive; the build goes on)."""
    try:
        ruleset = _page_ruleset(env)
    except RuntimeError as error:
        message = inliner.reporter.error(f"rulepress: cannot read the project at rulepress_root: {error}", line=lineno)
        return None, ([inliner.problematic(rawtext, rawtext, message)], [message])
    if ruleset is None:
        return None, _no_ruleset(env, rawtext, lineno, inliner)
    return ruleset, None


def _no_ruleset(env, rawtext: str, lineno: int, inliner):
    """A role on a page of no ruleset: an error where it is written."""
    ids = ", ".join(f"`{r.id}`" for r in _model(env).project.rulesets)
    message = inliner.reporter.error(
        f"rulepress: {rawtext} reads the ruleset its page's folder is named after, and this page is in no "
        f"ruleset's folder (the rulesets: {ids})",
        line=lineno,
    )
    return [inliner.problematic(rawtext, rawtext, message)], [message]


def resolve_reference(app: Sphinx, env, node, contnode):
    """Resolve our cross-references to the labels the pages define, keeping the link's classes."""
    if node.get("reftype") != "rulepress":
        return None
    from sphinx.util.nodes import make_refnode

    target = node["reftarget"]
    found = env.domains.standard_domain.anonlabels.get(target)
    if found is None:
        if not node.get("rulepress_unplaced"):
            logger.warning("rulepress: no page defines %s", target, location=node)
        return None
    docname, labelid = found
    return make_refnode(app.builder, node["refdoc"], docname, labelid, contnode)


_title = entry_title  # the one function for an entry's display text (present.py)


def value_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """{value}`id`: the value as the text gives it; a gap when not given; a house rule marked, with the original."""
    env = inliner.document.settings.env
    ruleset, failed = _role_ruleset(env, rawtext, lineno, inliner)
    if failed:
        return failed
    try:
        if not myst.visible_to(ruleset.value(text.strip()), env.config.rulepress_audience):
            return [nodes.inline(myst.HIDDEN_REFERENCE, myst.HIDDEN_REFERENCE, classes=["gm-hidden"])], []
        shown, history, note = value_parts(ruleset, text.strip())
    except KeyError:
        there = [v.id for v in ruleset.reachable("values")]
        return _not_there(
            inliner, rawtext, lineno, f"no values entry `{text.strip()}` in {ruleset.id}", text.strip(), there
        )
    if shown is None:
        value = gap_node()
    else:
        value = nodes.literal(shown, shown, classes=["rp-value"])  # a literal: no curly quotes in 6"
    if history is None:
        return [value], []
    marked = nodes.abbreviation(
        rawtext, "", value, explanation=note or "A house rule: the club changed this value.", classes=["house-value"]
    )
    after = f" ({HOUSE_RULE}; {history})"
    return [
        nodes.inline(
            rawtext, "", marked, nodes.inline(after, after, classes=["house-original"]), classes=["house-rule"]
        )
    ], []


def roll_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """{roll}`table:Result`: the range of that row as the table prints it (`51–56`), so prose naming a row's roll
    says what the table says."""
    env = inliner.document.settings.env
    ruleset, failed = _role_ruleset(env, rawtext, lineno, inliner)
    if failed:
        return failed
    try:
        table, _row = ruleset.table_row(text.strip())
        shown = named_roll_text(ruleset, text.strip())
    except KeyError as missing:
        table_id, _, row = text.strip().partition(":")
        try:
            rows = [str(r.result) for r in ruleset.table(table_id.strip()).rows]
        except KeyError:
            word, there = table_id.strip(), [t.id for t in ruleset.reachable("tables")]
        else:  # the part after the colon names a row by its result, as the table prints it
            word, there = row.strip(), rows
        return _not_there(inliner, rawtext, lineno, f"{missing.args[0]} in {ruleset.id}", word, there)
    if not myst.visible_to(table, env.config.rulepress_audience):
        return [nodes.inline(myst.HIDDEN_REFERENCE, myst.HIDDEN_REFERENCE, classes=["gm-hidden"])], []
    return [nodes.inline(shown, minus_text(shown), classes=["rp-roll"])], []


def _not_there(inliner, rawtext: str, lineno: int, problem: str, word: str, there: list[str]):
    """A role's error at the role: what is not there, the closest of what there is, and what there is."""
    close = did_you_mean(word, there)
    listed = f" (there are: {_some(there)})" if there else ""
    message = inliner.reporter.error(f"rulepress: {problem}" + (f"; {close}" if close else "") + listed, line=lineno)
    return [inliner.problematic(rawtext, rawtext, message)], [message]


def gap_node() -> nodes.Node:
    """The site's one gap mark: an em dash with a small note mark whose tooltip says "not given in the source", in
    every place a value is missing (a column given nowhere too, whose header also says so): one mark, one meaning."""
    note = nodes.inline(GAP_NOTE_MARK, GAP_NOTE_MARK, classes=["gap-note"])
    return nodes.abbreviation(GAP_DASH, "", nodes.Text(GAP_DASH), note, explanation=GAP_NOTE, classes=["gap"])


def gap_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """{gap}`anything`: the gap mark."""
    return [gap_node()], []


def pdf_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """{pdf}`Title <sheets/x.pdf>`: a link to a PDF of the build, in the site's own copy of them (`printouts/`)."""
    env = inliner.document.settings.env
    match = _EXPLICIT.match(text)
    title, target = (match["title"], match["target"]) if match else (text, text)
    up = "../" * env.docname.count("/")  # from the page's folder up to the site's
    node = nodes.reference(rawtext, f"{title} (PDF)", refuri=f"{up}{PRINTOUTS}/{target}", classes=["pdf-download"])
    return [node], []


def source_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.inline(text, f"Source: {text}", classes=["source-cite"])], []


# -- safety: data never becomes HTML -------------------------------------------------------------
class RawToText(SphinxTransform):
    """Raw HTML from rules data shows as text: a name like `<script>` is a name, not a script."""

    default_priority = 100

    def apply(self, **kwargs) -> None:
        for raw in list(self.document.findall(nodes.raw)):
            text = raw.astext()
            inline = isinstance(raw.parent, nodes.TextElement)
            raw.replace_self(nodes.Text(text) if inline else nodes.paragraph(text, text))


class MathToText(SphinxTransform):
    """Math shows as code: no page of the site loads MathJax, a script from the network.

    `rulepress check` refuses `{math}` in prose; this keeps the promise for any other route.
    """

    default_priority = 100

    def apply(self, **kwargs) -> None:
        for math in list(self.document.findall(nodes.math)):
            math.replace_self(nodes.literal(math.astext(), math.astext()))
        for block in list(self.document.findall(nodes.math_block)):
            block.replace_self(nodes.literal_block(block.astext(), block.astext()))


class MinusSigns(SphinxTransform):
    """A page's prose writes negative numbers with the minus sign the engine prints them with (its charts and
    formulas), so "-1" in the rules and "\u22121" in a chart beside it read alike; code keeps what was written."""

    default_priority = 700

    def apply(self, **kwargs) -> None:
        for text in list(self.document.findall(nodes.Text)):
            if "-" not in text or _in_code(text):
                continue
            changed = minus_text(str(text))
            if changed != str(text):
                text.parent.replace(text, nodes.Text(changed))


def _in_code(node: nodes.Node) -> bool:
    """Inside code as written; a value (a literal only so that 6" keeps its straight quote) is no code."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.literal_block, nodes.raw, nodes.comment)) or (
            isinstance(parent, nodes.literal) and "rp-value" not in parent["classes"]
        ):
            return True
        parent = parent.parent
    return False


def setup(app: Sphinx) -> dict:
    app.add_config_value("rulepress_root", ".", "env")
    app.add_config_value("rulepress_audience", "player", "env")
    app.add_config_value("rulepress_ruleset", "", "env")
    app.add_config_value("rulepress_code_hash", "", "env")
    # override=True throughout: docutils keeps roles globally, and a build runs Sphinx twice (player, gm)
    app.add_directive("rulepress", RulepressDirective, override=True)
    app.add_directive("verified-example", VerifiedExample, override=True)
    add_html_node(app, how_checked, _visit_how_checked, _depart_how_checked)
    app.add_role("checked", checked_role, override=True)
    app.add_role("value", value_role, override=True)
    app.add_role("roll", roll_role, override=True)
    for kind in ("rule", "table", "spell", "profile", "entry", "formula", "chart", "lookup"):
        app.add_role(kind, _xref_role(kind), override=True)
    # Sphinx looks up domain roles before plain ones, so {term} must replace the std domain's own.
    app.add_role("term", _xref_role("term"), override=True)
    app.add_role_to_domain("std", "term", _xref_role("term"), override=True)
    app.add_role("gap", gap_role, override=True)
    app.add_role("source", source_role, override=True)
    app.add_role("pdf", pdf_role, override=True)
    app.add_transform(RawToText)
    app.add_transform(MathToText)
    app.add_transform(MinusSigns)
    app.connect("builder-inited", _init_model)
    app.connect("builder-inited", _static)
    app.connect("builder-inited", _compiled_templates_kept)
    app.connect("builder-inited", _no_file_insertion)
    app.connect("missing-reference", resolve_reference)
    app.connect("html-page-context", checked_page_note)
    app.connect("env-before-read-docs", _forget_pages_before_reading)
    install_search(app)
    setup_reproducible(app)
    app.add_js_file("rulepress-why.js")  # before the chart pickers and calculators, which use it
    setup_charts(app)
    setup_calculators(app)
    setup_army(app)
    setup_phone(app)
    app.connect("env-purge-doc", _forget_entry_lines)
    app.connect("env-merge-info", _merge_entry_lines)
    # Safe to read in parallel (-j): what reading leaves in the environment is the entries' lines (merged here),
    # labels (the std domain merges them) and dependencies (Sphinx merges them); the model is read-only.
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}


def _forget_entry_lines(app: Sphinx, env, docname: str) -> None:
    """A page read again numbers its entries afresh."""
    lines = getattr(env, "rulepress_entry_lines", None)
    if isinstance(lines, dict):
        for key in [key for key in lines if key.rpartition(":")[0] == docname]:
            del lines[key]


def _merge_entry_lines(app: Sphinx, env, docnames, other) -> None:
    """The entries' lines of the pages a parallel reader read (``RulepressDirective.run``)."""
    theirs = getattr(other, "rulepress_entry_lines", None)
    if not isinstance(theirs, dict):
        return
    if not isinstance(getattr(env, "rulepress_entry_lines", None), dict):
        env.rulepress_entry_lines = {}
    env.rulepress_entry_lines.update({k: v for k, v in theirs.items() if k.rpartition(":")[0] in docnames})


def _forget_pages_before_reading(app: Sphinx, env, docnames: list[str]) -> None:
    """Forget what every page about to be read defined before reading any of them, as Sphinx's parallel read
    does: its serial read forgets a page only when it reads it, so a label that moved to a page read earlier
    would meet its old self there and be a "duplicate label" (a build that fails once, then passes)."""
    for docname in docnames:
        app.events.emit("env-purge-doc", env, docname)
        env.clear_doc(docname)
    if docnames and app.parallel > 1:  # checked once here, before Sphinx forks its readers, not once in each
        try:
            _model(env).project  # noqa: B018 (a cached property: computing it is the point)
        except RuntimeError:
            pass  # each page that reads the rules says so


def _static(app: Sphinx) -> None:
    app.config.html_static_path = [*app.config.html_static_path, str(STATIC)]
    app.add_css_file("rulepress.css")


LOCKED_SETTINGS = {"file_insertion_enabled": False, "raw_enabled": False}


def _no_file_insertion(app: Sphinx) -> None:
    """Behind the prose allow-list (``validate.prose``), docutils itself refuses to insert files
    (``include``, ``csv-table :file:``) or raw output into any page. ``build_site`` also keeps docutils
    from reading a ``docutils.conf`` (the working folder's would be the project's), which could turn them on."""
    app.env.settings.update(LOCKED_SETTINGS)


TEMPLATE_BYTECODE = "templates-bytecode"  # beside the doctrees in the site cache


def _template_cache(doctreedir: str | Path, outdir: str | Path) -> Path:
    """Where the compiled templates are kept: beside the doctrees (Rulepress's site cache), or inside them when that
    is the output folder (`sphinx-build -b html . _build/html` keeps its doctrees in `_build/html/.doctrees`), as no
    cache belongs in the folder one publishes."""
    beside = Path(doctreedir).resolve().parent
    output = Path(outdir).resolve()
    if beside == output or output in beside.parents:
        return Path(doctreedir) / TEMPLATE_BYTECODE
    return Path(doctreedir).parent / TEMPLATE_BYTECODE


def _compiled_templates_kept(app: Sphinx) -> None:
    """The theme's Jinja templates compiled once and kept in the site cache: each build makes a new Sphinx
    application, which would otherwise compile furo's templates again (most of a small rebuild's writing).
    Jinja keys each entry by the template's source and its own version, so the cache is safe to delete."""
    from jinja2 import FileSystemBytecodeCache

    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if environment is not None and environment.bytecode_cache is None:
        folder = _template_cache(app.doctreedir, app.outdir)
        folder.mkdir(parents=True, exist_ok=True)
        environment.bytecode_cache = FileSystemBytecodeCache(str(folder))
