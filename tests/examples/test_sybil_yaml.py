"""The worked examples of a rules file, as pytest collects them: each `>>>` line is an item of its own, and
an item may run in a process where the lines before it did not (pytest-xdist shares items out)."""

from __future__ import annotations

import pytest
from helpers import make_project
from sybil import Document
from sybil.example import SybilFailure

from generator.examples.sybil_yaml import parse_yaml_examples

RULES = """
ruleset: {title: Demo}
chapters:
  play: {title: Play}
values:
  move: {value: 4, label: Move}
rules:
  moving:
    title: Moving
    chapter: play
    body: |
      A model moves {value}`move` inches.

      ```python
      >>> twice = values.move * 2
      >>> twice
      8
      >>> twice + 1
      %s
      ```
"""


def examples(tmp_path, last: str) -> list:
    path = make_project(tmp_path, demo=RULES % last) / "rules_src" / "demo" / "ruleset.yaml"
    return list(Document.parse(str(path), parse_yaml_examples))


def test_an_example_run_alone_sees_the_names_the_lines_before_it_set(tmp_path):
    *_, last = examples(tmp_path, "9")
    last.evaluate()  # `twice` was set two lines up, by an example this process never ran as an item


def test_an_example_run_alone_still_fails_when_it_is_wrong(tmp_path):
    *_, last = examples(tmp_path, "10")
    with pytest.raises(SybilFailure, match="Expected:\\s+10\\s+Got:\\s+9"):
        last.evaluate()


def test_examples_run_in_order_each_line_once(tmp_path):
    first, second, third = examples(tmp_path, "9")
    for example in (first, second, third):
        example.evaluate()
    assert first.namespace["twice"] == 8
