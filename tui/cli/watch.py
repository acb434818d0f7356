"""``scopewatch watch``: the TUI attached to a session served on an MQTT broker."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from channel.connect import parse_bus_url
from tui.cli.common import THEME_HELP
from tui.remote import attach_app, check_engine, resolve_session


def register(sub: Any) -> None:
    p = sub.add_parser(
        "watch",
        help="attach the TUI to a session on an MQTT broker",
        description="Attach the TUI to a session served on an MQTT broker.",
    )
    p.add_argument("--bus", required=True, metavar="URL", help="the MQTT broker, mqtt://host:port")
    p.add_argument("--session", metavar="ID", help="session id (default: the most recent one announced)")
    p.add_argument("--secret", metavar="TEXT", help="reviewer secret, to send commands")
    p.add_argument("--theme", metavar="NAME", help=THEME_HELP)
    p.set_defaults(handler=watch)


def watch(args: argparse.Namespace) -> int:
    """The ``watch`` subcommand: the TUI attached to a served session."""
    from themes import resolve

    address = parse_bus_url(args.bus)

    async def prepare() -> str:
        session = await resolve_session(address, args.session)
        await check_engine(address, session)
        return session

    session = asyncio.run(prepare())
    app = attach_app(address, session, token=args.secret, theme=resolve(getattr(args, "theme", None)))
    app.run()
    if app.engine_error is not None:
        print(f"scopewatch: watching stopped: {app.engine_error}", file=sys.stderr)
        return 1
    return app.return_code or 0
