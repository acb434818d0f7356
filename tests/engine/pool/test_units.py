"""The pool of units (engine/pool/): results in unit order, progress reported to the driver wherever a
unit runs (in-process here; worker processes and Ray in tests/engine/runs/test_batch.py)."""

from __future__ import annotations

import pytest

from engine.pool.progress import collected, report, reporting_to
from engine.pool.units import run_units, valid_executor


def square(n: int) -> int:
    report(f"did {n}")
    return n * n


def fail(n: int) -> int:
    raise ValueError(f"unit {n} failed")


def test_in_process_units_give_results_in_order_and_report_progress() -> None:
    reports: list[str] = []
    results: list[tuple[int, int]] = []
    got = run_units(
        square, [(3,), (1,), (2,)], jobs=1, on_report=reports.append, on_result=lambda i, r: results.append((i, r))
    )
    assert got == [9, 1, 4]
    assert reports == ["did 3", "did 1", "did 2"]
    assert results == [(0, 9), (1, 1), (2, 4)]
    report("after the batch")  # no sink any more: nowhere, silently


def test_collected_returns_a_units_reports_with_its_result() -> None:
    seen: list[str] = []
    with reporting_to(seen.append):
        assert collected(square, (5,)) == (25, ["did 5"])
        report("outer")
    assert seen == ["outer"]  # the unit's reports went to its own list, the outer sink was restored


def test_the_first_failing_unit_stops_the_batch_with_its_error() -> None:
    with pytest.raises(ValueError, match="unit 1 failed"):
        run_units(fail, [(1,), (2,)], jobs=1)


@pytest.mark.parametrize(
    ("text", "ok"), [("local", True), ("ray", True), ("ray://h:10001", True), ("ray://", False), ("slurm", False)]
)
def test_executor_names(text: str, ok: bool) -> None:
    assert valid_executor(text) is ok
