"""A served room under load, side by side with the same room unwatched, in one run (issue 30: the
engine's wall time with the crowd within 10% of without).

    python bench/room_load.py [--early 20] [--late 10] [--voters 5] [--rounds 2] [--drop-every 3]

Starts a private mosquitto on loopback. Each round serves the same scripted session with
``--room`` and ``reviewer=room`` twice, alternating: with the five voters only (the baseline: the
reviews need their votes), then with the voters and ``--early`` + ``--late`` headless watchers, the
late ones joining once the session is under way through a TCP proxy that cuts their connections
every ``--drop-every`` seconds. The crowd (tests/e2e/room_crowd.py) runs in a process of its own,
started before the engine so its start-up is not timed. After each run it checks that every
watcher ended with every event exactly once in order, every vote was recorded once and every
decision is the votes' majority, then prints both wall times and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from channel.credentials import Credentials
from channel.recorder import read_recording
from channel.signing import new_key
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.runs.runner import serve_session
from tests.channel.broker import Broker
from tests.e2e.room_crowd import check

ROOT = Path(__file__).resolve().parents[1]


async def one_run(
    url: str, args: argparse.Namespace, watchers: tuple[int, int], work: Path
) -> tuple[float, float, dict[str, int]]:
    session, key, creds = f"bench-{uuid.uuid4().hex[:8]}", new_key(), Credentials()
    record = work / f"{session}.jsonl"
    early, late = watchers
    # The voters in a process of their own in both runs (the session waits on their votes), the
    # watchers in another; each waits for the engine's presence before anyone joins.
    crowds = {"voters": (0, 0, args.voters)} | ({"watchers": (early, late, 0)} if early + late else {})
    procs = {
        name: await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.e2e.room_crowd",
            url,
            session,
            key.public.hex(),
            creds.master.hex(),
            "--early",
            str(e),
            "--late",
            str(n),
            "--voters",
            str(v),
            "--late-after",
            "40",
            "--drop-every",
            str(args.drop_every),
            "--out",
            str(work / f"{session}.{name}.json"),
            cwd=ROOT,
        )
        for name, (e, n, v) in crowds.items()
    }
    await asyncio.sleep(4.0)  # their imports done before the clock starts (not a correctness wait)
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), vote_deadline_s=120, seed=args.seed)
    start, cpu = time.perf_counter(), time.process_time()  # this process runs the engine alone
    await serve_session(config, url, record=str(record), session_id=session, key=key, credentials=creds)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    results = {}
    for name, proc in procs.items():
        if await asyncio.wait_for(proc.wait(), 600) != 0:
            raise SystemExit(f"the {name} of {session} failed (rc {proc.returncode})")
        results[name] = json.loads((work / f"{session}.{name}.json").read_text())
    seen = results.get("watchers", {}).get("watchers", [])
    counts = check(list(read_recording(record)), seen, results["voters"]["sent"])
    counts["watchers"] = len(seen)
    counts["drops"] = results.get("watchers", {}).get("drops", 0)
    return wall, cpu, counts


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--early", type=int, default=20, help="watchers there from the start")
    parser.add_argument("--late", type=int, default=10, help="watchers joining late over the flaky proxy")
    parser.add_argument("--voters", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drop-every", type=float, default=3.0, help="seconds between the proxy's cuts")
    args = parser.parse_args()
    broker = Broker(Path(tempfile.mkdtemp(prefix="sw-room-")))
    broker.start()
    work = Path(tempfile.mkdtemp(prefix="sw-room-runs-"))
    alone: list[tuple[float, float]] = []
    crowded: list[tuple[float, float]] = []
    try:
        for _ in range(args.rounds):
            wall, cpu, counts = await one_run(broker.url, args, (0, 0), work)
            alone.append((wall, cpu))
            print(f"voters only:          {wall:7.2f} s wall {cpu:6.2f} s engine CPU  {counts}", flush=True)
            wall, cpu, counts = await one_run(broker.url, args, (args.early, args.late), work)
            crowded.append((wall, cpu))
            print(
                f"voters + {args.early + args.late} watchers: {wall:7.2f} s wall {cpu:6.2f} s engine CPU  {counts}",
                flush=True,
            )
    finally:
        broker.stop()
    for i, what in enumerate(("wall time", "CPU time")):
        base, load = statistics.median(r[i] for r in alone), statistics.median(r[i] for r in crowded)
        print(
            f"engine {what}, median of {args.rounds} rounds: {base:.2f} s unwatched, {load:.2f} s watched, "
            f"ratio {load / base:.3f}"
        )


if __name__ == "__main__":
    asyncio.run(main())
