"""``watch`` and ``review`` attached over MQTT: a late joiner gets the state so far without
duplicates, gaps in ``seq`` are filled from the engine's history, the review console decides a
request, and commands without a token whose role may send them are refused."""

from __future__ import annotations

import asyncio
import io
import queue
from pathlib import Path

import pytest

from channel import replay
from channel.broker import BusConnectError
from channel.bus import Dropped, Overflow, Subscription
from channel.codec import Message
from channel.commands import Pause, SetNorm, Stop
from channel.connect import parse_bus_url
from channel.credentials import Credentials
from channel.emitter import Emitter
from channel.events import (
    CommandRefused,
    EpisodeStarted,
    Event,
    NormChanged,
    PresenceChanged,
    ReviewDecided,
    ReviewRequested,
    SessionEnded,
    SessionPaused,
    SessionStarted,
    TeamInfo,
    TurnStarted,
)
from channel.memory import InProcessBus
from channel.mqtt import MqttBus
from channel.recorder import read_recording
from channel.signing import new_key
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.runs.runner import serve_session
from tests.channel.broker import Broker
from tests.e2e.support import ROOT, cli, new_session, until
from tui.cli.review import ReviewConsole
from tui.remote import FETCH_TRIES, SeqFollower, attach_app, bridge

# --- gap repair ------------------------------------------------------------------------------


def _turn(session: str, seq: int) -> TurnStarted:
    return TurnStarted(session=session, seq=seq, ts=float(seq), actor="alice", episode=1, turn=seq, budget_left=0)


async def test_the_follower_delivers_each_event_once_and_fetches_what_a_gap_skipped() -> None:
    history = [_turn("s", i) for i in range(1, 11)]
    fetched: list[int] = []
    delivered: list[int] = []

    async def fetch(after: int) -> list[Event]:
        fetched.append(after)
        return [e for e in history if e.seq > after]

    async def deliver(event: Event) -> None:
        delivered.append(event.seq)

    follower = SeqFollower(fetch, deliver)
    for seq in (1, 2, 2, 1, 3, 6, 5, 7):  # duplicates, then 4..5 missing, then a late 5
        await follower.offer(history[seq - 1])
    presence = PresenceChanged(session="s", participant="engine", role="engine", status="online")
    await follower.offer(presence)  # unsequenced: passes through
    # The repair fetched after=3 and delivered everything the engine had (up to 10) in order.
    assert fetched == [3]
    assert delivered == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0]
    assert (follower.repairs, follower.repaired, follower.unrepaired, follower.last) == (1, 2, 0, 10)


async def test_a_gap_the_engine_cannot_fill_is_counted_and_the_stream_goes_on() -> None:
    delivered: list[int] = []

    async def fetch(after: int) -> list[Event]:
        raise BusConnectError("mqtt://x:1: no engine answered")

    async def deliver(event: Event) -> None:
        delivered.append(event.seq)

    follower = SeqFollower(fetch, deliver)
    for seq in (1, 4, 5):
        await follower.offer(_turn("s", seq))
    assert delivered == [1, 4, 5]
    assert (follower.repairs, follower.repaired, follower.unrepaired) == (1, 0, 2)


async def test_a_gap_whose_first_fetch_fails_is_fetched_again_and_filled() -> None:
    """A fetch that gives up (no answer within its wait: a starved viewer, busy history answers)
    while the engine is there is asked again: the gap's events arrive, in order, none skipped; and
    a late joiner's first fetch the same."""
    history = [_turn("s", i) for i in range(1, 8)]
    fetched: list[int] = []
    delivered: list[int] = []

    async def fetch(after: int) -> list[Event]:
        fetched.append(after)
        if len(fetched) < FETCH_TRIES:
            raise BusConnectError("mqtt://x:1: no engine answered")
        return [e for e in history if e.seq > after]

    async def deliver(event: Event) -> None:
        delivered.append(event.seq)

    follower = SeqFollower(fetch, deliver)
    for seq in (1, 2, 6, 7):
        await follower.offer(history[seq - 1])
    assert fetched == [2] * FETCH_TRIES and delivered == [1, 2, 3, 4, 5, 6, 7]
    assert (follower.repairs, follower.repaired, follower.unrepaired) == (1, 3, 0)
    fetched.clear()
    joiner: list[int] = []

    async def join(event: Event) -> None:
        joiner.append(event.seq)

    late = SeqFollower(fetch, join)  # a late joiner's first fetch fails twice: asked again, the same
    assert await late.catch_up() == 7 and joiner == list(range(1, 8)) and fetched == [0] * FETCH_TRIES


