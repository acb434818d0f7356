"""A broker outage is not the engine's death (report F10, F9, F17, F21): ``review`` on a session that
has ended says so in one line and exits; a broker restarted under a review console says "broker
connection lost; reconnecting", never "engine gone", and the console goes on; ``watch --headless
--recording FILE`` stays headless and takes FILE only when it is a recording of the session asked
for; ``watch`` on a session whose engine died says the engine is gone."""

from __future__ import annotations

import asyncio
import io
import json
import signal
import threading
from collections.abc import Callable
from pathlib import Path

from channel.broker import RECORDING
from channel.codec import encode
from channel.connect import connect_bus, parse_bus_url
from channel.events import Event, ReviewRequested, SessionEnded, SessionStarted
from channel.mqtt import MqttBus
from channel.signing import new_key, public_of
from tests.channel.broker import Broker
from tests.e2e.support import ROOT, cli, new_session, until
from tui.cli.review import ReviewConsole
from tui.remote import attach_app


async def engine(url: str, session: str, events: list[Event]) -> tuple[MqttBus, list[Event]]:
    """A stand-in engine: signs, announces its key and presence (with its Last Will), answers history."""
    bus = connect_bus(url, session, participant="engine", role="engine", key=new_key())
    history = list(events)
    await bus.serve_history(history)
    return bus, history


def request(session: str) -> ReviewRequested:
    return ReviewRequested(
        session=session, seq=2, actor="owner", request_id="r1", to="admin", paths=("a.py",), diff="-a\n+b\n"
    )


async def run_cli(*args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        *cli(*args), cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 90)  # stdin stays open until it exits
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_review_of_an_ended_session_says_so_and_exits(mqtt_broker: Broker) -> None:
    session = new_session()
    started = SessionStarted(session=session, seq=1, scenario="favorbench-mini")
    ended = SessionEnded(session=session, seq=3, reason="completed")
    bus, _ = await engine(mqtt_broker.url, session, [started, request(session), ended])
    recording = b"".join(encode(e) + b"\n" for e in (started, request(session), ended))
    await bus.publish_raw(RECORDING, recording, retain=True)
    await bus.close()  # says "left"
    code, out, err = await run_cli("review", "--bus", mqtt_broker.url, "--session", session)
    assert (code, out, err) == (0, f"session {session} has ended (completed); nothing to review\n", "")


async def test_a_review_console_rides_out_a_broker_restart(make_broker: Callable[[], Broker]) -> None:
    broker = make_broker()
    session = new_session()
    bus, history = await engine(
        broker.url, session, [SessionStarted(session=session, seq=1, scenario="m"), request(session)]
    )
    out = io.StringIO()
    viewer = connect_bus(broker.url, session, participant="rev", role="reviewer", key=public_of(bus.key))
    console = ReviewConsole(viewer, sender="rev", out=out)
    stop_input = threading.Event()

    def read_line() -> str:
        stop_input.wait()
        return ""

    running = asyncio.create_task(console.run(read_line))
    try:
        await until(lambda: "reviewing" in out.getvalue(), "the console following the session")
        broker.stop(signal.SIGTERM)  # a restart: mosquitto sends every client's Last Will as it goes
        await until(lambda: "broker connection lost; reconnecting" in out.getvalue(), "the outage said")
        await asyncio.sleep(1)
        broker.start()
        await until(lambda: "broker connection back" in out.getvalue(), "the link back")
        await asyncio.sleep(9)  # past every grace: a will from the restart must not count now
        assert "engine gone" not in out.getvalue() and not running.done()
        ended = SessionEnded(session=session, seq=3, reason="completed")
        history.append(ended)
        await bus.publish(ended)
        await asyncio.wait_for(running, 60)
        assert not console.gone and "session ended (completed)" in out.getvalue()
    finally:
        stop_input.set()
        running.cancel()
        await viewer.close()
        await bus.close()


async def test_watch_headless_recording_is_checked_and_stays_headless(mqtt_broker: Broker, tmp_path: Path) -> None:
    mine, other = new_session(), new_session()
    file = tmp_path / "r.jsonl"
    file.write_bytes(
        b"".join(encode(e) + b"\n" for e in (SessionStarted(session=mine, seq=1, scenario="m"), request(mine)))
    )
    bus = ("--bus", mqtt_broker.url, "--headless", "--recording", str(file))
    (code, out, err), (code2, out2, err2) = await asyncio.gather(
        run_cli("watch", "--session", other, *bus), run_cli("watch", "--session", mine, *bus)
    )
    assert code == 2 and out == ""
    assert err.strip() == (
        f"scopewatch: --session {other}: no session {other} on {parse_bus_url(mqtt_broker.url).display}, "
        f"and --recording {file} is of session {mine}"
    )
    assert code2 == 0, err2
    assert [json.loads(line)["seq"] for line in out2.splitlines()] == [1, 2]  # JSON lines, no screen


async def test_watch_of_a_session_whose_engine_died_says_the_engine_is_gone(mqtt_broker: Broker) -> None:
    session = new_session()
    bus, _ = await engine(mqtt_broker.url, session, [SessionStarted(session=session, seq=1, scenario="m")])
    await bus.close()  # "left", and no recording on the broker (as its Last Will would leave it)
    code, out, err = await run_cli("watch", "--bus", mqtt_broker.url, "--session", session, "--headless")
    assert code == 2 and out == ""
    assert f"--session {session}: its engine is gone" in err and "has ended" not in err


async def test_watch_shows_a_broker_outage_as_such_not_as_the_engine_gone(make_broker: Callable[[], Broker]) -> None:
    broker = make_broker()
    session = new_session()
    bus, _ = await engine(broker.url, session, [SessionStarted(session=session, seq=1, scenario="m")])
    app = attach_app(parse_bus_url(broker.url), session, key=public_of(bus.key), flash_seconds=0, notify_live=False)
    try:
        async with app.run_test(size=(160, 40)) as pilot:
            await until(lambda: app.status.state == "running", "the session on screen", pause=pilot.pause)
            broker.stop(signal.SIGTERM)  # the engine's Last Will comes as the broker goes
            await until(lambda: app.status.broker_lost, "the outage on the status line", pause=pilot.pause)
            assert "broker connection lost; reconnecting" in str(app.status.render())
            await pilot.pause(1)
            broker.start()
            await until(lambda: not app.status.broker_lost, "the link back", pause=pilot.pause)
            await pilot.pause(9)  # past every grace
            assert app.status.state == "running"
    finally:
        await bus.close()
