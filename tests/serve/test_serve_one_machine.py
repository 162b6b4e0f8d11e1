"""`rulepress serve` is for one person on one machine: a real serve (a process of its own, as a user runs it)
on a small project, on a free loopback port; nothing here sends a byte anywhere but 127.0.0.1.

It answers only to a loopback name with its port (so another site's page cannot read it by DNS rebinding),
serves the game-master's files only with ``--audience gm``, answers every bad request with a 4xx and a
flood of connections with a 503, never a traceback, and warns when told to listen beyond this machine.
"""

from __future__ import annotations

import collections
import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT

from generator.cli import main
from generator.serve import EVENTS_PATH, RELOAD_PATH, HostCheck, for_game_master, is_loopback, requested_parts, serve

PATIENCE = 300  # seconds for serve's first build on a loaded 2-core machine; nothing here is timed
GM_SECRET = "GM-ONLY-SECRET"
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
SERVING = re.compile(r"at http://127\.0\.0\.1:([0-9]+)/")
# stand-ins for what an earlier full build left in build/ (a build keeps them: serve builds the site only)
STAND_INS = {
    "sheets/game-victory-points-gm-a4.pdf": f"%PDF-1.4 {GM_SECRET} sheet",
    "sheets/game-victory-points-a4.pdf": "%PDF-1.4 the players' sheet",
    "handouts/game-handout-gm-letter.pdf": f"%PDF-1.4 {GM_SECRET} handout",
    "handouts/game-handout-letter.pdf": "%PDF-1.4 the players' handout",
    "export/game-gm.json": f'{{"note": "{GM_SECRET}"}}',
    "export/game.json": '{"note": "for players"}',
    "site-author/index.html": f"<html><body>{GM_SECRET} the authors' site</body></html>",
}
GM_PATHS = [
    "/site-gm/index.html",
    "/sheets/game-victory-points-gm-a4.pdf",
    "/handouts/game-handout-gm-letter.pdf",
    "/export/game-gm.json",
]
PLAYER_PATHS = [
    "/site/index.html",
    "/sheets/game-victory-points-a4.pdf",
    "/handouts/game-handout-letter.pdf",
    "/export/game.json",
]


class Served:
    """One `rulepress serve` process: its port, what it printed, and raw HTTP requests to it."""

    def __init__(self, project: Path, *options: str):
        self.project = project
        self.out, self.err = project.parent / "serve.out", project.parent / "serve.err"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "generator",
                    "-C",
                    str(project),
                    "serve",
                    "--port",
                    "0",
                    "--site-only",
                    *options,
                ],
                stdout=out,
                stderr=err,
                env=env,
                cwd=ROOT,  # as mutmut runs it too: its copy of the code finds its settings from here
            )
        self.port = 0

    def wait_until_serving(self) -> Served:
        deadline = time.monotonic() + PATIENCE
        while not (found := SERVING.search(self.out.read_text())):
            assert self.process.poll() is None, f"serve ended:\n{self.printed()}"
            assert time.monotonic() < deadline, f"serve never said where it serves:\n{self.printed()}"
            time.sleep(0.2)
        self.port = int(found[1])
        return self

    def printed(self) -> str:
        return self.out.read_text() + self.err.read_text()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)

    def request(self, target: str | bytes, host: str | None = None) -> tuple[int, bytes]:
        """The status and body of ``GET target`` with ``Host: host`` (default: 127.0.0.1 and the port)."""
        host = f"127.0.0.1:{self.port}" if host is None else host
        target = target if isinstance(target, bytes) else target.encode()
        return self.send(b"GET " + target + b" HTTP/1.0\r\nHost: " + host.encode() + b"\r\n\r\n")

    def send(self, raw: bytes) -> tuple[int, bytes]:
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as connection:
            connection.sendall(raw)
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
        if not answer.startswith(b"HTTP/"):  # a one-word request line is HTTP/0.9: an error page, no status line
            return int(re.search(rb"Error code: ([0-9]+)", answer)[1]), answer
        head, _, body = answer.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]), body

    def status(self, target: str, host: str | None = None) -> int:
        return self.request(target, host)[0]

    def assert_no_traceback(self) -> None:
        printed = self.printed()
        assert "Traceback" not in printed and "can't start new thread" not in printed, printed[-3000:]
        raw = RAW_CONTROL.search(printed)
        assert raw is None, f"serve printed a raw control character {raw[0]!r}:\n{printed[-3000:]!r}"


