"""``scopewatch web``: the demo TUI served to browsers (textual-serve), for classrooms and talks."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "web",
        help="serve the demo TUI to a browser (textual-serve)",
        description="Serve the TUI to browsers, for classrooms and talks.",
    )
    p.add_argument("--host", default="localhost", help="address to listen on (0.0.0.0 for a classroom network)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--seed", type=int, default=1, help="seed for the scripted agents and the task order")
    p.set_defaults(handler=web)


def web(args: argparse.Namespace) -> int:
    """Serve the demo to browsers (each browser tab gets its own session)."""
    from tui.web import reachable, serve_demo

    host = getattr(args, "host", "localhost")
    port = getattr(args, "port", 8000)
    where = reachable(host)
    also = f" (on this machine also http://localhost:{port})" if where != host else ""
    print(f"scopewatch: the demo is at http://{where}:{port}{also} (ctrl+c to stop)", file=sys.stderr, flush=True)
    serve_demo(host, port, int(getattr(args, "seed", 1)))
    return 0
