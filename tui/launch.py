"""What the CLI hands over to for the screens: ``demo``, ``run`` (live), ``replay`` and ``web``.

Each builds a bus, maybe an engine session, and the one app (:func:`tui.app.build_app`); errors a
user can cause (a bad scenario, norm, theme or recording) surface as one-line ScopewatchErrors
before the screen opens.
"""

from __future__ import annotations

import argparse
import gc
import shlex
import sys
from pathlib import Path

from channel.errors import ScopewatchError
from channel.memory import InProcessBus
from channel.recorder import Recorder, RecordingError, load_recording
from engine.session.config import SessionConfig
from themes import resolve

DEMO_PACE = 0.5
"""Seconds between rounds in the demo and live scripted runs: slow enough to watch."""


def _freeze_heap() -> None:
    """Move everything alive now (imports, config, a replay's recording) out of the garbage
    collector's scans: full collections during a session then scan only what the session made,
    which keeps their pauses short (bench/tui_throughput.py: the worst event-loop stalls)."""
    gc.collect()
    gc.freeze()


class LaunchError(ScopewatchError):
    """A screen that cannot open; the message names the option or file."""


def _live(config: SessionConfig, args: argparse.Namespace) -> int:
    from engine.session.loop import Session
    from tui.app import build_app

    theme = resolve(getattr(args, "theme", None))
    bus = InProcessBus()
    record = getattr(args, "record", None)
    recorder = Recorder(record) if record else None
    try:
        session = Session(config, bus, recorder=recorder)
        app = build_app(bus, session.id, engine=session.run(), theme=theme, token=config.reviewer_secret)
        _freeze_heap()
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


def demo(args: argparse.Namespace) -> int:
    """The live TUI on the built-in scenario with scripted agents, offline, no flags needed."""
    if getattr(args, "web", False):
        return web(args)
    config = SessionConfig(seed=getattr(args, "seed", 1), pace=DEMO_PACE)
    return _live(config, args)


def run_live(args: argparse.Namespace) -> int:
    """``scopewatch run`` without ``--headless``: the same app on any scenario, agents and norms."""
    if getattr(args, "bus", None):
        raise LaunchError(
            "--bus: the live TUI runs its session in-process; serve it with 'scopewatch serve --bus URL' "
            "and attach with 'scopewatch watch --bus URL'"
        )
    scripted = (args.requester or args.agents) == "scripted" and (args.owner or args.agents) == "scripted"
    config = SessionConfig.from_args(args, pace=DEMO_PACE if scripted else 0.0)
    return _live(config, args)


def replay(args: argparse.Namespace) -> int:
    """Open the app on a recording, with a timeline (play, pause, step, seek, speed)."""
    from tui.app import build_app

    theme = resolve(getattr(args, "theme", None))
    if not args.speed or args.speed <= 0:
        raise LaunchError(f"--speed {args.speed}: must be greater than 0")
    events = load_recording(args.file)
    if not events:
        raise RecordingError(f"{args.file}: the recording holds no events")
    app = build_app(None, events[0].session, events=events, theme=theme, autoplay=True, speed=args.speed)
    _freeze_heap()
    app.run()
    return app.return_code or 0


def web(args: argparse.Namespace) -> int:
    """Serve the demo to browsers with textual-serve (each browser tab gets its own session)."""
    from textual_serve.server import Server

    root = Path(__file__).resolve().parent.parent
    command = f"cd {shlex.quote(str(root))} && {shlex.quote(sys.executable)} -m tui.cli demo --seed {int(args.seed)}"
    host = getattr(args, "host", "localhost")
    port = getattr(args, "port", 8000)
    print(f"scopewatch: serving the demo on http://{host}:{port} (ctrl+c to stop)", file=sys.stderr)
    Server(command, host=host, port=port, title="scopewatch demo").serve()
    return 0
