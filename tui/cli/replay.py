"""``scopewatch replay FILE``: the TUI on a recording, with a timeline."""

from __future__ import annotations

import argparse
import math
from typing import Any

from tui.cli.common import CliError, freeze_heap


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="open the TUI on a recording, with a timeline",
        description="Replay a recording in the TUI: play, pause, step, seek, speed.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--speed", type=speed, default=1.0, metavar="X", help="playback speed factor, a finite number > 0 (default: 1)"
    )
    p.add_argument("--theme", metavar="NAME", help="theme for the TUI")
    p.set_defaults(handler=replay)


def speed(text: str) -> float:
    """An argparse type: a finite playback speed above 0 (nan, inf and 0 are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number greater than 0, got {text!r}")
    return value


def replay(args: argparse.Namespace) -> int:
    """Open the app on a recording (play, pause, step, seek, speed)."""
    from channel.recorder import RecordingError, load_recording
    from themes import resolve
    from tui.app import build_app

    theme = resolve(getattr(args, "theme", None))
    if not math.isfinite(args.speed) or args.speed <= 0:
        raise CliError(f"--speed {args.speed}: must be a finite number greater than 0")
    events = load_recording(args.file)
    if not events:
        raise RecordingError(f"{args.file}: the recording holds no events")
    app = build_app(None, events[0].session, events=events, theme=theme, autoplay=True, speed=args.speed)
    freeze_heap()
    app.run()
    return app.return_code or 0
