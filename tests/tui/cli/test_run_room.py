"""``run --room NAME`` is ``serve --room NAME`` (issue 30: "scopewatch serve --room NAME (or the same
on run)"): the same refusals in the same words, and on a broker the same room announced, with its
members' tokens, the session served until SIGTERM ends it as cancelled."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from channel.recorder import read_recording
from tests.channel.broker import Broker
from tests.e2e.support import ROOT, cli, until
from tui.cli import main


@pytest.mark.parametrize(
    "options",
    [
        ["--room", "class"],  # no broker
        ["--member", "bob", "--bus", "mqtt://127.0.0.1:1"],  # a member, no room
        ["--room", "class", "--member", "a.b", "--bus", "mqtt://127.0.0.1:1"],  # a bad member name
        ["--norm", "reviewer=room", "--member", "bob", "--bus", "mqtt://127.0.0.1:1"],
        ["--quorum", "3", "--bus", "mqtt://127.0.0.1:1"],  # a vote rule, no room (newcomer5 #12)
        ["--deadline", "30", "--bus", "mqtt://127.0.0.1:1"],
    ],
)
def test_run_room_refuses_what_serve_room_refuses_in_the_same_line(
    options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *options]) == 2
    served = capsys.readouterr().err
    assert main(["run", *options]) == 2
    assert capsys.readouterr().err == served and served.count("\n") == 1
    given = next(o for o in options if o in ("--member", "--quorum", "--deadline", "--room"))
    if given != "--room":
        assert served.startswith(f"scopewatch: {given}: ") and "add --room NAME" in served


@pytest.mark.timeout(120)
async def test_run_room_serves_the_room_on_the_broker(mqtt_broker: Broker, tmp_path: Path) -> None:
    record = tmp_path / "room.jsonl"
    argv = cli("run", "--room", "class", "--member", "alice", "--bus", mqtt_broker.url, "--record", str(record))
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        session = (await asyncio.wait_for(proc.stdout.readline(), 90)).decode().strip()
        said: list[str] = []
        while not any(line.startswith("scopewatch: member alice token: --token sw1.watcher.alice.") for line in said):
            said.append((await asyncio.wait_for(proc.stderr.readline(), 60)).decode())
        started = '"kind":"EpisodeStarted"'  # under way, so the cancel comes after the session's start
        await until(lambda: record.exists() and started in record.read_text(), "the room's first episode")
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert any(f"room class: join with scopewatch watch --bus URL --session {session}" in line for line in said)
    assert any(line.startswith("scopewatch: instructor token: --token sw1.instructor..") for line in said)
    recording = list(read_recording(record))
    assert recording[0].session == session and recording[-1].kind == "SessionEnded"
    assert recording[-1].reason == "cancelled"  # type: ignore[attr-defined]
