"""``scopewatch review``: the review queue of a served session, as a line console.

Pending admin requests are shown with their diff; ``a ID [comment]`` approves, ``r ID [comment]``
rejects, ``l`` lists, ``q`` quits. The stream is read through :class:`tui.remote.SeqFollower`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from channel.bus import Dropped
from channel.commands import DecideReview, _Command
from channel.connect import connect_bus, parse_bus_url
from channel.events import CommandRefused, Event, ReviewDecided, ReviewRequested, SessionEnded
from channel.mqtt import MqttBus
from channel.vocab import Decision
from channel.vocab.topics import EVENTS
from tui.remote import SeqFollower


def register(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="a minimal reviewer console for a session on an MQTT broker",
        description="Answer a served session's review queue from another terminal.",
    )
    p.add_argument("--bus", required=True, metavar="URL", help="the MQTT broker, mqtt://host:port")
    p.add_argument("--session", required=True, metavar="ID", help="the session id 'scopewatch serve' printed")
    p.add_argument("--secret", metavar="TEXT", help="the reviewer secret the session was served with")
    p.set_defaults(handler=review)


class ReviewConsole:
    """The review queue of one session, fed by its events; decisions are sent as commands."""

    def __init__(self, bus: MqttBus, *, token: str | None, out: TextIO = sys.stdout) -> None:
        self.bus = bus
        self.token = token
        self.out = out
        self.pending: dict[str, ReviewRequested] = {}
        self.ended = asyncio.Event()
        self.sender = f"reviewer-{os.getpid()}"
        self.follower = SeqFollower(bus.fetch_history, self._apply)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    async def _apply(self, event: Event) -> None:
        self.apply(event)

    def apply(self, event: Event) -> None:
        if isinstance(event, ReviewRequested) and event.to == "admin":
            self.pending[event.request_id] = event
            self.show(event)
        elif isinstance(event, ReviewDecided) and event.request_id in self.pending:
            del self.pending[event.request_id]
            applied = ", applied" if event.applied else ""
            self.say(f"[{event.request_id}] {event.decision} by {event.actor}{applied}")
        elif isinstance(event, CommandRefused) and event.actor == self.sender:
            self.say(f"refused: {event.command}: {event.reason}")
        elif isinstance(event, SessionEnded):
            self.say(f"session ended ({event.reason})")
            self.ended.set()

    def show(self, r: ReviewRequested) -> None:
        print(f"\n[{r.request_id}] {r.actor} asks to change {', '.join(r.paths)}", file=self.out)
        if r.description:
            print(f"  {r.description}", file=self.out)
        print(r.diff.rstrip(), file=self.out)
        self.say(f"  -> a {r.request_id} [comment] | r {r.request_id} [comment]")

    async def command(self, line: str) -> bool:
        """One console line; False to quit."""
        words = line.strip().split(maxsplit=2)
        if not words:
            return True
        if words[0] in ("q", "quit", "exit"):
            return False
        if words[0] in ("a", "r") and len(words) >= 2:
            decision: Decision = "approved" if words[0] == "a" else "rejected"
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
                self.say("no pending review requests")
        else:
            self.say("commands: a ID [comment], r ID [comment], l (list), q (quit)")
        return True

    async def run(self, read_line: Callable[[], str]) -> None:
        """Show the queue so far, then follow the session and answer console lines until the
        session ends, the input ends (``read_line`` returns "") or the user quits."""
        live = await self.bus.subscribe(EVENTS)
        await self.follower.catch_up()
        self.say(f"reviewing {self.bus.session}: {len(self.pending)} pending")

        async def follow() -> None:
            async for item in live:
                if not isinstance(item, Dropped | _Command):
                    await self.follower.offer(item)

        follower = asyncio.create_task(follow())
        lines = _read_lines(read_line)
        ended = asyncio.create_task(self.ended.wait())
        try:
            while not self.ended.is_set():
                next_line = asyncio.create_task(lines.get())
                await asyncio.wait((next_line, ended), return_when=asyncio.FIRST_COMPLETED)
                if not next_line.done():
                    next_line.cancel()
                    break
                line = next_line.result()
                if line == "" or not await self.command(line):
                    break
        finally:
            follower.cancel()
            ended.cancel()


def _read_lines(read_line: Callable[[], str]) -> asyncio.Queue[str]:
    """Lines from a blocking reader, through a daemon thread (a reader stuck on a terminal must not
    keep the process alive once the session has ended)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str] = asyncio.Queue()

    def pump() -> None:
        while True:
            try:
                line = read_line()
            except (OSError, ValueError):
                line = ""
            try:
                loop.call_soon_threadsafe(queue.put_nowait, line)
            except RuntimeError:  # the loop is gone
                return
            if line == "":
                return

    threading.Thread(target=pump, name="scopewatch-review-input", daemon=True).start()
    return queue


def review(args: argparse.Namespace) -> int:
    """The ``review`` subcommand."""
    address = parse_bus_url(args.bus)

    async def main() -> None:
        bus = connect_bus(address, args.session, participant=f"reviewer-{os.getpid()}", role="reviewer")
        try:
            await ReviewConsole(bus, token=args.secret).run(sys.stdin.readline)
        finally:
            await bus.close()

    asyncio.run(main())
    return 0
