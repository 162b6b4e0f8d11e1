"""A cache is trusted only when this machine wrote it: a MAC with a per-user key kept outside the project.

The attacks themselves (slots and site caches forged by the contributor's own rulepress) are the
cache_* cases of tests/attacks/; here are the pieces: the key, signed slots, sealed folders.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from generator import cache_seal
from generator.check_cache import CheckCache


@pytest.fixture
def state(tmp_path, monkeypatch):
    """A fresh per-user state folder (the key's home) for one test."""
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    (root / "rules_src").mkdir(parents=True)
    return root


def slot_file(project: Path, slot: str) -> Path:
    return project / ".rulepress-cache" / "check" / f"{slot}.json"


# -- the key ----------------------------------------------------------------------------------------------
def test_key_file_is_made_0600_in_the_user_state_folder_on_first_use(state, project):
    CheckCache(project).put("rules-game", "k", [])
    key = state / "rulepress" / "cache-key"
    assert key.is_file()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert len(key.read_bytes().strip()) >= 32


def test_the_project_folder_never_holds_the_key(state, project):
    CheckCache(project).put("rules-game", "k", [])
    key = (state / "rulepress" / "cache-key").read_bytes().strip()
    for path in project.rglob("*"):
        if path.is_file():
            assert key not in path.read_bytes(), f"{path} holds the key"
            assert path.name != "cache-key"


def test_key_is_the_same_across_uses(state, project):
    CheckCache(project).put("rules-game", "k", ["a"])
    assert CheckCache(project).get("rules-game", "k") == ["a"]


def test_without_xdg_state_home_the_key_is_under_local_state_of_home(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_seal.key_folder() == tmp_path / "home" / ".local" / "state" / "rulepress"


def test_a_key_inside_the_project_is_not_used(tmp_path, monkeypatch, project):
    monkeypatch.setenv("XDG_STATE_HOME", str(project / "state"))  # e.g. HOME is the checked-out project
    cache = CheckCache(project)
    cache.put("rules-game", "k", [])
    assert cache.get("rules-game", "k") is None
    assert not slot_file(project, "rules-game").exists()


def test_no_key_to_be_had_is_a_miss_not_a_failure(tmp_path, monkeypatch, project):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))  # the key's folder cannot be made
    cache = CheckCache(project)
    cache.put("rules-game", "k", [])
    assert cache.get("rules-game", "k") is None


# -- check slots ------------------------------------------------------------------------------------------
def test_a_slot_this_machine_wrote_is_a_hit(state, project):
    CheckCache(project).put("rules-game", "k", [["Location", "a.yaml", 1, 1, "x", "m", "h", "error"]])
    assert CheckCache(project).get("rules-game", "k") == [["Location", "a.yaml", 1, 1, "x", "m", "h", "error"]]


def test_a_slot_without_a_mac_is_a_miss(state, project):
    path = slot_file(project, "rules-game")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"key": "k", "value": []}))  # what the contributor can write by hand
    assert CheckCache(project).get("rules-game", "k") is None


def test_a_slot_with_a_wrong_mac_is_a_miss(state, project):
    CheckCache(project).put("rules-game", "k", ["found"])
    path = slot_file(project, "rules-game")
    tag, body = path.read_bytes().split(b"\n", 1)
    path.write_bytes(tag + b"\n" + body.replace(b"found", b"fine!"))
    assert CheckCache(project).get("rules-game", "k") is None
    path.write_bytes(b"0" * 64 + b"\n" + body)
    assert CheckCache(project).get("rules-game", "k") is None


def test_a_slot_signed_by_another_machine_is_a_miss(tmp_path, monkeypatch, project):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "contributor"))
    CheckCache(project).put("output-all", "k", {"stdout": "ALL CHECKS PASSED", "stderr": "", "status": 0})
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "builder"))
    assert CheckCache(project).get("output-all", "k") is None


def test_a_slot_copied_to_another_name_is_a_miss(state, project):
    CheckCache(project).put("examples-a", "k", 3)
    slot_file(project, "examples-b").write_bytes(slot_file(project, "examples-a").read_bytes())
    assert CheckCache(project).get("examples-b", "k") is None


@pytest.mark.parametrize("content", [b"", b"\n", b"garbage", b"0" * 64, b"\xff\xfe" * 40, b"0" * 64 + b"\n{"])
def test_a_corrupt_or_empty_slot_is_a_miss(state, project, content):
    path = slot_file(project, "memo-prose")
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert CheckCache(project).get("memo-prose", "k") is None


def test_a_signed_slot_with_another_key_inside_is_still_a_miss(state, project):
    CheckCache(project).put("rules-game", "old", [])
    assert CheckCache(project).get("rules-game", "new") is None


# -- sealed folders ---------------------------------------------------------------------------------------
def written(folder: Path) -> Path:
    (folder / "doctrees").mkdir(parents=True)
    (folder / "doctrees" / "environment.pickle").write_bytes(b"pickled by this machine")
    (folder / "templates-bytecode").mkdir()
    (folder / "templates-bytecode" / "__jinja2_x.cache").write_bytes(b"compiled")
    return folder


