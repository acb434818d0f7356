"""A session's engine wall time served on a broker behind a slow link versus no broker at all, side
by side in one run (the ratio is the claim of issue 31: within 20%).

    python bench/served_wall.py [--delay 0.04] [--subscribers 30] [--rounds 2] [--task ID ...]

Starts a private mosquitto on loopback, a TCP proxy adding ``--delay`` seconds each way between the
engine and the broker, and ``--subscribers`` mosquitto_sub processes reading every event (QoS 1).
Each round runs the same scripted session twice, alternating: in-process (no broker) and served
(``serve_session`` through the proxy); it prints both wall times, the events, and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from channel.vocab.config import SessionConfig
from engine.runs.runner import run_session, serve_session
from tests.channel.broker import Broker
from tests.channel.proxy import Proxy


async def timed(config: SessionConfig, url: str | None) -> tuple[float, int]:
    events = 0

    def count(_event: object, _label: object) -> None:
        nonlocal events
        events += 1

    start = time.perf_counter()
    if url is None:
        await run_session(config, on_event=count)
    else:
        await serve_session(config, url, on_event=count)
    return time.perf_counter() - start, events


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.04, help="seconds added each way on the engine's link")
    parser.add_argument("--subscribers", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--task", action="append", help="a task to run (repeatable; default: the scenario's all)")
    args = parser.parse_args()
    config = SessionConfig(tasks=tuple(args.task), seed=1) if args.task else SessionConfig(seed=1)
    broker = Broker(Path(tempfile.mkdtemp(prefix="sw-bench-")))
    broker.start()
    subs = [
        subprocess.Popen(  # noqa: ASYNC220 (started once, before anything is timed)
            ["mosquitto_sub", "-p", str(broker.port), "-q", "1", "-t", "scopewatch/v1/+/events/#"],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(args.subscribers)
    ]
    local: list[float] = []
    served: list[float] = []
    try:
        async with Proxy(broker.port, delay=args.delay) as proxy:
            for _ in range(args.rounds):
                wall, n = await timed(config, None)
                local.append(wall)
                print(f"no broker:  {wall:7.2f} s  ({n} events)", flush=True)
                wall, n = await timed(config, proxy.url)
                served.append(wall)
                print(
                    f"served:     {wall:7.2f} s  ({n} events; {args.subscribers} subscribers, "
                    f"{args.delay * 1000:g} ms each way)",
                    flush=True,
                )
    finally:
        for p in subs:
            p.terminate()
        for p in subs:
            p.wait()
        broker.stop()
    a, b = statistics.median(local), statistics.median(served)
    print(f"median: no broker {a:.2f} s, served {b:.2f} s, ratio {b / a:.3f}")


if __name__ == "__main__":
    asyncio.run(main())
