"""With the broker gone for good, a served engine keeps its recording and stops on SIGTERM within
5 s (issue 31): its outbox and its final retained recording wait for the broker only briefly."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable
from pathlib import Path

from channel.events import ReviewRequested, SessionEnded
from channel.recorder import read_recording
from tests.channel.broker import Broker
from tests.e2e.support import ROOT, cli, until


async def test_sigterm_stops_a_served_engine_within_5s_when_the_broker_is_gone(
    make_broker: Callable[[], Broker], tmp_path: Path
) -> None:
    broker = make_broker()
    record = tmp_path / "served.jsonl"
    serve = await asyncio.create_subprocess_exec(
        *cli("serve", "--bus", broker.url, "--record", str(record), "--norm", "reviewer=human"),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:

        def waiting() -> bool:
            return record.exists() and any(isinstance(e, ReviewRequested) for e in read_recording(record))

        await until(lambda: waiting() or serve.returncode is not None, "the session waiting on a review")
        broker.stop(signal.SIGKILL)  # gone for good
        serve.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        code = await asyncio.wait_for(serve.wait(), 60)
        took = time.monotonic() - stopped
    finally:
        if serve.returncode is None:
            serve.kill()
            await serve.wait()
    assert code == 143
    assert took < 5.0, f"serve took {took:.1f}s to stop after SIGTERM with the broker gone"
    recorded = list(read_recording(record))
    assert isinstance(recorded[-1], SessionEnded) and recorded[-1].reason == "cancelled"
