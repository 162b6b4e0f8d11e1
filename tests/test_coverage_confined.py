"""The confined runner's settings read from the environment, and the one fallback the child sends when a
ruleset's names cannot be listed. (What the child refuses is tested end to end in tests/end_to_end/test_attacks.py.)"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from generator.examples import confined


@pytest.mark.parametrize("written, seconds", [
    (None, 10.0), ("", 10.0), ("2.5", 2.5), ("0", 0.1), ("-4", 0.1), ("soon", 10.0),
    ("600", 600.0), ("601", 600.0), ("inf", 600.0), ("1e300", 600.0), ("-inf", 0.1), ("nan", 10.0),
])
def test_the_time_allowed_is_read_with_a_floor_a_ceiling_and_a_default(monkeypatch, written, seconds):
    if written is None:
        monkeypatch.delenv("RULEPRESS_EXAMPLE_SECONDS", raising=False)
    else:
        monkeypatch.setenv("RULEPRESS_EXAMPLE_SECONDS", written)
    assert confined.seconds_allowed() == seconds


@pytest.mark.parametrize("written, megabytes", [
    (None, 1024), ("", 1024), ("200", 200), ("10", 64), ("lots", 1024), ("1.5", 1024),
    ("1048576", 1048576), ("99999999999999999999999", 1048576),  # 1 TiB at most: more is no limit (setrlimit fails)
])
def test_the_memory_allowed_is_read_with_a_floor_a_ceiling_and_a_default(monkeypatch, written, megabytes):
    if written is None:
        monkeypatch.delenv("RULEPRESS_EXAMPLE_MEMORY_MB", raising=False)
    else:
        monkeypatch.setenv("RULEPRESS_EXAMPLE_MEMORY_MB", written)
    assert confined.memory_allowed() == megabytes * 1024 * 1024


def test_names_that_cannot_be_listed_come_back_as_one_row():
    def broken(ruleset, namespace):
        raise ZeroDivisionError("a helper's docstring property divided by zero")

    rows = confined._names(SimpleNamespace(names_in=broken), ruleset=None, namespace={})
    assert rows == [["object", "(names)", "the names could not be listed: ZeroDivisionError"]]
    listed = confined._names(SimpleNamespace(names_in=lambda r, n: [("value", "values.move", "Move: 6\"")]), None, {})
    assert listed == [["value", "values.move", "Move: 6\""]]


def test_the_memory_now_grows_with_what_the_process_holds():
    """The child's memory limit starts from its size at the fork: the size read must follow allocations."""
    before = confined._memory_now()
    held = bytearray(256 * 1024 * 1024)
    after = confined._memory_now()
    assert before > 0 and after - before >= 256 * 1024 * 1024
    del held