class LossyBus:
    """The engine's bus, except that some events never reach the broker (they are in its history)."""

    def __init__(self, bus: MqttBus, lose: set[int]) -> None:
        self.bus, self.lose = bus, lose

    async def publish(self, message: Message) -> None:
        if getattr(message, "seq", 0) not in self.lose:
            await self.bus.publish(message)

    async def subscribe(
        self, pattern: str = "#", *, maxsize: int = 10_000, overflow: Overflow = "block"
    ) -> Subscription:
        return await self.bus.subscribe(pattern, maxsize=maxsize, overflow=overflow)

    async def close(self) -> None:
        await self.bus.close()


async def test_watch_bridge_fills_a_gap_in_the_live_stream_from_the_history(mqtt_broker: Broker) -> None:
    session = new_session()
    address = parse_bus_url(mqtt_broker.url)
    engine_bus = MqttBus(address, session, participant="engine", role="engine")
    history: list[Event] = []
    emitter = Emitter(LossyBus(engine_bus, lose={6, 7, 12}), session)
    emitter.add_listener(history.append)
    await engine_bus.serve_history(history)

    local = InProcessBus()
    seen = await local.subscribe("events/#")
    followers: list[SeqFollower] = []
    task = asyncio.create_task(bridge(MqttBus(address, session), local, on_follower=followers.append))
    await until(lambda: bool(followers), "the bridge subscribed")
    got: list[int] = []

    async def emit_and_receive(upto: int) -> None:
        for i in range(emitter.last_seq + 1, upto + 1):
            await emitter.emit(TurnStarted(actor="alice", episode=1, turn=i, budget_left=0))
        async with asyncio.timeout(60):
            while len(got) < upto:
                item = await seen.get()
                assert not isinstance(item, Dropped)
                got.append(item.seq)  # type: ignore[union-attr]

    await emit_and_receive(1)  # the bridge caught up (nothing before 1) and follows the live stream
    await emit_and_receive(8)  # 6 and 7 never reach the broker
    await emit_and_receive(15)  # nor does 12
    assert got == list(range(1, 16))
    assert followers[0].repairs == 2 and followers[0].repaired == 3 and followers[0].unrepaired == 0
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await engine_bus.close()


# --- watch: a late joiner under Pilot --------------------------------------------------------


def _status_text(app: object) -> str:
    content = app.status.content  # type: ignore[attr-defined]
    return str(getattr(content, "plain", content))


async def test_a_late_watcher_gets_the_state_so_far_then_the_live_stream_each_event_once(
    mqtt_broker: Broker,
) -> None:
    session = new_session()
    address = parse_bus_url(mqtt_broker.url)
    engine_bus = MqttBus(address, session, participant="engine", role="engine")
    history: list[Event] = []
    emitter = Emitter(engine_bus, session)
    emitter.add_listener(history.append)
    await engine_bus.serve_history(history)

    # The session so far: started, an episode, an admin review waiting, some turns.
    teams = (TeamInfo(name="search", patterns=("search/**",)), TeamInfo(name="ledger", absent=True))
    await emitter.emit(SessionStarted(scenario="favorbench-mini", seed=3, norms={"reviewer": "human"}, teams=teams))
    await emitter.emit(
        EpisodeStarted(trajectory=0, episode=1, task_id="w1-gbp", variant="warmup", reviewer_available=False)
    )
    await emitter.emit(
        ReviewRequested(actor="requester", request_id="r-1", to="admin", paths=("ledger/x.py",), diff="-a\n+b\n")
    )
    for i in range(1, 41):
        await emitter.emit(TurnStarted(actor="requester", episode=1, turn=i, budget_left=0))
    before = emitter.last_seq

    app = attach_app(address, session, participant="viewer-test", flash_seconds=0, notify_live=False)
    assert app.bus is not None
    local_events = await app.bus.subscribe("events/#")
    local_seqs: list[int] = []

    async def collect() -> None:
        async for item in local_events:
            local_seqs.append(getattr(item, "seq", -1))

    async def more() -> None:
        # Live events keep coming while the watcher catches up (the two overlap).
        for i in range(41, 141):
            await emitter.emit(TurnStarted(actor="requester", episode=1, turn=i, budget_left=0))
        await emitter.emit(SessionEnded(reason="completed"))

    async with app.run_test(size=(160, 48)) as pilot:
        app.run_worker(collect(), name="test-collector")
        await until(lambda: app.status.scenario == "favorbench-mini", "the history arrived", pause=pilot.pause)
        producer = asyncio.create_task(more())
        assert "r-1" in app.reviews.pending  # the state so far: the pending request
        await until(lambda: app.status.state == "ended", "the session ended on screen", pause=pilot.pause)
        await producer
        await until(lambda: len(local_seqs) >= emitter.last_seq, "every event forwarded", pause=pilot.pause)
        await pilot.pause()
        assert app.status.mode == "watch" and "watch" in _status_text(app) and "live" not in _status_text(app)
        assert app.engine_error is None

    assert before == 43 and emitter.last_seq == 144
    assert local_seqs == list(range(1, 145))  # everything, in order, once
    assert app.status.turn == 140
    await engine_bus.close()


