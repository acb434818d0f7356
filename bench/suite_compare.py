"""The same tests of two trees, matched and compared by wall and CPU time (for ``bench/suite_time.py``).

- A test is keyed by its function name with its parametrisation id (``test_x[memory]``): tests moved
  between files keep their function names; where that name is not unique on a side, by the module's
  base name (and class) as well (``test_loop.py::test_x[memory]``); what stays ambiguous or exists on
  one side only is unmatched.
- Only tests that passed on both sides are compared (a skip or a failure is not the same work).
- Wall time is the JUnit XML's (set-up + call + tear-down); CPU time, where the run had the plugin
  ``bench/suite_cpu.py``, is its JSON's: the process's own plus its waited-for children's.
"""

from __future__ import annotations

import json
import statistics
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

TOP = 15
NOISE_FLOOR_S = 1.0  # the ">= 1 s" medians count only tests at least this long (wall) on the baseline


@dataclass(frozen=True)
class Case:
    """One test case: of a JUnit XML report, or of a collection (no times yet)."""

    module: str  # the module's base name, without ``.py``
    cls: str  # the class inside the module (``A.B`` when nested), or ""
    name: str  # the function name with its parametrisation id
    seconds: float  # wall
    outcome: str  # passed, skipped, failed or error
    nodeid: str = ""  # pytest's ``path/test_x.py::Class::name``, where the report gave the file
    cpu: float | None = None  # own + waited-for children's CPU seconds, when measured

    @property
    def where(self) -> str:
        return f"{self.module}.py::" + (f"{self.cls}::" if self.cls else "") + self.name


def from_nodeid(nodeid: str) -> Case:
    """A collected test (``tests/a/test_x.py::Cls::test_y[p]``) as a case not yet run."""
    path, *inner = nodeid.split("::")
    return Case(Path(path).stem, ".".join(inner[:-1]), inner[-1] if inner else "", 0.0, "passed", nodeid)


def read_cases(junit: Path, cpu_json: Path | None = None) -> list[Case]:
    """The test cases of a JUnit XML file (xunit1, with ``file``; or xunit2, from ``classname``), with
    their CPU time from ``cpu_json`` (the plugin's, by node id) where given and present."""
    if not junit.exists() or junit.stat().st_size == 0:
        return []
    cpu = read_cpu(cpu_json) if cpu_json is not None else {}
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
        cls = ".".join(parts[at + 1 :]) if at >= 0 else ""
        name = case.get("name", "")
        nodeid = "::".join([file, *(cls.split(".") if cls else []), name]) if file else ""
        cases.append(
            Case(
                module=parts[at] if 0 <= at < len(parts) else stem,
                cls=cls,
                name=name,
                seconds=float(case.get("time", 0) or 0),
                outcome=outcome,
                nodeid=nodeid,
                cpu=cpu.get(nodeid),
            )
        )
    return cases


def read_cpu(path: Path) -> dict[str, float]:
    """Node id -> own + children's CPU seconds, from the plugin's JSON (empty when the file is missing)."""
    if not path.exists() or path.stat().st_size == 0:
        return {}
    return {nodeid: t["self"] + t["children"] for nodeid, t in json.loads(path.read_text()).items()}


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


def match(baseline: Iterable[Case], current: Iterable[Case]) -> Matching:
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
    """The comparison of the matched tests, as lines to print: summed wall and CPU time and their ratios,
    median per-test ratios (all, and tests >= 1 s on the baseline), the ``top`` changed most."""
    m = match(baseline, current)
    timed = [(b, c) for b, c in m.pairs if b.cpu is not None and c.cpu is not None]
    lines = [f"matched tests passed on both sides: {len(m.pairs)}"]
    lines.append(_sums("wall", m.pairs, lambda k: k.seconds))
    if timed:
        lines.append(_sums("CPU (own + children)", timed, lambda k: k.cpu or 0.0))
    lines.append(_medians("wall", m.pairs, lambda k: k.seconds))
    if timed:
        lines.append(_medians("CPU", timed, lambda k: k.cpu or 0.0))
    by_cpu = len(timed) == len(m.pairs) and bool(timed)
    cost: Callable[[Case], float] = (lambda k: k.cpu or 0.0) if by_cpu else (lambda k: k.seconds)
    grew = [p for p in m.pairs if cost(p[1]) > cost(p[0])]
    slower = sorted(grew, key=lambda p: cost(p[1]) - cost(p[0]), reverse=True)[:top]
    lines.append(
        f"  {len(grew)} got slower by {'CPU' if by_cpu else 'wall'} time; the {len(slower)} slower by the most"
        " seconds (baseline -> current):"
    )
    width = max((len(c.where) for _, c in slower), default=0)
    for b, c in slower:
        moved = "" if (b.module, b.cls) == (c.module, c.cls) else f"   (was {b.module}.py)"
        line = f"    {c.where:<{width}}  wall {b.seconds:7.2f} s -> {c.seconds:7.2f} s ({_ratio(c.seconds, b.seconds)})"
        if b.cpu is not None and c.cpu is not None:
            line += f"  CPU {b.cpu:7.2f} s -> {c.cpu:7.2f} s ({_ratio(c.cpu, b.cpu)})"
        lines.append(line + moved)
    lines.append(
        f"unmatched: {len(m.only_baseline)} baseline only, {len(m.only_current)} current only,"
        f" {m.ambiguous} ambiguous; matched but not passed on both: {len(m.not_both_passed)}"
    )
    for b, c in m.not_both_passed:
        if "failed" in (b.outcome, c.outcome) or "error" in (b.outcome, c.outcome):
            lines.append(f"    {c.where}: baseline {b.outcome}, current {c.outcome}")
    return lines


def _sums(what: str, pairs: list[tuple[Case, Case]], cost: Callable[[Case], float]) -> str:
    base, cur = sum(cost(b) for b, _ in pairs), sum(cost(c) for _, c in pairs)
    return f"  {what + ':':<22} baseline {base:8.1f} s   current {cur:8.1f} s   ratio {_ratio(cur, base)}"


def _medians(what: str, pairs: list[tuple[Case, Case]], cost: Callable[[Case], float]) -> str:
    ratios = [cost(c) / cost(b) for b, c in pairs if cost(b) > 0]
    long = [cost(c) / cost(b) for b, c in pairs if b.seconds >= NOISE_FLOOR_S and cost(b) > 0]
    return (
        f"  median per-test ratio, {what}: {_median(ratios)} (of {len(ratios)}); of the {len(long)} taking"
        f" >= {NOISE_FLOOR_S:g} s on the baseline: {_median(long)}"
    )


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x" if values else "n/a"


def _ratio(current: float, baseline: float) -> str:
    return f"{current / baseline:.2f}x" if baseline > 0 else "n/a"
