"""``scopewatch web``: the demo TUI served to browsers (textual-serve), for classrooms and talks."""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

from tui.cli.common import CliError, tcp_port


def register(sub: Any) -> None:
    p = sub.add_parser(
        "web",
        help="serve the demo TUI to a browser (textual-serve)",
        description="Serve the TUI to browsers, for classrooms and talks.",
    )
    p.add_argument("--host", default="localhost", help="address to listen on (0.0.0.0 for a classroom network)")
    p.add_argument("--port", type=tcp_port, default=8000, help="port to listen on, 1-65535 (default: 8000)")
    p.add_argument("--seed", type=int, default=1, help="seed for the scripted agents and the task order")
    p.set_defaults(handler=web)


def web(args: argparse.Namespace) -> int:
    """Serve the demo to browsers (each browser tab gets its own session)."""
    from tui.web import reachable, serve_demo

    host = getattr(args, "host", "localhost")
    port = getattr(args, "port", 8000)
    free(host, port)
    where = reachable(host)
    also = f" (on this machine also http://localhost:{port})" if where != host else ""
    print(f"scopewatch: the demo is at http://{where}:{port}{also} (ctrl+c to stop)", file=sys.stderr, flush=True)
    serve_demo(host, port, int(getattr(args, "seed", 1)))
    return 0


def free(host: str, port: int) -> None:
    """One line (not a traceback after the URL was printed) when ``host:port`` cannot be listened on: a host that
    does not resolve, a port in use or not ours to take."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CliError(f"--host {host}: cannot listen there ({exc.strerror})") from None
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
            try:
                probe.bind(address)
            except OSError as exc:
                raise CliError(f"--port {port}: cannot listen on {host}:{port} ({exc.strerror})") from None
