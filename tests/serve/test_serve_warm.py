"""`rulepress serve` kept warm: a real serve on a free port, on a copy of tests/fixtures/homebrew.

One serve for the module (its first build is the slow part); each test saves, waits with a generous
timeout, then checks what reached the page on disk, the served page and the event stream, and puts
the file back. No wall-clock assertions: the benchmark times serve (benchmarks/bench.py).
"""

from __future__ import annotations

import hashlib
import io
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pypdf
import pytest
from helpers import FIXTURES

from generator.serve import EVENTS_PATH, RELOAD_PATH, _State, page_additions, serve

HOMEBREW = FIXTURES / "homebrew"
PATIENCE = 300  # seconds: a loaded 2-core machine builds slowly; nothing here is timed
SENTENCE = "A cavalryman scores"  # in rules_src/melee/ruleset.yaml, the `melee` rule's body


@pytest.fixture(scope="module")
def served(tmp_path_factory, renders):
    project = tmp_path_factory.mktemp("serve") / "homebrew"
    shutil.copytree(HOMEBREW, project, ignore=shutil.ignore_patterns("build", ".rulepress-cache"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    stop = threading.Event()
    kwargs = {
        "port": port,
        "stop": stop,
        "only": ["site"],
    }  # the page alone: the printouts' test has a serve of its own
    thread = threading.Thread(target=serve, args=(project,), kwargs=kwargs, daemon=True)
    thread.start()
    server = Served(project, port)
    server.wait_until(lambda: server.status() is not None, "serve never answered")
    assert server.status().endswith(":ok"), server.status()
    yield server
    stop.set()
    thread.join(timeout=PATIENCE)


class Served:
    def __init__(self, project: Path, port: int):
        self.project, self.port = project, port
        self.source = project / "rules_src" / "melee" / "ruleset.yaml"
        self.original = self.source.read_text(encoding="utf-8")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def fetch(self, path: str) -> str:
        with urllib.request.urlopen(self.url(path), timeout=30) as response:
            return response.read().decode("utf-8")

    def status(self) -> str | None:
        try:
            return self.fetch(RELOAD_PATH)
        except OSError:
            return None

    def build_number(self) -> int:
        return int(self.status().split(":")[0])

    def save(self, text: str) -> None:
        self.source.write_text(text, encoding="utf-8")

    def page_with(self, text: str) -> Path:
        """The built page of the melee ruleset that holds ``text``."""
        found = [
            p
            for p in sorted((self.project / "build" / "site" / "melee").glob("*.html"))
            if text in p.read_text(encoding="utf-8")
        ]
        assert len(found) == 1, found
        return found[0]

    @staticmethod
    def wait_until(condition, failing: str) -> None:
        deadline = time.monotonic() + PATIENCE
        while not condition():
            assert time.monotonic() < deadline, failing
            time.sleep(0.1)

    def wait_for_build_after(self, number: int) -> str:
        self.wait_until(
            lambda: (self.status() or "0:").split(":")[0] not in ("", str(number)), f"no build after build {number}"
        )
        return self.status()


def _holds(path: Path, text: str) -> bool:
    try:
        return text in path.read_text(encoding="utf-8")
    except OSError:
        return False


def test_a_saved_edit_reaches_the_page_on_disk_and_the_served_page(served):
    page = served.page_with(SENTENCE)
    relative = "/" + page.relative_to(served.project / "build").as_posix()
    before = served.build_number()
    served.save(served.original.replace(SENTENCE, "A horseman scores", 1))
    try:
        served.wait_until(lambda: _holds(page, "A horseman scores"), "the edit never reached the page on disk")
        assert served.wait_for_build_after(before) == f"{before + 1}:ok"
        shown = served.fetch(relative)
        assert "A horseman scores" in shown and SENTENCE not in shown
        assert EVENTS_PATH in shown  # the page listens for the next build
        assert "rulepress-overlay" not in shown
    finally:
        number = served.build_number()
        served.save(served.original)
        served.wait_for_build_after(number)


def test_a_failed_check_shows_on_the_page_and_the_next_good_save_removes_it(served):
    page = served.page_with(SENTENCE)
    relative = "/" + page.relative_to(served.project / "build").as_posix()
    # the worked example's answer made wrong, and written as markup, which the overlay must show as text
    wrong = served.original.replace(
        ">>> melee_score(infantry=2, cavalry=2)\n      5\n",
        ">>> melee_score(infantry=2, cavalry=2)\n      <b>7</b>\n",
        1,
    )
    assert wrong != served.original
    example_line = served.original.splitlines().index("      >>> melee_score(infantry=2, cavalry=2)") + 1
    before = served.build_number()
    served.save(wrong)
    try:
        assert served.wait_for_build_after(before) == f"{before + 1}:failed"
        shown = served.fetch(relative)
        assert 'id="rulepress-overlay"' in shown
        overlay = shown.split('id="rulepress-overlay"', 1)[1].split("</div>", 1)[0]
        assert f"rules_src/melee/ruleset.yaml:{example_line}:" in overlay  # located, as the terminal prints it
        assert ": error[" in overlay
        assert "the example expects &lt;b&gt;7&lt;/b&gt;" in overlay and "<b>7</b>" not in shown  # escaped
        assert SENTENCE in shown  # the previous build's page, under the overlay
    finally:
        served.save(served.original)
    assert served.wait_for_build_after(before + 1) == f"{before + 2}:ok"
    assert "rulepress-overlay" not in served.fetch(relative)


def test_the_reload_event_arrives_after_the_page_is_written(served):
    page = served.page_with(SENTENCE)
    before = served.build_number()
    events = urllib.request.urlopen(served.url(EVENTS_PATH), timeout=PATIENCE)
    try:
        assert _next_event(events) == ("build", str(before))  # where the page stands when it connects
        served.save(served.original.replace(SENTENCE, "A lancer scores", 1))
        assert _next_event(events) == ("build", str(before + 1))
        assert _holds(page, "A lancer scores"), "the reload was signalled before the page was on disk"
    finally:
        events.close()
        served.save(served.original)
        served.wait_for_build_after(before + 1)


def _indexed(project: Path, text: str) -> bool:
    """Whether Pagefind's index of the built site holds ``text`` (its page fragments are gzipped JSON)."""
    import gzip

    index = project / "build" / "site" / "_pagefind"
    try:
        return (index / "pagefind.js").is_file() and any(
            text.encode("utf-8") in gzip.decompress(path.read_bytes()) for path in (index / "fragment").iterdir()
        )
    except OSError:  # between the two renames of a swap
        return False


def _copies(project: Path) -> list[str]:
    return sorted(p.name for p in project.iterdir() if p.name.startswith((".build-staging-", ".build.old-")))


def test_the_search_index_follows_the_page_and_is_swapped_in_whole(served):
    page = served.page_with(SENTENCE)
    before = served.build_number()
    served.save(served.original.replace(SENTENCE, "A trooper scores", 1))
    try:
        served.wait_until(lambda: _holds(page, "A trooper scores"), "the edit never reached the page on disk")
        served.wait_until(
            lambda: _indexed(served.project, "A trooper scores"), "the search index never learned the edit"
        )
        assert _holds(page, "A trooper scores")  # the index was swapped in with the page of the same build
        served.wait_until(lambda: _copies(served.project) == [], "a copy of build/ was left behind")
    finally:
        served.save(served.original)
        served.wait_for_build_after(before + 1)
    served.wait_until(lambda: not _indexed(served.project, "A trooper scores"), "the index kept an undone edit")


def _next_event(stream) -> tuple[str, str]:
    """The next server-sent event's name and data (keep-alive comments skipped)."""
    name, data = "", ""
    while True:
        line = stream.readline().decode("utf-8")
        assert line, "the event stream ended"
        line = line.rstrip("\n")
        if line.startswith("event: "):
            name = line.removeprefix("event: ")
        elif line.startswith("data: "):
            data = line.removeprefix("data: ")
        elif not line and (name or data):
            return name, data


def test_the_open_page_reloads_itself_shows_the_overlay_and_recovers_in_chromium(served, page):
    """The script serve puts in the page, run by a real browser: no reload by hand anywhere."""
    page_file = served.page_with(SENTENCE)
    relative = "/" + page_file.relative_to(served.project / "build").as_posix()
    wrong = served.original.replace(
        ">>> melee_score(infantry=2, cavalry=2)\n      5\n", ">>> melee_score(infantry=2, cavalry=2)\n      8\n", 1
    )
    try:
        page.goto(served.url(relative))
        assert page.locator("#rulepress-overlay").count() == 0
        before = served.build_number()
        served.save(wrong)
        overlay = page.locator("#rulepress-overlay")
        overlay.wait_for(state="visible", timeout=PATIENCE * 1000)
        assert "rules_src/melee/ruleset.yaml:" in overlay.inner_text()
        assert "the example expects 8" in overlay.inner_text()
        served.save(served.original.replace(SENTENCE, "A dragoon scores", 1))
        page.get_by_text("A dragoon scores").wait_for(timeout=PATIENCE * 1000)
        assert page.locator("#rulepress-overlay").count() == 0
    finally:
        served.save(served.original)
        served.wait_for_build_after(before + 2)


TINY = """\
ruleset: {title: Tiny}
chapters:
  play: {title: Play}
rules:
  moving: {title: Moving, chapter: play, body: Models move straight ahead.}
"""


def _serve_tiny(tmp_path: Path, rules: str = TINY):
    """A one-rule project served with its printouts: (project, its rules file, port, stop event, serve's thread)."""
    project = tmp_path / "tiny"
    source = project / "rules_src" / "tiny" / "ruleset.yaml"
    source.parent.mkdir(parents=True)
    source.write_text(rules, encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(project,), kwargs={"port": port, "stop": stop}, daemon=True)
    thread.start()
    return project, source, port, stop, thread


def test_the_printouts_the_site_links_follow_a_saved_edit_behind_the_page(tmp_path, renders):
    """The booklet prints the rule: after the page, serve renders it again with the edit (a project of one rule:
    every printout of it is rendered)."""
    project, source, port, stop, thread = _serve_tiny(tmp_path)
    booklet = project / "build" / "handouts" / "tiny-handout-a4.pdf"
    try:
        Served.wait_until(lambda: _pdf_holds(booklet, "Models move straight ahead."), "serve wrote no booklet")
        source.write_text(TINY.replace("straight ahead", "in any direction"), encoding="utf-8")
        Served.wait_until(lambda: _pdf_holds(booklet, "Models move in any direction."), "the booklet never followed")
    finally:
        stop.set()
        thread.join(timeout=PATIENCE)


def test_printouts_are_linked_once_made_their_failure_shows_on_the_page_and_templates_made_later_are_watched(
    tmp_path, renders
):
    """The page is built before its printouts: once they are made it links them (it linked none until the next
    save). A templates/ folder made while serving is watched (its edits went unseen until a restart), and a
    printout that fails, here for a template's error, shows on the page as a failed build does (it was told in
    the terminal alone); taking the template away brings the page back."""
    project, source, port, stop, thread = _serve_tiny(tmp_path)
    served = object.__new__(Served)  # its own project, with no melee rules to keep
    served.project, served.port = project, port
    front = project / "build" / "site" / "tiny" / "index.html"
    try:
        served.wait_until(lambda: _holds(front, "tiny-handout-a4.pdf"), "the page never linked its booklet")
        number = served.build_number()
        template = project / "templates" / "handouts" / "handout.html.j2"
        template.parent.mkdir(parents=True)
        template.write_text("{{ no_such_macro() }}", encoding="utf-8")
        served.wait_until(lambda: served.status().endswith(":failed"), "the failed booklet never showed")
        overlay = served.fetch("/site/tiny/index.html").split('id="rulepress-overlay"', 1)[1].split("</div>", 1)[0]
        assert "The printouts (handouts) were not made" in overlay and "templates/handouts/handout.html.j2" in overlay
        assert served.build_number() > number
        shutil.rmtree(project / "templates")
        served.wait_until(lambda: served.status().endswith(":ok"), "the page never recovered")
    finally:
        stop.set()
        thread.join(timeout=PATIENCE)


_PDF_TEXTS: dict[str, str] = {}  # by the SHA-256 of a PDF's bytes: what pypdf reads in it, spacing made single


def _pdf_holds(path: Path, text: str) -> bool:
    """Whether the PDF at ``path`` holds ``text``; asked every tenth of a second while serve renders, so the same
    bytes are read by pypdf once, not at each look."""
    try:
        data = path.read_bytes()
    except OSError:
        return False  # not written yet, or being swapped in
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _PDF_TEXTS:
        try:
            pages = pypdf.PdfReader(io.BytesIO(data)).pages
        except pypdf.errors.PdfReadError:
            return False  # half written
        _PDF_TEXTS[digest] = " ".join(" ".join(page.extract_text().split()) for page in pages)
    return text in _PDF_TEXTS[digest]


def test_a_first_build_that_fails_shows_its_errors_on_the_home_page_until_a_save_builds(tmp_path, renders):
    """With nothing built yet the home page was a bare 404; it is the overlay with the errors, and the reload
    script, until a save builds the rules."""
    project, source, port, stop, thread = _serve_tiny(tmp_path, TINY.replace("chapter: play,", "chapter: playing,"))
    served = object.__new__(Served)
    served.project, served.port = project, port
    try:
        served.wait_until(lambda: served.status() is not None, "serve never answered")
        assert served.status() == "0:failed"
        home = served.fetch("/")  # redirected to the players' home page, which is not built
        overlay = home.split('id="rulepress-overlay"', 1)[1].split("</div>", 1)[0]
        assert "The rules did not build, and there is no earlier build to show. Fix the error and save:" in overlay
        told = "rules_src/tiny/ruleset.yaml:5:36: error[unknown-ref]: chapter `playing` is not in `chapters:`"
        assert told in overlay
        assert "const shown=0;" in home and EVENTS_PATH in home  # the page reloads once a save builds
        with pytest.raises(urllib.error.HTTPError) as missing:
            served.fetch("/site/tiny/index.html")
        assert missing.value.code == 404  # only the home page stands in for the site
        source.write_text(TINY, encoding="utf-8")
        served.wait_for_build_after(0)
        assert served.status() == "1:ok"
        assert 'id="rulepress-overlay"' not in served.fetch("/") and "Tiny" in served.fetch("/")
    finally:
        stop.set()
        thread.join(timeout=PATIENCE)


def test_the_overlay_says_whether_a_save_or_serve_s_first_build_failed():
    state = _State()
    state.finished(False, "rules_src/x.yaml:1:1: error[yaml-syntax]: ...", first=True)
    assert "The rules did not build; this page is from an earlier build. Fix the error and save:" in (
        page_additions(state)
    )
    state.finished(False, "rules_src/x.yaml:1:1: error[yaml-syntax]: ...")
    assert "The last save did not build; this page is the previous build. Fix the error and save:" in (
        page_additions(state)
    )
    state.finished(True, "")
    assert "rulepress-overlay" not in page_additions(state)
