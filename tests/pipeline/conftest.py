"""The pipeline tests' fixtures: a hand-made project and stand-in renderers (tests/pipeline/stand_ins.py)."""

from stand_ins import project, renderers  # noqa: F401 - fixtures, found here by every test of the folder
