"""``scopewatch watch`` and ``scopewatch review``: attach to a session served on an MQTT broker.

``watch`` opens the same app as a live run (its status bar says "watch"). A bridge feeds it: it
subscribes to the session's events and presence, asks the engine for the events so far (the replay
protocol of :class:`channel.mqtt.MqttBus`), then forwards the live stream; the app's commands go back
to the broker. ``review`` is the review queue alone, as a line console: pending admin requests with
their diff, ``a ID [comment]`` approves, ``r ID [comment]`` rejects.

Both read the stream through a :class:`SeqFollower`: every event once, in ``seq`` order; when the live
stream skips a ``seq`` (a dropped message, a long disconnect), the missing events are fetched from the
engine with ``fetch_history(after=last)`` before the stream goes on.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from channel.bus import Dropped
from channel.commands import DecideReview, _Command
from channel.connect import parse_bus_url
from channel.errors import ScopewatchError
from channel.events import CommandRefused, Event, ReviewDecided, ReviewRequested, SessionEnded
from channel.memory import InProcessBus
from channel.mqtt import BrokerAddress, BusConnectError, MqttBus, find_sessions
from channel.vocab import Decision

if TYPE_CHECKING:
    from tui.app import ScopewatchApp

log = logging.getLogger("scopewatch.remote")


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


class SeqFollower:
    """Hands a session's events to ``deliver`` once each, in ``seq`` order, filling gaps.

    ``fetch(after)`` returns the engine's events with a larger seq (``MqttBus.fetch_history``).
    Unsequenced messages (presence, seq 0) pass straight through. An event at or below the last
    delivered seq is a duplicate and is skipped; one beyond ``last + 1`` triggers a fetch of what is
    missing. When the engine cannot answer, the gap is counted in ``unrepaired`` and the stream goes on.
    """

    def __init__(
        self,
        fetch: Callable[[int], Awaitable[Sequence[Event]]],
        deliver: Callable[[Event], Awaitable[None]],
        *,
        last: int = 0,
    ) -> None:
        self.fetch = fetch
        self.deliver = deliver
        self.last = last
        self.repairs = 0
        """Gaps seen (each one fetch)."""
        self.repaired = 0
        """Events that were missing from the live stream and came from the history."""
        self.unrepaired = 0
        """Events that were missing and could not be fetched (the engine did not answer)."""

    async def catch_up(self) -> int:
        """Deliver the engine's events after ``last`` (the state so far, for a late joiner); raises
        BusConnectError when no engine answers. Returns how many were delivered."""
        delivered = 0
        for event in sorted(await self.fetch(self.last), key=lambda e: e.seq):
            if event.seq > self.last:
                await self._emit(event)
                delivered += 1
        return delivered

    async def offer(self, event: Event) -> None:
        """One event from the live stream."""
        if not event.seq:
            await self.deliver(event)
            return
        if event.seq <= self.last:
            return
        if event.seq > self.last + 1:
            await self._repair(event.seq)
        if event.seq > self.last:
            await self._emit(event)

    async def _repair(self, upto: int) -> None:
        self.repairs += 1
        missing = upto - self.last - 1
        try:
            history = await self.fetch(self.last)
        except BusConnectError as exc:
            log.warning("events %d..%d missed and not fetched: %s", self.last + 1, upto - 1, exc)
            self.unrepaired += missing
            return
        got = 0
        for event in sorted(history, key=lambda e: e.seq):
            if event.seq > self.last:
                got += event.seq < upto
                await self._emit(event)
        self.repaired += got
        self.unrepaired += missing - got

    async def _emit(self, event: Event) -> None:
        self.last = event.seq
        await self.deliver(event)


async def bridge(
    remote: MqttBus, local: InProcessBus, *, on_follower: Callable[[SeqFollower], None] | None = None
) -> None:
    """History first, then the live stream, each event once (gaps filled); presence passes through;
    local commands go to the broker. Runs until cancelled. ``on_follower`` sees the follower (tests)."""
    events = await remote.subscribe("events/#")
    presence = await remote.subscribe("presence/#")
    commands = await local.subscribe("cmd/#")
    follower = SeqFollower(remote.fetch_history, local.publish)
    if on_follower is not None:
        on_follower(follower)

    async def forward_commands() -> None:
        async for command in commands:
            if not isinstance(command, Dropped):
                await remote.publish(command)

    async def forward_presence() -> None:
        async for item in presence:
            if not isinstance(item, Dropped | _Command):
                await local.publish(item)

    helpers = [asyncio.create_task(forward_commands()), asyncio.create_task(forward_presence())]
    try:
        await follower.catch_up()
        async for item in events:
            if isinstance(item, Dropped | _Command):
                continue  # a drop shows as a gap at the next event; commands are the engine's
            await follower.offer(item)
    finally:
        for task in helpers:
            task.cancel()
        await remote.close()


def attach_app(
    address: BrokerAddress,
    session: str,
    *,
    token: str | None = None,
    theme: str | None = None,
    participant: str | None = None,
    **options: Any,
) -> ScopewatchApp:
    """The TUI app fed from a session on the broker (``watch``; also what the tests drive with Pilot)."""
    from tui.app import build_app

    local = InProcessBus()
    remote = MqttBus(address, session, participant=participant or f"viewer-{os.getpid()}", role="viewer")
    app = build_app(local, session, engine=bridge(remote, local), theme=theme, token=token, **options)
    # The app calls a run with an engine coroutine "live"; here the coroutine is the bridge.
    app.status.mode = "watch"
    return app


async def check_engine(address: BrokerAddress, session: str) -> None:
    """Fail in one line, before any screen opens, when the broker is unreachable or no engine
    answers for the session (it ended, or the id is wrong)."""
    bus = MqttBus(address, session)
    try:
        await bus.fetch_history(after=2**62)  # only the end marker comes back
    finally:
        await bus.close()


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
        live = await self.bus.subscribe("events/#")
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
        bus = MqttBus(address, args.session, participant=f"reviewer-{os.getpid()}", role="reviewer")
        try:
            await ReviewConsole(bus, token=args.secret).run(sys.stdin.readline)
        finally:
            await bus.close()

    asyncio.run(main())
    return 0
