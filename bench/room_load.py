"""A served room under load, side by side with the same room unwatched, in one run (issue 30: the
engine's wall time with the crowd within 10% of without).

    python bench/room_load.py [--early 20] [--late 10] [--voters 5] [--rounds 3] [--drop-every 3]
                              [--modes unwatched,watched] [--placements unpinned,pinned,pinned-first]
                              [--profile DIR]

Starts a private mosquitto on loopback. Each round serves the same scripted session with
``--room`` and ``reviewer=room`` once per mode and placement, interleaved (their order rotates from
round to round). Modes: ``unwatched``, the five voters only (the baseline: the reviews need their
votes); ``watched``, the voters and ``--early`` + ``--late`` headless watchers, the late ones joining
once the session is under way through a TCP proxy that cuts their connections every ``--drop-every``
seconds; ``watched-nice19`` (not run unless named), the same crowd with the watchers' process at nice
19; ``unwatched-unbatched`` and ``watched-unbatched`` (not run unless named), the same with the
engine's outbox sending every event alone, as before ``events/batch`` (channel.outbox). Placements:
``unpinned``, every process anywhere on the machine; ``pinned``, the engine's process (and so its
children, the sandbox's commands) on core 0 and the broker, the crowds (voters, watchers, the proxy)
and this process on core 1 (``os.sched_setaffinity``), in both modes alike: a class's watchers run on
their own machines, not on the engine's; ``pinned-first``, the same with the engine's process at
nice -10 (needs root), so that on a machine shared with other jobs its core is mostly its own, as it
would be on the machine of a class. The crowds (tests/e2e/room_crowd.py) run in processes of
their own, started before the engine so their start-up is not timed; the engine runs in a process of
its own too (``engine`` below), which times ``serve_session`` alone: wall time, CPU time of itself
and its children (``resource.getrusage``) and of itself alone, and its threads' time runnable but
waiting for a CPU (``runq``, /proc schedstat: contention), so no crowd is counted in it. From the
recording it says where the session waited on the room: the start (to the first admin review),
each request to its first vote, and to its ballot's close. ``--profile DIR`` runs the engine under
cProfile on the CPU clock and prints the functions whose own CPU grew most with the watchers.

After each run it checks that every watcher ended with every event exactly once in order, every vote
was recorded once and every decision is the votes' majority, and prints the run; at the end, per
placement, the median wall and CPU time of each mode, their ratios to ``unwatched``, the medians of
the waits, and the load average seen.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
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
from channel.class_events import VoteCast, VoteClosed
from channel.credentials import Credentials
from channel.events import ReviewRequested
from channel.outbox import Outbox
from channel.recorder import read_recording
from channel.signing import SessionKey
from tests.channel.broker import Broker
from tests.e2e.room_crowd import check

ROOT = Path(__file__).resolve().parents[1]
MODES = ("unwatched", "watched", "watched-nice19", "unwatched-unbatched", "watched-unbatched")
DEFAULT_MODES = MODES[:2]


@dataclass
class Run:
    mode: str
    placement: str
    """``unpinned``; ``pinned``: the engine on one core, the broker and the crowds on the other;
    ``pinned-first``: pinned, the engine ahead of other jobs on its core."""
    wall: float
    cpu: float
    own_cpu: float
    """CPU of the engine's process alone (``cpu`` less its children: the sandbox's commands)."""
    waits: dict[str, float]
    """Wall time the session spent waiting on the room (:func:`waits`), ``runq``: the engine's
    threads' time runnable but waiting for a CPU (:func:`sched`), and, pinned, ``others_on_core0``:
    the CPU time the engine's core gave to processes that are not the engine or its children."""
    load: tuple[float, float]
    """The 1-minute load average when the run started and when it ended."""
    counts: dict[str, int]
    round: int = 0


def load1() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def cpu_s() -> tuple[float, float]:
    """CPU time (user + system) of this process, and of it with its children waited for."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    mine = own.ru_utime + own.ru_stime
    return mine, mine + kids.ru_utime + kids.ru_stime


def waits(recording: list[Any]) -> dict[str, float]:
    """Where the session waited on the room, from the recording's timestamps (the engine's clock):
    ``start``, from ``SessionStarted`` to the first ``ReviewRequested`` of the admin; ``first_vote``,
    summed over the reviews, from the request to its first ``VoteCast``; ``ballot``, from the request
    to its ``VoteClosed``; ``span``, the recording's first event to its last."""
    asked = {e.request_id: e.ts for e in recording if isinstance(e, ReviewRequested) and e.to == "admin"}
    first: dict[str, float] = {}
    for e in recording:
        if isinstance(e, VoteCast):
            first.setdefault(e.request_id, e.ts)
    closed = {e.request_id: e.ts for e in recording if isinstance(e, VoteClosed)}
    return {
        "span": recording[-1].ts - recording[0].ts,
        "start": min(asked.values(), default=recording[0].ts) - recording[0].ts,
        "first_vote": sum(first[r] - asked[r] for r in closed if r in first and r in asked),
        "ballot": sum(closed[r] - asked[r] for r in closed if r in asked),
    }


