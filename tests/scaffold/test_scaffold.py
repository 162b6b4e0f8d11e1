"""`rulepress new` copies the package's template project (generator/scaffold/): its files, with the names filled in."""

from __future__ import annotations

from generator.scaffold import _copy


def test_bytecode_cached_beside_the_templates_mechanics_is_not_copied_into_a_new_project(tmp_path):
    """Compiling the package (`make build` does) may leave a __pycache__ beside the template's mechanics.py."""
    template = tmp_path / "template"
    (template / "__pycache__").mkdir(parents=True)
    (template / "__pycache__" / "mechanics.cpython-311.pyc").write_bytes(b"\xa7\r\r\n\x00\x00\x00\x00\xff")
    (template / "mechanics.py").write_text("def twice(n):\n    return 2 * n  # for @title@\n", encoding="utf-8")
    written = _copy(template, tmp_path / "rules_src", {"title": "My Game"})
    assert written == [tmp_path / "rules_src" / "template" / "mechanics.py"]
    assert written[0].read_text(encoding="utf-8") == "def twice(n):\n    return 2 * n  # for My Game\n"
