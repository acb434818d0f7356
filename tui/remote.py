"""``scopewatch watch`` and ``scopewatch review``: attach to a session served on an MQTT broker.

``watch`` opens the same app as a live run. A bridge feeds it: it subscribes to the session, asks
the engine for the events so far (the replay protocol of :class:`channel.mqtt.MqttBus`), then
forwards the live stream without duplicates (by ``seq``); the app's commands go back to the broker.
``review`` is the review queue alone, as a line console: pending admin requests with their diff,
``a ID [comment]`` approves, ``r ID [comment]`` rejects.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from typing import TextIO

from channel.bus import Dropped
from channel.commands import DecideReview, _Command
from channel.connect import parse_bus_url
from channel.errors import ScopewatchError
from channel.events import CommandRefused, Event, ReviewDecided, ReviewRequested, SessionEnded
from channel.memory import InProcessBus
from channel.mqtt import BrokerAddress, MqttBus, find_sessions


class RemoteError(ScopewatchError):
    """Cannot attach: the message names the option or session."""


async def resolve_session(address: BrokerAddress, session: str | None) -> str:
    """The given session id, or the most recent engine announced on the broker."""
    if session:
        return session
    found = await find_sessions(address)
    if not found:
        raise RemoteError(f"--session: no session announced on {address.display}; start one with 'scopewatch serve'")
    online = [p for p in found if p.status == "online"]
    return (online or found)[0].session


async def bridge(remote: MqttBus, local: InProcessBus) -> None:
    """History first, then the live stream, each event once; local commands go to the broker."""
    live = await remote.subscribe("#")
    commands = await local.subscribe("cmd/#")

    async def forward_commands() -> None:
        async for command in commands:
            if not isinstance(command, Dropped):
                await remote.publish(command)

    forwarder = asyncio.create_task(forward_commands())
    try:
        last = 0
        for event in await remote.fetch_history():
            await local.publish(event)
            last = max(last, event.seq)
        async for item in live:
            if isinstance(item, Dropped | _Command):
                continue  # commands are the engine's to answer (and ours would loop back)
            if item.seq and item.seq <= last:
                continue
            last = max(last, item.seq)
            await local.publish(item)
    finally:
        forwarder.cancel()
        await remote.close()


def watch(args: argparse.Namespace) -> int:
    """The ``watch`` subcommand: the TUI attached to a served session."""
    from themes import resolve
    from tui.app import build_app

    address = parse_bus_url(args.bus)
    theme = resolve(getattr(args, "theme", None))
    session = asyncio.run(resolve_session(address, args.session))
    local = InProcessBus()
    remote = MqttBus(address, session, participant=f"viewer-{os.getpid()}", role="viewer")
    app = build_app(local, session, engine=bridge(remote, local), theme=theme, token=args.secret)
    app.run()
    if app.engine_error is not None:
        err = app.engine_error
        print(f"scopewatch: watching stopped: {err}", file=sys.stderr)
        return 1
    return app.return_code or 0


class ReviewConsole:
    """The review queue of one session, fed by its events; decisions are sent as commands."""

    def __init__(self, bus: MqttBus, *, token: str | None, out: TextIO = sys.stdout) -> None:
        self.bus = bus
        self.token = token
        self.out = out
        self.pending: dict[str, ReviewRequested] = {}
        self.ended = asyncio.Event()
        self.sender = f"reviewer-{os.getpid()}"

    def apply(self, event: Event) -> None:
        if isinstance(event, ReviewRequested) and event.to == "admin":
            self.pending[event.request_id] = event
            self.show(event)
        elif isinstance(event, ReviewDecided) and event.request_id in self.pending:
            del self.pending[event.request_id]
            print(f"[{event.request_id}] {event.decision} by {event.actor}", file=self.out, flush=True)
        elif isinstance(event, CommandRefused) and event.actor == self.sender:
            print(f"refused: {event.command}: {event.reason}", file=self.out, flush=True)
        elif isinstance(event, SessionEnded):
            print(f"session ended ({event.reason})", file=self.out, flush=True)
            self.ended.set()

    def show(self, r: ReviewRequested) -> None:
        print(f"\n[{r.request_id}] {r.actor} asks to change {', '.join(r.paths)}", file=self.out)
        if r.description:
            print(f"  {r.description}", file=self.out)
        print(r.diff.rstrip(), file=self.out)
        print(f"  -> a {r.request_id} [comment] | r {r.request_id} [comment]", file=self.out, flush=True)

    async def command(self, line: str) -> bool:
        """One console line; False to quit."""
        words = line.strip().split(maxsplit=2)
        if not words:
            return True
        if words[0] in ("q", "quit", "exit"):
            return False
        if words[0] in ("a", "r") and len(words) >= 2:
            decision = "approved" if words[0] == "a" else "rejected"
            await self.bus.publish(
                DecideReview(
                    session=self.bus.session,
                    request_id=words[1],
                    decision=decision,
                    comment=words[2] if len(words) > 2 else "",
                    sender=self.sender,
                    token=self.token,
                )
            )
        elif words[0] == "l":
            for r in self.pending.values():
                self.show(r)
            if not self.pending:
                print("no pending review requests", file=self.out, flush=True)
        else:
            print("commands: a ID [comment], r ID [comment], l (list), q (quit)", file=self.out, flush=True)
        return True

    async def run(self, read_line: Callable[[], str]) -> None:
        live = await self.bus.subscribe("events/#")
        seen = 0
        for event in await self.bus.fetch_history():
            self.apply(event)
            seen = max(seen, event.seq)
        print(f"reviewing {self.bus.session}: {len(self.pending)} pending", file=self.out, flush=True)

        async def follow() -> None:
            async for item in live:
                if isinstance(item, Dropped | _Command) or (item.seq and item.seq <= seen):
                    continue
                self.apply(item)

        follower = asyncio.create_task(follow())
        try:
            while not self.ended.is_set():
                line = await asyncio.to_thread(read_line)
                if line == "" or not await self.command(line):
                    break
        finally:
            follower.cancel()


def review(args: argparse.Namespace) -> int:
    """The ``review`` subcommand."""
    address = parse_bus_url(args.bus)

    async def main() -> None:
        bus = MqttBus(address, args.session, participant=f"reviewer-{os.getpid()}", role="reviewer")
        try:
            await ReviewConsole(bus, token=args.secret).run(sys.stdin.readline)
        finally:
            await bus.close()

    asyncio.run(main())
    return 0
