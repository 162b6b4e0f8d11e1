"""Phone-first pages: roll ranges that never wrap, and the gap mark's key, once per page."""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.transforms import SphinxTransform

from ..present import GAP_KEY_SCREEN

# A cell that is a roll range or a target, maybe with its chance: `1–2`, `6+`, `1 or less`, `−2`, `4+ (50%)`.
RANGE_CELL = re.compile(r"^[−-]?\d+(?:\s*[–-]\s*[−-]?\d+|\+| or less| or more)?(?:\s*\([^()]{1,12}\))?$")


# A chart cell's target and its chance: `4+ (50%)`.
TARGET_AND_CHANCE = re.compile(r"^(?P<target>\S+(?: or (?:less|more))?) (?P<chance>\([^()]{1,12}\))$")


class RangeCells(SphinxTransform):
    """Table cells holding a roll range get the class `range`: the stylesheet keeps them on one line. In a
    chart's grid the chance of a cell goes under its target (`odds`), so ten columns fit the text column."""

    default_priority = 800

    def apply(self, **kwargs) -> None:
        for entry in self.document.findall(nodes.entry):
            if RANGE_CELL.match(" ".join(entry.astext().split())):
                entry["classes"].append("range")
                if _in_chart(entry):
                    _chance_under_target(entry)


def _in_chart(entry: nodes.Element) -> bool:
    parent = entry.parent
    while parent is not None and not isinstance(parent, nodes.table):
        parent = parent.parent
    return parent is not None and "rulepress-charts" in parent["classes"]


def _chance_under_target(entry: nodes.Element) -> None:
    for text in list(entry.findall(nodes.Text)):
        found = TARGET_AND_CHANCE.match(" ".join(text.astext().split()))
        if found:  # the space stays in the text, so the cell still reads `4+ (50%)`
            chance = nodes.inline(found["chance"], found["chance"], classes=["odds"])
            text.parent.replace(text, [nodes.Text(found["target"] + " "), chance])


class GapKey(SphinxTransform):
    """A page showing the noted gap mark says once, quietly at its end, what the mark means."""

    default_priority = 800

    def apply(self, **kwargs) -> None:
        if not any("gap" in node["classes"] for node in self.document.findall(nodes.abbreviation)):
            return
        sections = list(self.document.findall(nodes.section))
        if not sections:
            return
        key = nodes.paragraph(
            GAP_KEY_SCREEN,
            "",
            nodes.inline("", "Key: ", classes=["gap-key-label"]),
            nodes.Text(GAP_KEY_SCREEN),
            classes=["gap-key"],
        )
        sections[0].append(key)


def setup_phone(app) -> None:
    app.add_transform(RangeCells)
    app.add_transform(GapKey)
