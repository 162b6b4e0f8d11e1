"""Focused tests that kill mutmut survivors in validation (see docs/mutation-survivors.md).

Columns and messages are counted by hand in the texts below (0-based, as Finding reports them).
"""

from __future__ import annotations

from generator.diagnostics import Code
from generator.validate import computed, prose
from generator.validate.prose import prose_findings

LINK_HINT = "link to an http(s) address or, with a role such as {rule}`id`, to an entry of the rules"


def test_shortened_text_keeps_sixty_characters():
    assert prose._short("a  b\n c") == "a b c"
    assert prose._short("x" * 60) == "x" * 60
    assert prose._short("x" * 61) == "x" * 59 + "…"
    assert prose._short("abcdef", limit=5) == "abcd…"
    assert prose._short(12) == "12"


def test_only_web_mail_and_anchor_links_are_allowed():
    for href in ("#rules", "http://a.org", "https://a.org", "mailto:a@b.org", "HTTPS://A.ORG", "ht tps://a.org", " #x"):
        assert prose._allowed_link(href), href
    for href in ("javascript:x", "file:///etc", "data:x", "../a.md", "a.md", "/etc/passwd", "ftp://a.org", "", "http:/a"):
        assert not prose._allowed_link(href), href


def test_a_refused_link_is_found_where_it_is_written():
    found = prose_findings("a [x](javascript:alert(1)) b")
    assert [(f.code, f.message, f.line, f.column, f.hint) for f in found] == [
        (Code.PROSE_LINK, "a link to `javascript:alert(1)`", 0, 6, LINK_HINT)]
    found = prose_findings("line\n\n[y](file:///etc/passwd)")
    assert [(f.line, f.column) for f in found] == [(2, 4)]


def test_the_link_is_sought_as_written_unquoted_or_by_its_scheme():
    lines = ["see [a](<java script:x>) here"]
    assert prose._link_needle("java%20script:x", lines, [0, 0]) == "java script:x"
    assert prose._link_needle("java script:x", lines, [0, 0]) == "java script:x"
    lines = ["[a](JAVASCRIPT:x&amp;y)"]
    assert prose._link_needle("JAVASCRIPT:x&y", lines, [0, 0]) == "JAVASCRIPT:"
    assert prose._link_needle("nothing:here", ["[a](b)"], [0, 0]) == "]("
    assert prose._link_needle("x:y", ["x:y", "later"], [1, 0]) == "]("  # only from the cursor's line on
    found = prose_findings("one [a](<java script:x>)")
    assert [(f.line, f.column) for f in found] == [(0, 9)]


def test_inputs_are_shown_as_names_and_values():
    assert computed._shown({}) == "no inputs"
    assert computed._shown({"S": 4, "T": 3}) == "S=4, T=3"
    assert computed._shown({"a": "x"}) == "a=x"


def test_a_keyword_splits_from_its_trailing_numbers():
    from generator.validate.checks import split_keyword

    assert split_keyword("Poison") == ("Poison", ())
    assert split_keyword("Fear 2") == ("Fear", ("2",))
    assert split_keyword("Regenerate 4 -1") == ("Regenerate", ("4", "-1"))
    assert split_keyword("7") == ("7", ())  # a lone number is the keyword's name, not its parameter
    assert split_keyword("Big 2 Gun 3") == ("Big 2 Gun", ("3",))


def test_markdown_fields_are_found_inside_optional_and_union_types():
    from typing import Optional, Union

    from generator.model.base import Markdown

    assert prose._is_markdown(Markdown)
    assert prose._is_markdown(Optional[Markdown])
    assert prose._is_markdown(Union[int, tuple[Markdown, ...]])
    assert not prose._is_markdown(str) and not prose._is_markdown(Optional[int])


def test_a_check_registers_under_its_name_without_the_prefix():
    from generator.validate import checks

    def check_mutation_probe(ruleset, diagnostics):
        return None

    try:
        assert checks.check(check_mutation_probe) is check_mutation_probe
        assert checks.CHECKS["mutation_probe"] is check_mutation_probe
        assert "check_mutation_probe" not in checks.CHECKS
    finally:
        checks.CHECKS.pop("mutation_probe", None)


def test_a_rulesets_problems_are_its_checks_then_its_mechanics(monkeypatch, tmp_path):
    import generator.validate as validate

    monkeypatch.setattr(validate, "run_checks", lambda ruleset: iter([f"check of {ruleset}"]))
    monkeypatch.setattr(validate, "mechanics_problems", lambda root, ruleset: (f"mechanics of {ruleset} in {root.name}",))
    assert validate.check_ruleset(tmp_path, "abc") == ["check of abc", f"mechanics of abc in {tmp_path.name}"]
