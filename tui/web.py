"""The demo served to browsers (textual-serve), for classrooms and talks: offline and quiet.

textual-serve's page asks a web font from the internet; a classroom without it would wait on it. The
page served here is textual-serve's own template with that reference replaced by the Roboto Mono
font textual-serve ships in its static folder, so the page names no host but the server's. The
server prints nothing itself (the CLI prints one line with the URL).
"""

from __future__ import annotations

import contextlib
import logging
import re
import shlex
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import textual_serve
from aiohttp import web
from textual_serve.server import Server, to_int

EXTERNAL_FONT = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>", re.DOTALL)
LOCAL_FONT = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
      }
    </style>"""


def offline_templates(folder: Path) -> Path:
    """Write textual-serve's page template into ``folder`` with the web font served locally."""
    source = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    page = EXTERNAL_FONT.sub(LOCAL_FONT, source.read_text(encoding="utf-8"))
    (folder / "app_index.html").write_text(page, encoding="utf-8")
    return folder


class ClassroomServer(Server):
    """textual-serve's server without its banner and info logging, serving the offline page, whose
    script, style sheet, font and websocket URLs name the host the browser asked for (the request's
    ``Host``), not the address listened on: with ``--host 0.0.0.0`` textual-serve wrote
    ``http://0.0.0.0:PORT/...``, which a student's browser cannot reach (and Chromium blocks from the
    machine's own address)."""

    def initialize_logging(self) -> None:
        logging.getLogger("textual-serve").setLevel(logging.WARNING)

    async def on_startup(self, app: web.Application) -> None:
        return None

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
