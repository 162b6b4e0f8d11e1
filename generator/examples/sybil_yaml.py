"""Sybil integration: collect the worked examples inside rules_src YAML files under pytest.

A failing example is reported at its real line in the ``rules_src`` file. Its namespace is that of its
ruleset in the checked project (``namespace_for_path``): this is the one part of ``examples`` above ``validate``,
as pytest runs it, so nothing below imports it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from weakref import WeakKeyDictionary

from sybil.evaluators.doctest import DocTestEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser

from ..source.fences import find_examples
from ..validate import check_project
from .namespace import namespace_for
from .run import OPTIONS


class RulesEvaluator(DocTestEvaluator):
    """Evaluates a doctest region with the namespace of the ruleset the file belongs to.

    The examples of one file share a namespace, in order, as `rulepress check` runs them: one may use a name an
    earlier one set. Under pytest-xdist the earlier ones may have run in another process; they are run here
    first (their own items report how they went)."""

    def __call__(self, example):
        if "rules" not in example.namespace:
            example.namespace.update(namespace_for_path(example.document.path))
        ran = _ran.setdefault(example.document, set())
        for earlier in example.document.examples():
            if earlier.start >= example.start:
                break
            if earlier.start not in ran:
                ran.add(earlier.start)
                super().__call__(earlier)
        ran.add(example.start)
        return super().__call__(example)


_ran: WeakKeyDictionary = WeakKeyDictionary()  # per document, where the examples run in this process start


_strings = DocTestStringParser(RulesEvaluator(OPTIONS))


def parse_yaml_examples(document):
    for block in find_examples(document.text):
        for region in _strings(document.text[block.start : block.end], document.path):
            region.start += block.start
            region.end += block.start
            yield region


class RulesetNotLoadable(Exception):
    pass


@cache
def checked_ruleset(root: Path, ruleset_id: str):
    """``check_project`` of one ruleset (and what it extends), once per process: every example of a ruleset, and
    every test that only reads it, share one checked model (immutable values)."""
    return check_project(root, ruleset_id)


def namespace_for_path(path: str | Path) -> dict:
    """The namespace for an example in ``rules_src/<ruleset>/...``."""
    path = Path(path).resolve()
    parts = path.parts
    index = len(parts) - 1 - parts[::-1].index("rules_src")
    root, ruleset_id = Path(*parts[:index]), parts[index + 1]
    result = checked_ruleset(root, ruleset_id)
    if not result.ok:
        shown = "\n".join(d.format() for d in result.diagnostics.errors[:10])
        raise RulesetNotLoadable(f"rules_src/{ruleset_id} has errors; fix them before its examples can run:\n{shown}")
    return namespace_for(result.project.ruleset(ruleset_id), root)
