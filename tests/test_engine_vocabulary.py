"""The engine names no game: no id, title or declared word of any ruleset stands in generator/ or templates/.

Every ruleset's words are collected (the samples in rules_src/ and the test fixtures'): ruleset ids and titles,
entry ids, titles, names and terms, profile rows, and what `ruleset: declares:`.
Each is searched, as a whole word or phrase and in any case, in the engine's code, templates, styles and scripts.
What a game calls things belongs in its YAML; the engine shows neutral words where a ruleset declares none.

The format's own names (sections, fields) are the engine's words by definition and are taken from the schema;
beyond them only the short allow-list below may be shared, each word with the reason it is not a game's.
(tests/test_rulesets_apart.py checks the other half: a game lives in its own folder.)
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import typing
from pathlib import Path

import pytest

from generator.model.ruleset import SECTIONS
from generator.source.project import load_project

ROOT = Path(__file__).resolve().parents[1]
SCAFFOLD = Path("generator", "scaffold", "template")  # the sample ruleset `rulepress new` copies: not the engine
PROJECTS = (ROOT, *sorted(p.parent for p in (ROOT / "tests" / "fixtures").glob("*/rules_src")))
ENGINE = ("generator", "templates")
SEARCHED = {".py", ".j2", ".html", ".css", ".js"}

# Words rulesets use that are the engine's own too, each for the reason given. Keep it short: a word a game
# gave itself belongs here only when the engine needs the same plain word for its own job.
ALLOWED = {
    # plain English the engine's code and messages need, in no game's sense
    "about",
    "end",
    "round",
    "object",
    "high",
    "low",
    "turn",
    "players",
    "setup",
    "save",
    "natural",
    "hits",
    "outcome",
    "fighting",
    "moving",
    "ending",
    "the turn",
    "the end of the game",
    "what you need",
    # the format's concepts, named in its documentation and outputs: a `hidden:` victory point is a "hidden task"
    # told by the "game master" (`audience: gm`); keywords are "special rules"; phases form the "turn sequence"
    "task",
    "hidden tasks",
    "game master",
    "special rule",
    "turn sequence",
    "victory points",
    "troops",
    "combat",
    # what every output prints: a matrix's `movement:` is its "Move" column; an overlay's values are the house
    # rules a gaming "club" changed
    "move",
    "club",
    # the site's styles and scripts: a table's "scroll" box; a search alias example (armor/armour)
    "scroll",
    "armour",
    "armour save",
}


def schema_words() -> set[str]:
    """The format's own names: every section, every field of every entry kind (nested ones too), and the words
    they are made of (`victory_points` -> victory points, victory, points)."""
    names: set[str] = set()
    seen: set[type] = set()

    def visit(cls):
        if cls in seen or not dataclasses.is_dataclass(cls):
            return
        seen.add(cls)
        hints = typing.get_type_hints(cls, include_extras=True)
        for f in dataclasses.fields(cls):
            names.add(f.metadata.get("key") or f.name)
            for inner in _dataclasses_in(hints[f.name]):
                visit(inner)

    for section, cls in SECTIONS.items():
        names.add(section)
        visit(cls)
    from generator.model.entries import Meta

    visit(Meta)
    words = set()
    for name in names:
        words |= {name, name.replace("_", " "), *name.split("_")}
        words |= {w[:-1] for w in set(words) if w.endswith("s")} | {w[:-3] + "y" for w in words if w.endswith("ies")}
    return {w.casefold() for w in words if w}


def _dataclasses_in(annotation) -> list[type]:
    """The dataclasses an annotation names, inside tuples, unions and `Annotated` too."""
    found, todo = [], [annotation]
    while todo:
        tp = todo.pop()
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            found.append(tp)
        todo += list(typing.get_args(tp))
    return found


def ruleset_words(root: Path) -> dict[str, str]:
    """Every id, title and declared word of the rulesets under ``root``, each with where it was found."""
    project, _ = load_project(root)
    words: dict[str, str] = {}

    def add(word, where):
        word = " ".join(str(word).split())
        if word:
            words.setdefault(word.casefold(), f"{'rules_src' if root == ROOT else root.name}: {where}")

    for ruleset in project.rulesets:
        meta = ruleset.meta
        for word in (ruleset.id, meta.title, meta.short_title):
            add(word, ruleset.id)
        for word in declared_words(meta.declares):
            add(word, f"{ruleset.id} ruleset: declares:")
        for section in SECTIONS:
            for entry in ruleset.section(section):
                for word in (entry.id, *(getattr(entry, n, "") for n in ("title", "name", "term"))):
                    add(word, f"{ruleset.id} {section}.{entry.id}")
                rows = getattr(entry, "rows", ())
                for row in rows if isinstance(rows, tuple) else ():
                    for word in (getattr(row, "id", ""), getattr(row, "name", "")):
                        add(word, f"{ruleset.id} {section}.{entry.id} row")
    return words


def declared_words(declares) -> list[str]:
    if declares is None:
        return []
    words = [
        *declares.hero_levels,
        *declares.keyword_kinds,
        *declares.item_kinds,
        *declares.victory_point_kinds,
        *(page.title for page in declares.page_titles),
        declares.carried_spells,
        declares.game_master,
    ]
    if declares.victory_point_sheet:
        words += [declares.victory_point_sheet.side, *(kind.title for kind in declares.victory_point_sheet.kinds)]
    return words


def every_ruleset_word() -> dict[str, str]:
    words: dict[str, str] = {}
    for root in PROJECTS:
        for word, where in ruleset_words(root).items():
            words.setdefault(word, where)
    return words


def engine_files(top: Path) -> list[Path]:
    """The engine's code, templates, styles and scripts under ``top``: not the scaffold, which is a ruleset."""
    files = []
    for folder in ENGINE:
        for path in sorted((top / folder).rglob("*")):
            if (
                path.suffix in SEARCHED
                and path.is_file()
                and SCAFFOLD not in path.relative_to(top).parents
                and "vendor" not in path.parts
            ):
                files.append(path)
    return files


