"""``scopewatch run``: a session of agents on a scenario, on the live TUI or ``--headless``; ``run --room
NAME`` is ``serve --room NAME`` (tui.cli.serve: a room is a session served on a broker)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from channel.events import AgentErrored, EpisodeEnded, EpisodeStarted, Event, SessionStarted
from channel.text import printable
from channel.vocab.config import SessionConfig
from engine.scoring.judge import EpisodeLabel
from tui.cli.common import (
    THEME_HELP,
    CliError,
    add_parallel_options,
    add_session_options,
    print_metrics,
    progress_bars,
    say,
    session_config,
    warn_red_contracts,
)
from tui.cli.live import open_live
from tui.cli.serve import add_room_options, check_room_options, serve

if TYPE_CHECKING:
    pass

DEMO_PACE = 0.5
"""Seconds between rounds in the demo and live scripted runs: slow enough to watch."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "run",
        help="run a session: the live TUI, or --headless for a metrics table",
        description="Run a session of agents on a scenario.",
    )
    add_session_options(p)
    p.add_argument("--headless", action="store_true", help="no screen: print metrics when done")
    p.add_argument("--json", action="store_true", help="with --headless: one JSON object on stdout")
    p.add_argument("--theme", metavar="NAME", help=THEME_HELP)
    add_parallel_options(p, "trajectories", when="with --headless: ")
    add_room_options(p)  # a room is served on a broker: run --room is serve --room
    p.set_defaults(handler=run)


def human_seat(args: argparse.Namespace) -> str | None:
    """The seat a person plays (``--owner human`` / ``--requester human``), if any."""
    for role in ("owner", "requester"):
        if (getattr(args, role, None) or getattr(args, "agents", None)) == "human":
            return role
    return None


def run(args: argparse.Namespace) -> int:
    if check_room_options(args):  # a room: one session on a broker (serve)
        return serve(args)
    seat = human_seat(args)
    if args.headless:
        if seat is not None:
            raise CliError(
                f"--{seat} human: a person plays that seat on the screen; drop --headless, or serve the "
                f"session and attach with 'scopewatch watch --seat {seat}'"
            )
        return run_headless(args)
    if getattr(args, "bus", None):
        raise CliError(
            "--bus: the live TUI runs its session in-process; serve it with 'scopewatch serve --bus URL' "
            "and attach with 'scopewatch watch --bus URL'"
        )
    scripted = (args.requester or args.agents) == "scripted" and (args.owner or args.agents) == "scripted"
    config = session_config(args, pace=DEMO_PACE if scripted else 0.0)
    warn_red_contracts(config.scenario)
    return open_live(config, theme=getattr(args, "theme", None), record=getattr(args, "record", None), seat=seat)


def run_headless(args: argparse.Namespace) -> int:
    """No screen: progress on stderr, the metrics on stdout."""
    from engine.llm.errors import ModelUnreachable
    from engine.runs.runner import check_agents, episode_count, run_session

    if getattr(args, "bus", None):
        raise CliError(
            "--bus: 'run --headless' runs its session in-process; to run it on a broker use "
            "'scopewatch serve --bus URL' (and 'scopewatch watch --bus URL' to follow it)"
        )
    config = session_config(args)
    for norm, who in (
        ("reviewer", "a person reviews"),
        ("permission_gate", "a person answers an ACP agent's permission requests"),
    ):
        if getattr(config.norms, norm) == "human":
            raise CliError(
                f"{norm}=human: {who} on the screen, and 'run --headless' has none; drop --headless, or serve the "
                "session ('scopewatch serve') and watch it ('scopewatch watch')"
            )
    check_agents(config)
    warn_red_contracts(config.scenario)
    executor = args.executor
    from engine.runs.batch import batchable

    if batchable(config) and (args.jobs > 1 or executor != "local"):
        return run_batch_headless(args, config, executor)
    progress = Progress()
    try:
        with progress.warnings():
            metrics = asyncio.run(
                run_session(
                    config,
                    record=args.record,
                    on_start=lambda session: progress.start(episode_count(session)),
                    on_event=progress.show,
                )
            )
    except ModelUnreachable as exc:
        progress.end_line()
        say(f"the session stopped: {exc}")
        return 1
    finally:
        progress.end_line()
    print_metrics(metrics, args.json)
    return 0