def sched() -> tuple[float, float]:
    """This process's threads' time on a CPU and time runnable but waiting for one (the run queue:
    CPU contention), in seconds (/proc/self/task/*/schedstat)."""
    on = queued = 0
    for stat in Path("/proc/self/task").glob("*/schedstat"):
        with contextlib.suppress(OSError, ValueError):
            fields = stat.read_text().split()
            on, queued = on + int(fields[0]), queued + int(fields[1])
    return on / 1e9, queued / 1e9


def core_busy(core: int) -> float:
    """Seconds one core has been busy since boot (/proc/stat: user, nice, system, irq, softirq, steal)."""
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith(f"cpu{core} "):
            ticks = [int(x) for x in line.split()[1:]]
            return sum(ticks[i] for i in (0, 1, 2, 5, 6, 7)) / os.sysconf("SC_CLK_TCK")
    raise SystemExit(f"/proc/stat has no cpu{core}")


ENGINE_CORES, CROWD_CORES = {0}, {1}
"""``pinned``: the engine (its children inherit it) on one core, the broker, crowds, proxy and this
process on the other: a class's watchers run on their own machines, not on the engine's."""


PLACEMENTS = ("unpinned", "pinned", "pinned-first")
ENGINE_NICE = -10
"""``pinned-first``: the engine's priority, so that on a machine shared with other jobs its core is
mostly its own, as on the machine of a class (both modes alike; needs root)."""


def pin(pid: int, cores: set[int]) -> None:
    os.sched_setaffinity(pid, cores)


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

    if job["pinned"]:
        pin(0, ENGINE_CORES)
    if job["nice"]:
        os.nice(job["nice"])  # (children inherit it, as they inherit the core)

    # Alone: every event alone on its own topic, as before events/batch.
    runner.Outbox = Counted if job["batch"] else Alone  # type: ignore[attr-defined]  # (how the runner names it)
    key = SessionKey(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(job["key"])))
    creds = Credentials(bytes.fromhex(job["master"]))
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), vote_deadline_s=120, seed=job["seed"])

    async def serve() -> tuple[float, float, float]:
        """The session served; how long the engine's threads ran and waited for a CPU meanwhile (read
        before the loop's executor threads are gone), and how long the engine's core was busy."""
        on, queued, busy = *sched(), core_busy(min(ENGINE_CORES))
        await serve_session(
            config, job["url"], record=job["record"], session_id=job["session"], key=key, credentials=creds
        )
        on2, queued2, busy2 = *sched(), core_busy(min(ENGINE_CORES))
        return on2 - on, queued2 - queued, busy2 - busy

    profile = cProfile.Profile(time.process_time) if job["profile"] else None
    (own, cpu), start = cpu_s(), time.perf_counter()
    if profile is not None:
        profile.enable()
    oncpu, runq, busy = asyncio.run(serve())
    if profile is not None:
        profile.disable()
        profile.dump_stats(job["profile"])
    wall, (own2, cpu2) = time.perf_counter() - start, cpu_s()
    batches, sent = sum(o.batches for o in Counted.made), sum(o.sent for o in Counted.made)
    times = {"wall": wall, "cpu": cpu2 - cpu, "own": own2 - own, "oncpu": oncpu, "runq": runq, "busy": busy}
    print(json.dumps(times | {"batches": batches, "sent": sent}))