# --- review: the console, in process and as the CLI ------------------------------------------


def _recorded(path: Path) -> list[Event]:
    return list(read_recording(path)) if path.exists() else []


def _first_admin_request(path: Path) -> ReviewRequested | None:
    return next((e for e in _recorded(path) if isinstance(e, ReviewRequested) and e.to == "admin"), None)


async def test_the_review_console_shows_the_queue_so_far_and_its_decision_is_applied(
    mqtt_broker: Broker, tmp_path: Path
) -> None:
    session = new_session()
    record = tmp_path / "served.jsonl"
    config = SessionConfig(tasks=("w1-gbp",), norms=Norms(reviewer="human"))
    engine = asyncio.create_task(serve_session(config, mqtt_broker.url, record=str(record), session_id=session))
    await until(lambda: _first_admin_request(record) is not None or engine.done(), "an admin review request")
    request = _first_admin_request(record)
    assert request is not None

    lines: queue.Queue[str] = queue.Queue()
    out = io.StringIO()
    bus = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="reviewer-test", role="reviewer")
    console = ReviewConsole(bus, out=out)
    running = asyncio.create_task(console.run(lines.get))
    await until(lambda: request.request_id in console.pending, "the console shows the pending request")
    assert f"[{request.request_id}] requester asks to change" in out.getvalue()
    lines.put("l\n")
    lines.put("a no-such-request\n")
    await until(lambda: "refused: DecideReview: no pending review request" in out.getvalue(), "a refusal")
    lines.put(f"a {request.request_id} looks right\n")
    metrics = await asyncio.wait_for(engine, 120)
    await asyncio.wait_for(running, 60)
    lines.put("")
    await bus.close()

    text = out.getvalue()
    assert f"[{request.request_id}] approved by human, applied" in text
    assert "session ended (completed)" in text
    decided = [e for e in _recorded(record) if isinstance(e, ReviewDecided)]
    assert [(d.request_id, d.actor, d.applied, d.comment) for d in decided] == [
        (request.request_id, "human", True, "looks right")
    ]
    assert metrics.warmup_episodes == 1  # serve scored the one (warm-up) episode it ran


async def _read_until(stream: asyncio.StreamReader, needle: str, seen: list[str]) -> None:
    async with asyncio.timeout(90):
        while not any(needle in line for line in seen):
            line = await stream.readline()
            assert line, f"the console ended before printing {needle!r}; it printed:\n{''.join(seen)}"
            seen.append(line.decode())


