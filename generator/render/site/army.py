"""The army builder on the site: a page per ruleset with an army matrix, its data embedded as inert JSON.

``render.army_builder`` gives the data; static/rulepress-army.js builds the page from it and checks every army limit
as ``check`` does. Without JavaScript the page says what it needs and where the blank roster is.
"""

from __future__ import annotations

import json

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from .charts import _script_json


class army_builder(nodes.General, nodes.Element):
    """The builder: its data in node["data"]; written as HTML by visit_army_builder, skipped by other writers."""


def visit_army_builder(self, node: army_builder) -> None:
    self.body.append(
        '<div class="rp-army-builder"><div class="rp-army-app">'
        "<noscript><p>The army builder needs JavaScript; without it, print the blank roster from the downloads "
        "and add the points up by hand.</p></noscript></div>"
        f'<script type="application/json" class="rp-army-data">{_script_json(node["data"])}</script></div>'
    )
    raise nodes.SkipNode


def skip_army_builder(self, node: army_builder) -> None:
    raise nodes.SkipNode


class ArmyBuilder(SphinxDirective):
    """```{army-builder}``` with the builder's JSON data (``render.army_builder``) as its content."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        try:
            data = json.loads("\n".join(self.content))
            assert isinstance(data["troops"], list) and data["troops"]
        except (ValueError, KeyError, TypeError, AssertionError) as error:
            return [
                self.state.document.reporter.error(
                    f"rulepress: the army builder's data is broken ({error})", line=self.lineno
                )
            ]
        return [army_builder("", data=data)]


def setup_army(app) -> None:
    app.add_node(
        army_builder,
        html=(visit_army_builder, None),
        latex=(skip_army_builder, None),
        text=(skip_army_builder, None),
        man=(skip_army_builder, None),
        texinfo=(skip_army_builder, None),
    )
    app.add_directive("army-builder", ArmyBuilder, override=True)
    app.add_js_file("rulepress-army.js")
