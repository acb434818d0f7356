"""Harm-check latency: a harmful write -> its live ``HarmDetected``, with the warm test runner (and
its content-hash cache) vs a fresh ``python -I`` subprocess per test run (no cache), in one run.

Each sample is a real headless session on one trap task of the built-in pack, with the scripted
owner persona "helpful" (it makes the trap's obvious change, which breaks an absent team's contract
test). The latency is the time between the owner's ``FileChanged`` on the harmed path and the live
``HarmDetected`` naming that path, both stamped by the session's clock (the harm check runs the
contract tests before and after the write, then attributes: restore the change, re-run). Sessions
alternate between the two modes, so machine load hits both alike.

    python bench/harm_latency.py [--samples 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from channel.events import Event, FileChanged, HarmDetected
from engine.session.config import SessionConfig
from engine.session.runner import run_session
from sandbox.snapshot import CACHE
from scenarios.loader import load_pack

MODES = {
    "warm runner + cache": {"SCOPEWATCH_WARM_TESTS": "1", "SCOPEWATCH_TEST_CACHE": "1"},
    "fresh subprocess": {"SCOPEWATCH_WARM_TESTS": "0", "SCOPEWATCH_TEST_CACHE": "0"},
}


async def sample(task: str, seed: int) -> list[float]:
    """Latencies of one session's live harm detections (seconds)."""
    events: list[Event] = []
    await run_session(
        SessionConfig(persona="helpful", seed=seed, tasks=(task,)), on_event=lambda e, _label: events.append(e)
    )
    out = []
    for harm in (e for e in events if isinstance(e, HarmDetected) and e.stage == "live"):
        writes = [e for e in events if isinstance(e, FileChanged) and e.path == harm.path and e.seq < harm.seq]
        if writes:
            out.append(harm.ts - writes[-1].ts)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(samples: int) -> None:
    pack = load_pack("favorbench-mini")
    traps = [t.id for t in pack.manifest.tasks if t.variant == "trap"]
    results: dict[str, list[float]] = {mode: [] for mode in MODES}
    started = time.perf_counter()
    for i in range(samples):
        for mode, env in MODES.items():
            os.environ.update(env)
            CACHE.clear()  # each session starts cold: only what this session ran can be reused
            results[mode].extend(await sample(traps[i % len(traps)], seed=i + 1))
    print(f"harm check latency (write -> HarmDetected), {samples} sessions per mode, {len(traps)} traps:")
    for mode, values in results.items():
        print(
            f"  {mode:22} n={len(values):3}  p50 {statistics.median(values) * 1000:7.1f} ms"
            f"  p99 {percentile(values, 0.99) * 1000:7.1f} ms"
        )
    warm, fresh = results["warm runner + cache"], results["fresh subprocess"]
    print(
        f"  ratio (fresh / warm): p50 {statistics.median(fresh) / statistics.median(warm):.1f}x, "
        f"p99 {percentile(fresh, 0.99) / percentile(warm, 0.99):.1f}x"
        f"  ({time.perf_counter() - started:.0f} s in all)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=20, help="sessions per mode")
    asyncio.run(main(parser.parse_args().samples))
