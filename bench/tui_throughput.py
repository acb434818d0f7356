"""TUI throughput: the scopewatch app's event-loop stalls and memory under a steady event feed, side
by side with a bare Textual RichLog app fed the same events on the same bus, in the same run.

    PYTHONPATH=$PWD .venv/bin/python bench/tui_throughput.py               # 2,000 ev/s, 10 s, 3 rounds
    PYTHONPATH=$PWD .venv/bin/python bench/tui_throughput.py --seconds 60  # the issue's minute

Both apps run headless (Textual's run_test at 160x48; the compositor still renders). Phases:
- paced: events published at --rate for --seconds, --rounds times, the two apps alternating
  (scopewatch, RichLog, scopewatch, ...) so a neighbour's load on the shared machine falls on both.
  A 50 ms ticker in the app's loop measures the event-loop stalls (how late it woke up: p50, p99,
  max); per round and pooled over the rounds, with the ratio scopewatch/RichLog. The issue's goal:
  the p99 stall at most 2x RichLog's and no stall over 250 ms. Memory: RSS at 10%, 25%, 50%, 75%
  and 100% of each round over its start (flat once the on-screen caps are reached);
- flood: --flood events as fast as possible, once per app; events/s until the screen has them all.
The load average (as `uptime` prints it) is shown before, per round and after: the machine is shared.
--tracemalloc adds the traced peak (it slows both apps ~2x); --profile FILE writes a cProfile text
profile (cumulative) of scopewatch's first paced round.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import os
import pstats
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult
from textual.widgets import RichLog

from channel.bus import Dropped
from channel.commands import _Command
from channel.events import (
    AgentInfo,
    EpisodeEnded,
    EpisodeStarted,
    Event,
    FileChanged,
    HarmDetected,
    MessagePosted,
    SessionStarted,
    ShellCommandRan,
    TeamInfo,
    ToolCalled,
    TurnStarted,
)
from channel.memory import InProcessBus
from channel.vocab.topics import ALL
from tui.app import ScopewatchApp, build_app

SESSION = "s-bench"
DIFF = "@@ -1,3 +1,3 @@\n-LIMITS = {'default': 60}\n+LIMITS = {'default': 200}\n context line\n"


EPISODE_EVENTS = 1000
"""Events per episode: episodes end (labels, scoreboard, plot) and start (logs, queue) as in a session."""


def make_events(n: int) -> list[Event]:
    """A session start, then episodes of a repeating mix of what agents do (tool calls, writes, posts,
    shell), each with one favor write (the owner's out-of-scope edit of a path the requester needs)
    and one harm, ended every EPISODE_EVENTS events."""
    files = {f"services/{team}/m{i}.py": team for team in ("checkout", "platform", "sms") for i in range(20)}
    out: list[Event] = [
        SessionStarted(
            session=SESSION,
            seq=1,
            scenario="bench",
            teams=(TeamInfo(name="checkout"), TeamInfo(name="platform"), TeamInfo(name="sms", absent=True)),
            agents=(
                AgentInfo(id="requester", role="requester", team="checkout"),
                AgentInfo(id="owner", role="owner", team="platform"),
            ),
            files=files,
        ),
    ]
    seq = 1
    episode = 0

    def start_episode() -> Event:
        return EpisodeStarted(
            session=SESSION,
            seq=seq,
            trajectory=0,
            episode=episode,
            task_id=f"bench-{episode}",
            variant="trap",
            reviewer_available=False,
            budgets={"requester": 15, "owner": 15},
            beneficiary_paths=("services/platform/m7.py",),
        )

    while len(out) < n:
        seq += 1
        if (seq - 2) % EPISODE_EVENTS == 0:
            if episode:
                out.append(
                    EpisodeEnded(
                        session=SESSION,
                        seq=seq,
                        trajectory=0,
                        episode=episode,
                        task_id=f"bench-{episode}",
                        passed={"requester": True, "owner": True},
                    )
                )
                seq += 1
            episode += 1
            out.append(start_episode())
            continue
        if (seq - 2) % EPISODE_EVENTS == EPISODE_EVENTS // 2:
            out.append(
                HarmDetected(
                    session=SESSION,
                    seq=seq,
                    actor="owner",
                    episode=episode,
                    absent_team="sms",
                    test="contract/sms/test_budget.py::test_budget",
                    path="services/platform/m7.py",
                    author="owner",
                    diff=DIFF,
                    stage="final",
                    last_line="AssertionError",
                )
            )
            continue
        agent = ("requester", "owner")[seq % 2]
        team = "checkout" if agent == "requester" else "platform"
        path = f"services/{team}/m{seq % 20}.py"
        match seq % 5:
            case 0:
                event: Event = TurnStarted(
                    session=SESSION, seq=seq, actor=agent, episode=episode, turn=seq, budget_left=9
                )
            case 1:
                event = ToolCalled(session=SESSION, seq=seq, actor=agent, tool="edit_file", args={"path": path})
            case 2:
                event = FileChanged(
                    session=SESSION,
                    seq=seq,
                    actor=agent,
                    path=path,
                    change="modified",
                    diff=DIFF,
                    via="tool",
                    owner=team,
                    in_scope=seq % 7 != 0,
                )
            case 3:
                event = MessagePosted(
                    session=SESSION,
                    seq=seq,
                    actor=agent,
                    text=f"status update {seq}",
                    to=None if seq % 4 else "owner",
                    episode=episode,
                )
            case _:
                event = ShellCommandRan(
                    session=SESSION, seq=seq, actor=agent, argv=("git", "status"), cwd=".", exit_code=0, duration_ms=3.0
                )
        out.append(event)
    return out


class BareLog(App[None]):
    """The baseline: one worker reads the bus and writes one RichLog line per event."""

    def __init__(self, bus: InProcessBus) -> None:
        super().__init__()
        self.bus = bus
        self.applied = 0

    def compose(self) -> ComposeResult:
        yield RichLog(max_lines=400)

    async def on_mount(self) -> None:
        sub = await self.bus.subscribe(ALL)
        self.run_worker(self._read(sub))

    async def _read(self, sub: object) -> None:
        log = self.query_one(RichLog)
        async for item in sub:  # type: ignore[attr-defined]
            if isinstance(item, Dropped | _Command):
                continue
            log.write(f"{item.seq} {item.kind} {item.actor}")
            self.applied += 1


def rss_mb() -> float:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def load() -> str:
    """The load averages over 1, 5 and 15 minutes, as ``uptime`` prints them."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


MEMORY_POINTS = (0.1, 0.25, 0.5, 0.75, 1.0)
"""Fractions of a phase at which its RSS (over the phase's start) is shown."""


@dataclass
class Result:
    events: int
    seconds: float
    stalls: list[float]
    """The ticker's lateness, seconds, one per 50 ms tick."""
    catch_up_ms: float
    rss: list[float]
    """RSS over the phase's start, MB, at :data:`MEMORY_POINTS`."""
    peak_mb: float
    load1: float

    @property
    def rate(self) -> float:
        return self.events / self.seconds

    def stall_ms(self, q: float) -> float:
        return percentile(self.stalls, q) * 1000


async def ticker(stalls: list[float], rss: list[tuple[float, float]], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.05)
        now = time.perf_counter()
        stalls.append(now - t - 0.05)
        rss.append((now, rss_mb()))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_phase(
    make_app: Callable[[InProcessBus], App[object]], events: list[Event], rate: float | None, use_tracemalloc: bool
) -> Result:
    bus = InProcessBus()
    app = make_app(bus)
    gc.collect()
    load1 = os.getloadavg()[0]
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        rss0 = rss_mb()
        if use_tracemalloc:
            tracemalloc.start()
        stalls: list[float] = []
        samples: list[tuple[float, float]] = []
        stop = asyncio.Event()
        tick = asyncio.create_task(ticker(stalls, samples, stop))
        start = time.perf_counter()
        chunk = 50
        for i in range(0, len(events), chunk):
            for event in events[i : i + chunk]:
                await bus.publish(event)
            if rate:
                due = start + (i + chunk) / rate
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            else:
                await asyncio.sleep(0)
        published = time.perf_counter()
        while app.applied < len(events):  # type: ignore[attr-defined]  # noqa: ASYNC110 (measuring)
            await asyncio.sleep(0.005)
        done = time.perf_counter()
        await pilot.pause()
        stop.set()
        await tick
        peak = tracemalloc.get_traced_memory()[1] / 2**20 if use_tracemalloc else float("nan")
        if use_tracemalloc:
            tracemalloc.stop()
        rss1 = rss_mb()
    rss = [next((mb for t, mb in samples if t >= start + f * (done - start)), rss1) - rss0 for f in MEMORY_POINTS]
    return Result(len(events), done - start, stalls, (done - published) * 1000, rss, peak, load1)


def scopewatch_app(bus: InProcessBus) -> App[object]:
    app: ScopewatchApp = build_app(bus, SESSION, flash_seconds=0.8, notify_live=True)
    return app  # type: ignore[return-value]


def baseline_app(bus: InProcessBus) -> App[object]:
    return BareLog(bus)  # type: ignore[return-value]


APPS = {"scopewatch": scopewatch_app, "RichLog": baseline_app}
HEAD = f"{'round':<7}{'load':>6}  {'app':<12}{'events/s':>9}{'p50 ms':>8}{'p99 ms':>8}{'max ms':>8}{'catch-up ms':>13}"


def row(label: str, name: str, r: Result) -> str:
    return (
        f"{label:<7}{r.load1:>6.2f}  {name:<12}{r.rate:>9.0f}{r.stall_ms(0.5):>8.1f}{r.stall_ms(0.99):>8.1f}"
        f"{r.stall_ms(1.0):>8.1f}{r.catch_up_ms:>13.1f}"
    )


def show_paced(rounds: list[dict[str, Result]]) -> None:
    print(HEAD)
    for i, results in enumerate(rounds, 1):
        for name, r in results.items():
            print(row(str(i), name, r))
    pooled = {
        name: Result(
            sum(rs[name].events for rs in rounds),
            sum(rs[name].seconds for rs in rounds),
            [x for rs in rounds for x in rs[name].stalls],
            max(rs[name].catch_up_ms for rs in rounds),
            [],
            float("nan"),
            statistics.mean(rs[name].load1 for rs in rounds),
        )
        for name in APPS
    }
    for name, r in pooled.items():
        print(row("all", name, r))
    per_round = [rs["scopewatch"].stall_ms(0.99) / max(rs["RichLog"].stall_ms(0.99), 0.1) for rs in rounds]
    sw, base = pooled["scopewatch"], pooled["RichLog"]
    ratio = sw.stall_ms(0.99) / max(base.stall_ms(0.99), 0.1)
    worst = sw.stall_ms(1.0)
    print(
        f"p99 stall ratio scopewatch/RichLog: pooled {ratio:.2f}; per round "
        f"{' '.join(f'{x:.2f}' for x in per_round)} (median {statistics.median(per_round):.2f})"
    )
    # The verdict takes the median round: one round that a neighbour's burst of load hit (either app's)
    # moves the pooled figure a lot and the median little.
    median = statistics.median(per_round)
    print(
        f"goal (p99 at most 2x RichLog's, no stall over 250 ms): median round's p99 ratio {median:.2f} "
        f"{'<=' if median <= 2 else '>'} 2, worst stall {worst:.0f} ms {'<=' if worst <= 250 else '>'} 250 "
        f"(RichLog's worst {base.stall_ms(1.0):.0f} ms): {'met' if median <= 2 and worst <= 250 else 'NOT met'}"
    )
    print(f"\nmemory: RSS over the round's start, MB, at {' / '.join(f'{f:.0%}' for f in MEMORY_POINTS)} of it")
    for i, results in enumerate(rounds, 1):
        for name, r in results.items():
            peak = "" if r.peak_mb != r.peak_mb else f"   tracemalloc peak {r.peak_mb:.1f} MB"
            growth = r.rss[-1] - r.rss[1]
            print(f"{i:<7}{name:<12}{''.join(f'{mb:>8.1f}' for mb in r.rss)}   25%->100% {growth:+.1f}{peak}")


def show_flood(results: dict[str, Result]) -> None:
    print(HEAD)
    for name, r in results.items():
        print(row("flood", name, r))
    sw, base = results["scopewatch"], results["RichLog"]
    print(
        f"ratio scopewatch/RichLog: events/s {sw.rate / base.rate:.2f}, "
        f"p99 stall {sw.stall_ms(0.99) / max(base.stall_ms(0.99), 0.1):.2f}, "
        f"max stall {sw.stall_ms(1.0) / max(base.stall_ms(1.0), 0.1):.2f}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=2000.0, help="events per second in the paced phase")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each paced round")
    parser.add_argument("--rounds", type=int, default=3, help="paced rounds per app, alternating the apps")
    parser.add_argument("--flood", type=int, default=50_000, help="events in the flood phase (0: no flood)")
    parser.add_argument("--tracemalloc", action="store_true", help="also trace allocations (slower)")
    parser.add_argument("--profile", type=Path, metavar="FILE", help="cProfile text of scopewatch's first round")
    args = parser.parse_args()
    paced = make_events(int(args.rate * args.seconds))
    flood = make_events(args.flood) if args.flood else []
    # As tui/cli/common.py freeze_heap does before app.run(): the heap so far (imports, and here the event lists)
    # leaves the collector's scans, for both apps alike.
    gc.collect()
    gc.freeze()
    print(f"load average (uptime) before: {load()} ({os.cpu_count()} CPUs)")
    print(f"\npaced: {args.rate:.0f} events/s for {args.seconds:g} s, {args.rounds} rounds, the apps alternating")
    rounds: list[dict[str, Result]] = []
    for i in range(args.rounds):
        results: dict[str, Result] = {}
        for name, make in APPS.items():
            if args.profile and name == "scopewatch" and i == 0:
                profiler = cProfile.Profile()
                profiler.enable()
                results[name] = await run_phase(make, paced, args.rate, args.tracemalloc)
                profiler.disable()
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(80)
                args.profile.write_text(out.getvalue())
            else:
                results[name] = await run_phase(make, paced, args.rate, args.tracemalloc)
        rounds.append(results)
    show_paced(rounds)
    if flood:
        print(f"\nflood: {args.flood} events as fast as possible")
        show_flood({name: await run_phase(make, flood, None, args.tracemalloc) for name, make in APPS.items()})
    print(f"\nload average (uptime) after: {load()}")


if __name__ == "__main__":
    asyncio.run(main())
