"""The test suite's time against an earlier commit's, test by test, side by side in one run.

Issue 23 asked that restructuring the packages leave the suite no slower than before. The two trees hold
different test sets (the restructuring moved tests between files and later issues added many), so the
whole-suite wall time compares different work. This bench therefore matches the SAME tests across the two
trees and compares their own durations (set-up + call + tear-down, from pytest's JUnit XML):

- a test is keyed by its function name with its parametrisation id (``test_x[memory]``): tests moved between
  files keep their function names; where that name is not unique on a side, by the module's base name (and
  class) as well (``test_loop.py::test_x[memory]``); what stays ambiguous or exists on one side only is
  counted as unmatched;
- only tests that passed on both sides are compared (a skip or a failure is not the same work).

It checks out the baseline commit (default ``560ca34``, main before the restructuring) and the current one
in temporary git worktrees and runs both suites at the same time on the same machine, with the same
interpreter and the same pytest options, so both see the same load. It prints the matched tests' summed time
on each side and its ratio, the median per-test ratio (of all matched tests, and of those taking at least
1 s on the baseline, where timer noise is small), the 15 tests that got slower by the most seconds (both
times), the unmatched counts, and each side's wall time, counts and failures for information.

    python bench/suite_time.py                                   # both whole suites (Docker tests skipped)
    python bench/suite_time.py --tests tests/channel             # a part, the same path on both sides
    python bench/suite_time.py --tests tests/tui/cli --baseline-tests tests/tui/test_cli.py   # moved files
    python bench/suite_time.py -k "bus or replay" --keep /tmp/st  # a -k filter; keep the XML and the logs
    python bench/suite_time.py --compare base.xml current.xml    # only the comparison, of two kept XMLs
    python bench/suite_time.py -- -x                             # more pytest arguments for both sides

Both sides skip the Docker tests (``SCOPEWATCH_NO_DOCKER=1``): the engine is shared, and a build on one side
would be timed against the other. The load average before and after is printed.
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
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "560ca34"
TOP = 15
NOISE_FLOOR_S = 1.0  # the second median ratio counts only tests at least this long on the baseline


@dataclass(frozen=True)
class Case:
    """One test case of a JUnit XML report."""

    module: str  # the module's base name, without ``.py``
    cls: str  # the class inside the module, or ""
    name: str  # the function name with its parametrisation id
    seconds: float
    outcome: str  # passed, skipped, failed or error

    @property
    def where(self) -> str:
        return f"{self.module}.py::" + (f"{self.cls}::" if self.cls else "") + self.name


def read_cases(junit: Path) -> list[Case]:
    """The test cases of a JUnit XML file (xunit1, with ``file``; or xunit2, from ``classname``)."""
    if not junit.exists() or junit.stat().st_size == 0:
        return []
    cases = []
    for case in ET.parse(junit).iter("testcase"):
        parts = case.get("classname", "").split(".")
        file = case.get("file")
        stem = Path(file).stem if file else ""
        at = parts.index(stem) if stem in parts else _module_index(parts)
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed" if child.tag == "failure" else "error"
                break
            if child.tag == "skipped":
                outcome = "skipped"
        cases.append(
            Case(
                module=parts[at] if 0 <= at < len(parts) else stem,
                cls=".".join(parts[at + 1 :]) if at >= 0 else "",
                name=case.get("name", ""),
                seconds=float(case.get("time", 0) or 0),
                outcome=outcome,
            )
        )
    return cases


def _module_index(parts: list[str]) -> int:
    for i in range(len(parts) - 1, -1, -1):
        if parts[i].startswith("test_") or parts[i].endswith("_test"):
            return i
    return len(parts) - 1


@dataclass
class Matching:
    pairs: list[tuple[Case, Case]]  # (baseline, current), both passed
    only_baseline: list[Case]
    only_current: list[Case]
    ambiguous: int  # tests on either side whose name and module left more than one candidate
    not_both_passed: list[tuple[Case, Case]]  # matched, but skipped or failed on a side


def match(baseline: list[Case], current: list[Case]) -> Matching:
    """Pair each baseline test with the current test of the same name (and module, where the name repeats)."""
    by_name: dict[str, tuple[list[Case], list[Case]]] = defaultdict(lambda: ([], []))
    for side, cases in enumerate((baseline, current)):
        for case in cases:
            by_name[case.name][side].append(case)
    found: list[tuple[Case, Case]] = []
    out = Matching([], [], [], 0, [])
    for base, cur in by_name.values():
        if len(base) == 1 and len(cur) == 1:
            found.append((base[0], cur[0]))
            continue
        by_place: dict[tuple[str, str], tuple[list[Case], list[Case]]] = defaultdict(lambda: ([], []))
        for side, cases in enumerate((base, cur)):
            for case in cases:
                by_place[(case.module, case.cls)][side].append(case)
        for in_base, in_cur in by_place.values():
            if len(in_base) == 1 and len(in_cur) == 1:
                found.append((in_base[0], in_cur[0]))
            elif in_base and in_cur:
                out.ambiguous += len(in_base) + len(in_cur)
            elif in_base:
                out.only_baseline += in_base
            else:
                out.only_current += in_cur
    for b, c in found:
        (out.pairs if b.outcome == c.outcome == "passed" else out.not_both_passed).append((b, c))
    return out


def report(baseline: list[Case], current: list[Case], top: int = TOP) -> list[str]:
    """The comparison of the matched tests, as lines to print."""
    m = match(baseline, current)
    base_s = sum(b.seconds for b, _ in m.pairs)
    cur_s = sum(c.seconds for _, c in m.pairs)
    lines = [
        f"matched tests passed on both sides: {len(m.pairs)}",
        f"  their own time: baseline {base_s:8.1f} s   current {cur_s:8.1f} s   ratio {_ratio(cur_s, base_s)}",
    ]
    ratios = [c.seconds / b.seconds for b, c in m.pairs if b.seconds > 0]
    long = [c.seconds / b.seconds for b, c in m.pairs if b.seconds >= NOISE_FLOOR_S]
    lines.append(
        f"  median per-test ratio: {_median(ratios)} (of {len(ratios)}); of the {len(long)} taking"
        f" >= {NOISE_FLOOR_S:g} s on the baseline: {_median(long)}"
    )
    grew = [p for p in m.pairs if p[1].seconds > p[0].seconds]
    slower = sorted(grew, key=lambda p: p[1].seconds - p[0].seconds, reverse=True)[:top]
    lines.append(f"  {len(grew)} got slower; the {len(slower)} slower by the most seconds (baseline -> current):")
    width = max((len(c.where) for _, c in slower), default=0)
    for b, c in slower:
        moved = "" if (b.module, b.cls) == (c.module, c.cls) else f"   (was {b.module}.py)"
        lines.append(
            f"    {c.where:<{width}}  {b.seconds:7.2f} s -> {c.seconds:7.2f} s  ({_ratio(c.seconds, b.seconds)}){moved}"
        )
    lines.append(
        f"unmatched: {len(m.only_baseline)} baseline only, {len(m.only_current)} current only,"
        f" {m.ambiguous} ambiguous; matched but not passed on both: {len(m.not_both_passed)}"
    )
    for b, c in m.not_both_passed:
        if "failed" in (b.outcome, c.outcome) or "error" in (b.outcome, c.outcome):
            lines.append(f"    {c.where}: baseline {b.outcome}, current {c.outcome}")
    return lines


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x" if values else "n/a"


def _ratio(current: float, baseline: float) -> str:
    return f"{current / baseline:.2f}x" if baseline > 0 else "n/a"


@dataclass
class Side:
    name: str
    tree: Path
    junit: Path
    log: Path
    started: float = 0.0
    wall: float = 0.0
    summary: str = ""
    proc: subprocess.Popen[bytes] | None = None

    def start(self, pytest_args: list[str]) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.tree), "SCOPEWATCH_NO_DOCKER": "1"}
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1"]
        self.started = time.perf_counter()
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [*argv, f"--junitxml={self.junit}", *pytest_args],
                cwd=self.tree,
                env=env,
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


def run_both(args: argparse.Namespace, out: Path) -> tuple[Side, Side]:
    """Run both suites at once in temporary worktrees; their XML and logs go to ``out``."""
    trees = out / "trees"
    trees.mkdir(parents=True, exist_ok=True)
    base_tree, cur_tree = trees / "baseline", trees / "current"
    base = Side(f"baseline {args.baseline}", base_tree, out / "baseline.xml", out / "baseline.log")
    cur = Side(f"current {args.current}", cur_tree, out / "current.xml", out / "current.log")
    common = [*(["-k", args.k] if args.k else []), *args.pytest_args]
    base_paths = args.baseline_tests or args.tests or ["tests"]
    cur_paths = args.tests or ["tests"]
    for tree, rev in ((base_tree, args.baseline), (cur_tree, args.current)):
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), rev], cwd=ROOT, check=True)
    try:
        load_before = os.getloadavg()[0]
        base.start([*common, *base_paths])
        cur.start([*common, *cur_paths])
        try:
            base.wait()
            cur.wait()
        finally:
            base.stop()
            cur.stop()
        load_after = os.getloadavg()[0]
    finally:
        for tree in (base_tree, cur_tree):
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    print(f"load average {load_before:.1f} -> {load_after:.1f} (both suites ran at the same time)")
    return base, cur


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default=BASELINE, help=f"the commit to compare against (default {BASELINE})")
    parser.add_argument("--current", default="HEAD", help="the commit measured (default HEAD, checked out apart)")
    parser.add_argument("--tests", nargs="+", metavar="PATH", help="test paths for both sides (default: tests)")
    parser.add_argument(
        "--baseline-tests", nargs="+", metavar="PATH", help="test paths on the baseline side (default: --tests)"
    )
    parser.add_argument("-k", metavar="EXPR", help="pytest's -k filter, on both sides")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the JUnit XML and the logs in DIR")
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("BASELINE_XML", "CURRENT_XML"),
        help="run nothing: compare two JUnit XML files kept from an earlier run",
    )
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments for both sides (after --)")
    args = parser.parse_args()
    if args.compare:
        for xml in args.compare:
            if not xml.is_file():
                parser.exit(2, f"suite_time: --compare: {xml} is not a file\n")
        print("\n".join(report(read_cases(args.compare[0]), read_cases(args.compare[1]))))
        return
    with tempfile.TemporaryDirectory(prefix="suite-time-") as tmp:
        out = args.keep or Path(tmp)
        base, cur = run_both(args, out)
        cases = [read_cases(side.junit) for side in (base, cur)]
        for side, side_cases in zip((base, cur), cases, strict=True):
            own = sum(case.seconds for case in side_cases)
            print(
                f"{side.name:<20} wall {side.wall:8.1f} s   {len(side_cases)} tests, their own {own:.1f} s,"
                f" outside them (start-up, collection) {side.wall - own:.1f} s   {side.summary}"
            )
            for case in side_cases:
                if case.outcome in ("failed", "error"):
                    print(f"    {case.outcome}: {case.where}")
        print(f"wall-time ratio current/baseline (different test sets): {_ratio(cur.wall, base.wall)}")
        print("\n".join(report(cases[0], cases[1])))
        if args.keep:
            print(f"kept: {out}/baseline.xml, {out}/current.xml and their .log")


if __name__ == "__main__":
    main()
