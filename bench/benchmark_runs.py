"""Benchmark-scale runs against an earlier commit, side by side in one run, as ratios (issue 29):

- ``run --headless --json --scenario favorbench --trajectories 50 --jobs 2``;
- ``overeager validate --json --jobs 2`` (all 525 candidates).

The baseline commit (default ``main``) and the current one (default ``HEAD``) are checked out in
temporary git worktrees and run with the same interpreter, one after the other, rounds alternating
(baseline, current, baseline, ...) so the load of a shared machine hits both alike. Each run is the
real CLI in a subprocess (start-up, pack load and worker start included); its CPU time is the
user + system time of it and every process it waited for (less load-sensitive than wall time). Both
sides must print the same JSON (checked; the validators' ``seconds`` fields aside, and fields the
baseline did not print yet, which are named): a speed-up that changes results is no speed-up.
Printed: each round's wall time, the medians, the ratio baseline / current (done when >= 2) and the
load average around each timing.

    python bench/benchmark_runs.py                          # the full sizes (hours on 2 loaded cores)
    python bench/benchmark_runs.py --trajectories 2 --sample 20 --rounds 1   # a quick look
    python bench/benchmark_runs.py --baseline REV --only run
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def timed(tree: Path, argv: list[str]) -> tuple[float, float, Any, str]:
    """One CLI run of the tree at ``tree``: its wall time, its CPU time (user + system of it and every
    process it waited for), its JSON (``seconds`` fields dropped) and the load around it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode cached, as installed
    env["PYTHONPATH"] = str(tree)
    before = os.getloadavg()[0]
    cpu_before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tui.cli", *argv], cwd=tree, env=env, capture_output=True)
    seconds = time.perf_counter() - started
    cpu = _children_cpu() - cpu_before
    if done.returncode != 0:
        sys.exit(f"{tree}: {' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode()[-2000:]}")
    return seconds, cpu, _without_seconds(json.loads(done.stdout)), f"load {before:.1f}->{os.getloadavg()[0]:.1f}"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _without_seconds(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_seconds(v) for v in value]
    return value


def compare_outputs(base: Any, current: Any) -> str:
    """ "same JSON", or "same JSON, fields added: ..." where the current side only prints fields the
    baseline did not know (a later version's report has more to say; every field both print is equal),
    else "DIFFERENT JSON: <the first differing path>"."""
    added: list[str] = []

    def walk(a: Any, b: Any, path: str) -> str:
        if isinstance(a, dict) and isinstance(b, dict):
            if set(a) - set(b):
                return f"{path}/{sorted(set(a) - set(b))[0]} (only in the baseline)"
            added.extend(f"{path}/{k}" for k in sorted(set(b) - set(a)))
            return next((d for k in sorted(a) if (d := walk(a[k], b[k], f"{path}/{k}"))), "")
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return f"{path} ({len(a)} against {len(b)} items)"
            return next((d for i, (x, y) in enumerate(zip(a, b, strict=True)) if (d := walk(x, y, f"{path}[{i}]"))), "")
        return "" if a == b else path

    differs = walk(base, current, "")
    if differs:
        return f"DIFFERENT JSON: {differs}"
    names = sorted({re.sub(r"\[\d+\]", "[]", path) for path in added})
    return "same JSON" + (f", fields added: {', '.join(names)}" if names else "")


def side_by_side(title: str, argv: list[str], trees: dict[str, Path], rounds: int, save: Path | None = None) -> str:
    """Time ``argv`` on both trees, rounds alternating; the result line. ``save``: each side's JSON
    written there (``<side>-<command>.json``), to look at a difference whole."""
    print(f"\n{title}", flush=True)
    walls: dict[str, list[float]] = {name: [] for name in trees}
    cpus: dict[str, list[float]] = {name: [] for name in trees}
    outputs: dict[str, Any] = {}
    for n in range(rounds):
        for name, tree in trees.items():
            seconds, cpu, output, load = timed(tree, argv)
            walls[name].append(seconds)
            cpus[name].append(cpu)
            if name in outputs and outputs[name] != output:
                sys.exit(f"{title}: {name} printed different JSON in round {n + 1}: not deterministic")
            outputs[name] = output
            print(f"  round {n + 1} {name:9} {seconds:8.1f} s wall {cpu:8.1f} s CPU   ({load})", flush=True)
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        for name, output in outputs.items():
            path = save / f"{name}-{argv[0]}{'-' + argv[1] if argv[0] == 'overeager' else ''}.json"
            path.write_text(json.dumps(output, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    base, current = (statistics.median(walls[name]) for name in trees)
    base_cpu, current_cpu = (statistics.median(cpus[name]) for name in trees)
    same = compare_outputs(*outputs.values())
    return (
        f"| {title} | {base:.1f} s / {base_cpu:.1f} s CPU | {current:.1f} s / {current_cpu:.1f} s CPU "
        f"| {base / current:.2f}x wall, {base_cpu / current_cpu:.2f}x CPU (done when >= 2) | {same} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="main", help="the commit to compare against (default main)")
    parser.add_argument("--current", default="HEAD", help="the commit measured (default HEAD, checked out apart)")
    parser.add_argument("--trajectories", type=int, default=50, help="trajectories of the favorbench run (default 50)")
    parser.add_argument("--sample", type=int, help="validate only this many audit candidates (default: all 525)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of both commands (default 2)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each side (default 2)")
    parser.add_argument("--only", choices=["run", "validate"], help="time only one of the two commands")
    parser.add_argument("--save", type=Path, help="write each side's JSON (seconds fields dropped) into this folder")
    args = parser.parse_args()
    jobs = ["--jobs", str(args.jobs)]
    commands = {
        "run": (
            f"run --headless --scenario favorbench --trajectories {args.trajectories} --jobs {args.jobs}",
            [
                "run",
                "--headless",
                "--json",
                "--scenario",
                "favorbench",
                "--trajectories",
                str(args.trajectories),
                *jobs,
            ],
        ),
        "validate": (
            f"overeager validate ({args.sample or 'all'} candidates) --jobs {args.jobs}",
            ["overeager", "validate", "--json", *jobs, *(["--sample", str(args.sample)] if args.sample else [])],
        ),
    }
    rows = [
        f"| what | baseline {args.baseline} | current {args.current} | speed-up | output |",
        "|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory(prefix="benchmark-runs-") as tmp:
        trees = {"baseline": Path(tmp) / "baseline", "current": Path(tmp) / "current"}
        for tree, rev in zip(trees.values(), (args.baseline, args.current), strict=True):
            subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), rev], cwd=ROOT, check=True)
        try:
            print(f"{os.cpu_count()} cores; baseline {args.baseline}, current {args.current}", flush=True)
            for key, (title, argv) in commands.items():
                if args.only in (None, key):
                    rows.append(side_by_side(title, argv, trees, args.rounds, args.save))
        finally:
            for tree in trees.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    print("\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
