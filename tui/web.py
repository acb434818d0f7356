"""The demo served to browsers (textual-serve), for classrooms and talks: offline and quiet.

textual-serve's page asks a web font from the internet; a classroom without it would wait on it. The
page served here is textual-serve's own template with that reference replaced by the Roboto Mono
font textual-serve ships in its static folder, so the page names no host but the server's. The
server prints nothing itself (the CLI prints one line with the URL).

Each browser tab's app runs in a process group of its own, and the apps end with the server: on SIGINT,
SIGTERM or SIGHUP the server stops and ends every app it started (SIGTERM to its group, then SIGKILL to what
is left after :data:`GRACE_S`). textual-serve left them running, orphaned, when the server was stopped with
SIGTERM (a service manager's stop, ``kill``), where no terminal's hangup reached them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shlex
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import aiohttp_jinja2
import textual_serve
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

EXTERNAL_FONT = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>", re.DOTALL)
LOCAL_FONT = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
      }
    </style>"""
GRACE_S = 3.0
"""Seconds the apps get to end on SIGTERM when the server stops, before SIGKILL."""


def offline_templates(folder: Path) -> Path:
    """Write textual-serve's page template into ``folder`` with the web font served locally."""
    source = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    page = EXTERNAL_FONT.sub(LOCAL_FONT, source.read_text(encoding="utf-8"))
    (folder / "app_index.html").write_text(page, encoding="utf-8")
    return folder


class ClassroomApp(AppService):
    """textual-serve's app process, started in a process group of its own (the shell and the app in it), which
    the server ends when it stops."""

    started: set[asyncio.subprocess.Process]
    """The server's running apps, this one added when it starts."""

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_shell(
            self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        self.started.add(process)
        return process


def end_groups(pids: list[int], grace_s: float = GRACE_S) -> None:
    """End the process groups led by ``pids``: SIGTERM, then SIGKILL to whatever is left after ``grace_s``."""

    def signal_all(sig: signal.Signals) -> list[int]:
        alive = []
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, sig)
                alive.append(pid)
        return alive

    left = signal_all(signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [pid for pid in left if _group_alive(pid)]
    if left:
        signal_all(signal.SIGKILL)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


class ClassroomServer(Server):
    """textual-serve's server without its banner and info logging, serving the offline page, whose
    script, style sheet, font and websocket URLs name the host the browser asked for (the request's
    ``Host``), not the address listened on: with ``--host 0.0.0.0`` textual-serve wrote
    ``http://0.0.0.0:PORT/...``, which a student's browser cannot reach (and Chromium blocks from the
    machine's own address)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.apps: set[asyncio.subprocess.Process] = set()
        """The browsers' app processes started (each the leader of its group): ended with the server."""
        self.sockets: set[web.WebSocketResponse] = set()
        """The browsers' websockets open: closed with the server (a browser's stays open, and aiohttp would wait
        on it for its shutdown timeout)."""

    def initialize_logging(self) -> None:
        logging.getLogger("textual-serve").setLevel(logging.WARNING)

    async def on_startup(self, app: web.Application) -> None:
        return None

    async def on_shutdown(self, app: web.Application) -> None:
        """The server stops: end every app it started (before aiohttp waits on their websockets)."""
        await asyncio.to_thread(self.end_apps)
        for open_socket in list(self.sockets):
            with contextlib.suppress(Exception):  # a browser already gone
                await open_socket.close(code=aiohttp.WSCloseCode.GOING_AWAY, message=b"server stopped")

    def end_apps(self) -> None:
        end_groups([process.pid for process in self.apps if process.returncode is None])

    def serve(self, debug: bool = False) -> None:
        """textual-serve's ``serve`` (SIGINT and SIGTERM stop it), SIGHUP too (a closed terminal, a service
        manager's reload), and the apps it started ended whatever way it stops."""
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signal.SIGHUP, self.request_exit)
        try:
            super().serve(debug)
        finally:
            self.end_apps()

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's (1.1.3), with the app started as a :class:`ClassroomApp`."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        app_service: ClassroomApp | None = None
        self.sockets.add(websocket)
        try:
            await websocket.prepare(request)
            app_service = ClassroomApp(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,  # type: ignore[arg-type]  # as textual-serve passes it
                download_manager=self.download_manager,
                debug=self.debug,
            )
            app_service.started = self.apps
            await app_service.start(width, height)
            try:
                await self._process_messages(websocket, app_service)
            finally:
                await _stop(app_service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            logging.getLogger("textual-serve").exception(error)
        finally:
            self.sockets.discard(websocket)
            if app_service is not None:
                await _stop(app_service)
                if app_service._process is not None:
                    self.apps.discard(app_service._process)
        return websocket

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        base = f"{request.scheme}://{request.host}"
        socket_url = ("wss" if request.scheme == "https" else "ws") + f"://{request.host}"
        router = request.app.router
        return {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{socket_url}{router['websocket'].url_for()}",
            "config": {"static": {"url": f"{base}{router['static'].url_for(filename='/')}".rstrip("/") + "/"}},
            "application": {"name": self.title},
        }


async def _stop(app_service: ClassroomApp) -> None:
    """textual-serve's stop (the app asked to quit, its output read to the end), bounded by :data:`GRACE_S`, then the
    app's process group ended if it still runs (SIGTERM, then SIGKILL: :func:`end_groups`). textual-serve's stop
    returns once the app's output ends, not the app, and the server then forgot it: an app that did not quit when its
    browser went was left running, orphaned, when the server stopped later (classroom6 #1)."""
    try:
        await asyncio.wait_for(app_service.stop(), GRACE_S)
    except TimeoutError:
        app_service._task = None
    process = app_service._process
    if process is not None and process.returncode is None:
        await asyncio.to_thread(end_groups, [process.pid])


def reachable(host: str) -> str:
    """An address a browser on another machine can open for ``host``: the machine's own (outgoing)
    address when ``host`` listens on every interface (0.0.0.0, ::), else ``host``."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        address: str = probe.getsockname()[0]
        if not address.startswith("127."):
            return address
    return socket.gethostname()


def demo_command(seed: int) -> str:
    """The command each browser tab runs: the demo, from this installation."""
    root = Path(__file__).resolve().parent.parent
    return f"cd {shlex.quote(str(root))} && {shlex.quote(sys.executable)} -m tui.cli demo --seed {int(seed)}"


def serve_demo(host: str, port: int, seed: int) -> None:
    """Serve the demo until interrupted (each browser tab gets its own session)."""
    with tempfile.TemporaryDirectory(prefix="scopewatch-web-") as folder:
        templates = offline_templates(Path(folder))
        server = ClassroomServer(
            demo_command(seed), host=host, port=port, title="scopewatch demo", templates_path=templates
        )
        server.serve()
