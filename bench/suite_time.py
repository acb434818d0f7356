"""The test suite's time against an earlier commit's, test by test, by wall and by CPU time.

Issue 23 asked that restructuring the packages leave the suite no slower than before. The two trees hold
different test sets (the restructuring moved tests between files and later issues added many), so the
whole-suite wall time compares different work. This bench therefore matches the SAME tests across the two
trees (by function name and parametrisation id, module where a name repeats; only tests passed on both
sides count: :mod:`suite_compare`) and compares their own times: wall (set-up + call + tear-down, from
pytest's JUnit XML) and CPU (the pytest process's own plus its waited-for children's, from the plugin
``bench/suite_cpu.py`` loaded in both trees with ``-p``, its JSON beside each XML). On a machine others
load, CPU time is the fair measure: it grows little with the load, wall time grows with it.

It checks out the baseline commit (default ``560ca34``, main before the restructuring) and the current one
in temporary git worktrees and runs the same interpreter and pytest options in both, in one of two modes:

- ``--interleaved`` (the fair one, :mod:`suite_interleave`): both sides collected, the matched tests cut
  into chunks of ``--chunk`` tests, each chunk run on one side then on the other, the first side
  alternating (ABBA), chunks in a shuffled order, until done or past ``--budget`` minutes;
- by default, both whole suites at the same time (the heavy tests run at different moments on each side,
  so under a changing load their wall times are not comparable; their CPU times still are).

It prints the matched tests' summed wall and CPU time on each side and the ratios, the median per-test
ratios (all matched tests, and those taking at least 1 s on the baseline, where timer noise is small), the
15 that got slower by the most CPU seconds (wall and CPU of both), the unmatched counts, the load average.

    python bench/suite_time.py --interleaved --budget 40        # matched tests, ABBA chunks, 40 minutes at most
    python bench/suite_time.py --interleaved --tests tests/engine/session --baseline-tests tests/engine
    python bench/suite_time.py                                   # both whole suites at once (Docker tests skipped)
    python bench/suite_time.py --tests tests/channel             # a part, the same path on both sides
    python bench/suite_time.py -k "bus or replay" --keep /tmp/st  # a -k filter; keep the XML, JSON and logs
    python bench/suite_time.py --compare base.xml current.xml    # only the comparison (CPU from base.json ...)
    python bench/suite_time.py -- -x                             # more pytest arguments for both sides

Both sides skip the Docker tests (``SCOPEWATCH_NO_DOCKER=1``): the engine is shared, and a build on one side
would be timed against the other.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from suite_compare import match, read_cases, report
from suite_interleave import PYTEST, collect, plan, plugin_dir, pytest_env, run_chunks

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "560ca34"


@dataclass
class Side:
    name: str
    tree: Path
    junit: Path
    cpu: Path
    log: Path
    started: float = 0.0
    wall: float = 0.0
    summary: str = ""
    proc: subprocess.Popen[bytes] | None = None

    def start(self, pytest_args: list[str], plugins: Path) -> None:
        self.started = time.perf_counter()
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, *PYTEST, f"--junitxml={self.junit}", f"--cpu-times={self.cpu}", *pytest_args],
                cwd=self.tree,
                env=pytest_env(self.tree, plugins),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, so an interrupt can end the whole suite
            )

    def wait(self) -> None:
        assert self.proc is not None
        self.proc.wait()
        self.wall = time.perf_counter() - self.started
        text = self.log.read_text(errors="replace").splitlines()
        lines = [ln for ln in text if re.search(r"\d+ (passed|failed|skipped|deselected)", ln)]
        last = next((ln for ln in reversed(text) if ln.strip()), "")
        self.summary = lines[-1].strip("= ") if lines else f"pytest exited {self.proc.returncode}: {last}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            self.proc.wait()


def worktrees(args: argparse.Namespace, out: Path) -> tuple[Path, Path]:
    """The baseline and current commits checked out under ``out/trees`` (removed by :func:`drop_trees`)."""
    trees = out / "trees"
    trees.mkdir(parents=True, exist_ok=True)
    base_tree, cur_tree = trees / "baseline", trees / "current"
    for tree, rev in ((base_tree, args.baseline), (cur_tree, args.current)):
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), rev], cwd=ROOT, check=True)
    return base_tree, cur_tree


def drop_trees(trees: tuple[Path, Path]) -> None:
    for tree in trees:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def run_both(args: argparse.Namespace, out: Path, trees: tuple[Path, Path]) -> None:
    """Both suites at once; prints each side's wall time and counts, then the comparison."""
    base, cur = (
        Side(f"{name} {rev}", tree, out / f"{name}.xml", out / f"{name}.json", out / f"{name}.log")
        for name, rev, tree in (("baseline", args.baseline, trees[0]), ("current", args.current, trees[1]))
    )
    common = [*(["-k", args.k] if args.k else []), *args.pytest_args]
    plugins = plugin_dir(out)
    load_before = os.getloadavg()[0]
    base.start([*common, *(args.baseline_tests or args.tests or ["tests"])], plugins)
    cur.start([*common, *(args.tests or ["tests"])], plugins)
    try:
        base.wait()
        cur.wait()
    finally:
        base.stop()
        cur.stop()
    print(f"load average {load_before:.1f} -> {os.getloadavg()[0]:.1f} (both suites ran at the same time)")
    cases = [read_cases(side.junit, side.cpu) for side in (base, cur)]
    for side, side_cases in zip((base, cur), cases, strict=True):
        own = sum(case.seconds for case in side_cases)
        print(
            f"{side.name:<20} wall {side.wall:8.1f} s   {len(side_cases)} tests, their own {own:.1f} s,"
            f" outside them (start-up, collection) {side.wall - own:.1f} s   {side.summary}"
        )
        for case in side_cases:
            if case.outcome in ("failed", "error"):
                print(f"    {case.outcome}: {case.where}")
    print(f"wall-time ratio current/baseline (different test sets): {cur.wall / base.wall:.2f}x")
    print("\n".join(report(cases[0], cases[1])))


