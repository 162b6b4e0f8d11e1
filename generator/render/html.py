"""Author prose (MyST Markdown) to HTML for the print templates.

Raw HTML in prose is escaped (``html: False``), so data can never inject markup.
Roles such as {term}`Knocked Down` print as their text; worked examples print as
code marked verified, since every build runs them.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markupsafe import Markup

_ROLE = re.compile(r"\{(?P<role>[a-z-]+)\}`(?P<text>[^`]*)`")
_EXPLICIT = re.compile(r"(?s)^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")
_md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


def _role_text(match: re.Match) -> str:
    text = match["text"]
    explicit = _EXPLICIT.match(text)
    if explicit and explicit["title"]:
        return explicit["title"]
    if match["role"] in ("rule", "table", "spell", "profile", "entry"):
        return (explicit["target"] if explicit else text).split(".")[-1].replace("_", " ")
    return text


def prose_html(text: str) -> Markup:
    """HTML for a Markdown field; ``{role}`x``` becomes plain text, examples get a class."""
    source = _ROLE.sub(_role_text, text or "")
    html = _md.render(source)
    html = html.replace('<pre><code class="language-python">', '<pre class="verified-example"><code class="language-python">')
    return Markup(html)
