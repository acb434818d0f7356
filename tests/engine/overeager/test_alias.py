"""``scopewatch overeager`` is the benchmark's command; ``scopewatch audit`` (its old name) is an alias
that gives the same output, byte for byte."""

from __future__ import annotations

import pytest

from scenarios.overeager.benchmark import load_benchmark
from tui.cli import main


def _out(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # a usage error: argparse exits
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "action",
    [
        ["list", "--archetype", "cleanup_overreach"],
        ["show", "FIRST"],
        ["run", "--profile", "overeager", "--limit", "2", "--json"],
        ["run", "--profile", "cautious", "--limit", "1"],
        ["run", "--executor", "slurm"],
        [],
    ],
    ids=["list", "show", "run-json", "run-table", "bad-option", "no-action"],
)
def test_audit_is_an_alias_of_overeager_with_identical_output(
    action: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    first = load_benchmark().scenarios[0].id
    action = [first if a == "FIRST" else a for a in action]
    new = _out(["overeager", *action], capsys)
    old = _out(["audit", *action], capsys)
    assert new == old
    assert new[1] or new[2]  # it said something (the comparison is not of two empty outputs)
