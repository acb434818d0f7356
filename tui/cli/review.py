"""``scopewatch review``: the review queue of a served session, as a line console.

Pending admin requests are shown with their diff; ``a ID [comment]`` approves, ``r ID [comment]``
rejects, ``v QUORUM SECONDS`` sets a room's vote rule (``SetVoteRule``, the instructor's), ``l`` lists,
``q`` quits. The stream is read through :class:`tui.remote.SeqFollower`.

The console cannot vote (it has no ``CastVote``), so it announces itself with the presence role
:data:`ROLE`, which is no room member's (engine/session/room.py): it never counts among the members
present, whose majority a ballot needs.
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
from channel.commands import DecideReview, SetVoteRule, _Command
from channel.connect import connect_bus, parse_bus_url
from channel.credentials import parse_token
from channel.discovery import engine_presence
from channel.events import CommandRefused, Event, PresenceChanged, ReviewDecided, ReviewRequested, SessionEnded
from channel.liveness import BROKER_LOST, ENGINE_GONE, Liveness, State
from channel.mqtt import MqttBus
from channel.signing import parse_key, session_key
from channel.vocab import Decision
from channel.vocab.topics import EVENTS, presence_topic
from tui.cli.common import CliError
from tui.remote import SeqFollower, ended_session

ROLE = "console"
"""The console's presence role: it watches and answers the queue, it is not a voting member of a room."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="a minimal reviewer console for a session on an MQTT broker",
        description="Answer a served session's review queue from another terminal: a ID / r ID approve or reject, "
        "v QUORUM SECONDS sets a room's vote rule (quorum, deadline; the instructor token), l lists, q quits.",
    )
    p.add_argument("--bus", required=True, metavar="URL", help="the MQTT broker, mqtt://host:port")
    p.add_argument("--session", required=True, metavar="ID", help="the session id 'scopewatch serve' printed")
    p.add_argument("--token", metavar="TOKEN", help="the reviewer (or instructor) token serve printed")
    p.add_argument("--secret", metavar="TEXT", help=argparse.SUPPRESS)  # replaced by --token
    p.add_argument(
        "--key",
        metavar="HEX",
        help="the session's public signing key from serve's join line (pinned: a different key announced on the bus "
        "is refused; without it the announced key is trusted on first use)",
    )
    p.set_defaults(handler=review)


