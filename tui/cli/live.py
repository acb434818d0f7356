"""The live app on an in-process session: what ``run``, ``demo``, ``fork`` and ``lesson run`` open (its own module:
``serve`` and ``lesson`` are imported by ``run``, and ``lesson`` needs this)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from channel.vocab.config import SessionConfig
from engine.fork.plan import ForkPlan
from tui.cli.common import freeze_heap

if TYPE_CHECKING:
    from engine.session.loop import RoundGuide, Session


def open_live(
    config: SessionConfig,
    *,
    theme: str | None,
    record: str | None,
    fork: ForkPlan | None = None,
    seat: str | None = None,
    guide: Callable[[Session], RoundGuide] | None = None,
) -> int:
    """The live app on an in-process session (a fork of a recording, with ``fork``; a person in an
    agent's ``seat``; steered by a lesson's ``guide``); returns the exit code."""
    from channel.memory import InProcessBus
    from channel.recorder import Recorder
    from engine.runs.sessions import open_session
    from themes import resolve
    from tui.app import build_app

    theme_name = resolve(theme)
    bus = InProcessBus()
    recorder = Recorder(record) if record else None
    try:
        session = open_session(config, bus, recorder=recorder, fork=fork, guide=guide)
        app = build_app(
            bus, session.id, engine=session.run(), theme=theme_name, token=config.reviewer_secret, seat=seat
        )
        freeze_heap()
        app.run()
    finally:
        if recorder is not None:
            recorder.close()
    if app.engine_error is not None:
        err = app.engine_error
        print(f"scopewatch: the session stopped: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    if record:
        print(f"scopewatch: recording in {record} (scopewatch replay {shlex.quote(record)})", file=sys.stderr)
    return app.return_code or 0
