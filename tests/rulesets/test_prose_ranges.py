"""The sample rules' own prose writes a range of rolls as their tables print one, with an en dash ("on a 1–3"),
never a hyphen ("on a 1-3") beside a table row's "1–3". Words in quotation marks are the source text's, which
writes hyphens, and stay as written; so do the fields a range is data in (`roll: 1-3`, `range: 1-10`) and the
quotes `check` compares with the text.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DATA = {"roll", "range", "when", "over", "quote", "value", "dice", "expr", "clamp", "values", "labels", "min", "max"}
FENCE = re.compile(r"```.*?```", re.S)  # worked examples: code, not prose
QUOTED = re.compile(r'"[^"]*"|“[^”]*”')  # the text's own words
HYPHENATED = re.compile(r"(?<![\w.−-])\d+-\d+(?!\w)")


def prose(node, key: str = ""):
    if isinstance(node, dict):
        for child, value in node.items():
            yield from prose(value, str(child))
    elif isinstance(node, list):
        for value in node:
            yield from prose(value, key)
    elif isinstance(node, str) and key not in DATA:
        yield node


def hyphenated_ranges(text: str) -> list[str]:
    return HYPHENATED.findall(QUOTED.sub("", FENCE.sub("", text)))


def test_the_scan_finds_a_hyphenated_range_only_in_the_authors_words():
    assert hyphenated_ranges("1-3: save −2; 4-5: save −2") == ["1-3", "4-5"]
    assert hyphenated_ranges('on a 1–3; "a result of 5-6" is read as the sum') == []
    assert hyphenated_ranges("```python\n>>> f(1-2)\n```\nD6 + S - T - W") == []


def test_sample_prose_writes_ranges_with_an_en_dash():
    found = [
        (path.relative_to(ROOT).as_posix(), hit)
        for path in sorted((ROOT / "rules_src").glob("*/*.yaml"))
        for text in prose(yaml.safe_load(path.read_text(encoding="utf-8")))
        for hit in hyphenated_ranges(text)
    ]
    assert found == []
