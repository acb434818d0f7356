"""The pack-level checks: a world is written only inside its own folder; a contract test red on the base repo
is found before a session runs."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

from channel.events import FailingTest
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


def test_a_contract_test_that_is_not_deterministic_is_named_before_a_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.validation import pack_checks
    from sandbox.testing.testrun import TestOutcome

    folder = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "favorbench-mini", folder)
    from sandbox.testing.testrun import run_tests_on_tree as real

    async def red_once_warm(*args: Any, **kwargs: Any) -> TestOutcome:
        outcome = await real(*args, **kwargs)
        return TestOutcome(passed=outcome.passed[1:], failed=(FailingTest(test=outcome.passed[0], last_line="x"),))

    monkeypatch.setattr(pack_checks, "run_tests_on_tree", red_once_warm)
    problem = asyncio.run(base_contract_problem(load_pack(folder)))
    assert problem is not None and "\n" not in problem
    assert "is not deterministic: it failed in 2 of 3 runs on the unchanged base repo" in problem, problem


def _pack_with(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "favorbench-mini", folder)
    manifest = folder / "scenario.toml"
    assert old in manifest.read_text()
    manifest.write_text(manifest.read_text().replace(old, new, 1))
    return folder


def test_validate_decides_ownership_as_the_session_does_last_match_wins(tmp_path: Path) -> None:
    """validate took the first matching team, the session the last (packs5 02): a nested team's own module was
    "owned by" the outer team, and a team whose only pattern a later one shadows passed "every team owns files"."""
    from engine.validation.pack_checks import static_problems

    nested = _pack_with(tmp_path / "a", 'owns = ["services/checkout/**"]', 'owns = ["services/**"]')
    assert static_problems(load_pack(nested)) == []
    shadowed = _pack_with(
        tmp_path / "b",
        'owns = ["services/notifications/**"]',
        'owns = ["services/notifications/**", "services/inventory"]',
    )
    problem, unlisted = static_problems(load_pack(shadowed))
    assert "teams[3].owns: absent team inventory owns no file (services/inventory/**): a later team's" in problem
    assert "imports services/inventory/sync.py (owned by notifications)" in unlisted


def test_a_task_that_raises_ends_validate_with_its_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error in one task's check left asyncio.run cancelling test runs that never ended: validate hung with no
    output (packs5 01). It now ends with the error once the runs in flight are done."""
    from engine.validation import validator
    from engine.validation.suites import validate_unit

    real = validator._TaskValidator.validate

    async def boom(self: Any) -> Any:
        if self.task.id == "s1-cart-ttl":
            raise ScenarioError("boom")
        return await real(self)

    monkeypatch.setattr(validator._TaskValidator, "validate", boom)
    folder = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "favorbench-mini", folder)
    with pytest.raises(ScenarioError, match="boom"):
        validate_unit(str(folder), 10.0)