def tokens(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[\w-]+", text.casefold()))


def game_words_in(top: Path, words: dict[str, str]) -> dict[str, list[str]]:
    """Each of ``words`` (not the format's names nor allowed) that the engine under ``top`` names, as whole words in
    any case, with the files naming it."""
    skipped = schema_words() | ALLOWED
    wanted = {word: tokens(word) for word in words if word not in skipped}
    found: dict[str, list[str]] = {}
    for path in engine_files(top):
        text = tokens(path.read_text(encoding="utf-8"))
        at: dict[str, list[int]] = {}
        for index, token in enumerate(text):
            at.setdefault(token, []).append(index)
        for word, parts in wanted.items():
            if parts and any(text[i : i + len(parts)] == parts for i in at.get(parts[0], ())):
                found.setdefault(word, []).append(path.relative_to(top).as_posix())
    return dict(sorted(found.items()))


@pytest.fixture(scope="module")
def words() -> dict[str, str]:
    return every_ruleset_word()


def test_the_words_are_collected_from_every_ruleset_and_its_declarations(words):
    for word in (
        "ordo_ineptus",
        "melee",
        "skirmish",
        "frontier",
        "warband",
        "monsters defeated",
        "scrolls",
        "special rules and psychology",
        "turn_sequence",
        "push_back",
    ):
        assert word in words, word


def test_the_engine_names_no_game(words):
    found = game_words_in(ROOT, words)
    assert not found, "\n".join(f"`{word}` ({words[word]}) in {', '.join(files)}" for word, files in found.items())


@pytest.mark.parametrize(
    "planted, file",
    [
        ("Warband", "templates/sheets/victory-points.html.j2"),
        ("turn_sequence", "generator/render/present.py"),
        ("Special rules and psychology", "generator/render/site/pages.py"),
        ("frontier", "generator/render/site/static/rulepress.css"),
    ],
)
def test_a_game_word_planted_in_the_engine_is_found(tmp_path, planted, file, words):
    for folder in ENGINE:
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "vendor"))
    target = tmp_path / file
    target.write_text(target.read_text(encoding="utf-8") + f"\n/* {planted} */\n", encoding="utf-8")
    found = game_words_in(tmp_path, words)
    assert found[planted.casefold()] == [file]
    assert all(word in planted.casefold() and files == [file] for word, files in found.items())  # nothing else


def test_the_allow_list_is_short_and_each_word_is_a_ruleset_word(words):
    assert len(ALLOWED) <= 40
    assert ALLOWED <= set(words), sorted(ALLOWED - set(words))  # a word no ruleset uses need not be allowed