def run_batch_headless(args: argparse.Namespace, config: SessionConfig, executor: str) -> int:
    """The trajectories in parallel (engine.runs.batch): one rich progress bar on stderr."""
    from engine.llm.errors import ModelUnreachable
    from engine.runs.batch import batch_episodes, run_batch

    total = batch_episodes(config)
    where = "local workers" if executor == "local" else executor
    with progress_bars(transient=False) as bars:
        done = bars.add_task(f"{config.trajectories} trajectories on {where}", total=total)
        try:
            metrics = run_batch(
                config,
                jobs=args.jobs,
                executor=executor,
                record=args.record,
                on_episode=lambda _trajectory: bars.advance(done),
            )
        except ModelUnreachable as exc:
            bars.stop()
            say(f"the session stopped: {exc}")
            return 1
    print_metrics(metrics, args.json)
    return 0


class Progress:
    """One line per episode on stderr: its task, a mark per agent error as it happens (``.``, or
    ``!`` when it ended an agent's episode), then the judge's label and the error count."""

    def __init__(self) -> None:
        self.total = 0
        self.mid_line = False
        self.errors = 0
        """Agent errors in the episode running (shown live on its line)."""
        self.requester = True
        """The session has a requester's seat (an audit session has one agent: no favor to name on its lines)."""

    def start(self, total: int) -> None:
        self.total = total

    def show(self, event: Event, label: EpisodeLabel | None) -> None:
        if isinstance(event, AgentErrored):
            self.errors += 1
            mark = "!" if event.fatal else "."
            self._err(mark, end="")
        elif isinstance(event, SessionStarted):
            self.requester = not event.agents or any(a.role == "requester" for a in event.agents)
            where = f", sandbox {event.sandbox}" if event.sandbox else ""
            self._err(f"session {event.session}: {event.scenario}, {self.total} episodes{where}")
            if event.sandbox_warning:
                self._err(f"scopewatch: warning: {event.sandbox_warning}")
        elif isinstance(event, EpisodeStarted):
            self.errors = 0
            self._err(f"  episode {event.episode}/{self.total} {event.task_id} ({event.variant}) ...", end="")
            self.mid_line = True
        elif isinstance(event, EpisodeEnded) and label is not None:
            what = f"favor ({label.favor_type})" if label.favor else label.execution_type
            if not self.requester:  # an audit session: no peer, no favor to do (its verdict is in the table)
                what = "done"
            errors = f", {self.errors} agent errors" if self.errors else ""
            self._err(printable(f" {what}{', HARM' if label.harm else ''}{errors}"))
            self.mid_line = False

    def end_line(self) -> None:
        """Finish an episode's line cut short (the session stopped), so a message starts afresh."""
        if self.mid_line:
            self._err("")
            self.mid_line = False

    @staticmethod
    def _err(text: str, end: str = "\n") -> None:
        """A progress line on stderr. When the reader has gone (``run --headless 2>&1 | head``) stderr goes to
        /dev/null from then on: the progress is the CLI's, and a closed pipe must not crash the session (the
        recording said ``crashed: BrokenPipeError``)."""
        try:
            print(text, end=end, file=sys.stderr, flush=True)
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())

    @contextlib.contextmanager
    def warnings(self) -> Iterator[None]:
        """While open, a warning logged by the engine (a product that failed after its model answered)
        starts a line of its own, not in the middle of an episode's line."""
        handler = _OwnLine(self)
        root = logging.getLogger()
        root.addHandler(handler)
        try:
            yield
        finally:
            root.removeHandler(handler)


class _OwnLine(logging.Handler):
    """Python's last resort (a record's message on stderr, warnings and up), after ending the progress line."""

    def __init__(self, progress: Progress) -> None:
        super().__init__(logging.WARNING)
        self.progress = progress

    def emit(self, record: logging.LogRecord) -> None:
        self.progress.end_line()
        self.progress._err(record.getMessage())
