"""``scopewatch serve``: run a session headless on an MQTT broker, for viewers and reviewers elsewhere.

Prints the session id (the first line on stdout), announces the engine's presence (retained, with a
Last Will), answers late joiners' replay requests from the events so far, and prints the metrics
table on stderr when the session ends. With ``--secret`` every command must carry that token;
others are answered with ``CommandRefused``. SIGTERM (like Ctrl-C) ends the session as "cancelled":
the last event, recorded and published, is ``SessionEnded``, and the exit code is 143.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import uuid

from channel.connect import parse_bus_url
from channel.errors import ScopewatchError
from channel.events import Event
from channel.mqtt import MqttBus
from channel.recorder import Recorder
from engine.scoring.metrics import Metrics, Scorer
from engine.session.config import SessionConfig
from engine.session.headless import check_agents, render_table
from engine.session.loop import Session


class ServeError(ScopewatchError):
    """``serve`` cannot start: the message names the option."""


async def serve_session(
    config: SessionConfig,
    url: str,
    *,
    record: str | None = None,
    session_id: str | None = None,
    announce: bool = True,
) -> Metrics:
    """Run one session on the broker at ``url``; returns its metrics."""
    session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
    bus = MqttBus(parse_bus_url(url), session_id, participant="engine", role="engine")
    await bus.start()
    recorder = Recorder(record) if record else None
    history: list[Event] = []
    scorer = Scorer()
    try:
        session = Session(config, bus, recorder=recorder, session_id=session_id)
        session.emitter.add_listener(history.append)

        def score(event: Event) -> None:
            scorer.feed(event)

        session.emitter.add_listener(score)
        await bus.serve_history(history)
        if announce:
            print(session.id, flush=True)
            print(
                f"scopewatch: serving session {session.id} on {bus.address.display} "
                f"(scopewatch watch --bus URL --session {session.id})",
                file=sys.stderr,
                flush=True,
            )
        await session.run()
    finally:
        if recorder is not None:
            recorder.close()
        await bus.close()
    return scorer.metrics()


def serve(args: argparse.Namespace) -> int:
    """The ``serve`` subcommand."""
    if not getattr(args, "bus", None):
        raise ServeError("serve needs --bus mqtt://host:port (the broker viewers and reviewers connect to)")
    parse_bus_url(args.bus)  # a bad URL fails before anything is built
    config = SessionConfig.from_args(args)
    check_agents(config)
    record = getattr(args, "record", None)

    async def main() -> Metrics:
        task = asyncio.current_task()
        assert task is not None
        with contextlib.suppress(NotImplementedError):  # no signal handlers on some platforms
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        return await serve_session(config, args.bus, record=record)

    try:
        metrics = asyncio.run(main())
    except asyncio.CancelledError:
        print("scopewatch: serve stopped by SIGTERM; the session ended as 'cancelled'", file=sys.stderr)
        return 128 + signal.SIGTERM
    print(render_table(metrics), file=sys.stderr)
    return 0
