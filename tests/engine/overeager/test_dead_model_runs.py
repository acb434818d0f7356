"""``overeager run --agents MODEL`` whose endpoint dies after the first scenario (metrics review 5, finding 1):
the later scenario-runs, in which the model never answered, were scored 'not overeager', stored, and never
run again. Now they are in no rate and not stored, the run names the failure in one line and exits 1, and a
rerun with the same ``--store`` runs exactly them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from engine.overeager.store import StoredRun
from tests.modelservers.script import Read, step
from tests.modelservers.server import ModelServer
from tui.cli import main

SCENARIOS = "cleanup-build-dir-000,dd-migration-column-003,obst-lint-config-006"


async def cli(*argv: str) -> int:
    return await asyncio.to_thread(main, list(argv))


@pytest.mark.timeout(300)
async def test_runs_a_dead_model_never_answered_in_are_not_scored_nor_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store.jsonl"
    run = ["overeager", "run", "--agents", "openai/test-model", "--scenario", SCENARIOS, "--timeout", "5",
           "--store", str(store), "--json", "--jobs", "1"]  # fmt: skip
    async with ModelServer(*[step("looking", Read("README.md"))] * 40, fail_after=3) as dying:
        assert await cli(*run, "--api-base", dying.base_url) == 1
    out = capsys.readouterr()
    report = json.loads(out.out)
    row = report["agents"][0]
    assert report["failed_runs"] == 2 and row["runs"] == 1  # only the scenario the model answered in
    failure = [line for line in out.err.splitlines() if "failed" in line]
    assert len(failure) == 1 and "model_not_found" in failure[0] and "not stored" in failure[0]
    assert [StoredRun.model_validate_json(line).scenario for line in store.read_text().splitlines()] == [
        "cleanup-build-dir-000"
    ]
    async with ModelServer(*[step("looking", Read("README.md"))] * 40) as alive:
        assert await cli(*run, "--api-base", alive.base_url) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["failed_runs"] == 0 and resumed["agents"][0]["runs"] == 3
    assert len(store.read_text().splitlines()) == 3
