"""scripts/data_mutation.py (`make data-mutation`): the changes it makes to the sample rules' example sentences are
where the files have them, and a number written as a word is changed into the next one."""

from __future__ import annotations

from helpers import ROOT, load_script


def test_each_sentence_change_replaces_the_number_the_file_holds_where_it_says():
    script = load_script("data_mutation")
    changes = script.sentence_mutations(ROOT, None)
    assert len({change.ruleset for change in changes}) >= 3  # every sample with worked examples has some
    for change in changes:
        text = (ROOT / "rules_src" / change.path).read_text(encoding="utf-8")
        assert text[change.start : change.end] == change.old, change
        assert change.new != change.old and text.count("\n", 0, change.start) + 1 == change.line, change


def test_a_number_word_becomes_the_next_number_keeping_its_capital():
    script = load_script("data_mutation")
    assert [script._next_spoken(text) for text in ("Two hits", "nineteen", "a third")] == [
        "Three hits",
        "twenty",
        "a quarter",
    ]
