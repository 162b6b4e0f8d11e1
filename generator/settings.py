"""The machine owner's limits, read from the environment (``RULEPRESS_*``), never from a project.

Each is held between a floor and a ceiling: what is not a number is the default, and ``inf`` or ``1e300``
is the ceiling, never no limit at all.
"""

from __future__ import annotations

import math
import os

SECONDS_ALLOWED = (0.1, 600.0)  # a time limit is held to this
MEGABYTES_ALLOWED = (64, 1024 * 1024)  # a memory limit to this: more than the kernel takes is none


def seconds(name: str, default: float) -> float:
    """The time limit the variable ``name`` sets, in seconds."""
    try:
        written = float(os.environ.get(name, "") or default)
    except ValueError:
        return float(default)
    low, high = SECONDS_ALLOWED
    return float(default) if math.isnan(written) else min(max(written, low), high)


def megabytes(name: str, default: int) -> int:
    """The memory limit the variable ``name`` sets, in whole megabytes."""
    try:
        written = int(os.environ.get(name, "") or default)
    except ValueError:
        return default
    low, high = MEGABYTES_ALLOWED
    return min(max(written, low), high)