def _project(folder: Path) -> Path:
    project = folder / "project"
    assert main(["-C", str(project), "new", "game"]) == 0
    for name, text in STAND_INS.items():
        path = project / "build" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    site_gm = project / "build" / "site-gm" / "index.html"
    site_gm.parent.mkdir(parents=True)
    site_gm.write_text(f"<html><body>{GM_SECRET} site</body></html>", encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def servers(tmp_path_factory, renders):
    """A player serve and a game-master serve (``--audience gm``), started together: their first builds overlap
    (each renders its site for real, so the tests that ask for them are `build`)."""
    player = Served(_project(tmp_path_factory.mktemp("player")))
    gm = Served(_project(tmp_path_factory.mktemp("gm")), "--audience", "gm")
    try:
        yield player.wait_until_serving(), gm.wait_until_serving()
    finally:
        player.stop()
        gm.stop()


@pytest.fixture
def served(servers):
    return servers[0]


@pytest.fixture
def served_gm(servers):
    return servers[1]


# -- the Host header: DNS rebinding ---------------------------------------------------------------------------
def test_each_loopback_name_with_the_port_is_answered(served):
    for host in (
        f"localhost:{served.port}",
        f"127.0.0.1:{served.port}",
        f"[::1]:{served.port}",
        f"LOCALHOST:{served.port}",
    ):
        status, page = served.request("/site/index.html", host)
        assert status == 200, host
        assert EVENTS_PATH.encode() in page  # the site's page, with its reload script
    assert served.request(RELOAD_PATH, f"localhost:{served.port}") == (200, b"0:ok")


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",
        "evil.example",
        "localhost.evil.example:{port}",
        "127.0.0.1.evil.example:{port}",
        "localhost:1",
        "localhost",
        "127.0.0.1",
        "localhost:{port}0",
        "",
        "localhost:{port}@evil.example",
    ],
)
def test_any_other_host_is_refused_with_no_page(served, host):
    for target in ("/site/index.html", RELOAD_PATH, EVENTS_PATH, "/"):
        status, body = served.request(target, host.format(port=served.port))
        assert status in (403, 421), (host, target)
        assert EVENTS_PATH.encode() not in body and b"0:ok" not in body


def test_a_request_with_no_host_header_is_refused(served):
    assert served.send(b"GET /site/index.html HTTP/1.0\r\n\r\n")[0] in (403, 421)


def test_the_host_check_by_itself():
    check = HostCheck("127.0.0.1", 8123)
    assert check.allows("localhost:8123") and check.allows("127.0.0.1:8123") and check.allows("[::1]:8123")
    assert not check.allows("evil.example:8123") and not check.allows("localhost:8124") and not check.allows(None)
    chosen = HostCheck("192.0.2.7", 80)  # a non-loopback host the user chose; port 80 may go unsaid
    assert chosen.allows("192.0.2.7") and chosen.allows("192.0.2.7:80") and chosen.allows("localhost")
    assert not chosen.allows("192.0.2.8") and not chosen.allows("evil.example")
    everywhere = HostCheck("0.0.0.0", 8000)  # every address: one written as numbers cannot be another site's name
    assert everywhere.allows("192.0.2.9:8000") and everywhere.allows("[2001:db8::1]:8000")
    assert not everywhere.allows("evil.example:8000")


