"""Paper scale in parallel, side by side in one run, each against ``--jobs 1`` as the baseline:

- ``run --headless --trajectories 50`` on the built-in pack: ``--jobs 1`` vs ``--jobs 2`` vs a local Ray
  (``--executor ray --jobs 2``);
- ``scenarios validate favorbench`` (800 tasks in 10 packs): ``--jobs 1`` vs ``--jobs 2``;
- ``audit validate`` (525 candidates, 4 gate runs each): ``--jobs 1`` vs ``--jobs 2``.

Each is the real CLI in a subprocess (interpreter start, pack load, worker start and, for Ray,
starting a local Ray are part of the time), and each variant must print the same JSON as ``--jobs 1``
(checked here; the validators' ``seconds`` fields aside). The warm test runner and its cache are on in
all of them; the cache lives in each process, so every variant starts cold. The machine is shared: the
load average at the start and end of each timing is printed with it.

    python bench/parallel_runs.py            # the full sizes above (about half an hour on 2 loaded cores)
    python bench/parallel_runs.py --quick    # 8 trajectories, 2 FavorBench domains, 40 audit candidates
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@dataclass
class Timing:
    seconds: float
    output: Any
    load: str


def timed(argv: list[str], ok_codes: tuple[int, ...] = (0,)) -> Timing:
    """One CLI run: its wall time, its JSON (``seconds`` fields dropped) and the load around it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    before = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tui.cli", *argv], cwd=ROOT, env=env, capture_output=True)
    seconds = time.perf_counter() - started
    if done.returncode not in ok_codes:
        sys.exit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode()[-2000:]}")
    return Timing(seconds, _without_seconds(json.loads(done.stdout)), f"load {before:.1f}->{os.getloadavg()[0]:.1f}")


def _without_seconds(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_seconds(v) for v in value]
    return value


def compare(title: str, variants: dict[str, list[str]], ok_codes: tuple[int, ...] = (0,)) -> list[str]:
    """Time every variant (the first is the baseline), print as each ends; the table's rows."""
    print(f"\n{title}", flush=True)
    results: dict[str, Timing] = {}
    for name, argv in variants.items():
        results[name] = timed(argv, ok_codes)
        print(f"  {name:34} {results[name].seconds:7.1f} s   ({results[name].load})", flush=True)
    base_name = next(iter(results))
    base = results[base_name]
    rows = []
    for name, result in results.items():
        same = "same JSON" if result.output == base.output else "DIFFERENT JSON"
        ratio = base.seconds / result.seconds
        rows.append(f"| {title} | {name} | {result.seconds:.1f} s | {ratio:.2f}x | {same} as {base_name} |")
    return rows


def favorbench_subset(domains: int, where: Path) -> str:
    """The first ``domains`` FavorBench packs as a suite of their own (for --quick)."""
    from scenarios.suite import load_suite

    full = load_suite("favorbench")
    names = [pack.folder.name for pack in full.packs[:domains]]
    for name in names:
        shutil.copytree(full.folder / name, where / name)
    (where / "suite.toml").write_text(f'name = "favorbench-{domains}"\ndomains = {json.dumps(names)}\n')
    return str(where)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smaller sample of each (a few minutes)")
    parser.add_argument("--trajectories", type=int, help="trajectories of the headless run (default: 50, quick 8)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    trajectories = args.trajectories or (8 if args.quick else 50)
    print(f"{os.cpu_count()} cores; every variant must print --jobs 1's JSON", flush=True)
    rows = ["| what | variant | wall time | speed-up vs --jobs 1 | output |", "|---|---|---|---|---|"]

    run = ["run", "--headless", "--json", "--trajectories", str(trajectories), "--seed", str(args.seed)]
    rows += compare(
        f"run --headless --trajectories {trajectories} (favorbench-mini)",
        {
            "--jobs 1": [*run, "--jobs", "1"],
            "--jobs 2": [*run, "--jobs", "2"],
            "--executor ray (local, 2 CPUs)": [*run, "--executor", "ray", "--jobs", "2"],
        },
    )
    with tempfile.TemporaryDirectory(prefix="scopewatch-bench-") as scratch:
        suite = favorbench_subset(2, Path(scratch)) if args.quick else "favorbench"
        label = "2 of its 10 domains" if args.quick else "800 tasks, 10 packs"
        validate = ["scenarios", "validate", suite, "--json"]
        rows += compare(
            f"scenarios validate favorbench ({label})",
            {"--jobs 1": [*validate, "--jobs", "1"], "--jobs 2": [*validate, "--jobs", "2"]},
        )
    audit = ["audit", "validate", "--json", *(["--sample", "40"] if args.quick else [])]
    rows += compare(
        f"audit validate ({'40' if args.quick else '525'} candidates)",
        {"--jobs 1": [*audit, "--jobs", "1"], "--jobs 2": [*audit, "--jobs", "2"]},
    )
    print("\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
