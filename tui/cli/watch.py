"""``scopewatch watch``: the TUI attached to a session served on an MQTT broker; on a session that
has ended, a replay of the recording its engine left on the broker (or of ``--recording FILE``).
``--as NAME`` joins the session's room with a name (docs/classroom.md); ``--headless`` prints every
event as a JSON line instead of opening a screen."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

from channel.broker import BrokerAddress, BusConnectError
from channel.codec import encode
from channel.connect import connect_bus, parse_bus_url
from channel.credentials import Credential, parse_token
from channel.discovery import engine_presence
from channel.events import Event
from channel.signing import VerifyKey, parse_key, session_key
from tui.cli.common import THEME_HELP, CliError, freeze_heap, say
from tui.remote import EngineGone, attach_app, check_engine, ended_session, follow_headless, resolve_session


def register(sub: Any) -> None:
    p = sub.add_parser(
        "watch",
        help="attach the TUI to a session on an MQTT broker (a session that ended is replayed)",
        description="Attach the TUI to a session served on an MQTT broker; replay it if it has ended.",
    )
    p.add_argument("--bus", required=True, metavar="URL", help="the MQTT broker, mqtt://host:port")
    p.add_argument("--session", metavar="ID", help="session id (default: the most recent one announced)")
    p.add_argument(
        "--token",
        metavar="TOKEN",
        help="a token serve printed, to send commands: instructor (everything: pause, step, norms, seats, the vote "
        "rule, overriding a vote), reviewer (decide reviews), watcher (vote in the room, with --as NAME) or a "
        "member's own (vote as that member: sw1.watcher.NAME...)",
    )
    p.add_argument("--secret", metavar="TEXT", help=argparse.SUPPRESS)  # replaced by --token
    p.add_argument(
        "--key",
        metavar="HEX",
        help="the session's public signing key from serve's join line (pinned: a different key announced on the bus "
        "is refused; without it the announced key is trusted on first use)",
    )
    p.add_argument(
        "--seat",
        choices=["owner", "requester"],
        help="play this agent's seat (the session must be served with --owner human / --requester human)",
    )
    p.add_argument(
        "--recording",
        metavar="FILE",
        help="if the session has ended and the broker kept no recording of it, replay this file",
    )
    p.add_argument(
        "--as",
        dest="name",
        metavar="NAME",
        help="join the session's room with this name (shown to everyone; with a token, your votes count)",
    )
    p.add_argument(
        "--headless",
        action="store_true",
        help="no screen: print every event as one JSON line on stdout, once each, in order, until the session ends",
    )
    p.add_argument("--theme", metavar="NAME", help=THEME_HELP)
    p.set_defaults(handler=watch)


def watch(args: argparse.Namespace) -> int:
    """The ``watch`` subcommand: the TUI attached to a served session, or the replay of an ended one."""
    from themes import resolve

    if getattr(args, "secret", None):
        raise CliError("watch --secret was replaced by --token (one of the tokens 'scopewatch serve' printed)")
    credential = parse_token(args.token) if getattr(args, "token", None) else None
    address = parse_bus_url(args.bus)
    theme = resolve(getattr(args, "theme", None))

    pinned = parse_key(args.key) if getattr(args, "key", None) else None
    if getattr(args, "recording", None) is not None:
        _readable(args.recording)  # a wrong path is named at once, not after the broker's answers (newcomer5 13)

    async def prepare() -> tuple[str, VerifyKey | None, list[Event] | None]:
        session = await resolve_session(address, args.session)
        key = await session_key(address, session, pinned)
        presence = await engine_presence(address, session, key)
        unanswered: BusConnectError | None = None
        if presence is None or presence.status == "online":
            try:
                await check_engine(address, session, key)
                if key is None:
                    say(f"session {session} announces no signing key: its events are not checked")
                return session, key, None
            except BusConnectError as exc:  # no engine answers: the session may have ended
                unanswered = exc
        recorded = await ended_session(address, session, key)
        if recorded is None and getattr(args, "recording", None) is None:
            if presence is not None and presence.status == "left":  # and left no recording: it died
                raise CliError(
                    f"--session {session}: its engine is gone and left no recording on the broker (killed or cut "
                    "off before the session ended); replay its recording with 'scopewatch replay FILE' (or pass "
                    "--recording FILE)"
                )
            if unanswered is not None:
                raise unanswered
        if recorded is not None:
            say(f"session {session} has ended; replaying the recording its engine left on the broker")
            return session, key, recorded
        unknown = presence is None and key is None  # nothing of it on the broker
        return session, key, recording_for(session, args, address, unknown)

    session, key, recorded = asyncio.run(prepare())
    if recorded is not None and getattr(args, "headless", False):
        sys.stdout.buffer.write(b"".join(encode(event) + b"\n" for event in recorded))
        return 0
    if recorded is not None:
        return replay_ended(session, recorded, args, theme)
    name = getattr(args, "name", None)
    if name is not None and ("." in name or "/" in name or "+" in name or "#" in name or not name.strip()):
        raise CliError(f"--as {name!r}: a name is not empty and has none of . / + #")
    if credential is not None and credential.participant and name and name != credential.participant:
        raise CliError(f"--as {name}: this --token belongs to {credential.participant}")
    if getattr(args, "headless", False):
        return watch_headless(address, session, name, key, credential)
    app = attach_app(
        address, session, theme=theme, seat=getattr(args, "seat", None), key=key, credential=credential,
        participant=name,
    )  # fmt: skip
    app.run()
    if app.engine_error is not None:
        print(f"scopewatch: watching stopped: {app.engine_error}", file=sys.stderr)
        return 1
    return app.return_code or 0


def _readable(path: str) -> None:
    """``--recording FILE`` names a recording: its first event reads (else RecordingError, one line naming it)."""
    from channel.recorder import stream_recording

    events = stream_recording(path)
    next(events)
    getattr(events, "close", lambda: None)()  # a generator: its file is closed now


def recording_for(session: str, args: argparse.Namespace, address: BrokerAddress, unknown: bool) -> list[Event]:
    """``--recording FILE`` for a session the broker has no recording of: its events, when the file
    is a recording of that session (refused in one line otherwise)."""
    from channel.recorder import load_recording

    events = load_recording(args.recording)
    theirs = events[0].session if events else "(none)"
    if theirs != session:
        where = f"no session {session} on {address.display}" if unknown else f"session {session} has ended"
        raise CliError(f"--session {session}: {where}, and --recording {args.recording} is of session {theirs}")
    if unknown:
        say(f"session {session} is not on {address.display} (ended before a restart?); replaying {args.recording}")
    else:
        say(f"session {session} has ended; replaying {args.recording}")
    return events


def replay_ended(session: str, recorded: list[Event], args: argparse.Namespace, theme: str) -> int:
    """The session has ended: replay its events (the broker's copy, else ``--recording``'s)."""
    from tui.app import build_app

    if getattr(args, "seat", None):
        say(f"--seat {args.seat}: nobody plays a seat in a session that has ended")
    app = build_app(None, recorded[0].session, events=recorded, theme=theme, autoplay=True)
    freeze_heap()
    app.run()
    return app.return_code or 0


def watch_headless(
    address: BrokerAddress, session: str, name: str | None, key: VerifyKey | None, credential: Credential | None
) -> int:
    """``watch --headless``: every event on stdout as its JSON line (the recording's), in order, once."""
    who = name or (credential.participant if credential else "") or f"viewer-{os.getpid()}"
    role = credential.role if credential else "viewer"

    async def deliver(event: Event) -> None:
        sys.stdout.buffer.write(encode(event) + b"\n")
        sys.stdout.flush()

    async def main() -> None:
        remote = connect_bus(address, session, participant=who, role=role, key=key, credential=credential)
        await follow_headless(remote, deliver, note=say)

    try:
        asyncio.run(main())
    except EngineGone as exc:
        say(str(exc))
        return 1
    return 0
