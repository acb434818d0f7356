"""``scopewatch serve``: run a session headless on an MQTT broker, for viewers and reviewers elsewhere.

Prints the session id (the first line on stdout), and the metrics table on stderr when the session
ends. With ``--secret`` every command must carry that token; others are answered with
``CommandRefused``. SIGTERM (like Ctrl-C) ends the session as "cancelled": the last event, recorded
and published, is ``SessionEnded``, and the exit code is 143.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from typing import Any

from channel.connect import parse_bus_url
from engine.runs.runner import check_agents, serve_session
from engine.scoring.metrics import Metrics
from engine.scoring.tables import render_table
from engine.session.loop import Session
from tui.cli.common import CliError, add_session_options, session_config


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run a session headless on an MQTT broker",
        description="Run a session headless, publishing on an MQTT broker; prints the session id.",
    )
    add_session_options(p)
    p.add_argument("--secret", metavar="TEXT", help="shared secret a remote reviewer must present")
    p.set_defaults(handler=serve)


def announce(session: Session, broker: str) -> None:
    """The session id on stdout (for scripts), how to attach on stderr (for people)."""
    print(session.id, flush=True)
    print(
        f"scopewatch: serving session {session.id} on {broker} (scopewatch watch --bus URL --session {session.id})",
        file=sys.stderr,
        flush=True,
    )


def serve(args: argparse.Namespace) -> int:
    """The ``serve`` subcommand."""
    if not getattr(args, "bus", None):
        raise CliError("serve needs --bus mqtt://host:port (the broker viewers and reviewers connect to)")
    parse_bus_url(args.bus)  # a bad URL fails before anything is built
    config = session_config(args)
    check_agents(config)
    record = getattr(args, "record", None)

    async def main() -> Metrics:
        task = asyncio.current_task()
        assert task is not None
        with contextlib.suppress(NotImplementedError):  # no signal handlers on some platforms
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        return await serve_session(config, args.bus, record=record, on_start=announce)

    try:
        metrics = asyncio.run(main())
    except asyncio.CancelledError:
        print("scopewatch: serve stopped by SIGTERM; the session ended as 'cancelled'", file=sys.stderr)
        return 128 + signal.SIGTERM
    print(render_table(metrics), file=sys.stderr)
    return 0
