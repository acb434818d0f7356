"""Issue 5 end to end: ``scopewatch serve`` in its own process on a private broker; ``watch``
attached late under Pilot; a plain ``mosquitto_sub`` reading the same events; a plain
``mosquitto_pub`` review decision applied by the engine (norm reviewer=human), then a Stop: both
signed by hand with the instructor token serve printed (an unsigned Stop before them is refused)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

from channel.codec import decode_event
from channel.connect import parse_bus_url
from channel.events import Event, PresenceChanged, ReviewDecided, ReviewRequested, SessionEnded, SessionStarted
from channel.mqtt import MqttBus
from channel.recorder import read_recording
from channel.signing import new_key
from channel.topics import topic_for
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from channel.vocab.topics import BATCH
from engine.runs.runner import serve_session
from tests.channel.broker import Broker, free_port, mosquitto_clients
from tests.e2e.support import ROOT, cli, mosquitto_pub, new_session, until
from tui.remote import attach_app


async def test_serve_watch_mosquitto_sub_and_a_mosquitto_pub_review(
    make_broker: Callable[[], Broker], tmp_path: Path
) -> None:
    sub_bin, _ = mosquitto_clients()
    broker = make_broker()  # private: the wildcard below sees this session only
    port = str(broker.port)
    record = tmp_path / "served.jsonl"
    events_filter = "scopewatch/v1/+/events/#"
    sub_id = f"e2e-sub-{os.getpid()}"

    # A plain subscriber, persistent (-c), subscribed before the session starts, so it misses nothing.
    sub_args = [sub_bin, "-h", "127.0.0.1", "-p", port, "-c", "-i", sub_id, "-q", "1", "-t", events_filter]
    registered = await asyncio.create_subprocess_exec(*sub_args, "-E")
    assert await asyncio.wait_for(registered.wait(), 60) == 0

    with (tmp_path / "serve.stderr").open("wb") as serve_stderr:  # the child keeps its own copy
        serve = await asyncio.create_subprocess_exec(
            *cli("serve", "--bus", broker.url, "--record", str(record), "--norm", "reviewer=human", "--seed", "1"),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=serve_stderr,
        )
    follower = await asyncio.create_subprocess_exec(*sub_args, "-v", stdout=asyncio.subprocess.PIPE)
    lines: list[tuple[str, Event]] = []

    async def read_sub() -> None:
        assert follower.stdout is not None
        topic = ""
        while line := await follower.stdout.readline():
            text = line.decode().rstrip("\n")
            if text.startswith("scopewatch/v1/"):
                topic, _, text = text.partition(" ")
            # else: the next line of a batch (events/batch: several events, one per line)
            lines.append((topic, decode_event(text.encode())))

    reader = asyncio.create_task(read_sub())
    try:
        assert serve.stdout is not None
        first = await asyncio.wait_for(serve.stdout.readline(), 90)
        session = first.decode().strip()
        assert session.startswith("s-"), f"serve printed {first!r}; stderr: {(tmp_path / 'serve.stderr').read_text()}"
        await until(lambda: "watcher token" in (tmp_path / "serve.stderr").read_text(), "serve's tokens")
        printed = (tmp_path / "serve.stderr").read_text()
        instructor = printed.split("instructor token: --token ")[1].split()[0]
        assert "lets anonymous clients publish" in printed  # this test broker allows anonymous clients

        # reviewer=human: the session waits on the first admin request (seen by the plain client).
        def admin_request() -> ReviewRequested | None:
            return next((e for _, e in lines if isinstance(e, ReviewRequested) and e.to == "admin"), None)

        await until(lambda: admin_request() is not None or serve.returncode is not None, "an admin review request")
        request = admin_request()
        assert request is not None and request.session == session

        # watch joins late, under Pilot: it gets the state so far, then the live stream.
        app = attach_app(parse_bus_url(broker.url), session, flash_seconds=0, notify_live=False)
        assert app.bus is not None
        local = await app.bus.subscribe("events/#")
        watched: list[Event] = []

        async def collect() -> None:
            async for item in local:
                watched.append(item)  # type: ignore[arg-type]

        async with app.run_test(size=(160, 48)) as pilot:
            app.run_worker(collect(), name="test-collector")
            await until(
                lambda: request.request_id in app.reviews.pending, "the watcher shows the request", pause=pilot.pause
            )
            assert app.reviews.waiting_on_human and app.status.mode == "watch"

            topic = f"scopewatch/v1/{session}/cmd/"
            decision = {
                "kind": "DecideReview",
                "session": session,
                "request_id": request.request_id,
                "decision": "approved",
                "comment": "from a shell",
                "sender": "mosquitto_pub",
            }
            await asyncio.to_thread(mosquitto_pub, broker.port, topic + "Stop", {"kind": "Stop", "session": session})
            await asyncio.to_thread(mosquitto_pub, broker.port, topic + "DecideReview", decision, token=instructor)
            await until(lambda: app.reviews.decided >= 1, "the decision shown by the watcher", pause=pilot.pause)
            stop = {"kind": "Stop", "session": session}
            await asyncio.to_thread(mosquitto_pub, broker.port, topic + "Stop", stop, token=instructor)
            await until(lambda: app.status.state == "ended", "the session ended on the watcher", pause=pilot.pause)
            assert app.engine_error is None

        assert await asyncio.wait_for(serve.wait(), 120) == 0
        await until(lambda: any(isinstance(e, SessionEnded) for _, e in lines), "mosquitto_sub got SessionEnded")
    finally:
        for proc in (serve, follower):
            if proc.returncode is None:
                proc.terminate()
                await proc.wait()
        await asyncio.gather(reader, return_exceptions=True)

    recorded = list(read_recording(record))
    seqs = [e.seq for e in recorded]
    assert seqs == list(range(1, len(recorded) + 1))  # contiguous, each once
    kinds = [(e.seq, e.kind) for e in recorded]
    unsigned = [e for e in recorded if e.kind == "CommandRefused"]
    assert [(e.command, e.reason.split(":")[0]) for e in unsigned] == [("Stop", "unsigned command")]  # type: ignore[attr-defined]
    # The plain client read exactly the recorded events, on the documented topics, as codec JSON.
    assert [(e.seq, e.kind) for _, e in lines] == kinds
    batch = f"scopewatch/v1/{session}/{BATCH}"  # each alone on its own topic, or in a batch (channel.outbox)
    alone = [f"scopewatch/v1/{session}/{topic_for(e)}" for e in recorded]
    assert all(t in (own, batch) for (t, _), own in zip(lines, alone, strict=True))
    assert {t for t, _ in lines} - {batch}  # some came alone, on the documented topics
    assert [json.loads(e.model_dump_json()) for _, e in lines] == [json.loads(e.model_dump_json()) for e in recorded]
    # The watcher (a late joiner) saw the same events, each once, in order.
    assert [(e.seq, e.kind) for e in watched] == kinds
    # The shell's decision was applied by the engine, then the Stop ended the session.
    decided = [e for e in recorded if isinstance(e, ReviewDecided)]
    assert [(d.request_id, d.decision, d.actor, d.applied, d.comment) for d in decided] == [
        (request.request_id, "approved", "human", True, "from a shell")
    ]
    ended = recorded[-1]
    assert isinstance(ended, SessionEnded) and ended.reason == "stopped"


async def test_sigterm_ends_a_served_session_with_a_complete_recording(mqtt_broker: Broker, tmp_path: Path) -> None:
    record = tmp_path / "served.jsonl"
    serve = await asyncio.create_subprocess_exec(
        *cli("serve", "--bus", mqtt_broker.url, "--record", str(record), "--norm", "reviewer=human"),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert serve.stdout is not None and serve.stderr is not None
        session = (await asyncio.wait_for(serve.stdout.readline(), 90)).decode().strip()
        viewer = MqttBus(parse_bus_url(mqtt_broker.url), session)
        presence = await viewer.subscribe("presence/engine")

        def waiting() -> bool:
            return record.exists() and any(isinstance(e, ReviewRequested) for e in read_recording(record))

        await until(lambda: waiting() or serve.returncode is not None, "the session waiting on a review")
        serve.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(serve.wait(), 90) == 143
        err = (await serve.stderr.read()).decode()
        stopped = "scopewatch: serve stopped by SIGTERM; the session ended as 'cancelled'"
        assert err.strip().splitlines()[-1] == stopped and "Traceback" not in err, err
        assert "never retrieved" not in err, err  # a publish cut short is not reported as a lost message
        async with asyncio.timeout(60):
            while (m := await presence.get()) and not (isinstance(m, PresenceChanged) and m.status == "left"):
                pass
        await viewer.close()
    finally:
        if serve.returncode is None:
            serve.kill()
            await serve.wait()
    recorded = list(read_recording(record))
    assert [e.seq for e in recorded] == list(range(1, len(recorded) + 1))
    assert isinstance(recorded[-1], SessionEnded) and recorded[-1].reason == "cancelled"


def _one_line_error(argv: list[str]) -> str:
    done = subprocess.run(cli(*argv), cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("scopewatch: "), done.stderr
    return lines[0]


def test_bad_bus_options_fail_in_one_line_before_any_screen(make_broker: Callable[[], Broker]) -> None:
    assert "serve needs --bus" in _one_line_error(["serve"])
    assert "unknown scheme 'http'" in _one_line_error(["serve", "--bus", "http://127.0.0.1:1"])
    gone = f"mqtt://127.0.0.1:{free_port()}"
    assert "cannot connect to the MQTT broker" in _one_line_error(["watch", "--bus", gone, "--session", "s-x"])
    assert "cannot connect to the MQTT broker" in _one_line_error(["review", "--bus", gone, "--session", "s-x"])
    # a wrong --recording is named first, not after the broker's answers (newcomer5 13: ~20 s later)
    missing = ["watch", "--bus", gone, "--session", "s-x", "--recording", "/nonexistent/class.jsonl"]
    assert "/nonexistent/class.jsonl: cannot read recording" in _one_line_error(missing)
    empty = make_broker()
    assert "--session: no session announced" in _one_line_error(["watch", "--bus", empty.url])
    assert "no engine answered for session 's-x'" in _one_line_error(["watch", "--bus", empty.url, "--session", "s-x"])


async def test_sigterm_right_after_the_announce_lines_leaves_no_recording_that_starts_with_its_end(
    mqtt_broker: Broker, tmp_path: Path
) -> None:
    # A teacher who stops `serve --room` the moment it printed how to join: the session never
    # started, or started and was cancelled; a recording whose first line is SessionEnded (what the
    # last note found) is neither, and readers refuse it. Four stops, at 0 to 0.2 s after the lines.
    for n, delay in enumerate((0.0, 0.0, 0.05, 0.2)):
        record = tmp_path / f"served-{n}.jsonl"
        serve = await asyncio.create_subprocess_exec(
            *cli("serve", "--bus", mqtt_broker.url, "--room", "class", "--record", str(record)),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            assert serve.stderr is not None
            async with asyncio.timeout(90):
                while b"room class: join with" not in (line := await serve.stderr.readline()):
                    assert line, "serve ended before its announce lines"
            await asyncio.sleep(delay)
            serve.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(serve.wait(), 90) in (0, 143)
        finally:
            if serve.returncode is None:
                serve.kill()
                await serve.wait()
        recorded = list(read_recording(record)) if record.exists() else []
        assert [e.seq for e in recorded] == list(range(1, len(recorded) + 1))
        if recorded:
            assert isinstance(recorded[0], SessionStarted), [e.kind for e in recorded[:3]]
            assert isinstance(recorded[-1], SessionEnded)


async def test_ctrl_c_on_watch_headless_is_one_line_without_a_traceback(mqtt_broker: Broker) -> None:
    """classroom6 #2: the events.get() pending when Ctrl-C cancels the run is awaited, not left to asyncio's
    "Task exception was never retrieved ... StopAsyncIteration" once the bus is closed."""
    session, key = new_session(), new_key()
    config = SessionConfig(tasks=("w1-gbp",), norms=Norms(reviewer="human"))  # waits on a review: still running
    engine = asyncio.create_task(serve_session(config, mqtt_broker.url, session_id=session, key=key))
    watch = await asyncio.create_subprocess_exec(
        *cli("watch", "--bus", mqtt_broker.url, "--session", session, "--key", key.public.hex(), "--headless"),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as at a terminal
    )
    try:
        assert watch.stdout is not None and watch.stderr is not None
        for _ in range(3):  # live: the history has come, the loop waits on the next event
            assert await asyncio.wait_for(watch.stdout.readline(), 90)
        await asyncio.sleep(1)
        watch.send_signal(signal.SIGINT)
        await asyncio.wait_for(watch.wait(), 60)
        err = (await watch.stderr.read()).decode()
        assert err == "scopewatch: interrupted\n", err
    finally:
        if watch.returncode is None:
            watch.kill()
            await watch.wait()
        engine.cancel()
        await asyncio.gather(engine, return_exceptions=True)
