"""File write -> ``FileChanged`` event latency of the sandbox watcher, tuned vs watchfiles' defaults.

Two real sandboxes run side by side in one process: one with the tuned watcher timing
(``sandbox.workspace.watcher.WATCH_DEBOUNCE_MS`` / ``WATCH_STEP_MS``), one with watchfiles' default timing
(debounce 1600 ms, step 50 ms) as the baseline. Writes alternate between them, so machine load hits
both alike. Each sample is the time from just before a file is written (as a human editor would,
from outside any sandbox operation) to the ``FileChanged`` event arriving at a bus subscriber.

    python bench/watch_latency.py [--samples 100]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from channel.emitter import Emitter
from channel.events import FileChanged
from channel.memory import InProcessBus
from channel.vocab.topics import event_topic
from sandbox.backends.local import LocalSandbox
from sandbox.workspace.ownership import Ownership
from sandbox.workspace.watcher import WATCH_DEBOUNCE_MS, WATCH_STEP_MS

WATCHFILES_DEFAULT = (1600, 50)


class Rig:
    """One sandbox and a subscription to its events."""

    def __init__(self, name: str, timing: tuple[int, int]) -> None:
        self.name = name
        self.timing = timing
        self.samples: list[float] = []

    async def start(self) -> None:
        self.bus = InProcessBus()
        self.sub = await self.bus.subscribe(event_topic("FileChanged"))
        self.sb = await LocalSandbox.create(
            {"notes.txt": "0\n"}, ownership=Ownership(), emitter=Emitter(self.bus, self.name), watch_timing=self.timing
        )

    async def sample(self, i: int) -> None:
        target = self.sb.root / "notes.txt"
        start = time.perf_counter()
        target.write_text(f"{i}\n")
        while True:
            event = await asyncio.wait_for(self.sub.get(), 10)
            if isinstance(event, FileChanged) and event.diff.endswith(f"+{i}\n"):
                break
        self.samples.append((time.perf_counter() - start) * 1000)

    async def stop(self) -> None:
        await self.sb.close()
        await self.bus.close()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(samples: int) -> None:
    tuned = Rig("tuned", (WATCH_DEBOUNCE_MS, WATCH_STEP_MS))
    baseline = Rig("watchfiles-default", WATCHFILES_DEFAULT)
    for rig in (tuned, baseline):
        await rig.start()
    try:
        for i in range(1, samples + 1):
            for rig in (tuned, baseline) if i % 2 else (baseline, tuned):
                await rig.sample(i)
                await asyncio.sleep(0.02)  # each write is its own burst
    finally:
        for rig in (tuned, baseline):
            await rig.stop()
    print(f"file write -> FileChanged latency, {samples} samples each, same run")
    print(f"{'watcher':<22}{'debounce/step ms':>18}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}")
    for rig in (tuned, baseline):
        d, s = rig.timing
        print(
            f"{rig.name:<22}{f'{d}/{s}':>18}{_pct(rig.samples, 0.5):>10.1f}{_pct(rig.samples, 0.99):>10.1f}"
            f"{statistics.fmean(rig.samples):>10.1f}"
        )
    print(
        f"ratio baseline/tuned: p50 {_pct(baseline.samples, 0.5) / _pct(tuned.samples, 0.5):.1f}x, "
        f"p99 {_pct(baseline.samples, 0.99) / _pct(tuned.samples, 0.99):.1f}x"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100)
    asyncio.run(main(parser.parse_args().samples))
