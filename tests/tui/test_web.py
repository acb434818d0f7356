"""``scopewatch web`` in a real browser: headless Chromium renders the served demo (tests/tui/web_check.py).

Runs wherever Debian's chromium is installed (the project's machines); elsewhere it is skipped with
the reason, since it needs a browser binary, not a Python package.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.tui.web_check import CHROMIUM, check

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"no Chromium at {CHROMIUM}: the browser check needs Debian's chromium (or SCOPEWATCH_CHROMIUM)",
)


def test_web_demo_renders_offline_in_chromium_and_answers_keys(tmp_path: Path) -> None:
    out = tmp_path / "web.png"
    with tempfile.TemporaryFile("w+") as log:
        facts = check(out, seconds=0.5, log=log)
    # check() raises CheckFailed unless the app's own screen (Workspace, Scoreboard, Norms) reached the
    # browser's terminal and the app answered a key pressed in the page ('t': next theme).
    assert facts["key_answered"] is True
    assert facts["focused"] is True
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert facts["png_bytes"] > 20_000  # a drawn screen, not a blank page
    assert facts["leftover_processes"] == []
    # Offline: Chromium had no network but loopback, and the page names and loaded nothing else.
    assert facts["resources"] and facts["external"] == []


def test_web_on_every_interface_works_from_the_machines_address(tmp_path: Path) -> None:
    """Report F12: with ``--host 0.0.0.0`` the page named ``http://0.0.0.0:PORT/...`` for its script, style
    sheet, font and websocket; Chromium opening the machine's address blocked them all (a student's
    browser cannot reach 0.0.0.0 at all). Now they name the host the browser asked for, and the
    printed line an address another machine can open."""
    from tui.web import reachable

    address = reachable("0.0.0.0")
    if address.startswith("127.") or not address[0].isdigit():
        pytest.skip(f"no non-loopback IPv4 address on this machine ({address})")
    out = tmp_path / "web_ip.png"
    with tempfile.TemporaryFile("w+") as log:
        facts = check(out, seconds=0.2, log=log, listen="0.0.0.0", visit=address)
        log.seek(0)
        said = log.read()
    assert facts["key_answered"] is True
    assert facts["resources"] and facts["external"] == []  # every URL on the address the page was opened on
    assert f"scopewatch: the demo is at http://{address}:{facts['serve_port']} " in said
