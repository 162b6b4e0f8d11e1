"""The army builder on the site: a page per ruleset with an army matrix, its data embedded as inert JSON.

``render.army_builder`` gives the data; static/rulepress-army.js builds the page from it and checks every army limit
as ``check`` does. Without JavaScript the page says what it needs and where the blank roster is.
"""

from __future__ import annotations

from docutils import nodes

from .embedded import JsonDirective, add_html_node, script_json


class army_builder(nodes.General, nodes.Element):
    """The builder: its data in node["data"]; written as HTML by visit_army_builder, skipped by other writers."""


def visit_army_builder(self, node: army_builder) -> None:
    data = dict(node["data"])
    data["troops"] = [_linked(self, troop) for troop in data["troops"]]
    data["heroes"] = [_linked(self, hero) for hero in data["heroes"]]
    self.body.append(
        '<div class="rp-army-builder"><div class="rp-army-app">'
        "<noscript><p>The army builder needs JavaScript; without it, print the blank roster from the downloads "
        "and add the points up by hand.</p></noscript></div>"
        f'<script type="application/json" class="rp-army-data">{script_json(data)}</script></div>'
    )
    raise nodes.SkipNode


def _linked(writer, entry: dict) -> dict:
    """A troop type or hero with the address of the page and place its rules are printed at (its ``rules`` label,
    as Sphinx placed it), or none where this site prints it nowhere."""
    found = writer.builder.env.get_domain("std").labels.get(entry.get("rules", ""))
    if not found or not found[0]:
        return entry | {"rules": ""}
    docname, anchor, _title = found
    return entry | {"rules": writer.builder.get_relative_uri(writer.builder.current_docname, docname) + "#" + anchor}


class ArmyBuilder(JsonDirective):
    """```{army-builder}``` with the builder's JSON data (``render.army_builder``) as its content."""

    what = "the army builder's data"

    def check(self, data: dict) -> None:
        assert isinstance(data["troops"], list) and data["troops"]

    def node(self, data: dict) -> nodes.Node:
        return army_builder("", data=data)


def setup_army(app) -> None:
    add_html_node(app, army_builder, visit_army_builder)
    app.add_directive("army-builder", ArmyBuilder, override=True)
    app.add_js_file("rulepress-army.js")
