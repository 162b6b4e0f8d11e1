"""What a contributor does on their own machine to ship a forged ``.rulepress-cache/``: run their own
rulepress, with a check switched off, on the project they send, and keep the slots it wrote. Their
slots carry their machine's MAC (the harness gives the setup its own state folder), never the builder's.
Used by the ``setup: forge.py`` scripts of the cache_* cases."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

CHECK = Path(".rulepress-cache") / "check"


def project_argument() -> Path:
    return Path(sys.argv[1]).resolve()


def check_quietly(project: Path) -> None:
    """``rulepress check`` in this process (so the caller's patches apply), its output swallowed."""
    from generator.report import run_check

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        run_check(project)


def keep_only(project: Path, prefix: str) -> None:
    """Keep the slots whose name starts with ``prefix``: the case forges that kind alone."""
    folder = project / CHECK
    kept = [path for path in folder.glob("*.json") if path.name.startswith(prefix)]
    assert kept, f"the forged check wrote no {prefix}* slot in {folder}"
    for path in folder.glob("*.json"):
        if path not in kept:
            path.unlink()


def forge_output(project: Path, stdout: str, stderr: str = "") -> None:
    """The slot `check` prints back for an unchanged project, saying what the contributor likes."""
    from generator.check_cache import CheckCache, output_slot

    cache = CheckCache(project)
    cache.put(output_slot(None, True), cache.project_key(None, True), {"stdout": stdout, "stderr": stderr, "status": 0})
    assert (project / CHECK / f"{output_slot(None, True)}.json").is_file()


class Payload:
    """Unpickled, it prints the secret from outside and leaves a file in the project (both caught by
    the harness: the secret in a message, a changed project)."""

    def __init__(self, secret: Path, marker: Path):
        self.code = (f"import sys; sys.stderr.write(open({str(secret)!r}).read()); "
                     f"open({str(marker)!r}, 'w').write('the cache ran code')")

    def __reduce__(self):
        return (exec, (self.code,))


def payload(project: Path) -> bytes:
    import pickle

    outside = Path(sys.argv[2]).resolve()
    return pickle.dumps(Payload(outside / "secret.txt", project / "rules_src" / "game" / "PWNED.txt"))


def site_cache(project: Path, name: str = "site") -> Path:
    """Where `rulepress build` keeps site ``name``'s Sphinx cache for builds into build/ (README:
    ``.rulepress-cache/out-<hash of the out folder>/``)."""
    from generator.pipeline.plan import site_cache as where

    return where(project, project / "build", name)


def build_site_as_contributor(project: Path) -> None:
    import subprocess

    subprocess.run([sys.executable, "-m", "generator", "-C", str(project), "build", "--only", "site", "--audience", "player"],
                   check=True, capture_output=True, timeout=170)