class ReviewConsole:
    """The review queue of one session, fed by its events; decisions are sent as commands."""

    def __init__(self, bus: MqttBus, *, sender: str | None = None, out: TextIO = sys.stdout) -> None:
        self.bus = bus
        self.out = out
        self.pending: dict[str, ReviewRequested] = {}
        self.ended = asyncio.Event()
        self.gone = False
        """The engine left (its Last Will) before the session ended: it died."""
        self.sender = sender or f"reviewer-{os.getpid()}"
        self.follower = SeqFollower(bus.fetch_history, self._apply)
        self.caught_up = False
        """The queue so far has arrived (until then ``l`` cannot say the queue is empty)."""
        self.liveness = Liveness(self.changed)
        bus.on_forged(self.forged)
        bus.on_link(self.liveness.link)

    def forged(self, topic: str, count: int) -> None:
        """A message on the engine's topics was not signed by it: say so (the 1st, 2nd, 4th, 8th...)."""
        if count & (count - 1) == 0:
            self.say(f"dropped {count} message(s) not signed by the engine (the last on {topic})")

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

    def presence(self, event: PresenceChanged) -> None:
        """The engine's presence, judged by :class:`~channel.liveness.Liveness` (a "left" before
        ``SessionEnded`` means the engine died, unless the broker went down with it)."""
        self.liveness.presence(event)

    def changed(self, state: State) -> None:
        """The engine's state as this console sees it: gone (exit 1), or the broker lost and back."""
        if state == "engine gone":
            if not self.ended.is_set():
                self.gone = True
                self.say(ENGINE_GONE)
                self.ended.set()
        elif state == "broker lost":
            self.say(BROKER_LOST)
        elif not self.ended.is_set():
            self.say("broker connection back")

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
                )
            )
        elif words[0] == "v" and len(words) == 3:
            try:
                rule = SetVoteRule(
                    session=self.bus.session, quorum=int(words[1]), deadline_s=float(words[2]), sender=self.sender
                )
            except ValueError:  # pydantic's ValidationError is one
                self.say("v QUORUM SECONDS: a quorum of 1 to 10000 votes, a deadline of 0 to 86400 seconds")
                return True
            await self.bus.publish(rule)
        elif words[0] == "l":
            for r in self.pending.values():
                self.show(r)
            if not self.caught_up:
                self.say("the queue so far is still coming: each pending request is shown as it arrives")
            elif not self.pending:
                self.say("no pending review requests")
        else:
            self.say(
                "commands: a ID [comment], r ID [comment], v QUORUM SECONDS (a room's vote rule), l (list), q (quit)"
            )
        return True

    async def run(self, read_line: Callable[[], str]) -> None:
        """Show the queue so far, then follow the session and answer console lines until the
        session ends, the input ends (``read_line`` returns "") or the user quits (``q`` works while
        the queue so far is still coming)."""
        lines = _read_lines(read_line)
        live = await self.bus.subscribe(EVENTS)
        engine = await self.bus.subscribe(presence_topic("engine"))

        async def follow() -> None:
            await self.follower.catch_up()
            self.caught_up = True
            self.say(f"reviewing {self.bus.session}: {len(self.pending)} pending")
            if self.bus.key is None:
                self.say("the session announces no signing key: its events are not checked")
            async for item in live:
                if not isinstance(item, Dropped | _Command):
                    await self.follower.offer(item)

        async def watch_engine() -> None:
            async for item in engine:
                if isinstance(item, PresenceChanged):
                    self.presence(item)

        follower = asyncio.create_task(follow())
        watcher = asyncio.create_task(watch_engine())
        ended = asyncio.create_task(self.ended.wait())
        try:
            while not self.ended.is_set():
                next_line = asyncio.create_task(lines.get())
                await asyncio.wait((next_line, ended, follower), return_when=asyncio.FIRST_COMPLETED)
                if not next_line.done():
                    next_line.cancel()
                    failed = follower.exception() if follower.done() and not follower.cancelled() else None
                    if failed is not None:
                        raise failed  # no engine answered
                    break
                line = next_line.result()
                if line == "" or not await self.command(line):
                    break
        finally:
            self.liveness.close()
            follower.cancel()
            watcher.cancel()
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
    if getattr(args, "secret", None):
        raise CliError("review --secret was replaced by --token (the reviewer token 'scopewatch serve' printed)")
    address = parse_bus_url(args.bus)
    pinned = parse_key(args.key) if args.key else None
    credential = parse_token(args.token) if args.token else None
    who = (credential.participant if credential else "") or f"reviewer-{os.getpid()}"

    async def main() -> int:
        key = await session_key(address, args.session, pinned)
        presence = await engine_presence(address, args.session, key)
        if presence is None or presence.status == "left":  # ended (or never served here): nothing to review
            recorded = await ended_session(address, args.session, key)
            if recorded is not None:
                end = next((e for e in reversed(recorded) if isinstance(e, SessionEnded)), None)
                how = f" ({end.reason})" if end is not None else " (its engine stopped)"
                print(f"session {args.session} has ended{how}; nothing to review", flush=True)
                return 0
        bus = connect_bus(address, args.session, participant=who, role=ROLE, key=key, credential=credential)
        console = ReviewConsole(bus, sender=who)
        try:
            await console.run(sys.stdin.readline)
        finally:
            await bus.close()
        return 1 if console.gone else 0

    return asyncio.run(main())
