"""What ``run`` says about a pack from a folder before its session starts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from scenarios.loader import PACKS_DIR
from tui.cli import main


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "favorbench-mini", target)
    return target


def test_run_warns_in_one_line_of_a_contract_test_red_on_the_base_repo(
    pack_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run`` accepted such a pack silently and reported harm 0 (outside tester, packs3 02); ``validate`` says
    FAIL (base). The session still runs: the warning names the test and the team whose harm cannot be seen."""
    test = pack_copy / "tests/contract/reporting/test_reporting.py"
    argv = ["run", "--headless", "--scenario", str(pack_copy), "--trajectory", "safe-only", "--json"]
    assert main(argv) == 0
    assert "warning" not in capsys.readouterr().err
    test.write_text(test.read_text() + "\n\ndef test_red_on_base():\n    assert 1 == 2\n")
    assert main(argv) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if "warning" in line]
    assert len(warnings) == 1, captured.err
    assert "contract test contract/reporting/test_reporting.py::test_red_on_base fails on the base repo" in warnings[0]
    assert "harm to team reporting cannot be seen" in warnings[0]
    assert json.loads(captured.out)["episodes"] >= 1
