"""Load a project and run every check: the one entry point for `check` and `build`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostics
from ..source.project import Project, load_project
from .checks import run_checks


@dataclass(frozen=True)
class CheckResult:
    project: Project
    diagnostics: Diagnostics

    @property
    def ok(self) -> bool:
        return not self.diagnostics.errors


def check_project(root: Path, only: str | None = None) -> CheckResult:
    project, diagnostics = load_project(root, only)
    for ruleset in project.rulesets:
        diagnostics.extend(run_checks(ruleset))
    return CheckResult(project, Diagnostics(diagnostics.sorted()))
