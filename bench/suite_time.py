"""The test suite's wall time against an earlier commit's, side by side in one run, as a ratio.

Issue 23 asked that restructuring the packages leave the suite no slower than before. This bench checks
out the baseline commit (default: ``560ca34``, main before the restructuring) and the current one in temporary
git worktrees
and runs both suites at the same time on the same machine, each with the same interpreter and the same
pytest options, so both see the same load. It prints, for each side: wall time, the sum of the tests'
own durations (from pytest's JUnit XML: set-up, call and tear-down of every test) and their mean, the number of tests
passed / skipped / failed, and the ratio current / baseline of both times.

    python bench/suite_time.py                       # both whole suites (Docker tests skipped)
    python bench/suite_time.py --baseline REV -- tests/channel   # another commit, part of the suite

Both sides skip the Docker tests (``SCOPEWATCH_NO_DOCKER=1``): the engine is shared, and a
build on one side would be timed against the other. The load average before and after is printed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "560ca34"


@dataclass
class Side:
    name: str
    tree: Path
    junit: Path
    started: float = 0.0
    wall: float = 0.0
    summary: str = ""
    proc: subprocess.Popen[bytes] | None = None

    def start(self, pytest_args: list[str], log: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.tree), "SCOPEWATCH_NO_DOCKER": "1"}
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={self.junit}"]
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [*argv, *(pytest_args or ["tests"])],
            cwd=self.tree,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        self.log = log

    def wait(self) -> None:
        assert self.proc is not None
        self.proc.wait()
        self.wall = time.perf_counter() - self.started
        lines = [
            ln for ln in self.log.read_text(errors="replace").splitlines() if re.search(r"\d+ (passed|failed)", ln)
        ]
        self.summary = lines[-1].strip("= ") if lines else f"pytest exited {self.proc.returncode}"

    def test_seconds(self) -> float:
        return sum(float(case.get("time", 0) or 0) for case in self._cases())

    def test_count(self) -> int:
        return len(self._cases())

    def _cases(self) -> list[ET.Element]:
        return list(ET.parse(self.junit).iter("testcase")) if self.junit.exists() else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default=BASELINE, help=f"the commit to compare against (default {BASELINE})")
    parser.add_argument(
        "--current",
        default="HEAD",
        help="the commit measured (default HEAD, checked out apart)",
    )
    parser.add_argument("pytest_args", nargs="*", help="pytest arguments for both sides (default: tests)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="suite-time-") as tmp:
        base_tree, cur_tree = Path(tmp) / "baseline", Path(tmp) / "current"
        for tree, rev in ((base_tree, args.baseline), (cur_tree, args.current)):
            subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), rev], cwd=ROOT, check=True)
        try:
            sides = [
                Side(f"baseline {args.baseline}", base_tree, Path(tmp) / "base.xml"),
                Side(f"current {args.current}", cur_tree, Path(tmp) / "current.xml"),
            ]
            load_before = os.getloadavg()[0]
            for side in sides:
                side.start(args.pytest_args, Path(tmp) / f"{side.junit.stem}.log")
            for side in sides:
                side.wait()
            load_after = os.getloadavg()[0]
        finally:
            for tree in (base_tree, cur_tree):
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
        base, cur = sides
        print(f"load average {load_before:.1f} -> {load_after:.1f} (both suites ran at the same time)")
        for side in sides:
            per_test = side.test_seconds() / max(side.test_count(), 1)
            print(
                f"{side.name:<20} wall {side.wall:8.1f} s   tests' own {side.test_seconds():8.1f} s "
                f"({per_test:.2f} s a test)   {side.summary}"
            )
        print(
            f"ratio current/baseline: wall {_ratio(cur.wall, base.wall)}, tests' own time "
            f"{_ratio(cur.test_seconds(), base.test_seconds())}"
        )


def _ratio(current: float, baseline: float) -> str:
    return f"{current / baseline:.2f}x" if baseline > 0 else "n/a (the baseline ran no test)"


if __name__ == "__main__":
    main()
