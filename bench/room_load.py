"""A served room under load, side by side with the same room unwatched, in one run (issue 30: the
engine's wall time with the crowd within 10% of without).

    python bench/room_load.py [--early 20] [--late 10] [--voters 5] [--rounds 3] [--drop-every 3]
                              [--modes unwatched,watched,watched-nice19]

Starts a private mosquitto on loopback. Each round serves the same scripted session with
``--room`` and ``reviewer=room`` once per mode, the modes interleaved (their order rotates from
round to round): ``unwatched``, the five voters only (the baseline: the reviews need their votes);
``watched``, the voters and ``--early`` + ``--late`` headless watchers, the late ones joining once
the session is under way through a TCP proxy that cuts their connections every ``--drop-every``
seconds; ``watched-nice19``, the same crowd with the watchers' process at nice 19 (what the engine
pays when it gets the CPU before the watchers); ``unwatched-unbatched`` and ``watched-unbatched``
(not run unless named), the same with the engine's outbox sending every event alone, as before
``events/batch`` (channel.outbox), for what batching saves. The crowds (tests/e2e/room_crowd.py) run in
processes of their own, started before the engine so their start-up is not timed; the engine runs
in a process of its own too (``engine`` below), which times ``serve_session`` alone: wall time, and
CPU time of itself and its children (``resource.getrusage``), so no crowd is counted in it.

After each run it checks that every watcher ended with every event exactly once in order, every vote
was recorded once and every decision is the votes' majority, and prints the run; at the end the
median wall and CPU time of each mode, their ratios to ``unwatched``, and the load average seen.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from channel.bus import Bus
from channel.credentials import Credentials
from channel.outbox import Outbox
from channel.recorder import read_recording
from channel.signing import SessionKey
from tests.channel.broker import Broker
from tests.e2e.room_crowd import check

ROOT = Path(__file__).resolve().parents[1]
MODES = ("unwatched", "watched", "watched-nice19", "unwatched-unbatched", "watched-unbatched")
DEFAULT_MODES = MODES[:3]


@dataclass
class Run:
    mode: str
    wall: float
    cpu: float
    load: tuple[float, float]
    """The 1-minute load average when the run started and when it ended."""
    counts: dict[str, int]


def load1() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def cpu_s() -> float:
    """CPU time (user + system) of this process and of its children waited for."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class Counted(Outbox):
    """The served engine's outbox, kept where the bench can count its batches."""

    made: list[Outbox] = []

    def __init__(self, bus: Bus, **options: Any) -> None:
        super().__init__(bus, **options)
        Counted.made.append(self)


class Alone(Counted):
    """The served engine's outbox without batches (``raw`` dropped): every event alone, as before."""

    def __init__(self, bus: Bus, **options: Any) -> None:
        super().__init__(bus, **(options | {"raw": None}))


def engine() -> None:
    """The engine's process: the session's settings on stdin (JSON), its wall and CPU time on stdout."""
    from channel.vocab.config import SessionConfig
    from channel.vocab.norms import Norms
    from engine.runs.runner import serve_session

    job = json.loads(sys.stdin.read())
    from engine.runs import runner

    # Alone: every event alone on its own topic, as before events/batch.
    runner.Outbox = Counted if job["batch"] else Alone  # type: ignore[attr-defined]  # (how the runner names it)
    key = SessionKey(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(job["key"])))
    creds = Credentials(bytes.fromhex(job["master"]))
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), vote_deadline_s=120, seed=job["seed"])
    start, cpu = time.perf_counter(), cpu_s()
    asyncio.run(
        serve_session(config, job["url"], record=job["record"], session_id=job["session"], key=key, credentials=creds)
    )
    wall, cpu = time.perf_counter() - start, cpu_s() - cpu
    batches, sent = sum(o.batches for o in Counted.made), sum(o.sent for o in Counted.made)
    print(json.dumps({"wall": wall, "cpu": cpu, "batches": batches, "sent": sent}))


