"""The staging folder a build is written into, its signed manifest, and the swap that puts it in place.

A build writes beside the output folder and swaps its staging folder in by two renames once all of it
succeeded; what a killed build left (its staging folder, the previous build mid-swap) is put right by
the next build into that folder (``clean_stale``), with the lock held."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
from pathlib import Path

from ..cache_seal import sign, unsign

MANIFEST = ".manifest.json"
MANIFEST_MAC = ".manifest.mac"  # its MAC with this machine's key (``cache_seal``)
# What the manifest's MAC is bound to: its being one, not where it stands (a project copied on this machine keeps its
# build's keys; the key, not the place, says who wrote it).
MANIFEST_LABEL = "build manifest"


def _staging_prefix(out: Path) -> str:
    return f".{out.name}-staging-"


def new_staging(out: Path) -> Path:
    """A new folder beside ``out`` for a build, made as `mkdir` makes one: its mode is the umask's (0755 under 022),
    since it becomes ``out``, which a web server serving ``out/site`` must be able to pass through. A private
    folder (``mkdtemp``'s 0700) guards nothing: what a build stages is published by the swap a moment later, and
    no one else may write into it either way."""
    for _ in range(100):
        staging = out.parent / (_staging_prefix(out) + secrets.token_hex(4))
        try:
            staging.mkdir()
        except FileExistsError:
            continue
        return staging
    raise FileExistsError(f"no free name for a staging folder beside {out}")


def clean_stale(out: Path) -> None:
    """Remove what a killed build into ``out`` left beside it: its staging folder and the previous
    build it was swapping out. Called with the lock held, so no live build owns them."""
    staged = re.compile(re.escape(_staging_prefix(out)) + r"[a-z0-9_]{8}")
    swapped = re.compile(re.escape(f".{out.name}.old-") + r"[0-9]+")
    for path in sorted(out.parent.iterdir(), key=lambda p: p.name):
        if not path.is_dir() or path.is_symlink():
            continue
        if swapped.fullmatch(path.name) and not out.exists():
            path.rename(out)  # killed between the two renames of a swap: the previous build comes back
        elif staged.fullmatch(path.name) or swapped.fullmatch(path.name):
            shutil.rmtree(path, ignore_errors=True)


def swap(staging: Path, out: Path) -> None:
    """Replace ``out`` by ``staging`` with two renames, so a reader never sees half a build;
    Ctrl-C waits until both are done (a kill -9 between them is undone by the next build)."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    blocked = hasattr(signal, "pthread_sigmask")
    if blocked:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        if out.exists():
            out.rename(old)
        try:
            staging.rename(out)
        except BaseException:
            if old.exists() and not out.exists():
                old.rename(out)
            raise
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    shutil.rmtree(old, ignore_errors=True)


def keep_if_same(source, target, previous: Path, built: Path) -> None:
    """Stage a file of Sphinx's output: the previous build's own file (a hard link) where its bytes
    are the same, so a page the change did not touch keeps its identity; else a copy. Never a link
    into Sphinx's output folder, which Sphinx rewrites in place on the next build."""
    before = previous / Path(source).relative_to(built)
    try:
        same = (
            before.is_file()
            and before.stat().st_size == os.stat(source).st_size
            and before.read_bytes() == Path(source).read_bytes()
        )
    except OSError:
        same = False
    if same:
        link_or_copy(before, target)
    else:
        shutil.copy2(source, target)


def link_or_copy(source, target) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


# -- the manifest: what each file of a build was made from ---------------------------------------------------
def read_manifest(out: Path) -> dict[str, str]:
    """What the build in ``out`` was made from, if this machine wrote it there: a manifest shipped with
    the project (or copied from elsewhere) is no build of ours, so nothing it names is reused."""
    try:
        data = (out / MANIFEST).read_bytes()
        signed = (out / MANIFEST_MAC).read_bytes()
    except OSError:
        return {}
    if unsign(MANIFEST_LABEL, signed.strip() + b"\n" + data) != data:
        return {}
    try:
        found = json.loads(data)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def write_manifest(folder: Path, entries: dict) -> None:
    """``entries`` as the manifest of ``folder`` (a staging folder that becomes the build), signed with this
    machine's key so only this machine's next build reuses what it names."""
    data = json.dumps(entries, indent=1, sort_keys=True).encode("utf-8")
    (folder / MANIFEST).write_bytes(data)
    signed = sign(MANIFEST_LABEL, data)
    if signed is not None:
        (folder / MANIFEST_MAC).write_bytes(signed.partition(b"\n")[0] + b"\n")
