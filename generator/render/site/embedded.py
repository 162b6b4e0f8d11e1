"""What the site's interactive pieces share: their data as inert JSON in the page, their directive, their node.

A chart picker, a calculator and the army builder each take their data (written by the engine) as a directive's JSON
content, become one node written as HTML only (other Sphinx writers skip it), and carry the data in a
``<script type="application/json">`` that no page runs and no text can end.
"""

from __future__ import annotations

import json
from html import escape

from docutils import nodes
from sphinx.util.docutils import SphinxDirective


def script_json(data: dict) -> str:
    """JSON safe inside a <script> element: no `<`, `>` or `&` can end it or start markup."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def picker_field(field_class: str, ident: str, name: str, head: str, labels: list[str], selected: int | None = None):
    """A labelled select of one input: its heading above, its values as options (``selected`` marked)."""
    options = "".join(
        f'<option value="{i}"{" selected" if i == selected else ""}>{escape(label)}</option>'
        for i, label in enumerate(labels)
    )
    return (
        f'<label class="{field_class}" for="{ident}"><span>{escape(head)}</span>'
        f'<select id="{ident}" name="{name}">{options}</select></label>'
    )


def picker_form(form_class: str, label: str, fields: str, answer_class: str, answer: str, data_class: str, data) -> str:
    """The form of pickers, the answer for the values they start at, and the data every other answer comes from."""
    return (
        f'<form class="{form_class}" aria-label="{escape(label)}">{fields}'  # a named form: a landmark of its own
        f'<output class="{answer_class}" aria-live="polite">{answer}</output>'
        f'<script type="application/json" class="{data_class}">{script_json(data)}</script></form>'
    )


def skip_node(self, node) -> None:
    raise nodes.SkipNode


def add_html_node(app, node_class, visit, depart=None) -> None:
    """A node the HTML writer writes and every other writer skips."""
    skip = (skip_node, None)
    app.add_node(node_class, override=True, html=(visit, depart), latex=skip, text=skip, man=skip, texinfo=skip)


class JsonDirective(SphinxDirective):
    """A directive whose content is its node's data as JSON; broken data is a located error on the page."""

    has_content = True
    what = "data"  # in the error: "a calculator's data is broken"

    def check(self, data: dict) -> None:
        """Raise (KeyError, TypeError, ValueError, AssertionError) when ``data`` is not what the node needs."""

    def node(self, data: dict) -> nodes.Node:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        try:
            data = json.loads("\n".join(self.content))
            self.check(data)
        except (ValueError, KeyError, TypeError, AssertionError) as error:
            return [self.state.document.reporter.error(f"rulepress: {self.what} is broken ({error})", line=self.lineno)]
        return [self.node(data)]
