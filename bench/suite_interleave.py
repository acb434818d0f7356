"""The matched tests of two trees run in small chunks, alternating sides (for ``bench/suite_time.py --interleaved``).

Running the two whole suites at the same time is fair only if the load stays flat: the heavy tests run
at different moments on each side. Here both sides are collected first (``pytest --collect-only``), the
tests found on both are paired (:func:`suite_compare.match`), the pairs sorted by the baseline's node id
(a module's tests stay together, so its fixtures are set up once per chunk) and cut into chunks of
``size`` tests. Each chunk is run on one side and then at once on the other, the order alternating from
chunk to chunk (baseline, current | current, baseline | ...: ABBA), so whatever the machine's load does,
each side meets it as often first as second. Chunks are taken in a shuffled order (``seed``), so a run
stopped at its time budget has measured a sample of the whole set, not its first modules.

Each chunk is one pytest process per side (``-p suite_cpu``, see ``bench/suite_cpu.py``), its JUnit XML
and CPU JSON kept under ``out/<side>/``; the load average is taken at each chunk's start. The runner is
the subreaper of the chunks' orphans (:mod:`proctree`), so each side's whole CPU is counted as well,
the per-test plugin's blind spot included (a child reaped by nobody, a warm server left at exit).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from proctree import become_subreaper, children_cpu, reap_orphans
from suite_compare import Case, from_nodeid, match, read_cases

PLUGIN = Path(__file__).with_name("suite_cpu.py")


def plugin_dir(out: Path) -> Path:
    """A folder holding only the CPU plugin, for ``PYTHONPATH`` (bench/'s other modules stay off the path)."""
    folder = out / "plugin"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy2(PLUGIN, folder / PLUGIN.name)
    return folder


def pytest_env(tree: Path, plugins: Path) -> dict[str, str]:
    """The environment of one side's pytest: its tree first on the path, then the plugin; no Docker."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOPEWATCH_")}
    return env | {"PYTHONPATH": f"{tree}{os.pathsep}{plugins}", "SCOPEWATCH_NO_DOCKER": "1"}


PYTEST = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1", "-p", "suite_cpu"]


def collect(tree: Path, paths: Sequence[str], extra: Sequence[str], plugins: Path) -> list[Case]:
    """The tests pytest collects in ``tree`` under ``paths`` (with ``extra``: a ``-k`` filter)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only", *extra, *paths],
        cwd=tree,
        env=pytest_env(tree, plugins),
        capture_output=True,
        text=True,
    )
    ids = [line.strip() for line in done.stdout.splitlines() if "::" in line and not line.startswith(" ")]
    if done.returncode not in (0, 5) or not ids:
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        raise SystemExit(f"suite_time: collecting in {tree} failed (exit {done.returncode}): {' | '.join(tail)}")
    return [from_nodeid(nodeid) for nodeid in ids]


def plan(baseline: Sequence[Case], current: Sequence[Case], size: int, seed: int) -> list[list[tuple[str, str]]]:
    """Chunks of ``size`` (baseline node id, current node id) pairs, in a shuffled order."""
    pairs = sorted(((b.nodeid, c.nodeid) for b, c in match(baseline, current).pairs), key=lambda p: p[0])
    chunks = [pairs[i : i + size] for i in range(0, len(pairs), size)]
    random.Random(seed).shuffle(chunks)
    return chunks


def order(index: int) -> tuple[int, int]:
    """Which side runs first in chunk ``index``: (0, 1) = baseline first, (1, 0) = current first (ABBA)."""
    return (0, 1) if index % 2 == 0 else (1, 0)


@dataclass
class Interleaved:
    """What a run of chunks gave: each side's cases (with CPU), the load seen, chunks run of all."""

    cases: tuple[list[Case], list[Case]] = field(default_factory=lambda: ([], []))
    loads: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=lambda: [0.0, 0.0])  # each side's pytest processes, start to end
    tree_cpu: list[float] = field(default_factory=lambda: [0.0, 0.0])  # their whole process trees' CPU
    chunks_run: int = 0
    chunks: int = 0


def run_chunks(
    trees: tuple[Path, Path],
    chunks: list[list[tuple[str, str]]],
    out: Path,
    plugins: Path,
    extra: Sequence[str] = (),
    budget_s: float | None = None,
) -> Interleaved:
    """Run ``chunks`` (see :func:`plan`), each on both sides in :func:`order`, until done or past ``budget_s``
    (a chunk started is always finished on both sides, so every test measured has its pair). Each side's
    ``tree_cpu`` is every CPU second of its pytest processes and all their descendants, orphans too
    (start-up and collection included: :mod:`proctree`)."""
    become_subreaper()
    result = Interleaved(chunks=len(chunks))
    names = ("baseline", "current")
    start = time.monotonic()
    for index, chunk in enumerate(chunks):
        if budget_s is not None and index and time.monotonic() - start > budget_s:
            break
        result.loads.append(os.getloadavg()[0])
        for side in order(index):
            folder = out / names[side]
            folder.mkdir(parents=True, exist_ok=True)
            junit, cpu = folder / f"{index:04}.xml", folder / f"{index:04}.json"
            ids = [pair[side] for pair in chunk]
            began, cpu_before = time.perf_counter(), children_cpu()
            with (folder / f"{index:04}.log").open("wb") as log:
                subprocess.run(
                    [sys.executable, *PYTEST, f"--junitxml={junit}", f"--cpu-times={cpu}", *extra, *ids],
                    cwd=trees[side],
                    env=pytest_env(trees[side], plugins),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    check=False,
                )
            reap_orphans()
            result.wall[side] += time.perf_counter() - began
            result.tree_cpu[side] += children_cpu() - cpu_before
            result.cases[side].extend(read_cases(junit, cpu))
        result.chunks_run = index + 1
        print(
            f"  chunk {index + 1}/{len(chunks)} ({len(chunk)} tests, {'AB' if order(index)[0] == 0 else 'BA'}),"
            f" load {result.loads[-1]:.1f}, {time.monotonic() - start:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    return result
