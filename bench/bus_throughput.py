"""In-process bus throughput with 3 subscribers, against a bare ``asyncio.Queue`` fan-out baseline.

Both run in the same process and the same run, alternating rounds so machine load hits both alike.
The bus does more per event than the baseline (topic matching against each subscriber's pattern,
one ordered publish at a time, bounded queues with back-pressure), so the ratio says what that costs.

    python bench/bus_throughput.py [--events 20000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from channel.events import MessagePosted
from channel.memory import InProcessBus
from channel.vocab.topics import ALL, EVENTS, event_topic

SUBSCRIBERS = 3


def make_events(n: int) -> list[MessagePosted]:
    return [MessagePosted(session="bench", seq=i + 1, actor="owner", text=f"message {i}") for i in range(n)]


async def bus_round(events: list[MessagePosted]) -> float:
    bus = InProcessBus()
    patterns = [ALL, EVENTS, event_topic("MessagePosted") + "/+"]
    subs = [await bus.subscribe(p, maxsize=1000) for p in patterns[:SUBSCRIBERS]]

    async def drain(sub: object) -> int:
        count = 0
        async for _ in sub:  # type: ignore[attr-defined]
            count += 1
        return count

    start = time.perf_counter()
    readers = [asyncio.create_task(drain(s)) for s in subs]
    for event in events:
        await bus.publish(event)
    await bus.close()
    counts = await asyncio.gather(*readers)
    elapsed = time.perf_counter() - start
    assert counts == [len(events)] * SUBSCRIBERS, counts
    return len(events) / elapsed


async def queue_round(events: list[MessagePosted]) -> float:
    queues: list[asyncio.Queue[object]] = [asyncio.Queue(1000) for _ in range(SUBSCRIBERS)]
    end = object()

    async def drain(q: asyncio.Queue[object]) -> int:
        count = 0
        while (await q.get()) is not end:
            count += 1
        return count

    start = time.perf_counter()
    readers = [asyncio.create_task(drain(q)) for q in queues]
    for event in events:
        for q in queues:
            await q.put(event)
    for q in queues:
        await q.put(end)
    counts = await asyncio.gather(*readers)
    elapsed = time.perf_counter() - start
    assert counts == [len(events)] * SUBSCRIBERS
    return len(events) / elapsed


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    events = make_events(args.events)
    bus_rates, queue_rates = [], []
    for _ in range(args.rounds):
        bus_rates.append(await bus_round(events))
        queue_rates.append(await queue_round(events))
    bus, base = statistics.median(bus_rates), statistics.median(queue_rates)
    print(f"{args.events} events x {SUBSCRIBERS} subscribers, median of {args.rounds} rounds")
    print(f"  InProcessBus          {bus:>10,.0f} events/s")
    print(f"  asyncio.Queue fan-out {base:>10,.0f} events/s  (baseline)")
    print(f"  ratio bus/baseline    {bus / base:>10.2f}")


if __name__ == "__main__":
    asyncio.run(main())
