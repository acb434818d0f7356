"""TUI throughput: events per second the scopewatch app sustains, and its memory, side by side
with a bare Textual RichLog app fed the same events on the same bus in the same run.

    /work/venv/bin/python bench/tui_throughput.py                 # 2,000 ev/s for 10 s, then a flood
    /work/venv/bin/python bench/tui_throughput.py --seconds 60    # the issue's minute

Two phases per app, headless (Textual's run_test at 160x48; the compositor still renders):
- paced: events published at --rate for --seconds; reports the rate achieved (the in-process bus
  back-pressures a slow reader), the worst event-loop stall (responsiveness: how late a 50 ms
  ticker woke up) and how long the screen took to catch up after the last event;
- flood: --flood events as fast as possible; reports events/s until the screen has all of them.
Memory: RSS growth and tracemalloc peak during the phase (tracemalloc only with --tracemalloc, it
slows everything by ~2x, for both apps alike).
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
    EpisodeStarted,
    Event,
    FileChanged,
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


def make_events(n: int) -> list[Event]:
    """A session start, then a repeating mix of what agents do (tool calls, writes, posts, shell)."""
    files = {f"services/{team}/m{i}.py": team for team in ("checkout", "platform", "sms") for i in range(20)}
    out: list[Event] = [
        SessionStarted(
            session=SESSION, seq=1, scenario="bench",
            teams=(TeamInfo(name="checkout"), TeamInfo(name="platform"), TeamInfo(name="sms", absent=True)),
            agents=(AgentInfo(id="requester", role="requester", team="checkout"),
                    AgentInfo(id="owner", role="owner", team="platform")),
            files=files,
        ),
        EpisodeStarted(session=SESSION, seq=2, trajectory=0, episode=1, task_id="bench", variant="trap",
                       reviewer_available=False, budgets={"requester": 15, "owner": 15}),
    ]
    seq = 2
    while len(out) < n:
        seq += 1
        agent = ("requester", "owner")[seq % 2]
        team = "checkout" if agent == "requester" else "platform"
        path = f"services/{team}/m{seq % 20}.py"
        match seq % 5:
            case 0:
                event: Event = TurnStarted(session=SESSION, seq=seq, actor=agent, episode=1, turn=seq, budget_left=9)
            case 1:
                event = ToolCalled(session=SESSION, seq=seq, actor=agent, tool="edit_file", args={"path": path})
            case 2:
                event = FileChanged(session=SESSION, seq=seq, actor=agent, path=path, change="modified", diff=DIFF,
                                    via="tool", owner=team, in_scope=seq % 7 != 0)
            case 3:
                event = MessagePosted(session=SESSION, seq=seq, actor=agent, text=f"status update {seq}",
                                      to=None if seq % 4 else "owner", episode=1)
            case _:
                event = ShellCommandRan(session=SESSION, seq=seq, actor=agent, argv=("git", "status"), cwd=".",
                                        exit_code=0, duration_ms=3.0)
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
    catch_up_ms: float
    rss_growth_mb: float
    peak_mb: float


async def ticker(stalls: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.05)
        stalls.append(time.perf_counter() - t - 0.05)


async def run_phase(make_app: Callable[[InProcessBus], App[object]], events: list[Event], rate: float | None,
                    use_tracemalloc: bool) -> Result:
    bus = InProcessBus()
    app = make_app(bus)
    gc.collect()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        rss0 = rss_mb()
        if use_tracemalloc:
            tracemalloc.start()
        stalls: list[float] = []
        stop = asyncio.Event()
        tick = asyncio.create_task(ticker(stalls, stop))
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
    return Result(len(events), done - start, len(events) / (done - start), max(stalls, default=0) * 1000,
                  (done - published) * 1000, rss1 - rss0, peak)


def scopewatch_app(bus: InProcessBus) -> App[object]:
    app: ScopewatchApp = build_app(bus, SESSION, flash_seconds=0.8, notify_live=True)
    return app  # type: ignore[return-value]


def baseline_app(bus: InProcessBus) -> App[object]:
    return BareLog(bus)  # type: ignore[return-value]


def show(phase: str, rows: dict[str, Result]) -> None:
    print(f"\n{phase}")
    print(f"{'app':<12}{'events':>9}{'seconds':>9}{'events/s':>10}{'max stall ms':>14}{'catch-up ms':>13}"
          f"{'RSS +MB':>9}{'tracemalloc peak MB':>21}")
    for name, r in rows.items():
        print(f"{name:<12}{r.events:>9}{r.seconds:>9.2f}{r.rate:>10.0f}{r.stall_ms:>14.1f}{r.catch_up_ms:>13.1f}"
              f"{r.rss_growth_mb:>9.1f}{r.peak_mb:>21.1f}")
    sw, base = rows["scopewatch"], rows["RichLog"]
    print(f"ratio scopewatch/RichLog: events/s {sw.rate / base.rate:.2f}, "
          f"max stall {sw.stall_ms / max(base.stall_ms, 0.1):.2f}, "
          f"RSS growth {sw.rss_growth_mb / base.rss_growth_mb if base.rss_growth_mb > 0.05 else float('nan'):.2f}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=2000.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--flood", type=int, default=50_000)
    parser.add_argument("--tracemalloc", action="store_true")
    args = parser.parse_args()
    paced = make_events(int(args.rate * args.seconds))
    flood = make_events(args.flood)
    apps = {"scopewatch": scopewatch_app, "RichLog": baseline_app}
    show(f"paced: {args.rate:.0f} events/s for {args.seconds:g} s",
         {name: await run_phase(f, paced, args.rate, args.tracemalloc) for name, f in apps.items()})
    show(f"flood: {args.flood} events as fast as possible",
         {name: await run_phase(f, flood, None, args.tracemalloc) for name, f in apps.items()})


if __name__ == "__main__":
    asyncio.run(main())
