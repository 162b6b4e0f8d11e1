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
from markupsafe import Markup
from mdit_py_plugins.deflist import deflist_plugin

from ..model.ruleset import Ruleset
from ..validate.checks import term_names

_ROLE = re.compile(r"\{(?P<role>[a-z-]+)\}`(?P<text>[^`]*)`")
_EXPLICIT = re.compile(r"(?s)^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~])")
_ROLE_SECTIONS = {"rule": "rules", "table": "tables", "spell": "spells", "profile": "profiles", "term": "glossary"}
_md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table").use(deflist_plugin)

HIDDEN_REFERENCE = "[game-master material]"
VERIFIED_PRE = '<pre class="verified-example"><code class="language-python">'


def anchor(section: str, id: str) -> str:
    """The HTML id an entry is printed under."""
    return f"{section}-{id}".replace("_", "-")


def entry_title(entry) -> str:
    for name in ("title", "name", "term"):
        if getattr(entry, name, ""):
            return getattr(entry, name)
    return entry.id


def gm_only(entry) -> bool:
    return getattr(entry, "audience", "player") == "gm" or getattr(entry, "gm_only", False)


@dataclass(frozen=True)
class Prose:
    """Renders prose for one ruleset, audience and set of printed anchors."""

    ruleset: Ruleset
    audience: str
    printed: frozenset[str] = field(default_factory=frozenset)

    def html(self, text: str) -> Markup:
        source = _ROLE.sub(self._role, text or "")
        html = _md.render(source)
        return Markup(html.replace('<pre><code class="language-python">', VERIFIED_PRE))

    def inline(self, text: str) -> Markup:
        return Markup(_md.renderInline(_ROLE.sub(self._role, " ".join((text or "").split()))))

    def _role(self, match: re.Match) -> str:
        role, text = match["role"], match["text"]
        explicit = _EXPLICIT.match(text)
        title, target = (explicit["title"], explicit["target"].strip()) if explicit else ("", text.strip())
        entry, section = self._target(role, target)
        if entry is not None and gm_only(entry) and self.audience != "gm":
            return HIDDEN_REFERENCE
        shown = title or (target if role == "term" or entry is None else entry_title(entry))
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
            section, id = _ROLE_SECTIONS.get(role, ""), target
        try:
            return self.ruleset.get(section, id), section
        except (KeyError, AttributeError):
            return None, section


def role_as_text(match: re.Match) -> str:
    """A role printed as its plain text (for Markdown pages that link nothing): its title, or its target."""
    explicit = _EXPLICIT.match(match["text"])
    if explicit and explicit["title"]:
        return explicit["title"]
    target = explicit["target"] if explicit else match["text"]
    return target.split(".")[-1].replace("_", " ") if match["role"] != "term" else target


def count_examples(*html: str) -> int:
    """How many worked examples some rendered prose prints."""
    return sum(str(h).count(VERIFIED_PRE) for h in html)