async def one_run(url: str, args: argparse.Namespace, mode: str, work: Path) -> Run:
    session, private, creds = f"bench-{uuid.uuid4().hex[:8]}", Ed25519PrivateKey.generate(), Credentials()
    raw = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    public = SessionKey(private).public
    record = work / f"{session}.jsonl"
    # The voters in a process of their own in every mode (the session waits on their votes), the
    # watchers in another; each waits for the engine's presence before anyone joins.
    watched = mode.startswith("watched")
    crowds = {"voters": (0, 0, args.voters)} | ({"watchers": (args.early, args.late, 0)} if watched else {})
    procs = {}
    for name, (early, late, voters) in crowds.items():
        nice = ["nice", "-n", "19"] if name == "watchers" and "nice19" in mode else []
        options = {"--early": early, "--late": late, "--voters": voters, "--late-after": 40}
        procs[name] = await asyncio.create_subprocess_exec(
            *nice,
            sys.executable,
            "-m",
            "tests.e2e.room_crowd",
            url,
            session,
            public.hex(),
            creds.master.hex(),
            *[str(x) for pair in options.items() for x in pair],
            "--drop-every",
            str(args.drop_every),
            "--out",
            str(work / f"{session}.{name}.json"),
            cwd=ROOT,
        )
    await asyncio.sleep(4.0)  # their imports done before the engine starts (not a correctness wait)
    before = load1()
    job = {"url": url, "session": session, "key": raw.hex(), "master": creds.master.hex(), "seed": args.seed}
    job["batch"] = "unbatched" not in mode
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "engine", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    out, _ = await proc.communicate(json.dumps(job | {"record": str(record)}).encode())
    if proc.returncode != 0:
        raise SystemExit(f"the engine of {session} failed (rc {proc.returncode})")
    timed = json.loads(out.decode().strip().splitlines()[-1])
    results = {}
    for name, crowd in procs.items():
        if await asyncio.wait_for(crowd.wait(), 600) != 0:  # the engine's times still count; said, and on
            print(f"FAILED {mode} {session}: the {name} process failed (rc {crowd.returncode})", flush=True)
            return Run(mode, timed["wall"], timed["cpu"], (before, load1()), {"failed": 1})
        results[name] = json.loads((work / f"{session}.{name}.json").read_text())
    crowd = results.get("watchers", {})
    seen, mended = crowd.get("watchers", []), crowd.get("mended", [])
    try:
        counts = check(list(read_recording(record)), seen, results["voters"]["sent"])
    except AssertionError as exc:  # the run's numbers still count; the failure is said, with its data
        print(f"FAILED {mode} {session}: {exc} (recording and crowds kept in {work})", flush=True)
        counts = {"failed": 1}
    counts["watchers"] = len(seen)
    counts["drops"] = crowd.get("drops", 0)
    for what in ("repairs", "unrepaired", "reconnects"):
        counts[what] = sum(m[what] for m in mended)
    counts |= {"outbox_sent": timed["sent"], "batches": timed["batches"]}
    return Run(mode, timed["wall"], timed["cpu"], (before, load1()), counts)


def summary(runs: list[Run], modes: list[str]) -> list[str]:
    """The median wall and CPU time of each mode and their ratios to the first mode's."""
    lines = []
    base = [r for r in runs if r.mode == modes[0]]
    for mode in modes:
        mine = [r for r in runs if r.mode == mode]
        wall, cpu = statistics.median(r.wall for r in mine), statistics.median(r.cpu for r in mine)
        bw, bc = statistics.median(r.wall for r in base), statistics.median(r.cpu for r in base)
        lines.append(
            f"{mode:15} median of {len(mine)}: wall {wall:7.2f} s (ratio {wall / bw:.3f})  "
            f"engine CPU {cpu:6.2f} s (ratio {cpu / bc:.3f})"
        )
    failed = [r for r in runs if r.counts.get("failed")]
    lines.append(f"runs whose check failed: {len(failed)} of {len(runs)}")
    loads = [x for r in runs for x in r.load]
    lines.append(f"load average (1 min) during the runs: {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} cores")
    return lines


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--early", type=int, default=20, help="watchers there from the start")
    parser.add_argument("--late", type=int, default=10, help="watchers joining late over the flaky proxy")
    parser.add_argument("--voters", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drop-every", type=float, default=3.0, help="seconds between the proxy's cuts")
    parser.add_argument(
        "--modes", default=",".join(DEFAULT_MODES), help=f"comma-separated, the first the baseline, of: {MODES}"
    )
    args = parser.parse_args()
    modes = args.modes.split(",")
    if not modes or any(m not in MODES for m in modes):
        raise SystemExit(f"--modes: each one of {', '.join(MODES)}")
    broker = Broker(Path(tempfile.mkdtemp(prefix="sw-room-")))
    broker.start()
    work = Path(tempfile.mkdtemp(prefix="sw-room-runs-"))
    runs: list[Run] = []
    try:
        for i in range(args.rounds):
            for mode in modes[i % len(modes) :] + modes[: i % len(modes)]:
                run = await one_run(broker.url, args, mode, work)
                runs.append(run)
                print(
                    f"round {i + 1} {mode:15} {run.wall:7.2f} s wall {run.cpu:6.2f} s engine CPU  "
                    f"load {run.load[0]:.2f}->{run.load[1]:.2f}  {run.counts}",
                    flush=True,
                )
    finally:
        broker.stop()
    print("\n".join(summary(runs, modes)))


if __name__ == "__main__":
    if sys.argv[1:] == ["engine"]:
        engine()
    else:
        asyncio.run(main())
