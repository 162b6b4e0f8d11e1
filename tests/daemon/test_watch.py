"""What tells the check daemon a file was saved (generator/daemon/watch.py): inotify, or a look at every file."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from generator.daemon import watch
from generator.daemon.watch import Watch


@pytest.fixture(params=["inotify", "looking"])
def watched(request, tmp_path, monkeypatch) -> tuple[Path, Watch]:
    if request.param == "looking":
        monkeypatch.setattr(watch, "_inotify", lambda: None)
    (tmp_path / "rules_src" / "game").mkdir(parents=True)
    (tmp_path / "rules_src" / "game" / "rules.yaml").write_text("rules: []\n")
    found = Watch(tmp_path)
    if request.param == "inotify":
        assert found._fd is not None  # this machine's kernel offers it: the test is of inotify
    yield tmp_path, found
    found.close()


def waits_for_change(found: Watch, seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found.changed(0.1):
            return True
    return False


def test_nothing_saved_is_no_change(watched):
    _root, found = watched
    assert not waits_for_change(found, 0.3)


@pytest.mark.parametrize(
    "save",
    [
        lambda root: (root / "rules_src" / "game" / "rules.yaml").write_text("rules: [a]\n"),
        lambda root: (root / "rules_src" / "game" / "values.yaml").write_text("values: []\n"),
        lambda root: (root / "rules_src" / "game" / "rules.yaml").unlink(),
        lambda root: (root / "rulepress.yaml").write_text("site: {}\n"),
        lambda root: (root / "templates" / "handouts").mkdir(parents=True),
    ],
    ids=["edited", "made", "removed", "settings", "templates"],
)
def test_a_save_is_seen(watched, save):
    root, found = watched
    save(root)
    assert waits_for_change(found)
    assert not waits_for_change(found, 0.3)  # told once


def test_a_file_saved_in_a_folder_made_later_is_seen(watched):
    root, found = watched
    (root / "rules_src" / "other").mkdir()
    assert waits_for_change(found)
    (root / "rules_src" / "other" / "rules.yaml").write_text("rules: []\n")
    assert waits_for_change(found)


def test_a_file_outside_what_a_check_reads_is_no_change(watched):
    root, found = watched
    (root / "notes.txt").write_text("a shopping list\n")
    (root / "build").mkdir()
    assert not waits_for_change(found, 0.3)


def test_the_wait_ends_when_the_socket_is_asked(watched):
    """A request does not wait for a save: the daemon is woken by either."""
    import socket

    _root, found = watched
    left, right = socket.socketpair()
    with left, right:
        asking = threading.Timer(0.1, lambda: left.send(b"x"))
        asking.start()
        start = time.monotonic()
        assert not found.changed(5.0, also=right)
        assert time.monotonic() - start < 4.0
        asking.join()
