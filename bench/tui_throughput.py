"""TUI throughput: events per second the scopewatch app sustains, and its memory, side by side
with a bare Textual RichLog app fed the same events on the same bus in the same run.

    /work/venv/bin/python bench/tui_throughput.py                 # 2,000 ev/s for 10 s, then a flood
    /work/venv/bin/python bench/tui_throughput.py --seconds 60    # the issue's minute

Two phases per app, headless (Textual's run_test at 160x48; the compositor still renders):
- paced: events published at --rate for --seconds; reports the rate achieved (the in-process bus
  back-pressures a slow reader), the worst event-loop stall (responsiveness: how late a 50 ms
  ticker woke up) and how long the screen took to catch up after the last event;
- flood: --flood events as fast as possible; reports events/s until the screen has all of them.
Responsiveness: the worst and the 99th-percentile ticker lateness. Memory: RSS growth over the
phase and over its second half (bounded memory: ~0 once the on-screen caps are reached), and the
tracemalloc peak (only with --tracemalloc, it slows everything by ~2x, for both apps alike).
--profile FILE writes a pyinstrument profile (text) of scopewatch's paced phase (pip install
pyinstrument; a dev tool).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
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
        sub = await self.bus.subscribe("#")
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


@dataclass
class Result:
    events: int
    seconds: float
    rate: float
    stall_ms: float
    p99_stall_ms: float
    catch_up_ms: float
    rss_growth_mb: float
    rss_second_half_mb: float
    peak_mb: float


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
    middle = start + (done - start) / 2
    rss_mid = next((mb for t, mb in samples if t >= middle), rss1)
    return Result(
        len(events),
        done - start,
        len(events) / (done - start),
        max(stalls, default=0) * 1000,
        percentile(stalls, 0.99) * 1000,
        (done - published) * 1000,
        rss1 - rss0,
        rss1 - rss_mid,
        peak,
    )


def scopewatch_app(bus: InProcessBus) -> App[object]:
    app: ScopewatchApp = build_app(bus, SESSION, flash_seconds=0.8, notify_live=True)
    return app  # type: ignore[return-value]


def baseline_app(bus: InProcessBus) -> App[object]:
    return BareLog(bus)  # type: ignore[return-value]


def show(phase: str, rows: dict[str, Result]) -> None:
    print(f"\n{phase}")
    print(
        f"{'app':<12}{'events':>9}{'seconds':>9}{'events/s':>10}{'max stall ms':>14}{'p99 stall ms':>14}"
        f"{'catch-up ms':>13}{'RSS +MB':>9}{'2nd half':>10}{'tracemalloc peak MB':>21}"
    )
    for name, r in rows.items():
        print(
            f"{name:<12}{r.events:>9}{r.seconds:>9.2f}{r.rate:>10.0f}{r.stall_ms:>14.1f}{r.p99_stall_ms:>14.1f}"
            f"{r.catch_up_ms:>13.1f}{r.rss_growth_mb:>9.1f}{r.rss_second_half_mb:>10.1f}{r.peak_mb:>21.1f}"
        )
    sw, base = rows["scopewatch"], rows["RichLog"]
    print(
        f"ratio scopewatch/RichLog: events/s {sw.rate / base.rate:.2f}, "
        f"max stall {sw.stall_ms / max(base.stall_ms, 0.1):.2f}, "
        f"p99 stall {sw.p99_stall_ms / max(base.p99_stall_ms, 0.1):.2f}, "
        f"RSS growth {sw.rss_growth_mb / base.rss_growth_mb if base.rss_growth_mb > 0.05 else float('nan'):.2f}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=2000.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--flood", type=int, default=50_000)
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--profile", type=Path, metavar="FILE", help="pyinstrument text profile of scopewatch (paced)")
    args = parser.parse_args()
    paced = make_events(int(args.rate * args.seconds))
    flood = make_events(args.flood)
    # As tui/cli/common.py freeze_heap does before app.run(): the heap so far (imports, and here the event lists)
    # leaves the collector's scans, for both apps alike.
    gc.collect()
    gc.freeze()
    apps = {"scopewatch": scopewatch_app, "RichLog": baseline_app}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    rows: dict[str, Result] = {}
    for name, make in apps.items():
        if args.profile and name == "scopewatch":
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.001, async_mode="disabled")
            profiler.start()
            rows[name] = await run_phase(make, paced, args.rate, args.tracemalloc)
            profiler.stop()
            args.profile.write_text(profiler.output_text(unicode=True, color=False, show_all=False))
        else:
            rows[name] = await run_phase(make, paced, args.rate, args.tracemalloc)
    show(f"paced: {args.rate:.0f} events/s for {args.seconds:g} s", rows)
    show(
        f"flood: {args.flood} events as fast as possible",
        {name: await run_phase(f, flood, None, args.tracemalloc) for name, f in apps.items()},
    )


if __name__ == "__main__":
    asyncio.run(main())
