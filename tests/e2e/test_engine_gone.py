"""Presence viewers honour (issue 31): an engine killed with SIGKILL leaves its Last Will, and
``review`` says "engine gone" within 10 s (and exits 1), ``watch --headless`` says it on stderr and
exits 1 (report F21; it used to wait forever); ``watch``'s status line shows it too. The
review checks the engine's signatures with the key from ``serve``'s join line (the Last Will is signed)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

from channel.events import PresenceChanged, ReviewRequested, SessionEnded
from channel.recorder import read_recording
from tests.channel.broker import Broker
from tests.e2e.support import ROOT, cli, until
from tui.widgets.status import StatusBar


async def test_review_says_engine_gone_soon_after_the_engine_is_killed(mqtt_broker: Broker, tmp_path: Path) -> None:
    record = tmp_path / "served.jsonl"
    serve = await asyncio.create_subprocess_exec(
        *cli("serve", "--bus", mqtt_broker.url, "--record", str(record), "--norm", "reviewer=human"),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    review = headless = None
    try:
        assert serve.stdout is not None and serve.stderr is not None
        session = (await asyncio.wait_for(serve.stdout.readline(), 90)).decode().strip()
        join = ""
        while "--key" not in join:  # the join line carries the session's signing key
            join = (await asyncio.wait_for(serve.stderr.readline(), 90)).decode()
        key = join.split("--key ")[1].split(")")[0]
        await until(
            lambda: record.exists() and any(isinstance(e, ReviewRequested) for e in read_recording(record)),
            "the session waiting on a review",
        )
        review = await asyncio.create_subprocess_exec(
            *cli("review", "--bus", mqtt_broker.url, "--session", session, "--key", key),
            cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        headless = await asyncio.create_subprocess_exec(
            *cli("watch", "--bus", mqtt_broker.url, "--session", session, "--key", key, "--headless"),
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert review.stdout is not None and headless.stdout is not None and headless.stderr is not None
        async with asyncio.timeout(90):
            while not (await review.stdout.readline()).startswith(b"reviewing"):
                pass
            await headless.stdout.readline()  # it follows the session
        serve.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        lines: list[bytes] = []
        async with asyncio.timeout(10):
            while not (lines and lines[-1].startswith(b"engine gone")):
                lines.append(await review.stdout.readline())
        assert time.monotonic() - killed < 10
        assert await asyncio.wait_for(review.wait(), 10) == 1
        assert await asyncio.wait_for(headless.wait(), 10) == 1
        said = (await headless.stderr.read()).decode()
        assert said == "scopewatch: engine gone: it stopped without ending the session (killed or cut off)\n"
    finally:
        for proc in (serve, review, headless):
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()


def test_the_status_line_says_engine_gone_unless_the_session_ended() -> None:
    left = PresenceChanged(session="s", participant="engine", role="engine", status="left")
    bar = StatusBar("s")
    bar.apply([left])
    assert bar.state == "engine gone"
    bar.apply([left.model_copy(update={"status": "online"})])
    assert bar.state == "running"
    ended = StatusBar("s")
    ended.apply([SessionEnded(session="s", seq=9, reason="completed"), left])
    assert ended.state == "ended"
