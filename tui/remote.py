"""``scopewatch watch`` and ``scopewatch review``: attach to a session served on an MQTT broker.

``watch`` opens the same app as a live run (its status bar says "watch"). A bridge feeds it: it
subscribes to the session's events and presence, asks the engine for the events so far (the replay
protocol of :class:`channel.mqtt.MqttBus`), then forwards the live stream; the app's commands go back
to the broker. ``review`` is the review queue alone, as a line console: pending admin requests with
their diff, ``a ID [comment]`` approves, ``r ID [comment]`` rejects.

``watch --headless`` (:func:`follow_headless`) has no screen: every event handed on once, in order.
``watch --as NAME`` joins a room (``serve --room``): the bus announces NAME, and the app's commands carry it.

All read the stream through a :class:`SeqFollower`: every event once, in ``seq`` order; when the live
stream skips a ``seq`` (a dropped message, a long disconnect), the missing events are fetched from the
engine with ``fetch_history(after=last)`` before the stream goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from channel.broker import RECORDING, BrokerAddress, BusConnectError, retained
from channel.bus import Dropped
from channel.codec import DecodeError, decode_event
from channel.commands import _Command
from channel.connect import connect_bus
from channel.credentials import Credential
from channel.discovery import find_sessions
from channel.errors import ScopewatchError
from channel.events import Event, PresenceChanged, SessionEnded
from channel.liveness import BROKER_LOST, ENGINE_GONE, Liveness, State
from channel.memory import InProcessBus
from channel.mqtt import MqttBus
from channel.signing import VerifyKey, genuine
from channel.vocab.topics import COMMANDS, EVENTS, PRESENCE, ROOT, presence_topic

if TYPE_CHECKING:
    from tui.app import ScopewatchApp

log = logging.getLogger("scopewatch.remote")


class RemoteError(ScopewatchError):
    """Cannot attach: the message names the option or session."""


async def resolve_session(address: BrokerAddress, session: str | None) -> str:
    """The given session id, or the most recent live session on the broker (channel.discovery)."""
    if session:
        return session
    found = await find_sessions(address)
    if not found:
        raise RemoteError(
            f"--session: no session announced on {address.display} is live; start one with 'scopewatch serve' "
            "(an ended one replays with --session ID)"
        )
    return found[0].session


FETCH_TRIES = 3
"""Fetches of the history (a joiner's first, a gap's) before it is given up (each fetch asks the
engine until it gave up). The engine was there a moment ago (checked before following; the live
event past a gap came from it), so a fetch that failed all the same (no answer within its wait
while this viewer's own process or link was slow) is asked again, rather than failing the joiner
or skipping the gap's events for good."""


class SeqFollower:
    """Hands a session's events to ``deliver`` once each, in ``seq`` order, filling gaps.

    ``fetch(after)`` returns the engine's events with a larger seq (``MqttBus.fetch_history``).
    Unsequenced messages (presence, seq 0) pass straight through. An event at or below the last
    delivered seq is a duplicate and is skipped; one beyond ``last + 1`` triggers a fetch of what is
    missing (asked up to :data:`FETCH_TRIES` times). When the engine cannot answer, the gap is counted in
    ``unrepaired`` and the stream goes on.
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
        for event in sorted(await self._fetch(), key=lambda e: e.seq):
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
            history = await self._fetch()
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

    async def _fetch(self) -> Sequence[Event]:
        """The events after ``last``, asked up to :data:`FETCH_TRIES` times (the engine was there a
        moment ago: the viewer checked it before following, or a live event just came from it)."""
        for _ in range(FETCH_TRIES - 1):
            with contextlib.suppress(BusConnectError):
                return await self.fetch(self.last)
        return await self.fetch(self.last)  # the last try's failure is the caller's

    async def _emit(self, event: Event) -> None:
        self.last = event.seq
        await self.deliver(event)


async def bridge(
    remote: MqttBus,
    local: InProcessBus,
    *,
    on_follower: Callable[[SeqFollower], None] | None = None,
    on_state: Callable[[State], None] | None = None,
) -> None:
    """History first, then the live stream, each event once (gaps filled); presence passes through
    (the engine's "left" only once :class:`~channel.liveness.Liveness` believes it: a broker outage is
    told to ``on_state`` instead); local commands go to the broker. Runs until cancelled.
    ``on_follower`` sees the follower (tests)."""
    events = await remote.subscribe(EVENTS)
    presence = await remote.subscribe(PRESENCE)
    commands = await local.subscribe(COMMANDS)
    follower = SeqFollower(remote.fetch_history, local.publish)
    if on_follower is not None:
        on_follower(follower)
    gone: list[asyncio.Task[None]] = []

    def changed(state: State) -> None:
        if state == "engine gone" and liveness.left is not None:
            gone.append(asyncio.ensure_future(local.publish(liveness.left)))
        if on_state is not None:
            on_state(state)

    liveness = Liveness(changed)
    remote.on_link(liveness.link)

    async def forward_commands() -> None:
        async for command in commands:
            if isinstance(command, _Command):
                if remote.participant:  # a room member's commands carry the name they joined with
                    command = command.model_copy(update={"sender": remote.participant})
                await remote.publish(command)

    async def forward_presence() -> None:
        async for item in presence:
            if isinstance(item, PresenceChanged) and item.participant == "engine":
                liveness.presence(item)
                if item.status == "left":
                    continue  # handed on once believed (changed)
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
        liveness.close()
        for task in helpers + gone:
            task.cancel()
        await remote.close()


class EngineGone(RemoteError):
    """The engine left (its Last Will) before the session ended, and the broker kept no recording."""


async def follow_headless(
    remote: MqttBus, deliver: Callable[[Event], Awaitable[None]], *, note: Callable[[str], None] = log.warning
) -> SeqFollower:
    """``watch --headless``: hand every event of the session to ``deliver`` once, in seq order (history
    first, gaps filled), until ``SessionEnded``; the bus reconnects on its own when the link drops
    (``note`` says so), and what the engine can no longer send (it ended meanwhile) comes from the
    recording it left. Raises :class:`EngineGone` when the engine died (its Last Will, believed as
    :class:`~channel.liveness.Liveness` says) and left no recording."""
    events = await remote.subscribe(EVENTS)
    presence = await remote.subscribe(presence_topic("engine"))
    ended = False
    gone = asyncio.Event()

    def changed(state: State) -> None:
        if state == "engine gone":
            gone.set()
        else:
            note(BROKER_LOST if state == "broker lost" else "broker connection back")

    liveness = Liveness(changed)
    remote.on_link(liveness.link)

    async def take(event: Event) -> None:
        nonlocal ended
        ended = ended or isinstance(event, SessionEnded)
        await deliver(event)

    async def fetch(after: int) -> Sequence[Event]:
        try:
            return await remote.fetch_history(after)
        except BusConnectError:  # the engine is gone: the recording it left on the broker, if any
            recorded = await ended_session(remote.address, remote.session)
            if recorded is None:
                raise
            return [event for event in recorded if event.seq > after]

    async def engine() -> None:
        async for item in presence:
            if isinstance(item, PresenceChanged):
                liveness.presence(item)

    follower = SeqFollower(fetch, take)
    watcher = asyncio.create_task(engine())
    stop = asyncio.create_task(gone.wait())
    get: asyncio.Future[Any] | None = None
    try:
        await follower.catch_up()
        while not ended:
            get = asyncio.ensure_future(events.get())
            await asyncio.wait((get, stop), return_when=asyncio.FIRST_COMPLETED)
            if not get.done():
                get.cancel()
                recorded = await ended_session(remote.address, remote.session)
                for event in recorded or ():
                    if event.seq > follower.last:
                        await follower.offer(event)
                if not ended:
                    raise EngineGone(ENGINE_GONE)
                break
            item = get.result()
            if not isinstance(item, Dropped | _Command):
                await follower.offer(item)
    finally:
        liveness.close()
        waiting = [task for task in (get, watcher, stop) if task is not None]
        for task in waiting:
            task.cancel()
        await remote.close()
        # Each awaited (Ctrl-C cancels the run with a get pending; the closed bus ends it with StopAsyncIteration,
        # which asyncio would print as "Task exception was never retrieved").
        await asyncio.gather(*waiting, return_exceptions=True)
    return follower


def attach_app(
    address: BrokerAddress,
    session: str,
    *,
    token: str | None = None,
    theme: str | None = None,
    participant: str | None = None,
    key: VerifyKey | None = None,
    credential: Credential | None = None,
    **options: Any,
) -> ScopewatchApp:
    """The TUI app fed from a session on the broker (``watch``; also what the tests drive with Pilot).
    ``credential`` signs the app's commands (without one, a served session refuses them)."""
    from tui.app import build_app

    local = InProcessBus()
    who = participant or (credential.participant if credential else "") or f"viewer-{os.getpid()}"
    role = credential.role if credential else "viewer"
    remote = connect_bus(address, session, participant=who, role=role, key=key, credential=credential)

    def link(state: State) -> None:  # a broker outage is shown as such, not as the engine's death
        app.status.broker_lost = state == "broker lost"
        app.status.show()

    app = build_app(local, session, engine=bridge(remote, local, on_state=link), theme=theme, token=token, **options)

    def forged(topic: str, count: int) -> None:
        if count & (count - 1) == 0:  # the 1st, 2nd, 4th, 8th...: seen, never a flood of notices
            app.notify(f"dropped {count} message(s) not signed by the engine (the last on {topic})", severity="error")

    remote.on_forged(forged)
    # The app calls a run with an engine coroutine "live"; here the coroutine is the bridge.
    app.status.mode = "watch"
    app.reviews.me = who  # a room's member sees their own vote
    app.reviews.can_decide = credential is not None and credential.role in ("reviewer", "instructor")
    return app


async def ended_session(address: BrokerAddress, session: str, key: VerifyKey | None = None) -> list[Event] | None:
    """The events of a session that has ended, from the recording its engine left on the broker
    (None when it left none: it is still running, or it ended before scopewatch did this). With
    ``key``, a recording the engine did not sign is refused in one line."""
    found = await retained(address, session, RECORDING)
    if found is None:
        return None
    data, props = found
    if key is not None and not genuine(key, f"{ROOT}/{session}/{RECORDING}", data, props):
        raise RemoteError(
            f"session {session}: the recording on the broker is not signed by the session's engine "
            "(forged, or a wrong --key); replay a copy you trust with 'scopewatch replay FILE'"
        )
    events = []
    for number, line in enumerate(data.splitlines(), 1):
        if line.strip():
            try:
                events.append(decode_event(line))
            except DecodeError as exc:
                raise RemoteError(
                    f"session {session}: the recording on the broker is damaged (line {number}: {exc})"
                ) from None
    return events or None


async def check_engine(address: BrokerAddress, session: str, key: VerifyKey | None = None) -> None:
    """Fail in one line, before any screen opens, when the broker is unreachable or no engine
    answers for the session (it ended, or the id is wrong); with ``key``, only the engine's answer counts."""
    bus = connect_bus(address, session, key=key)
    try:
        await bus.fetch_history(after=2**62)  # only the end marker comes back
    finally:
        await bus.close()
