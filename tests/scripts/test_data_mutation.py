"""scripts/data_mutation.py (`make data-mutation`): the changes it makes to the sample rules' example sentences are
where the files have them, and a number written as a word is changed into the next one."""

from __future__ import annotations

import importlib.util
import sys

from helpers import ROOT


def _load_script():
    spec = importlib.util.spec_from_file_location("data_mutation", ROOT / "scripts" / "data_mutation.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_each_sentence_change_replaces_the_number_the_file_holds_where_it_says():
    script = _load_script()
    changes = script.sentence_mutations(ROOT, None)
    assert len({change.ruleset for change in changes}) >= 3  # every sample with worked examples has some
    for change in changes:
        text = (ROOT / "rules_src" / change.path).read_text(encoding="utf-8")
        assert text[change.start : change.end] == change.old, change
        assert change.new != change.old and text.count("\n", 0, change.start) + 1 == change.line, change


def test_a_number_word_becomes_the_next_number_keeping_its_capital():
    script = _load_script()
    assert [script._next_spoken(text) for text in ("Two hits", "nineteen", "a third")] == [
        "Three hits",
        "twenty",
        "a quarter",
    ]
