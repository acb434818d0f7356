"""Wall time of ``scopewatch run --headless --trajectories N`` on the built-in pack: sequential
(``--jobs 1``) vs parallel worker processes (``--jobs 2``) vs a local Ray (``--executor ray --jobs 2``),
side by side in one run; each must print the same JSON (checked here).

Each is the real CLI in a subprocess (interpreter start, pack load and, for Ray, starting a local Ray
are part of the time). The warm test runner and its cache are on in all three; the sequential run
is the baseline.

    python bench/parallel_runs.py [--trajectories 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

VARIANTS = {
    "--jobs 1": ["--jobs", "1"],
    "--jobs 2": ["--jobs", "2"],
    "--executor ray (local, 2 CPUs)": ["--executor", "ray", "--jobs", "2"],
}


def timed(trajectories: int, seed: int, extra: list[str]) -> tuple[float, bytes]:
    argv = [sys.executable, "-m", "tui.cli", "run", "--headless", "--json"]
    argv += ["--trajectories", str(trajectories), "--seed", str(seed), *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trajectories", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    what = f"--trajectories {args.trajectories} --seed {args.seed}"
    print(f"run --headless {what} (favorbench-mini), {os.cpu_count()} cores:")
    results: dict[str, tuple[float, bytes]] = {}
    for name, extra in VARIANTS.items():
        results[name] = timed(args.trajectories, args.seed, extra)
        print(f"  {name:32} {results[name][0]:7.1f} s", flush=True)
    base, expected = results["--jobs 1"]
    for name, (seconds, output) in results.items():
        same = "same JSON" if output == expected else "DIFFERENT JSON"
        print(f"  {name:32} speed-up {base / seconds:4.2f}x  ({same} as --jobs 1)")


if __name__ == "__main__":
    main()
