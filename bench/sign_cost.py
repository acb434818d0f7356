"""What signing costs per event: Ed25519 (channel.signing) vs the HMAC-SHA256 it replaced, side by
side in one run, signing and checking the same events on the same topics.

    python bench/sign_cost.py [--events 20000] [--rounds 3]

The events are a scripted session's, encoded as the engine publishes them (a real mix of sizes). Each
round times, alternating, HMAC sign, HMAC check, Ed25519 sign (``SessionKey.sign``) and Ed25519 check
(``genuine``, as a viewer's bus runs it); it prints events/s for each (medians over rounds) and the
ratio HMAC / Ed25519, and what one event's signing takes of the engine's time (the per-event cost
against the session's own events/s without a broker).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import os
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paho.mqtt.packettypes import PacketTypes

from channel.broker import properties
from channel.codec import encode
from channel.events import Event
from channel.signing import PROPERTY, genuine, new_key, signed
from channel.topics import topic_for
from channel.vocab.config import SessionConfig
from engine.runs.runner import run_session


async def session_events() -> tuple[list[Event], float]:
    seen: list[Event] = []

    def keep(event: Event, _label: object) -> None:
        seen.append(event)

    start = time.perf_counter()
    await run_session(SessionConfig(seed=1), on_event=keep)
    return seen, time.perf_counter() - start


def rate(n: int, work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000, help="messages signed and checked per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    events, wall = asyncio.run(session_events())
    session_rate = len(events) / wall
    messages = [(f"scopewatch/v1/{e.session}/{topic_for(e)}", encode(e)) for e in events]
    messages = (messages * (args.events // len(messages) + 1))[: args.events]
    n = len(messages)
    mac_key, key = secrets.token_bytes(32), new_key()

    def mac(topic: str, payload: bytes) -> str:
        return hmac.new(mac_key, topic.encode() + b"\0" + payload, hashlib.sha256).hexdigest()

    macs = [mac(t, p) for t, p in messages]
    props = [signed(key, t, p) for t, p in messages]

    def mac_props(value: str) -> object:
        p = properties(PacketTypes.PUBLISH)
        p.UserProperty = [(PROPERTY, value)]
        return p

    def hmac_sign() -> None:
        for t, p in messages:
            mac_props(mac(t, p))

    def hmac_check() -> None:
        for (t, p), m in zip(messages, macs, strict=True):
            assert hmac.compare_digest(m, mac(t, p))

    def ed_sign() -> None:
        for t, p in messages:
            signed(key, t, p)

    def ed_check() -> None:
        for (t, p), pr in zip(messages, props, strict=True):
            assert genuine(key.public, t, p, pr)

    rates: dict[str, list[float]] = {name: [] for name in ("hmac sign", "hmac check", "ed25519 sign", "ed25519 check")}
    for _ in range(args.rounds):
        for name, work in zip(rates, (hmac_sign, hmac_check, ed_sign, ed_check), strict=True):
            rates[name].append(rate(n, work))
    mean_size = sum(len(p) for _, p in messages) / n
    print(
        f"{n} messages a round (mean payload {mean_size:.0f} bytes), {args.rounds} rounds, "
        f"load average {os.getloadavg()[0]:.1f}; medians:"
    )
    med = {name: statistics.median(r) for name, r in rates.items()}
    for name, r in med.items():
        print(f"  {name:<14} {r:12,.0f} events/s   {1e6 / r:7.1f} us an event")
    print(
        f"ratio hmac/ed25519: sign {med['hmac sign'] / med['ed25519 sign']:.1f}x, "
        f"check {med['hmac check'] / med['ed25519 check']:.1f}x"
    )
    share = session_rate / med["ed25519 sign"]
    print(
        f"the scripted session ran {session_rate:,.0f} events/s without a broker: signing each with Ed25519 "
        f"adds {100 * share:.1f}% to its time"
    )


if __name__ == "__main__":
    main()
