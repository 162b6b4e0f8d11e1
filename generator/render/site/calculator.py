"""Odds calculators on the site: a picker for each input and the answer the engine gave for the values picked.

The answers are ``render.calculators``' data, embedded in the page as escaped JSON (a ``<script
type="application/json">``, never run); static/rulepress-calculators.js shows the one picked. The HTML written here is
the answer for each input's starting value, so a page without JavaScript still reads one answer whole.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from docutils import nodes

from .embedded import JsonDirective, add_html_node, picker_field, picker_form


class calculator(nodes.General, nodes.Element):
    """A calculator: its data in node["data"]; written as HTML by visit_calculator, skipped by other writers."""


def _chance_html(chance: dict) -> str:
    return (
        f' <span class="rp-calc-chance">{escape(chance["percent"])}</span>'
        f' <span class="rp-calc-exact">(exactly {escape(chance["exact"])})</span>'
    )


BAR, TALL = 34, 60  # a bar's width and the tallest bar's height, in the chart's own units
ROW, WIDE, LETTER = 16, 120, 5.6  # results in words: a row's height, the longest bar, a letter's width (9-unit type)


def bars_svg(rows: list[dict]) -> str:
    """The distribution as bars, each result and its chance written under and over its bar (an image whose numbers
    are text, as rulepress-calculators.js draws it too). Results in words (no running totals) lie one under the
    other, their words before their bars, so no word runs into the next however long."""
    if "at_least" not in rows[0]:
        return _word_bars_svg(rows)
    chances = [Fraction(r["exactly"]["exact"]) for r in rows]
    top = max(chances) or 1
    bars = []
    for index, (row, chance) in enumerate(zip(rows, chances)):
        height = round(float(chance / top) * TALL, 1)
        x, middle = index * BAR, index * BAR + BAR / 2
        result, percent = escape(row["result"]), escape(row["exactly"]["percent"])
        bars.append(
            f"<g><title>{result}: {percent}</title>"
            f'<rect x="{x + 5}" y="{TALL + 14 - height}" width="{BAR - 10}" height="{height}"></rect>'
            f'<text class="rp-calc-bar-chance" x="{middle}" y="{TALL + 11 - height}">{percent}</text>'
            f'<text x="{middle}" y="{TALL + 28}">{result}</text></g>'
        )
    return (
        f'<svg class="rp-calc-bars" viewBox="0 0 {BAR * len(rows)} {TALL + 32}" role="img" '
        f'aria-label="The chance of each result">{"".join(bars)}</svg>'
    )


def _word_bars_svg(rows: list[dict]) -> str:
    chances = [Fraction(r["exactly"]["exact"]) for r in rows]
    top = max(chances) or 1
    words = round(max(len(r["result"]) for r in rows) * LETTER + 6, 1)
    bars = []
    for index, (row, chance) in enumerate(zip(rows, chances)):
        width, y = round(float(chance / top) * WIDE, 1), index * ROW
        result, percent = escape(row["result"]), escape(row["exactly"]["percent"])
        bars.append(
            f"<g><title>{result}: {percent}</title>"
            f'<text class="rp-calc-bar-word" x="{words - 6}" y="{y + 11}">{result}</text>'
            f'<rect x="{words}" y="{y + 3}" width="{width}" height="{ROW - 6}"></rect>'
            f'<text class="rp-calc-bar-chance" x="{round(words + width + 3, 1)}" y="{y + 11}">{percent}</text></g>'
        )
    wide = round(words + WIDE + 40, 1)
    return (
        f'<svg class="rp-calc-bars rp-calc-word-bars" viewBox="0 0 {wide} {ROW * len(rows)}" '
        f'width="{round(wide * 1.4)}" role="img" aria-label="The chance of each result">{"".join(bars)}</svg>'
    )


def _odds_cell(chance: dict) -> str:
    exact = "" if chance["exact"] in ("0", "1") else f' <span class="rp-calc-exact">{escape(chance["exact"])}</span>'
    return f"<td>{escape(chance['percent'])}{exact}</td>"


def _roll_html(roll: dict) -> str:
    kinds = [k for k in ODDS if k in roll["rows"][0]]  # results in words: exactly alone (no order to count along)
    rows = "".join(
        f'<tr><th scope="row">{escape(r["result"])}</th>' + "".join(_odds_cell(r[k]) for k in kinds) + "</tr>"
        for r in roll["rows"]
    )
    heads = "".join(f'<th scope="col">{ODDS[k]}</th>' for k in kinds)
    return (
        (f'<p class="rp-calc-mean">{escape(roll["text"])}</p>' if roll["text"] else "")
        + bars_svg(roll["rows"])
        + '<div class="table-wrapper"><table class="rp-calc-odds"><thead><tr><th scope="col">Result</th>'
        + f"{heads}</tr></thead><tbody>{rows}</tbody></table></div>"
    )


ODDS = {"exactly": "Exactly", "at_least": "At least", "at_most": "At most"}


def answer_html(labels: list[str], parts: list[dict]) -> str:
    """One answer: each result in words with its chance, a roll with its table of chances."""
    html = []
    for label, part in zip(labels, parts):
        head = f'<span class="rp-calc-label">{escape(label)}:</span> ' if label else ""
        if "roll" in part:
            html.append(f'<div class="rp-calc-part">{head}{_roll_html(part["roll"])}</div>')
        else:
            chance = _chance_html(part["chance"]) if "chance" in part else ""
            if "exact" in part:  # a chance: its text is the percentage
                chance = f' <span class="rp-calc-exact">(exactly {escape(part["exact"])})</span>'
            text = f'<strong class="rp-calc-text">{escape(part["text"])}</strong>'
            html.append(f'<p class="rp-calc-part">{head}{text}{chance}</p>')
    return "".join(html)


def why_html(data: dict, index: int, open_: bool = False) -> str:
    """Why answer ``index`` is what it is: the tests decided for the inputs picked, the values read (each with its
    label and source), and where the rules give it; folded away until asked for."""
    reasons, cited = data["why"][index], data.get("cited") or {}
    because = "".join(f"<li>{escape(text)}</li>" for text in reasons["because"])
    values = ""
    for at in reasons["values"]:
        value = data["values"][at]
        source = _source_html(value)
        values += f"<dt>{escape(value['value'])}</dt><dd>{escape(value['label'])}{' ' + source if source else ''}</dd>"
    return (
        f'<details class="rp-calc-why"{" open" if open_ else ""}><summary>Why this number?</summary>'
        + (f'<ul class="rp-calc-because">{because}</ul>' if because else "")
        + (f'<dl class="rp-calc-values">{values}</dl>' if values else "")
        + f'<p class="rp-calc-where">{escape(data["where"])}{" · " + _source_html(cited) if cited else ""}</p>'
        + "</details>"
    )


def _source_html(cited: dict) -> str:
    """Where the source text gives a value or formula: its title and section, and the words quoted."""
    if not cited.get("source"):
        return ""
    quote = f": “{escape(cited['quote'])}”" if cited.get("quote") else ""
    return f'<span class="rp-calc-source">{escape(cited["source"])}{quote}</span>'


def visit_calculator(self, node: calculator) -> None:
    data, number = node["data"], node["number"]
    fields = "".join(
        picker_field(
            "rp-calc-field",
            f"rp-calc-{number}-{index}",
            f"input-{index}",
            spec["label"],
            spec["options"],
            spec["default"],
        )
        for index, spec in enumerate(data["inputs"])
    )
    start = 0
    for spec in data["inputs"]:
        start = start * len(spec["options"]) + spec["default"]
    answer = answer_html(data["results"], data["answers"][start]) + why_html(data, start)
    fields = f'<div class="rp-calc-inputs">{fields}</div>'
    self.body.append(
        picker_form("rp-calculator", data["title"], fields, "rp-calc-answer", answer, "rp-calc-data", data)
    )
    raise nodes.SkipNode


class Calculator(JsonDirective):
    """```{calculator}``` with the calculator's JSON data (``render.calculators``) as its content."""

    what = "a calculator's data"

    def check(self, data: dict) -> None:
        combinations = 1
        for spec in data["inputs"]:
            combinations *= len(spec["options"])
        assert combinations == len(data["answers"]) == len(data["why"]) > 0

    def node(self, data: dict) -> nodes.Node:
        return calculator("", data=data, number=self.env.new_serialno("calculator"))


def setup_calculators(app) -> None:
    add_html_node(app, calculator, visit_calculator)
    app.add_directive("calculator", Calculator, override=True)
    app.add_js_file("rulepress-calculators.js")