# -- the game-master's files ------------------------------------------------------------------------------------
def test_game_master_files_are_not_served_to_players(served):
    for target in GM_PATHS + [
        "/site%2Dgm/index.html",
        "/site-gm/",
        "/site-gm",
        "/.manifest.json",
        "/sheets/",
        "/export/",
        "//site-gm/index.html",
        "/./site-gm/index.html",
        "/reference/codes.md",
        "/site-author/index.html",
    ]:
        status, body = served.request(target)
        assert status == 404, target
        assert GM_SECRET.encode() not in body, target
    for target in PLAYER_PATHS:
        assert served.status(target) == 200, target
    assert (
        served.request("/sheets/game-victory-points-a4.pdf")[1]
        == STAND_INS["sheets/game-victory-points-a4.pdf"].encode()
    )


def test_game_master_files_are_served_with_audience_gm(served_gm):
    for target in GM_PATHS + PLAYER_PATHS[1:]:
        assert served_gm.status(target) == 200, target
    gm_export = served_gm.project / "build" / "export" / "game-gm.json"  # written anew by serve's build
    assert served_gm.request("/export/game-gm.json")[1] == gm_export.read_bytes()
    status, page = served_gm.request("/site-gm/index.html")
    assert EVENTS_PATH.encode() in page  # the game-master's site, built by this serve, reloads too
    redirect = served_gm.send(f"GET / HTTP/1.0\r\nHost: localhost:{served_gm.port}\r\n\r\n".encode())
    assert redirect[0] == 302
    deadline = time.monotonic() + PATIENCE  # the game-master's site gets its search index, behind the page
    while served_gm.status("/site-gm/_pagefind/pagefind.js") != 200:
        assert time.monotonic() < deadline, "the game-master's site was never indexed"
        time.sleep(0.5)


def test_which_files_are_the_game_masters():
    assert for_game_master(("site-gm", "index.html")) and for_game_master(("sheets", "game-points-gm-a4.pdf"))
    assert for_game_master(("handouts", "game-handout-gm-letter.pdf")) and for_game_master(("export", "game-gm.json"))
    assert for_game_master((".manifest.json",)) and for_game_master(("reference", "names-game.md"))
    assert not for_game_master(("site", "game", "index.html")) and not for_game_master(("sheets", "game-a4.pdf"))
    assert not for_game_master(("export", "game.json"))


# -- folders and links -----------------------------------------------------------------------------------------
def _asked(served, method: str, target: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    connection.request(method, target)
    answer = connection.getresponse()
    answer.body = answer.read()
    connection.close()
    return answer


def test_a_folder_is_its_index_page_and_never_a_listing(served):
    page = _asked(served, "GET", "/site/")
    assert page.status == 200 and page.body == _asked(served, "GET", "/site/index.html").body
    assert page.body.startswith(b"<!doctype html>") and EVENTS_PATH.encode() in page.body
    moved = _asked(served, "GET", "/site")  # as a browser asks for a folder: sent on to it, so its links resolve
    assert moved.status == 302 and moved.getheader("Location") == "/site/"
    assert _asked(served, "GET", "/handouts/").status == 404  # a folder with no index.html: no listing of its files


def test_a_head_request_gets_the_headers_of_the_page_and_no_body(served):
    page, head = _asked(served, "GET", "/export/game.json"), _asked(served, "HEAD", "/export/game.json")
    assert head.status == 200 and head.body == b""
    exported = served.project / "build" / "export" / "game.json"  # written anew by serve's build
    assert head.getheader("Content-Length") == str(len(page.body)) == str(len(exported.read_bytes()))
    assert head.getheader("Content-Type") == page.getheader("Content-Type") == "application/json"


def test_a_link_in_the_players_site_never_leads_out_of_it(served, tmp_path):
    """A link into the game-master's site, one out of the project and a loop: each a 404 with nothing of theirs."""
    outside = tmp_path / "outside.html"
    outside.write_text(f"<html>{GM_SECRET} beside the project</html>", encoding="utf-8")
    site = served.project / "build" / "site"
    links = {
        "to-gm.html": Path("..") / "site-gm" / "index.html",
        "to-gm": Path("..") / "site-gm",
        "outside.html": outside,
        "loop.html": Path("loop.html"),
    }
    try:
        for name, target in links.items():
            (site / name).symlink_to(target)
        for target in ("/site/to-gm.html", "/site/to-gm/", "/site/to-gm/index.html", "/site/outside.html"):
            status, body = served.request(target)
            assert status == 404 and GM_SECRET.encode() not in body, target
        assert served.status("/site/loop.html") == 404
    finally:
        for name in links:
            (site / name).unlink(missing_ok=True)
    served.assert_no_traceback()


# -- bad requests -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "target",
    [
        b"/site/\x00.html",
        b"/site/%00.html",
        b"/site/%zz.html",
        b"/site/%ff.html",
        b"/site/%C0%AF.html",
        b"/site/%",
        b"/site/../site-gm/index.html",
        b"/site/%2e%2e/%2e%2e/etc/passwd",
        b"/site/\x1b[2J\x1b]0;owned\x07.html",
        b"/site/\x7f",
        b"/site\\..\\site-gm\\index.html",
        b"site/index.html",
    ],
)
def test_a_bad_path_is_a_400_without_a_traceback(served, target):
    status, body = served.request(target)
    assert status == 400, target
    assert GM_SECRET.encode() not in body
    assert served.status(RELOAD_PATH) == 200
    served.assert_no_traceback()