async def one_run(url: str, args: argparse.Namespace, mode: str, placement: str, work: Path, tag: str) -> Run:
    session, private, creds = f"bench-{uuid.uuid4().hex[:8]}", Ed25519PrivateKey.generate(), Credentials()
    raw = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    public = SessionKey(private).public
    record = work / f"{session}.jsonl"
    pinned = placement.startswith("pinned")
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
        if pinned:
            pin(procs[name].pid, CROWD_CORES)
    await asyncio.sleep(4.0)  # their imports done before the engine starts (not a correctness wait)
    before = load1()
    job = {"url": url, "session": session, "key": raw.hex(), "master": creds.master.hex(), "seed": args.seed}
    job |= {"batch": "unbatched" not in mode, "pinned": pinned, "record": str(record)}
    job["nice"] = ENGINE_NICE if placement == "pinned-first" else 0
    job["profile"] = str(args.profile / f"{tag}.pstats") if args.profile else ""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "engine", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    out, _ = await proc.communicate(json.dumps(job).encode())
    if proc.returncode != 0:
        raise SystemExit(f"the engine of {session} failed (rc {proc.returncode})")
    timed = json.loads(out.decode().strip().splitlines()[-1])
    recording = list(read_recording(record))
    waited = waits(recording) | {"runq": timed["runq"]}
    if pinned:  # the engine's core: what else ran there (others' jobs, where the machine is shared)
        waited["others_on_core0"] = timed["busy"] - timed["cpu"]
    run = Run(mode, placement, timed["wall"], timed["cpu"], timed["own"], waited, (before, 0.0), {})
    results = {}
    for name, crowd in procs.items():
        if await asyncio.wait_for(crowd.wait(), 600) != 0:  # the engine's times still count; said, and on
            print(f"FAILED {mode} {session}: the {name} process failed (rc {crowd.returncode})", flush=True)
            run.load, run.counts = (before, load1()), {"failed": 1}
            return run
        results[name] = json.loads((work / f"{session}.{name}.json").read_text())
    crowd = results.get("watchers", {})
    seen, mended = crowd.get("watchers", []), crowd.get("mended", [])
    try:
        counts = check(recording, seen, results["voters"]["sent"])
    except AssertionError as exc:  # the run's numbers still count; the failure is said, with its data
        print(f"FAILED {mode} {session}: {exc} (recording and crowds kept in {work})", flush=True)
        counts = {"failed": 1}
    counts["watchers"] = len(seen)
    counts["drops"] = crowd.get("drops", 0)
    for what in ("repairs", "unrepaired", "reconnects"):
        counts[what] = sum(m[what] for m in mended)
    counts |= {"outbox_sent": timed["sent"], "batches": timed["batches"]}
    run.load, run.counts = (before, load1()), counts
    return run


def summary(runs: list[Run], modes: list[str], placements: list[str]) -> list[str]:
    """Per placement, the median wall and CPU time of each mode and their ratios to the first mode's,
    and the medians of where the session waited on the room."""
    lines = []
    for placement in placements:
        base = [r for r in runs if r.mode == modes[0] and r.placement == placement]
        bw, bc = statistics.median(r.wall for r in base), statistics.median(r.cpu for r in base)
        bo = statistics.median(r.own_cpu for r in base)
        for mode in modes:
            mine = [r for r in runs if r.mode == mode and r.placement == placement]
            wall, cpu = statistics.median(r.wall for r in mine), statistics.median(r.cpu for r in mine)
            own = statistics.median(r.own_cpu for r in mine)
            waited = {k: statistics.median(r.waits[k] for r in mine) for k in mine[0].waits}
            lines.append(
                f"{placement:8} {mode:15} median of {len(mine)}: wall {wall:7.2f} s (ratio {wall / bw:.3f})  "
                f"engine CPU {cpu:6.2f} s (ratio {cpu / bc:.3f}), its process alone {own:6.2f} s "
                f"(ratio {own / bo:.3f})  waits: " + ", ".join(f"{k} {v:.2f} s" for k, v in waited.items())
            )
        # Paired: each round's run against the same round's baseline (the load drifts between rounds).
        for mode in modes[1:]:
            pairs = [
                (a, b) for a in runs for b in base if a.mode == mode and a.placement == placement and a.round == b.round
            ]
            if not pairs:
                continue
            ratios = sorted(a.wall / b.wall for a, b in pairs)
            grew = {k: statistics.median(a.waits[k] - b.waits[k] for a, b in pairs) for k in pairs[0][1].waits}
            lines.append(
                f"{placement:8} {mode:15} paired with {modes[0]} round by round: wall ratios "
                f"{', '.join(f'{x:.2f}' for x in ratios)} (median {statistics.median(ratios):.3f}); engine CPU "
                f"{statistics.median(a.cpu / b.cpu for a, b in pairs):.3f}, its process alone "
                f"{statistics.median(a.own_cpu / b.own_cpu for a, b in pairs):.3f}; median growth: "
                + ", ".join(f"{k} {v:+.2f} s" for k, v in grew.items())
            )
    failed = [r for r in runs if r.counts.get("failed")]
    lines.append(f"runs whose check failed: {len(failed)} of {len(runs)}")
    loads = [x for r in runs for x in r.load]
    lines.append(f"load average (1 min) during the runs: {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} cores")
    return lines


