"""The check cache's keys over links, huge and unreadable files, and slots that do not read back: a key
changes exactly when what the loader would read changes, and nothing outside the project is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator import check_cache
from generator.check_cache import CheckCache, load_diagnostics, tree_digest


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A project (``root``, with rules_src/game/) and a folder outside it."""
    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / "rules_src" / "game").mkdir(parents=True)
    (root / "rules_src" / "game" / "ruleset.yaml").write_text("ruleset: {title: Game}\n")
    outside.mkdir()
    (outside / "secret.yaml").write_text("one\n")
    return root.resolve(), outside


def key(root: Path) -> str:
    return tree_digest(root / "rules_src", root).hexdigest()


def test_a_link_leading_outside_is_hashed_by_its_text_alone(layout):
    root, outside = layout
    (root / "rules_src" / "game" / "stolen.yaml").symlink_to(outside / "secret.yaml")
    before = key(root)
    (outside / "secret.yaml").write_text("two, of another length\n")
    assert key(root) == before  # what it leads to is never read
    (root / "rules_src" / "game" / "stolen.yaml").unlink()
    (root / "rules_src" / "game" / "stolen.yaml").symlink_to(outside / "elsewhere.yaml")
    assert key(root) != before  # where it leads is part of the key


def test_a_linked_top_folder_leading_outside_is_not_entered(layout):
    root, outside = layout
    (root / "rules_src" / "linked").symlink_to(outside, target_is_directory=True)
    top = root / "rules_src" / "linked"
    before = tree_digest(top, root).hexdigest()
    (outside / "secret.yaml").write_text("changed\n")
    (outside / "more.yaml").write_text("new\n")
    assert tree_digest(top, root).hexdigest() == before


def test_a_link_inside_the_project_is_followed(layout):
    root, _outside = layout
    (root / "shared.yaml").write_text("a: 1\n")
    (root / "rules_src" / "game" / "shared.yaml").symlink_to(root / "shared.yaml")
    before = key(root)
    (root / "shared.yaml").write_text("a: 2\n")
    assert key(root) != before


def test_a_loop_of_links_ends(layout):
    root, _outside = layout
    (root / "rules_src" / "game" / "again").symlink_to(root / "rules_src", target_is_directory=True)
    first = key(root)
    assert key(root) == first  # it ends, and the same way each time
    (root / "rules_src" / "game" / "ruleset.yaml").write_text("ruleset: {title: Changed}\n")
    assert key(root) != first


def test_a_file_beyond_the_size_cap_is_hashed_by_its_size(layout, monkeypatch):
    root, _outside = layout
    monkeypatch.setattr(check_cache, "LARGE", 10)
    big = root / "rules_src" / "game" / "big.yaml"
    big.write_text("x" * 20)
    before = key(root)
    big.write_text("y" * 20)
    assert key(root) == before  # same size: never read
    big.write_text("y" * 21)
    assert key(root) != before


def test_an_unreadable_file_keys_as_unreadable(layout, monkeypatch):
    root, _outside = layout
    readable = key(root)
    real = Path.read_bytes

    def refuse(self):  # as for a file without read permission (root may read anything, so it is simulated)
        if self.name == "ruleset.yaml":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    unreadable = key(root)
    assert unreadable != readable and key(root) == unreadable


def test_a_slot_that_does_not_read_back_is_a_miss(layout):
    root, _outside = layout
    cache = CheckCache(root)
    cache.put("rules-game", "key-1", [1, 2])
    assert cache.get("rules-game", "key-1") == [1, 2]
    assert cache.get("rules-game", "key-2") is None  # another key
    slot = cache.folder / "rules-game.json"
    for corrupt in ("{not json", json.dumps([1, 2]), json.dumps({"key": "key-1"}), "\udcff"):
        slot.write_text(corrupt, encoding="utf-8", errors="surrogateescape")
        assert cache.get("rules-game", "key-1") is None, corrupt
    assert CheckCache(root, reading=False).get("rules-game", "key-1") is None  # `check --all` reads nothing


def test_a_cache_folder_that_is_a_link_is_neither_read_nor_written(layout):
    root, outside = layout
    (root / ".rulepress-cache").symlink_to(outside, target_is_directory=True)
    cache = CheckCache(root)
    cache.put("rules-game", "key-1", [1])
    assert not (outside / "check").exists()
    (outside / "check").mkdir()
    (outside / "check" / "rules-game.json").write_text(json.dumps({"key": "key-1", "value": [1]}))
    assert cache.get("rules-game", "key-1") is None


def test_stored_diagnostics_that_do_not_read_back_are_none():
    assert load_diagnostics([["Location", "a.yaml", 1, 1, "no-such-code", "m", None, "error"]]) is None
    assert load_diagnostics([["Elsewhere", "a.yaml", 1, 1, "bad-id", "m", None, "error"]]) is None
    assert load_diagnostics([["Location", "a.yaml", 1]]) is None
    (read,) = load_diagnostics([["Location", "a.yaml", 2, 3, "bad-id", "m", None, "error"]])
    assert read.format() == "a.yaml:2:3: error[bad-id]: m\n  hint: use lower-case letters, digits and underscores"