@pytest.mark.parametrize(
    "raw, statuses",
    [
        (b"GET /" + b"a" * 70000 + b" HTTP/1.0\r\n\r\n", (414,)),  # an overlong request line
        (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n", (400,)),  # TLS spoken to plain http
        (b"GET /site/index.html HTTP/9.9\r\n\r\n", (400, 505)),
        (b"BREW /site/index.html HTTP/1.0\r\nHost: localhost\r\n\r\n", (501,)),
        (b"GET /site/index.html HTTP/1.0\r\n" + b"X-Long: " + b"b" * 70000 + b"\r\n\r\n", (431, 400)),
    ],
)
def test_a_malformed_request_is_a_4xx_without_a_traceback(served, raw, statuses):
    assert served.send(raw)[0] in statuses
    assert served.status(RELOAD_PATH) == 200
    served.assert_no_traceback()


# -- floods -----------------------------------------------------------------------------------------------------
def test_1100_event_streams_are_bounded_and_serve_keeps_answering(served):
    """Each stream is opened, read up to its status line and kept open (200 at a time), then closed."""
    held: collections.deque[socket.socket] = collections.deque()
    statuses: collections.Counter = collections.Counter()
    request = f"GET {EVENTS_PATH} HTTP/1.1\r\nHost: localhost:{served.port}\r\n\r\n".encode()
    try:
        for _ in range(1100):
            connection = socket.create_connection(("127.0.0.1", served.port), timeout=30)
            held.append(connection)
            connection.sendall(request)
            statuses[connection.recv(64).split(b"\r\n", 1)[0].split(b" ", 2)[1]] += 1
            if len(held) > 200:
                held.popleft().close()
        assert served.request(RELOAD_PATH) == (200, b"0:ok")  # with 200 streams held open
    finally:
        for connection in held:
            connection.close()
    assert set(statuses) <= {b"200", b"503"}, statuses
    assert statuses[b"503"] > 0, "every one of 1100 event streams was kept open: no bound"
    assert served.request(RELOAD_PATH) == (200, b"0:ok")
    served.assert_no_traceback()


def test_idle_connections_past_the_bound_get_a_503_then_serve_answers_again(served):
    """Connections that send nothing, 100 more at a time (they fill any slot a closing stream frees), until a
    request is refused: a 503 before 1,100 of them, and an answer again once they are closed."""
    idle: list[socket.socket] = []
    refused = False
    try:
        while not refused and len(idle) < 1100:
            idle += [socket.create_connection(("127.0.0.1", served.port), timeout=30) for _ in range(100)]
            time.sleep(0.5)  # accepted (or refused) by now
            status = served.status(RELOAD_PATH)
            assert status in (200, 503)
            refused = status == 503
    finally:
        for connection in idle:
            connection.close()
    assert refused, "1,100 idle connections and serve still took one more: no bound"
    deadline = time.monotonic() + 30
    while served.status(RELOAD_PATH) != 200:
        assert time.monotonic() < deadline, "serve never answered again after the idle connections closed"
        time.sleep(0.2)
    served.assert_no_traceback()


# -- where it listens -------------------------------------------------------------------------------------------
def test_serving_on_loopback_says_no_warning(served):
    assert "anyone on the network" not in served.printed()


def test_a_host_beyond_this_machine_is_warned_about(tmp_path):
    """Bound to 0.0.0.0 only until the warning is printed (before the first build), and sent nothing."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "tests" / "attacks" / "_template" / "project", project)
    server = Served(project, "--host", "0.0.0.0")
    try:
        deadline = time.monotonic() + PATIENCE
        while "anyone on the network" not in server.err.read_text():
            assert server.process.poll() is None, server.printed()
            assert time.monotonic() < deadline, f"no warning:\n{server.printed()}"
            time.sleep(0.1)
    finally:
        server.stop()
    warning = [line for line in server.err.read_text().splitlines() if "anyone on the network" in line]
    assert len(warning) == 1 and "0.0.0.0" in warning[0] and "warning" in warning[0]


def test_a_port_already_taken_is_said_at_once_before_any_build(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert serve(tmp_path, "127.0.0.1", port) == 1
    said = capsys.readouterr()
    assert said.out == "" and said.err.startswith(f"rulepress: error: cannot serve on 127.0.0.1:{port}: ")
    assert "in use" in said.err and not (tmp_path / "build").exists()


def test_a_name_is_this_machine_only_when_every_address_it_has_is(monkeypatch):
    assert is_loopback("LOCALHOST") and is_loopback("127.0.0.2") and is_loopback("[::1]") and is_loopback("::1")
    assert not is_loopback("192.0.2.1") and not is_loopback("0.0.0.0") and not is_loopback("::")
    addresses = {"here": ["127.0.0.1", "::1"], "both": ["127.0.0.1", "192.0.2.7"], "scoped": ["fe80::1%eth0"]}

    def getaddrinfo(name, port):  # a resolver that knows only these names (nothing is sent anywhere)
        if name == "bad..label":
            raise UnicodeError("label empty or too long")
        if name not in addresses:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, 0))
            for a in addresses[name]
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    assert is_loopback("here")
    assert not is_loopback("both") and not is_loopback("scoped")
    assert not is_loopback("nowhere.invalid") and not is_loopback("bad..label")


# -- the parts by themselves --------------------------------------------------------------------------------------
def test_a_requested_path_is_read_strictly():
    assert requested_parts("/site/a%20b.html?x=1#top") == ("site", "a b.html")
    assert requested_parts("//site/./index.html") == ("site", "index.html")
    for bad in ("/site/\x00", "/site/%00", "/%zz", "/%ff", "/a/../b", "/%2e%2e/b", "site", "/a\\b", "/\x1b[2J"):
        assert requested_parts(bad) is None, bad


def _indexed(site: Path, text: str) -> bool:
    """Whether Pagefind's index of ``site`` holds ``text`` (its page fragments are gzipped JSON)."""
    import gzip

    try:
        return any(
            text.encode() in gzip.decompress(path.read_bytes()) for path in (site / "_pagefind" / "fragment").iterdir()
        )
    except OSError:  # between the two renames of a swap
        return False


@pytest.mark.build  # renders for real in its body
def test_a_save_renews_the_game_masters_search_index(served_gm):
    rules = served_gm.project / "rules_src" / "game" / "rules.yaml"
    original = rules.read_text(encoding="utf-8")
    assert "Roll a D6 for each attack" in original
    rules.write_text(
        original.replace("Roll a D6 for each attack", "Roll a D6 for each zweihander blow", 1), encoding="utf-8"
    )
    try:
        deadline = time.monotonic() + PATIENCE
        while not _indexed(served_gm.project / "build" / "site-gm", "zweihander"):
            assert time.monotonic() < deadline, "the game-master's search index never learned the save"
            time.sleep(0.5)
    finally:
        rules.write_text(original, encoding="utf-8")
    served_gm.assert_no_traceback()
