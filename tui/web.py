"""The demo served to browsers (textual-serve), for classrooms and talks: offline and quiet.

textual-serve's page asks a web font from the internet; a classroom without it would wait on it. The
page served here is textual-serve's own template with that reference replaced by the Roboto Mono
font textual-serve ships in its static folder, so the page names no host but the server's. The
server prints nothing itself (the CLI prints one line with the URL).
"""

from __future__ import annotations

import logging
import re
import shlex
import sys
import tempfile
from pathlib import Path

import textual_serve
from aiohttp import web
from textual_serve.server import Server

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
    """textual-serve's server without its banner and info logging, serving the offline page."""

    def initialize_logging(self) -> None:
        logging.getLogger("textual-serve").setLevel(logging.WARNING)

    async def on_startup(self, app: web.Application) -> None:
        return None


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
