"""A formula cannot call a ruleset's mechanics.py: one that does is told so, and that the function it calls is one of
the mechanics (its own ruleset's, or its base's), not merely that the name is unknown."""

from __future__ import annotations

from pathlib import Path

from generator.source.project import load_project
from generator.validate.computed import check_formulas

MECHANICS = '"""Own mechanics."""\n\n\ndef chance_at_least_one(marked, draws):\n    return marked\n'


def _game(folder: Path, formulas: str, extends: str = "") -> None:
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(
        f"ruleset: {{title: {folder.name.title()}{extends}}}\n"
        "chapters: {basics: {title: Basics}}\n"
        f"formulas:\n{formulas}",
        encoding="utf-8",
    )


def _hints(root: Path, ruleset: str) -> dict[tuple[str, str], str | None]:
    """The hint of each unknown name, by (name, where it is read: a formula or a `let:` name)."""
    project, diagnostics = load_project(root)
    assert not diagnostics.errors
    return {tuple(d.message.split("`")[1:4:2]): d.hint for d in check_formulas(project.ruleset(ruleset))}


CALLING = """\
  volley:
    title: Volley
    chapter: basics
    inputs: {draws: {label: Draws, min: 1, max: 3}}
    expr: chance_at_least_one(13, draws)
    result: chance
  unknown:
    title: Unknown
    chapter: basics
    inputs: {draws: {label: Draws, min: 1, max: 3}}
    let: {first: unheard_of(draws)}
    expr: first + chance_at_least_one
"""


def test_a_formula_calling_a_function_of_its_mechanics_is_told_formulas_cannot_call_mechanics(tmp_path):
    _game(tmp_path / "rules_src" / "game", CALLING)
    (tmp_path / "rules_src" / "game" / "mechanics.py").write_text(MECHANICS, encoding="utf-8")
    hints = _hints(tmp_path, "game")
    assert hints["chance_at_least_one", "volley"] == (
        "`chance_at_least_one` is a function of this ruleset's mechanics.py, and formulas cannot call mechanics "
        "(worked examples can): write what it works out in the formula, with `let:` names, tables, lookups and dice"
    )
    # a call of a name nothing defines: formulas cannot call mechanics either
    assert hints["unheard_of", "let: first"] == (
        "call the formulas, tables, lookups and functions listed in the format reference: formulas cannot call a "
        "function of mechanics.py"
    )


def test_a_name_of_the_mechanics_read_but_not_called_is_told_as_any_unknown_name(tmp_path):
    _game(tmp_path / "rules_src" / "game", CALLING)
    (tmp_path / "rules_src" / "game" / "mechanics.py").write_text(MECHANICS, encoding="utf-8")
    assert _hints(tmp_path, "game")["chance_at_least_one", "unknown"] is None  # the code's own hint


def test_a_function_of_a_bases_mechanics_is_named_as_the_bases(tmp_path):
    _game(tmp_path / "rules_src" / "core", "  noop: {title: Noop, chapter: basics, expr: '1'}\n")
    (tmp_path / "rules_src" / "core" / "mechanics.py").write_text(MECHANICS, encoding="utf-8")
    _game(tmp_path / "rules_src" / "skirmish", CALLING, extends=", extends: core")
    hints = _hints(tmp_path, "skirmish")
    assert hints["chance_at_least_one", "volley"].startswith(
        "`chance_at_least_one` is a function of the mechanics.py of `core`, its base, and formulas cannot call"
    )