def run_interleaved(args: argparse.Namespace, out: Path, trees: tuple[Path, Path]) -> None:
    """The matched tests in ABBA chunks (:mod:`suite_interleave`); prints the load seen and the comparison."""
    plugins = plugin_dir(out)
    extra = [*(["-k", args.k] if args.k else [])]
    base = collect(trees[0], args.baseline_tests or args.tests or ["tests"], [*extra, *args.pytest_args], plugins)
    cur = collect(trees[1], args.tests or ["tests"], [*extra, *args.pytest_args], plugins)
    chunks = plan(base, cur, args.chunk, args.seed)
    planned = sum(len(c) for c in chunks)
    m = match(base, cur)
    print(
        f"collected {len(base)} baseline, {len(cur)} current; {planned} matched, in {len(chunks)} chunks;"
        f" unmatched: {len(m.only_baseline)} baseline only, {len(m.only_current)} current only, {m.ambiguous} ambiguous"
    )
    budget = args.budget * 60 if args.budget else None
    done = run_chunks(trees, chunks, out, plugins, args.pytest_args, budget)
    loads = done.loads or [os.getloadavg()[0]]
    ran = sum(len(c) for c in chunks[: done.chunks_run])
    print(
        f"ran {done.chunks_run} of {done.chunks} chunks ({ran} of {planned} matched tests), ABBA;"
        f" pytest processes' wall: baseline {done.wall[0]:.0f} s, current {done.wall[1]:.0f} s"
        f" ({done.wall[1] / max(done.wall[0], 1e-9):.2f}x); their process trees' CPU, start-up and orphans"
        f" included: baseline {done.tree_cpu[0]:.0f} s, current {done.tree_cpu[1]:.0f} s"
        f" ({done.tree_cpu[1] / max(done.tree_cpu[0], 1e-9):.2f}x);"
        f" load average at chunk starts {min(loads):.1f} / {statistics.median(loads):.1f} / {max(loads):.1f}"
        " (min / median / max)"
    )
    print("\n".join(report(*done.cases)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default=BASELINE, help=f"the commit to compare against (default {BASELINE})")
    parser.add_argument("--current", default="HEAD", help="the commit measured (default HEAD, checked out apart)")
    parser.add_argument("--tests", nargs="+", metavar="PATH", help="test paths for both sides (default: tests)")
    parser.add_argument(
        "--baseline-tests", nargs="+", metavar="PATH", help="test paths on the baseline side (default: --tests)"
    )
    parser.add_argument("-k", metavar="EXPR", help="pytest's -k filter, on both sides")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the JUnit XML, CPU JSON and logs in DIR")
    parser.add_argument("--interleaved", action="store_true", help="matched tests only, in ABBA chunks")
    parser.add_argument("--chunk", type=int, default=8, metavar="N", help="tests per chunk (default 8)")
    parser.add_argument("--budget", type=float, metavar="MIN", help="--interleaved: start no chunk after MIN minutes")
    parser.add_argument("--seed", type=int, default=0, help="--interleaved: the chunks' shuffled order (default 0)")
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("BASELINE_XML", "CURRENT_XML"),
        help="run nothing: compare two JUnit XML files kept from an earlier run (CPU from the .json beside each)",
    )
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments for both sides (after --)")
    args = parser.parse_args()
    if args.chunk < 1:
        parser.exit(2, "suite_time: --chunk must be at least 1\n")
    if args.compare:
        for xml in args.compare:
            if not xml.is_file():
                parser.exit(2, f"suite_time: --compare: {xml} is not a file\n")
        base, cur = (read_cases(xml, xml.with_suffix(".json")) for xml in args.compare)
        print("\n".join(report(base, cur)))
        return
    with tempfile.TemporaryDirectory(prefix="suite-time-") as tmp:
        out = args.keep or Path(tmp)
        trees = worktrees(args, out)
        try:
            (run_interleaved if args.interleaved else run_both)(args, out, trees)
        finally:
            drop_trees(trees)
        if args.keep:
            print(f"kept: {out} (JUnit XML, CPU JSON and logs per side)")


if __name__ == "__main__":
    main()
