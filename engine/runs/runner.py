"""Run a whole session without a screen: on an in-process bus (``run --headless``) or on an MQTT
broker for viewers and reviewers elsewhere (``serve``). Both return the metrics scored from the
session's own events; what to show while it runs is the caller's (``on_event``)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable

from channel.broker import RECORDING
from channel.codec import encode
from channel.connect import connect_bus
from channel.events import Event
from channel.memory import InProcessBus
from channel.recorder import Recorder
from channel.vocab.config import SessionConfig
from engine.fork.plan import ForkPlan
from engine.runs.sessions import open_session
from engine.scoring.judge import EpisodeLabel
from engine.scoring.metrics import Metrics, Scorer
from engine.session.loop import RoundGuide, Session

OnEvent = Callable[[Event, EpisodeLabel | None], None]
"""Sees every event in order, with the episode's label when the event ended a scored episode."""


def check_agents(config: SessionConfig) -> None:
    """Fail fast, in one line, when a model's credentials are missing (before anything runs)."""
    from engine.agents.acp import acp_command, is_acp
    from engine.agents.external import check_credentials, is_external

    for kind in sorted({config.requester, config.owner} - {"scripted", "human"}):
        from engine.llm.secrets import check_model_credentials

        if is_acp(kind):
            acp_command(kind)  # a bad command line fails here, in one line; its model is its own business
            continue
        if is_external(kind):
            check_credentials(kind, config.api_base)  # a bad kind fails here, in one line
            continue
        check_model_credentials(kind, config.api_base)


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
    key: bytes | None = None,
) -> Metrics:
    """Run one session on the broker at ``url``: presence announced (retained, with a Last Will),
    late joiners' replay requests answered from the events so far. ``on_start`` gets the session
    and the broker's display address once it is reachable. ``key``: the engine signs everything it
    publishes with it (channel.signing)."""
    session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
    bus = connect_bus(url, session_id, participant="engine", role="engine", key=key)
    await bus.start()
    recorder = Recorder(record) if record else None
    history: list[Event] = []
    try:
        session = open_session(config, bus, recorder=recorder, session_id=session_id, fork=fork)
        session.emitter.add_listener(history.append)
        await bus.serve_history(history)
        return await _hosted(
            session, None if on_start is None else lambda s: on_start(s, bus.address.display), on_event
        )
    finally:
        if recorder is not None:
            recorder.close()
        # The whole session, retained, for viewers who come after it ended (``watch`` replays it).
        with contextlib.suppress(Exception):
            await bus.publish_raw(RECORDING, b"".join(encode(e) + b"\n" for e in history), retain=True, qos=1)
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