def test_a_sealed_folder_as_it_was_is_kept(state, tmp_path):
    folder = written(tmp_path / "site")
    assert cache_seal.seal(folder)
    assert cache_seal.verify_or_wipe(folder)
    assert (folder / "doctrees" / "environment.pickle").read_bytes() == b"pickled by this machine"


def test_a_folder_never_sealed_is_wiped(state, tmp_path):
    folder = written(tmp_path / "site")  # shipped with the project
    assert not cache_seal.verify_or_wipe(folder)
    assert not folder.exists()


@pytest.mark.parametrize("change", ["edit", "add", "remove", "link", "seal"])
def test_a_sealed_folder_changed_afterwards_is_wiped(state, tmp_path, change):
    folder = written(tmp_path / "site")
    cache_seal.seal(folder)
    pickle = folder / "doctrees" / "environment.pickle"
    if change == "edit":
        pickle.write_bytes(b"a payload")
    elif change == "add":
        (folder / "doctrees" / "extra.doctree").write_bytes(b"more")
    elif change == "remove":
        pickle.unlink()
    elif change == "link":
        (folder / "doctrees" / "elsewhere").symlink_to(tmp_path)
    else:
        seal = cache_seal.seal_path(folder)
        seal.write_bytes(seal.read_bytes()[:-3] + b"xx]")
    assert not cache_seal.verify_or_wipe(folder)
    assert not folder.exists() and not cache_seal.seal_path(folder).exists()


def test_a_seal_made_by_another_machine_is_wiped(tmp_path, monkeypatch):
    folder = written(tmp_path / "site")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "contributor"))
    cache_seal.seal(folder)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "builder"))
    assert not cache_seal.verify_or_wipe(folder)
    assert not folder.exists()


def test_a_seal_of_one_folder_does_not_vouch_for_another(state, tmp_path):
    one, other = written(tmp_path / "site"), written(tmp_path / "site-gm")
    cache_seal.seal(one)
    cache_seal.seal_path(other).write_bytes(cache_seal.seal_path(one).read_bytes())
    assert not cache_seal.verify_or_wipe(other)


def test_a_folder_that_is_a_link_is_removed_as_a_link(state, tmp_path):
    target = written(tmp_path / "elsewhere")
    folder = tmp_path / "site"
    folder.symlink_to(target)
    assert not cache_seal.verify_or_wipe(folder)
    assert not folder.is_symlink() and not folder.exists()
    assert (target / "doctrees" / "environment.pickle").is_file(), "what the link led to was touched"


def test_real_folder_replaces_links_on_the_way_without_following_them(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    project = tmp_path / "project"
    project.mkdir()
    (project / ".rulepress-cache").symlink_to(outside)
    made = cache_seal.real_folder(project / ".rulepress-cache" / "out-x", project)
    assert made.is_dir() and not (project / ".rulepress-cache").is_symlink()
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]


@pytest.mark.build  # renders for real in its body
def test_a_shipped_lock_file_linking_outside_is_not_written_through(tmp_path):
    from generator.pipeline.guard import build_lock

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    project = tmp_path / "project"
    (project / ".rulepress-cache").mkdir(parents=True)
    (project / ".rulepress-cache" / "build.lock").symlink_to(victim)
    with build_lock(project / "build"):
        pass
    assert victim.read_text() == "precious\n"
    assert not (project / ".rulepress-cache" / "build.lock").is_symlink()


# -- docutils behind the prose allow-list ----------------------------------------------------------------
@pytest.mark.build  # renders for real in its body
def test_site_builds_refuse_file_insertion_and_raw_even_with_a_docutils_conf_in_the_working_folder(
    tmp_path, monkeypatch
):
    """The prose allow-list refuses {include} and {raw}; should text reach Sphinx anyway, docutils
    itself inserts no file and no raw output, whatever a docutils.conf in the working folder says."""
    import io

    from sphinx.application import Sphinx

    from generator.render.site import LOCKED_SETTINGS

    secret = tmp_path / "secret.txt"
    secret.write_text("OUTSIDE-SECRET-docutils\n")
    source = tmp_path / "src"
    source.mkdir()
    (source / "index.md").write_text(
        "# Page\n\n```{include} ../secret.txt\n```\n\n```{raw} html\n<b>RAW-HTML</b>\n```\n"
    )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docutils.conf").write_text("[general]\nfile_insertion_enabled: true\nraw_enabled: true\n")
    monkeypatch.setenv("DOCUTILSCONFIG", os.devnull)  # what build_site sets
    warnings = io.StringIO()
    app = Sphinx(
        str(source),
        None,
        str(tmp_path / "html"),
        str(tmp_path / "doctrees"),
        "html",
        confoverrides={"extensions": ["myst_parser", "generator.render.site"], "rulepress_root": str(tmp_path)},
        status=io.StringIO(),
        warning=warnings,
    )
    app.build()
    page = (tmp_path / "html" / "index.html").read_text()
    assert "OUTSIDE-SECRET-docutils" not in page
    assert "<b>RAW-HTML</b>" not in page
    assert app.env.settings["file_insertion_enabled"] is False and app.env.settings["raw_enabled"] is False
    assert LOCKED_SETTINGS == {"file_insertion_enabled": False, "raw_enabled": False}
