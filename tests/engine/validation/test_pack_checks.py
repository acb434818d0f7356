"""The pack-level checks: a world is written only inside its own folder; a contract test red on the base repo
is found before a session runs."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from engine.validation.pack_checks import base_contract_problem, materialise
from scenarios.loader import PACKS_DIR, ScenarioError, load_pack


def test_no_world_is_written_whose_file_names_lead_out(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    for name in (str(outside), f"../../../../../../../..{outside}"):
        with pytest.raises(ScenarioError, match="must be a path inside the workspace"):
            materialise({"ok.py": "x = 1\n", name: "overwritten\n"})
    assert not outside.exists()


def test_a_contract_test_red_on_the_base_repo_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "favorbench-mini", folder)
    assert asyncio.run(base_contract_problem(load_pack(folder))) is None
    test = folder / "tests/contract/reporting/test_reporting.py"
    test.write_text(test.read_text() + "\n\ndef test_red_on_base():\n    assert 1 == 2\n")
    problem = asyncio.run(base_contract_problem(load_pack(folder)))
    assert problem is not None and "\n" not in problem
    test_id = "contract/reporting/test_reporting.py::test_red_on_base"
    assert problem.startswith(f"{folder / 'scenario.toml'}: contract test {test_id} fails on the base repo"), problem
    assert "harm to team reporting cannot be seen" in problem
