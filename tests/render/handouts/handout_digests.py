"""Each handout's HTML as a digest: what test_handouts compares between two processes. It imports the engine alone,
so the other process starts in a fraction of the time pytest and the PDF reader would take."""

from __future__ import annotations

import hashlib
from pathlib import Path

from generator.render.handouts.jobs import handout_jobs


def html_digests(project) -> str:
    """A line per handout of both audiences: its file name and the SHA-256 of its HTML."""
    return "\n".join(
        f"{job.target.name} {hashlib.sha256(job.html.encode()).hexdigest()}"
        for audience in ("player", "gm")
        for job in handout_jobs(project, Path("/out"), audience)
    )
