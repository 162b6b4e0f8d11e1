"""Sybil integration: collect the worked examples inside rules_src YAML files under pytest.

A failing example is reported at its real line in the ``rules_src`` file.
"""

from __future__ import annotations

from sybil.evaluators.doctest import DocTestEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser

from ..source.fences import find_examples
from .namespace import namespace_for_path
from .run import OPTIONS


class RulesEvaluator(DocTestEvaluator):
    """Evaluates a doctest region with the namespace of the ruleset the file belongs to."""

    def __call__(self, example):
        if "rules" not in example.namespace:
            example.namespace.update(namespace_for_path(example.document.path))
        return super().__call__(example)


_strings = DocTestStringParser(RulesEvaluator(OPTIONS))


def parse_yaml_examples(document):
    for block in find_examples(document.text):
        for region in _strings(document.text[block.start:block.end], document.path):
            region.start += block.start
            region.end += block.start
            yield region
