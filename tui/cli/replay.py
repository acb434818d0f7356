"""``scopewatch replay FILE``: the TUI on a recording, with a timeline."""

from __future__ import annotations

import argparse
from typing import Any

from tui.cli.common import THEME_HELP, freeze_heap, speed


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="open the TUI on a recording, with a timeline",
        description="Replay a recording in the TUI: play, pause, step, seek, speed.",
    )
    p.add_argument("file", metavar="FILE", help="a recording (JSONL) made with --record")
    p.add_argument("--speed", type=speed, default=1.0, help="playback speed factor, greater than 0")
    p.add_argument("--theme", metavar="NAME", help=THEME_HELP)
    p.set_defaults(handler=replay)


def replay(args: argparse.Namespace) -> int:
    """Open the app on a recording (play, pause, step, seek, speed)."""
    from channel.recorder import RecordingError, load_recording
    from themes import resolve
    from tui.app import build_app

    theme = resolve(getattr(args, "theme", None))
    events = load_recording(args.file)
    if not events:
        raise RecordingError(f"{args.file}: the recording holds no events")
    app = build_app(None, events[0].session, events=events, theme=theme, autoplay=True, speed=args.speed)
    freeze_heap()
    app.run()
    return app.return_code or 0
