"""The shared test helpers do what the tests that lean on them assume."""

from __future__ import annotations

import pytest
from helpers import sweep


def test_a_sweep_passes_when_every_case_passes():
    seen = []
    sweep([(1, 2), (3, 4)], lambda a, b: seen.append((a, b)))
    assert seen == [(1, 2), (3, 4)]


def test_a_sweep_names_every_failing_case_and_counts_them():
    def check(n):
        assert n % 3, f"{n} is a multiple of three"

    with pytest.raises(AssertionError) as failure:
        sweep(range(1, 10), check)
    text = str(failure.value)
    lines = text.splitlines()
    assert lines[0] == "3 case(s) failed:"
    assert [line.split(":")[0] for line in lines[1:]] == ["(3,)", "(6,)", "(9,)"]
    assert lines[1].startswith("(3,): 3 is a multiple of three / assert")  # the message, then what was compared


def test_a_sweep_lets_an_error_that_is_no_failed_comparison_through():
    def check(n):
        raise KeyError(n)

    with pytest.raises(KeyError):
        sweep([1], check)
