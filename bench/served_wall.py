"""A session's engine wall time served on a broker behind a slow link versus no broker at all, side
by side in one run (the claim of issue 31: within 20%), optionally for a baseline revision too.

    python bench/served_wall.py [--delay 0.04] [--subscribers 30] [--rounds 2] [--task ID ...]
                                [--baseline REV]

Starts a private mosquitto on loopback, a TCP proxy adding ``--delay`` seconds each way between the
engine and the broker, and ``--subscribers`` mosquitto_sub processes reading every event (QoS 1).
Each round runs the same scripted session, each run in its own process: in-process (no broker) and
served (``serve_session`` through the proxy, signing with the session key and checking commands as
``serve`` does, when that revision has them); with ``--baseline REV``, the same two again with REV's
code (checked out in a temporary git worktree, as bench/suite_time.py does), alternating, so both
see the same machine. It prints every wall time, the medians, the ratio served / no broker for each
revision, and (with a baseline) current / baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SELF = Path(__file__).resolve()
ROOT = SELF.parents[1]
sys.path.insert(0, os.environ.get("SW_BENCH_TREE", str(ROOT)))

from channel.vocab.config import SessionConfig  # noqa: E402 (the tree measured comes first on the path)


async def timed(config: SessionConfig, url: str | None) -> tuple[float, int]:
    """One session in this process, with the code of the tree on the path."""
    from engine.runs import runner

    events = 0

    def count(_event: object, _label: object) -> None:
        nonlocal events
        events += 1

    options: dict[str, object] = {}
    if url is not None:
        wanted = inspect.signature(runner.serve_session).parameters
        if "key" in wanted:
            from channel.signing import new_key

            options["key"] = new_key()
        if "credentials" in wanted:
            from channel.credentials import Credentials

            options["credentials"] = Credentials()
    start = time.perf_counter()
    if url is None:
        await runner.run_session(config, on_event=count)
    else:
        await runner.serve_session(config, url, on_event=count, **options)
    return time.perf_counter() - start, events


def worker(args: argparse.Namespace) -> None:
    config = SessionConfig(tasks=tuple(args.task), seed=1) if args.task else SessionConfig(seed=1)
    wall, events = asyncio.run(timed(config, args.url))
    print(json.dumps({"wall": wall, "events": events}), flush=True)


async def measure(tree: Path, args: argparse.Namespace, url: str | None) -> tuple[float, int]:
    argv = [sys.executable, str(SELF), "--worker"]
    argv += ["--url", url] if url else []
    for task in args.task or ():
        argv += ["--task", task]
    env = {**os.environ, "SW_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
    proc = await asyncio.create_subprocess_exec(*argv, cwd=tree, env=env, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"served_wall: the run in {tree} failed (rc {proc.returncode})")
    result = json.loads(out.decode().strip().splitlines()[-1])
    return float(result["wall"]), int(result["events"])


def run(args: argparse.Namespace) -> None:
    """The bench: both sides (and the baseline's, in a temporary worktree) in one run."""
    trees = {"current": ROOT}
    scratch = Path(tempfile.mkdtemp(prefix="sw-bench-"))
    if args.baseline:
        trees[f"baseline {args.baseline}"] = scratch / "baseline"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(scratch / "baseline"), args.baseline],
                       cwd=ROOT, check=True)  # fmt: skip
    try:
        asyncio.run(main(args, trees, scratch))
    finally:
        if args.baseline:
            subprocess.run(["git", "worktree", "remove", "--force", str(scratch / "baseline")], cwd=ROOT, check=False)


async def main(args: argparse.Namespace, trees: dict[str, Path], scratch: Path) -> None:
    from tests.channel.broker import Broker
    from tests.channel.proxy import Proxy

    broker = Broker(scratch / "broker")
    broker.start()
    subs = [
        subprocess.Popen(  # noqa: ASYNC220 (started once, before anything is timed)
            ["mosquitto_sub", "-p", str(broker.port), "-q", "1", "-t", "scopewatch/v1/+/events/#"],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(args.subscribers)
    ]
    walls: dict[tuple[str, str], list[float]] = {}
    load = os.getloadavg()[0]
    try:
        async with Proxy(broker.port, delay=args.delay) as proxy:
            for _ in range(args.rounds):
                for name, tree in trees.items():
                    for side, url in (("no broker", None), ("served", proxy.url)):
                        wall, n = await measure(tree, args, url)
                        walls.setdefault((name, side), []).append(wall)
                        print(f"{name:<20} {side:<10} {wall:7.2f} s  ({n} events)", flush=True)
    finally:
        for p in subs:
            p.terminate()
        for p in subs:
            p.wait()
        broker.stop()
    print(
        f"medians ({args.subscribers} subscribers, {args.delay * 1000:g} ms each way on the engine's link, "
        f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}):"
    )
    served: dict[str, float] = {}
    for name in trees:
        local, served[name] = (statistics.median(walls[name, side]) for side in ("no broker", "served"))
        print(f"  {name:<20} no broker {local:7.2f} s, served {served[name]:7.2f} s, ratio {served[name] / local:.3f}")
    if args.baseline:
        base = served[f"baseline {args.baseline}"]
        print(f"  served, current / baseline: {served['current'] / base:.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.04, help="seconds added each way on the engine's link")
    parser.add_argument("--subscribers", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--task", action="append", help="a task to run (repeatable; default: the scenario's all)")
    parser.add_argument("--baseline", metavar="REV", help="also measure this revision (a temporary git worktree)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    if parsed.worker:
        worker(parsed)
    else:
        run(parsed)
