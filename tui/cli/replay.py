"""``scopewatch replay FILE``: the TUI on a recording, with a timeline; ``replay FORK --parent
PARENT``: a fork played beside its parent (the split view, tui/split.py)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from tui.cli.common import THEME_HELP, freeze_heap, say, speed

if TYPE_CHECKING:
    from tui.screens.fork import ForkRequest


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="open the TUI on a recording, with a timeline",
        description="Replay a recording in the TUI: play, pause, step, seek, speed.",
    )
    p.add_argument("file", metavar="FILE", help="a recording (JSONL) made with --record")
    p.add_argument("--speed", type=speed, default=1.0, help="playback speed factor, greater than 0")
    p.add_argument("--theme", metavar="NAME", help=THEME_HELP)
    p.add_argument(
        "--parent",
        metavar="PARENT",
        help="FILE is a fork: play it beside this parent recording from the fork point (the split view)",
    )
    p.set_defaults(handler=replay)


def replay(args: argparse.Namespace) -> int:
    """Open the app on a recording (play, pause, step, seek, speed)."""
    from channel.recording_index import open_recording
    from themes import resolve
    from tui.app import build_app

    theme = resolve(getattr(args, "theme", None))
    if getattr(args, "parent", None):
        return open_split(args.parent, args.file, theme)
    with open_recording(args.file) as events:  # through its index: opens at once however long it is
        app = build_app(None, events[0].session, events=events, theme=theme, autoplay=True, speed=args.speed)
        freeze_heap()
        app.run()
    request = getattr(app.mode, "fork_request", None)
    if request is not None:  # the person pressed f: the fork opens live where the replay stood
        return fork_from_replay(args.file, request, theme)
    return app.return_code or 0


def fork_from_replay(path: str, request: ForkRequest, theme: str) -> int:
    """Fork the replayed recording as asked in the replay (recorded beside it)."""
    from engine.fork.course import changes_text
    from engine.fork.plan import plan_fork
    from tui.cli.fork import fork_recording_path, open_fork

    plan = plan_fork(path, request.at, norms=request.norms, agents=request.agents, headless=request.beside)
    record = fork_recording_path(path, request.at)
    if request.beside:
        from tui.cli.fork import fork_headless

        say(f"fork of {path} after seq {request.at} ({changes_text(plan.norms, plan.agents)}), run headless")
        fork_headless(plan, record, as_json=False)
        return open_split(path, record, theme)
    say(f"fork of {path} after seq {request.at} ({changes_text(plan.norms, plan.agents)}), recorded in {record}")
    return open_fork(plan, theme=theme, record=record)


def open_split(parent: str, fork: str, theme: str) -> int:
    """The split view: ``fork`` played beside ``parent`` from the fork point (tui/split.py), each read
    through its index (channel/recording_index.py): streamed to find the rows, a row's lines read when shown."""
    from channel.recorder import RecordingError
    from channel.recording_files import recording_hashes
    from channel.recording_index import open_recording
    from engine.fork.compare import CompareError
    from tui.split import build_split

    with open_recording(parent) as parent_events, open_recording(fork) as fork_events:
        try:
            app = build_split(
                parent_events,
                fork_events,
                parent_hash=recording_hashes(parent),
                parent_name=parent,
                theme=theme,
                autoplay=True,
            )
        except CompareError as exc:
            raise RecordingError(f"{fork}: {exc}") from None
        freeze_heap()
        app.run()
    return 0
