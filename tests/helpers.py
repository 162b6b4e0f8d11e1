"""What many test modules share: where things are, and a small project made in a temporary folder.

Test modules import it as ``helpers`` (pyproject.toml puts tests/ on pytest's ``pythonpath``)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
BROKEN = TESTS / "broken"
FIXTURES = TESTS / "fixtures"
ATTACKS = TESTS / "attacks"
