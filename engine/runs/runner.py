"""Run a whole session without a screen: on an in-process bus (``run --headless``) or on an MQTT
broker for viewers and reviewers elsewhere (``serve``). Both return the metrics scored from the
session's own events; what to show while it runs is the caller's (``on_event``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable

from channel.broker import RECORDING
from channel.bus import BusClosed
from channel.codec import encode
from channel.connect import connect_bus
from channel.credentials import CommandGuard, Credentials
from channel.errors import ScopewatchError
from channel.events import Event
from channel.exposure import anonymous_publish
from channel.memory import InProcessBus
from channel.outbox import Outbox
from channel.recorder import Recorder
from channel.signing import SessionKey
from channel.vocab.config import SessionConfig
from engine.fork.plan import ForkPlan
from engine.runs.sessions import open_session
from engine.scoring.judge import EpisodeLabel
from engine.scoring.metrics import Metrics, Scorer
from engine.session.loop import RoundGuide, Session

log = logging.getLogger("scopewatch.serve")

FINAL_PUBLISH_S = 2.0
"""How long a served session's end waits for the broker to take the retained recording."""
FLUSH_S = 30.0
"""How long a served session's end waits for its outbox to be published (viewers see the end)."""
STOP_FLUSH_S = 1.0
"""The same when it was stopped (SIGTERM), with the broker there; with it gone, neither waits."""

OnEvent = Callable[[Event, EpisodeLabel | None], None]
"""Sees every event in order, with the episode's label when the event ended a scored episode."""


def check_agents(config: SessionConfig) -> None:
    """Fail fast, in one line, when a model's credentials are missing or an agent cannot sit in the
    scenario's seats (an ACP agent on an audit scenario) (before anything runs)."""
    from engine.agents.acp_launch import acp_command, check_acp_scenario, is_acp
    from engine.agents.external import UnknownAgentKind, check_credentials, is_external, misspelt_kind

    for kind in sorted({config.requester, config.owner} - {"scripted", "human"}):
        from engine.llm.secrets import check_model_credentials

        if is_acp(kind):
            check_acp_scenario(kind, config.scenario)
            acp_command(kind)  # a bad command line fails here, in one line; its model is its own business
            continue
        if is_external(kind):
            check_credentials(kind, config.api_base)  # a bad kind fails here, in one line
            continue
        typo = misspelt_kind(kind)
        try:
            check_model_credentials(kind, config.api_base)
        except ScopewatchError:
            if typo is not None:
                raise UnknownAgentKind(typo) from None
            raise


def episode_count(session: Session) -> int:
    """How many episodes the session will run (for progress displays)."""
    return sum(len(plan.tasks) for plan in session.plans)


async def run_session(
    config: SessionConfig,
    *,
    record: str | None = None,
    on_start: Callable[[Session], None] | None = None,
    on_event: OnEvent | None = None,
    fork: ForkPlan | None = None,
    guide: Callable[[Session], RoundGuide] | None = None,
) -> Metrics:
    """Run a whole session on an in-process bus; returns its metrics (scored from its events).
    ``on_start`` sees the session before it runs; ``on_event`` every event, in order (with its label);
    ``fork``: run it as a fork of a recording (engine/fork/plan.py); ``guide``: steered by it (a lesson's)."""
    bus = InProcessBus()
    recorder = Recorder(record) if record else None
    try:
        session = open_session(config, bus, recorder=recorder, fork=fork, guide=guide)
        return await _hosted(session, on_start, on_event)
    finally:
        if recorder:
            recorder.close()
        await bus.close()


async def serve_session(
    config: SessionConfig,
    url: str,
    *,
    record: str | None = None,
    session_id: str | None = None,
    on_start: Callable[[Session, str], None] | None = None,
    on_event: OnEvent | None = None,
    fork: ForkPlan | None = None,
    key: SessionKey | None = None,
    credentials: Credentials | None = None,
    guide: Callable[[Session], RoundGuide] | None = None,
) -> Metrics:
    """Run one session on the broker at ``url``: presence announced (retained, with a Last Will),
    late joiners' replay requests answered from the events so far. ``on_start`` gets the session
    and the broker's display address once it is reachable. ``key``: the engine signs everything it
    publishes with it and announces its public half, retained (channel.signing). ``credentials``:
    every command must be signed with a token derived from them, its role allowing its kind
    (channel.credentials); without, commands are open. ``guide``: steered by it (a lesson's, served).
    A broker that lets anonymous clients publish on the command topics is reported with a warning."""
    session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
    guard = None if credentials is None else CommandGuard(credentials)
    bus = connect_bus(url, session_id, participant="engine", role="engine", key=key, guard=guard)
    history: list[Event] = []
    # Subscribed before the bus connects, so before the engine says it is online: a joiner who asks
    # for the history as soon as it sees the engine is answered (it used to wait out a 5 s fetch).
    await bus.serve_history(history)
    if credentials is not None and await anonymous_publish(bus):
        log.warning(
            "scopewatch: warning: %s lets anonymous clients publish on this session's command topics: "
            "commands without a token are refused, but anyone can flood them; require a login and "
            "per-user ACLs (docs/mqtt.md)",
            bus.address.display,
        )
    recorder = Recorder(record) if record else None
    outbox = Outbox(bus, raw=bus)  # the engine never waits for the broker; what waits goes batched (channel.outbox)
    try:
        session = open_session(config, bus, recorder=recorder, session_id=session_id, fork=fork, guide=guide)
        session.emitter.add_listener(history.append)
        session.emitter.outbox = outbox
        return await _hosted(
            session, None if on_start is None else lambda s: on_start(s, bus.address.display), on_event
        )
    finally:
        if recorder is not None:
            recorder.close()
        stopping = (task := asyncio.current_task()) is not None and task.cancelling() > 0
        if bus.connected or not stopping:
            await outbox.flush(STOP_FLUSH_S if stopping else FLUSH_S)
        await outbox.close()
        # The whole session, retained, for viewers who come after it ended (``watch`` replays it).
        # Bounded: with the broker gone, a stop (SIGTERM) must not wait for it.
        with contextlib.suppress(Exception):
            if stopping and not bus.connected:
                raise BusClosed("the broker is gone: nobody to leave the recording with")
            recording = b"".join(encode(e) + b"\n" for e in history)
            await asyncio.wait_for(bus.publish_raw(RECORDING, recording, retain=True, qos=1), FINAL_PUBLISH_S)
        await bus.close()


async def _hosted(session: Session, on_start: Callable[[Session], None] | None, on_event: OnEvent | None) -> Metrics:
    scorer = Scorer()

    def score(event: Event) -> None:
        label = scorer.feed(event)
        if on_event is not None:
            on_event(event, label)

    session.emitter.add_listener(score)
    if on_start is not None:
        on_start(session)
    await session.run()
    return scorer.metrics()
