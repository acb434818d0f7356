"""``scopewatch serve``: run a session headless on an MQTT broker, for viewers and reviewers elsewhere.

Prints the session id (the first line on stdout), and the metrics table on stderr when the session
ends. Every command must be signed with one of the per-role tokens printed on stderr
(channel.credentials: instructor commands everything, reviewer decides reviews and plays seats,
watcher commands nothing); others are answered with ``CommandRefused``. A broker that lets anonymous
clients publish on the command topics is warned about. SIGTERM (like Ctrl-C) ends the session as
"cancelled": the last event, recorded and published, is ``SessionEnded``, and the exit code is 143.
Everything the engine publishes is signed with a fresh per-session Ed25519 key (channel.signing); the
join line on stderr carries its public key (``--key HEX``) for ``watch`` and ``review`` to pin.
``--room NAME`` makes the session a room a class joins (``watch --as``; with ``--norm reviewer=room``
the members' votes decide reviews, under ``--quorum`` and ``--deadline``; ``--member NAME`` prints a
token for one member). ``run --room NAME`` is the same as ``serve --room NAME`` (a room is on a broker).
``--lesson FILE`` serves a lesson (tui.cli.lesson): its prompts, pauses and norm flips are events every
watcher gets; in a room, a lesson may start the room as the reviewer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from channel.connect import parse_bus_url
from channel.credentials import ROLES, Credentials
from channel.signing import SessionKey, new_key
from engine.runs.runner import check_agents, serve_session
from engine.scoring.metrics import Metrics
from engine.scoring.tables import render_table
from engine.session.loop import Session
from tui.cli.common import CliError, add_session_options, positive, seconds, session_config, warn_red_contracts
from tui.cli.lesson import ServedLesson


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run a session headless on an MQTT broker",
        description="Run a session headless, publishing on an MQTT broker; prints the session id.",
    )
    add_session_options(p)
    add_room_options(p)
    p.add_argument(
        "--lesson",
        metavar="FILE|NAME",
        help="serve a lesson (a file, or a shipped lesson's name: scopewatch lesson list): its prompts, pauses and "
        "norm flips reach every watcher; it sets the scenario, seed and tasks; the instructor resumes with p",
    )
    p.add_argument("--secret", metavar="TEXT", help=argparse.SUPPRESS)  # replaced by the printed tokens
    p.set_defaults(handler=serve)


def add_room_options(p: argparse.ArgumentParser) -> None:
    """``--room``, ``--member``, ``--quorum``, ``--deadline`` (``serve``; ``run --room`` is ``serve``)."""
    p.add_argument(
        "--room",
        metavar="NAME",
        help="make the session a room a class joins (watch --as NAME --token ...): presence shown to everyone; "
        "with --norm reviewer=room the members' votes decide admin reviews (docs/classroom.md)",
    )
    p.add_argument(
        "--member",
        action="append",
        default=[],
        metavar="NAME",
        help="with --room: print a watcher token for this member alone (repeatable): their votes carry their name",
    )
    p.add_argument(
        "--quorum", type=positive, metavar="N", help="with --room: votes a review needs at least (default: 1)"
    )
    p.add_argument(
        "--deadline",
        type=seconds,
        metavar="SECONDS",
        help="with --room: how long a vote stays open; then the votes cast decide, or the default (rejected) "
        "(default: 60)",
    )


def check_room_options(args: argparse.Namespace) -> str | None:
    """The room ``--room`` names (None: no room); its other options without it are refused in one line,
    as they would be ignored (a teacher whose ``$ROOM`` was empty would get no room and no votes)."""
    room = getattr(args, "room", None)
    if room is not None and not room.strip():
        raise CliError(f"--room {room!r}: a room needs a name ('' served a session with no room, silently)")
    if not room:
        for option in ("member", "quorum", "deadline"):
            if getattr(args, option, None):
                raise CliError(f"--{option}: {ROOM_OPTION_WORDS[option]} of a room; add --room NAME")
    return room


ROOM_OPTION_WORDS = {"member": "names members", "quorum": "the votes a review needs", "deadline": "the vote's time"}


def announce(
    session: Session, broker: str, key: SessionKey, credentials: Credentials, members: Sequence[str] = ()
) -> None:
    """The session id on stdout (for scripts), how to attach on stderr (for people): the join line,
    with the session's public key (not a secret: it only checks the engine's events; a viewer given it
    pins it), then one token per role (give each only to whoever plays that role: it lets them command);
    in a room, how to join it and one token per named member."""
    print(session.id, flush=True)
    print(
        f"scopewatch: serving session {session.id} on {broker} "
        f"(scopewatch watch --bus URL --session {session.id} --key {key.public.hex()})",
        file=sys.stderr,
        flush=True,
    )
    for role in ROLES:
        print(f"scopewatch: {role} token: --token {credentials.issue(role).token}", file=sys.stderr, flush=True)
    room = session.config.room
    if room:
        print(
            f"scopewatch: room {room}: join with scopewatch watch --bus URL --session {session.id} "
            f"--key {key.public.hex()} "
            "--as NAME --token TOKEN (the watcher token, or a member's; the instructor token commands the room)",
            file=sys.stderr,
            flush=True,
        )
    for name in members:
        token = credentials.issue("watcher", name).token
        print(f"scopewatch: member {name} token: --token {token}", file=sys.stderr, flush=True)


def serve(args: argparse.Namespace) -> int:
    """The ``serve`` subcommand."""
    if not getattr(args, "bus", None):
        raise CliError("serve needs --bus mqtt://host:port (the broker viewers and reviewers connect to)")
    parse_bus_url(args.bus)  # a bad URL fails before anything is built
    if getattr(args, "record", None) and Path(args.record).exists():  # before connecting, as run checks it
        raise CliError(f"--record {args.record}: already exists; record to a new file")
    room = check_room_options(args)
    members = list(dict.fromkeys(getattr(args, "member", []) or []))  # a name given twice: one token
    for name in members:
        if "." in name or not name.strip():
            raise CliError(f"--member {name!r}: a member's name is not empty and has no '.'")
    lesson = ServedLesson(args, room=room is not None) if getattr(args, "lesson", None) else None
    config = session_config(
        args, room=room, vote_quorum=getattr(args, "quorum", None) or 1,
        vote_deadline_s=getattr(args, "deadline", None) or 60.0, **(lesson.overrides() if lesson else {}),
    )  # fmt: skip
    check_agents(config)
    warn_red_contracts(config.scenario)
    if getattr(args, "secret", None):
        raise CliError(
            "serve --secret was replaced by per-role tokens: serve prints them; pass one to watch/review --token"
        )
    record = getattr(args, "record", None)
    key, credentials = new_key(), Credentials()

    async def main() -> Metrics:
        task = asyncio.current_task()
        assert task is not None
        with contextlib.suppress(NotImplementedError):  # no signal handlers on some platforms
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)

        def joined(session: Session, broker: str) -> None:
            announce(session, broker, key, credentials, members)

        return await serve_session(
            config, args.bus, record=record, key=key, credentials=credentials, on_start=joined,
            guide=lesson.guide() if lesson else None, on_event=lesson.on_event if lesson else None,
        )  # fmt: skip

    try:
        metrics = asyncio.run(main())
    except asyncio.CancelledError:
        print("scopewatch: serve stopped by SIGTERM; the session ended as 'cancelled'", file=sys.stderr)
        return 128 + signal.SIGTERM
    finally:
        if lesson is not None and (never := lesson.unfired()) is not None:
            print(f"scopewatch: {never}", file=sys.stderr)
    print(render_table(metrics), file=sys.stderr)
    return 0
