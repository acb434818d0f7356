"""Events/s through MqttBus versus a bare aiomqtt publish/subscribe loop on the same broker, in the
same run (the ratio is the claim), at QoS 0 and 1; plus end-to-end latency p50/p99 (publish ->
subscriber receives) for both.

    python bench/mqtt_bus.py [--events 3000] [--url mqtt://127.0.0.1:1883]

Without --url it starts a private mosquitto on a free loopback port.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import aiomqtt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from channel.codec import encode
from channel.connect import parse_bus_url
from channel.events import TurnStarted
from channel.mqtt import MqttBus
from channel.vocab.topics import EVENTS, absolute, event_topic


def payloads(session: str, n: int) -> list[TurnStarted]:
    return [
        TurnStarted(session=session, seq=i, actor="alice", episode=1, turn=i, budget_left=0) for i in range(1, n + 1)
    ]


async def bare(host: str, port: int, n: int, qos: int) -> tuple[float, list[float]]:
    """The baseline: one aiomqtt client publishes, another subscribes, no scopewatch code."""
    session = f"bare-{uuid.uuid4().hex[:6]}"
    topic = absolute(session, event_topic("TurnStarted"))
    events = payloads(session, n)
    sent: dict[int, float] = {}
    latencies: list[float] = []
    async with aiomqtt.Client(host, port) as pub, aiomqtt.Client(host, port) as sub:
        await sub.subscribe(topic, qos=qos)

        async def receive() -> None:
            count = 0
            async for _ in sub.messages:
                count += 1
                latencies.append(time.perf_counter() - sent[count])
                if count == n:
                    return

        reader = asyncio.create_task(receive())
        start = time.perf_counter()
        for i, e in enumerate(events, 1):
            data = encode(e)  # the same encoding work as the bus does
            sent[i] = time.perf_counter()
            await pub.publish(topic, data, qos=qos)
        await reader
        elapsed = time.perf_counter() - start
    return n / elapsed, latencies


async def through_bus(url: str, n: int, qos: int) -> tuple[float, list[float]]:
    session = f"bus-{uuid.uuid4().hex[:6]}"
    address = parse_bus_url(url)
    pub, sub = MqttBus(address, session, qos=qos), MqttBus(address, session, qos=qos)
    events = payloads(session, n)
    sent: dict[int, float] = {}
    latencies: list[float] = []
    subscription = await sub.subscribe(EVENTS)
    await pub.start()

    async def receive() -> None:
        for _ in range(n):
            m = await subscription.get()
            seq = m.seq  # type: ignore[union-attr]
            latencies.append(time.perf_counter() - sent[seq])

    reader = asyncio.create_task(receive())
    start = time.perf_counter()
    for e in events:
        sent[e.seq] = time.perf_counter()
        await pub.publish(e)
    await reader
    elapsed = time.perf_counter() - start
    await pub.close()
    await sub.close()
    return n / elapsed, latencies


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] * 1000 if len(values) > 1 else float("nan")


async def main(url: str, n: int, rounds: int) -> None:
    address = parse_bus_url(url)
    print(f"{n} events x {rounds} rounds per case, broker {address.display}")
    print(f"{'case':<22}{'events/s':>10}{'p50 ms':>9}{'p99 ms':>9}")
    for qos in (0, 1):
        results: dict[str, tuple[float, list[float]]] = {}
        for name in ("bare aiomqtt", "MqttBus"):
            rates, lat = [], []
            for _ in range(rounds):  # interleaved with the other case would be fairer; rounds even out noise
                if name == "bare aiomqtt":
                    rate, ls = await bare(address.host, address.port, n, qos)
                else:
                    rate, ls = await through_bus(url, n, qos)
                rates.append(rate)
                lat += ls
            results[name] = (statistics.median(rates), lat)
            print(f"{name + f' QoS {qos}':<22}{results[name][0]:>10.0f}{pct(lat, 50):>9.2f}{pct(lat, 99):>9.2f}")
        ratio = results["MqttBus"][0] / results["bare aiomqtt"][0]
        print(f"{'ratio bus/bare':<22}{ratio:>10.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--url", help="an existing broker (default: start a private mosquitto)")
    opts = parser.parse_args()
    if opts.url:
        asyncio.run(main(opts.url, opts.events, opts.rounds))
    else:
        from tests.channel.broker import Broker

        broker = Broker(Path(tempfile.mkdtemp(prefix="sw-bench-")))
        broker.start()
        try:
            asyncio.run(main(broker.url, opts.events, opts.rounds))
        finally:
            broker.stop()
