"""Harm-check latency: a harmful write -> its live ``HarmDetected``, with the warm test runner vs a
fresh subprocess per test run (the behaviour before it), side by side in one run, at this machine's
default isolation level (bubblewrap where it works) and at ``none``.

Each sample is a real headless session on one trap task of the built-in pack, with the scripted
owner persona "helpful" (it makes the trap's obvious change, which breaks an absent team's contract
test). The latency is the time between the owner's ``FileChanged`` on the harmed path and the live
``HarmDetected`` naming that path, both stamped by the session's clock. In between, after the round:
the favor check (the requester's hidden tests with and without the owner's change: two runs), the
live harm check (the absent team's contract tests) and its attribution (restore the change, re-run).

- warm runner + cache: warm servers (inside the jail at bubblewrap), the tree under test kept in each
  server's mirror, unchanged modules not compiled again, the content-hash cache, and the live check's
  run prefetched beside the favor check (``SCOPEWATCH_WARM_TESTS=1``, ``SCOPEWATCH_TEST_CACHE=1``);
- fresh subprocess: a fresh jailed ``python -I`` per run on a fresh copy, one run after the other,
  no cache (``SCOPEWATCH_WARM_TESTS=0``, ``SCOPEWATCH_TEST_CACHE=0``).

Sessions alternate between the two modes, so machine load hits both alike; one unrecorded warm-up
session per mode and level comes first. The machine's load average is printed with the figures.

With ``--load N``, N busy loops (one process each, ``nice`` 0 like the bench) spin beside the
sessions for the whole run: the figures under contention a busy benchmark machine gives.

    python bench/harm_latency.py [--samples 20] [--isolation default none] [--load 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from channel.events import Event, FileChanged, HarmDetected
from channel.vocab.config import SessionConfig
from engine.runs.runner import run_session
from sandbox.jail.isolation import detect_isolation
from sandbox.workspace.snapshot import CACHE
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


async def measure(level: str, traps: list[str], samples: int) -> dict[str, list[float]]:
    """Both modes at one isolation level, sessions alternating; one unrecorded warm-up each."""
    os.environ["SCOPEWATCH_ISOLATION"] = level
    results: dict[str, list[float]] = {mode: [] for mode in MODES}
    for i in range(-1, samples):
        for mode, env in MODES.items():
            os.environ.update(env)
            CACHE.clear()  # each session starts cold: only what this session ran can be reused
            latencies = await sample(traps[i % len(traps)], seed=i + 1)
            if i >= 0:
                results[mode].extend(latencies)
    return results


def report(level: str, results: dict[str, list[float]]) -> None:
    print(f"isolation {level}:")
    for mode, values in results.items():
        print(
            f"  {mode:22} n={len(values):3}  p50 {statistics.median(values) * 1000:7.1f} ms"
            f"  p99 {percentile(values, 0.99) * 1000:7.1f} ms"
        )
    warm, fresh = results["warm runner + cache"], results["fresh subprocess"]
    print(
        f"  ratio (fresh / warm): p50 {statistics.median(fresh) / statistics.median(warm):.1f}x, "
        f"p99 {percentile(fresh, 0.99) / percentile(warm, 0.99):.1f}x"
    )


def busy_loops(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` processes that spin until killed (the background load of ``--load``)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


async def main(samples: int, levels: list[str], load_loops: int) -> None:
    loops = busy_loops(load_loops)
    try:
        await measure_all(samples, levels, load_loops)
    finally:
        for proc in loops:
            proc.kill()
            proc.wait()


async def measure_all(samples: int, levels: list[str], load_loops: int) -> None:
    pack = load_pack("favorbench-mini")
    traps = [t.id for t in pack.manifest.tasks if t.variant == "trap"]
    started = time.perf_counter()
    load = os.getloadavg()[0]
    print(
        f"harm check latency (write -> HarmDetected), {samples} sessions per mode, {len(traps)} traps, "
        f"{load_loops} busy loops beside:"
    )
    os.environ.pop("SCOPEWATCH_ISOLATION", None)
    default = (await detect_isolation()).level
    for level in levels:
        found = default if level == "default" else level
        report(f"{found} ({level})" if level == "default" else level, await measure(found, traps, samples))
    print(
        f"({time.perf_counter() - started:.0f} s in all; load average {load:.2f} at the start, "
        f"{os.getloadavg()[0]:.2f} at the end, {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=20, help="sessions per mode and isolation level")
    parser.add_argument(
        "--isolation",
        nargs="+",
        default=["default", "none"],
        choices=["default", "bubblewrap", "unshare", "none"],
        help="isolation levels to measure (default: this machine's default level, then none)",
    )
    parser.add_argument("--load", type=int, default=0, metavar="N", help="busy loops spinning beside (default 0)")
    args = parser.parse_args()
    if args.load < 0 or args.samples < 1:
        parser.error("--load must be >= 0 and --samples >= 1")
    asyncio.run(main(args.samples, args.isolation, args.load))
