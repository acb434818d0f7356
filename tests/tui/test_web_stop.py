"""``scopewatch web`` ends the apps it started with it (classroom6 #1): stopped by SIGTERM (a service
manager, ``kill``), SIGHUP or SIGINT, with a browser still connected, the app's whole process group ends,
an app that ignores SIGTERM too (after the grace, SIGKILL). textual-serve left them running, orphaned."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from tests.channel.broker import free_port
from tests.e2e.support import ROOT

SERVER = """
import sys
from pathlib import Path
from tui.web import ClassroomServer, offline_templates
folder, port, command = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
ClassroomServer(command, host="127.0.0.1", port=port, title="t", templates_path=offline_templates(folder)).serve()
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def _browser(client: aiohttp.ClientSession, port: int, pidfile: Path) -> aiohttp.ClientWebSocketResponse:
    """A browser's websocket to the server on ``port``, once the app it started has written its pid to ``pidfile``."""
    deadline = time.monotonic() + 60
    while True:
        try:
            socket = await client.ws_connect(f"http://127.0.0.1:{port}/ws")
            break
        except aiohttp.ClientConnectionError:
            assert time.monotonic() < deadline, "the server never listened"
            await asyncio.sleep(0.2)
    while not pidfile.exists() or not pidfile.read_text().strip():  # noqa: ASYNC240  (a pid file, polled)
        assert time.monotonic() < deadline, "the app never started"
        await asyncio.sleep(0.1)
    return socket


@pytest.mark.timeout(120)
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_stopping_the_server_ends_the_app_it_started_for_a_browser(stop: signal.Signals, tmp_path: Path) -> None:
    port, pidfile = free_port(), tmp_path / "app.pid"
    app = f"trap '' TERM HUP INT; echo $$ > {pidfile}; while :; do sleep 0.2; done"  # deaf to all but SIGKILL
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(tmp_path), str(port), app], cwd=ROOT, start_new_session=True
    )  # as a service: no terminal's hangup reaches the app

    async def browse() -> int:
        async with aiohttp.ClientSession() as client:
            socket = await _browser(client, port, pidfile)
            pid = int(pidfile.read_text())
            server.send_signal(stop)  # the browser is still connected
            await asyncio.to_thread(server.wait, 60)
            await socket.close()
            return pid

    pid = 0
    try:
        pid = asyncio.run(browse())
        deadline = time.monotonic() + 30
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid), f"the app {pid} outlived the server stopped by {stop.name}"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        if pid and _alive(pid):  # a failure leaves nothing running
            os.kill(pid, signal.SIGKILL)


@pytest.mark.timeout(120)
def test_a_browser_gone_ends_its_app_even_one_deaf_to_quit(tmp_path: Path) -> None:
    """The browser closed first: the app did not quit when asked, and was dropped from the server's apps while
    still running, so stopping the server later left it orphaned (classroom6 #1, rerun on main)."""
    port, pidfile = free_port(), tmp_path / "app.pid"
    app = f"trap '' TERM HUP INT; echo $$ > {pidfile}; while :; do sleep 0.2; done"
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(tmp_path), str(port), app], cwd=ROOT, start_new_session=True
    )

    async def browse_and_leave() -> int:
        async with aiohttp.ClientSession() as client:
            socket = await _browser(client, port, pidfile)
            await socket.close()  # the tab is closed; the server runs on
            return int(pidfile.read_text())

    pid = 0
    try:
        pid = asyncio.run(browse_and_leave())
        deadline = time.monotonic() + 30
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid), f"the app {pid} of a closed tab still runs"
        assert server.poll() is None
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            server.wait(60)
        if pid and _alive(pid):
            os.kill(pid, signal.SIGKILL)