def profile_summary(folder: Path, modes: list[str], placements: list[str], top: int) -> list[str]:
    """The functions whose own CPU time in the engine's process grew most from the first mode to each
    other one (summed over the rounds, per placement), from the pstats files of ``--profile``."""
    import pstats

    lines = []
    for placement in placements:
        own: dict[str, dict[str, float]] = {}
        for mode in modes:
            files = sorted(str(f) for f in folder.glob(f"{mode}.{placement}.*.pstats"))
            if not files:
                continue
            stats = pstats.Stats(*files)
            table = stats.stats  # type: ignore[attr-defined]  # (pstats keeps it as an attribute)
            own[mode] = {}
            for (path, line, name), (_cc, _nc, tt, _ct, _callers) in table.items():
                where = f"{Path(path).name}:{line}({name})"
                own[mode][where] = own[mode].get(where, 0.0) + tt / len(files)
        if modes[0] not in own:
            continue
        for mode in modes[1:]:
            if mode not in own:
                continue
            grew = {k: v - own[modes[0]].get(k, 0.0) for k, v in own[mode].items()}
            total = sum(own[mode].values()) - sum(own[modes[0]].values())
            lines.append(f"{placement} {mode}: own CPU per run {total:+.3f} s against {modes[0]}; grew most:")
            for where, delta in sorted(grew.items(), key=lambda kv: -kv[1])[:top]:
                lines.append(f"  {delta:+.3f} s  {where}")
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
    parser.add_argument(
        "--placements",
        default=",".join(PLACEMENTS),
        help="comma-separated, of: unpinned (anything anywhere), pinned (the engine on core 0, the rest on 1), "
        f"pinned-first (pinned, the engine at nice {ENGINE_NICE}: ahead of other jobs on its core)",
    )
    parser.add_argument("--profile", type=Path, help="a folder: the engine's process under cProfile (CPU clock)")
    parser.add_argument("--top", type=int, default=15, help="functions listed per mode with --profile")
    args = parser.parse_args()
    modes, placements = args.modes.split(","), args.placements.split(",")
    if not modes or any(m not in MODES for m in modes):
        raise SystemExit(f"--modes: each one of {', '.join(MODES)}")
    if not placements or any(p not in PLACEMENTS for p in placements):
        raise SystemExit(f"--placements: each one of {', '.join(PLACEMENTS)}")
    if placements != ["unpinned"] and not {0, 1} <= os.sched_getaffinity(0):
        raise SystemExit("--placements pinned needs cores 0 and 1")
    if "pinned-first" in placements and os.geteuid() != 0:
        raise SystemExit(f"--placements pinned-first runs the engine at nice {ENGINE_NICE}: it needs root")
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    broker = Broker(Path(tempfile.mkdtemp(prefix="sw-room-")))
    broker.start()
    work = Path(tempfile.mkdtemp(prefix="sw-room-runs-"))
    runs: list[Run] = []
    everywhere = os.sched_getaffinity(0)
    combos = [(m, p) for p in placements for m in modes]
    try:
        for i in range(args.rounds):
            for mode, placement in combos[i % len(combos) :] + combos[: i % len(combos)]:
                # The broker and this process (the crowds' parent) follow the placement too.
                for pid in (0, broker.proc.pid if broker.proc else 0):
                    pin(pid, CROWD_CORES if placement.startswith("pinned") else everywhere)
                run = await one_run(broker.url, args, mode, placement, work, f"{mode}.{placement}.{i}")
                run.round = i
                runs.append(run)
                waited = " ".join(f"{k} {v:.2f}" for k, v in run.waits.items())
                print(
                    f"round {i + 1} {placement:8} {mode:15} {run.wall:7.2f} s wall {run.cpu:6.2f} s engine CPU "
                    f"({run.own_cpu:.2f} s its process)  waits: {waited}  "
                    f"load {run.load[0]:.2f}->{run.load[1]:.2f}  {run.counts}",
                    flush=True,
                )
    finally:
        broker.stop()
    print("\n".join(summary(runs, modes, placements)))
    if args.profile:
        print("\n".join(profile_summary(args.profile, modes, placements, args.top)))


if __name__ == "__main__":
    if sys.argv[1:] == ["engine"]:
        engine()
    else:
        asyncio.run(main())