async def test_commands_without_a_commanding_token_are_refused_and_the_review_cli_answers_with_one(
    mqtt_broker: Broker, tmp_path: Path
) -> None:
    session = new_session()
    record = tmp_path / "served.jsonl"
    config = SessionConfig(tasks=("w1-gbp",), norms=Norms(reviewer="human"))
    creds = Credentials()
    engine = asyncio.create_task(
        serve_session(config, mqtt_broker.url, record=str(record), session_id=session, credentials=creds)
    )
    await until(lambda: _first_admin_request(record) is not None or engine.done(), "an admin review request")
    request = _first_admin_request(record)
    assert request is not None

    # Through MQTT: a norm toggle with no token, and one with a watcher's token, are refused.
    viewer = MqttBus(parse_bus_url(mqtt_broker.url), session)
    watcher = MqttBus(parse_bus_url(mqtt_broker.url), session, credential=creds.issue("watcher"))
    refusals = await viewer.subscribe("events/CommandRefused")
    await viewer.publish(SetNorm(session=session, key="admin_only", value=True, sender="mallory"))
    await watcher.publish(SetNorm(session=session, key="admin_only", value=True, sender="eve", token="guess"))
    async with asyncio.timeout(60):
        got = [await refusals.get(), await refusals.get()]
    assert [(r.actor, r.command, r.reason.split(":")[0]) for r in got if isinstance(r, CommandRefused)] == [
        ("mallory", "SetNorm", "unsigned command"),
        ("eve", "SetNorm", "role watcher may not send SetNorm"),
    ]
    await viewer.close()
    await watcher.close()

    # The review CLI without --token: its decision is refused, the request stays pending.
    proc = await asyncio.create_subprocess_exec(
        *cli("review", "--bus", mqtt_broker.url, "--session", session),
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    out: list[str] = []
    await _read_until(proc.stdout, "1 pending", out)
    proc.stdin.write(f"a {request.request_id}\n".encode())
    await proc.stdin.drain()
    await _read_until(proc.stdout, "refused: DecideReview: unsigned command", out)
    proc.stdin.write(b"q\n")
    await proc.stdin.drain()
    assert await asyncio.wait_for(proc.wait(), 60) == 0
    assert not engine.done()  # still waiting for a decision
    refused_console = f"reviewer-{proc.pid}"

    # With the reviewer's token, the same line is applied and the session completes.
    token = creds.issue("reviewer").token
    proc = await asyncio.create_subprocess_exec(
        *cli("review", "--bus", mqtt_broker.url, "--session", session, "--token", token),
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    out = []
    await _read_until(proc.stdout, "1 pending", out)
    proc.stdin.write(f"a {request.request_id} ok\n".encode())
    await proc.stdin.drain()
    await _read_until(proc.stdout, "session ended (completed)", out)
    # The console exits by itself once the session ended, though its stdin is still open.
    assert await asyncio.wait_for(proc.wait(), 60) == 0
    assert any(f"[{request.request_id}] approved by human, applied" in line for line in out)
    await asyncio.wait_for(engine, 120)
    events = _recorded(record)
    assert not any(isinstance(e, NormChanged) for e in events)
    refused = [e for e in events if isinstance(e, CommandRefused)]
    assert [e.actor for e in refused] == ["mallory", "eve", refused_console]
    decided = [e for e in events if isinstance(e, ReviewDecided)]
    assert [(d.actor, d.applied) for d in decided] == [("human", True)]


async def test_a_pause_sent_as_soon_as_the_engine_is_online_is_not_lost(mqtt_broker: Broker, tmp_path: Path) -> None:
    # The engine says it is online (retained presence) only once it listens to its commands: a
    # watcher pressing p at once must pause the session, not lose the command.
    session = new_session()
    record = tmp_path / "served.jsonl"
    watcher = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="quick", role="watcher")
    presence = await watcher.subscribe("presence/#")
    served = serve_session(SessionConfig(), mqtt_broker.url, record=str(record), session_id=session)
    engine = asyncio.create_task(served)
    try:
        async with asyncio.timeout(60):
            async for item in presence:
                if isinstance(item, PresenceChanged) and item.participant == "engine" and item.status == "online":
                    break
        await watcher.publish(Pause(session=session, sender="quick"))
        await until(lambda: any(isinstance(e, SessionPaused) for e in _recorded(record)), "the session paused")
        await watcher.publish(Stop(session=session, sender="quick"))
        await asyncio.wait_for(engine, 120)
    finally:
        engine.cancel()
        await watcher.close()
    kinds = [e.kind for e in _recorded(record)]
    assert kinds[0] == "SessionStarted" and kinds[-1] == "SessionEnded"


async def test_history_fetches_sent_as_soon_as_the_engine_is_online_are_answered(
    mqtt_broker: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The engine subscribes to history requests before it says it is online: a class joining the
    # moment it sees the engine asks at once (before, a request that came while the engine still
    # probed the broker and opened the session was lost, and its joiner waited out its 5 s fetch:
    # bench/room_load.py's first ballot took 5 s for it). One request each, no retry.
    monkeypatch.setattr(replay, "ATTEMPTS", 1)
    session, key, creds = new_session(), new_key(), Credentials()
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), tasks=("w1-gbp",))

    async def join(name: str) -> list[Event]:
        bus = MqttBus(parse_bus_url(mqtt_broker.url), session, participant=name, role="watcher", key=key.public)
        try:
            presence = await bus.subscribe("presence/#")
            async for item in presence:
                if isinstance(item, PresenceChanged) and item.participant == "engine" and item.status == "online":
                    break
            return await bus.fetch_history(wait=5.0)  # raises "no engine answered" if the request was lost
        finally:
            await bus.close()

    joiners = [asyncio.create_task(join(f"m{i}")) for i in range(5)]
    await asyncio.sleep(0.5)  # all five listening for the engine's presence
    engine = asyncio.create_task(serve_session(config, mqtt_broker.url, session_id=session, key=key, credentials=creds))
    try:
        async with asyncio.timeout(60):
            await asyncio.gather(*joiners)
    finally:
        engine.cancel()
        await asyncio.gather(engine, *joiners, return_exceptions=True)
