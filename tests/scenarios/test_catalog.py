"""The scenario catalog (scenarios/catalog.py): an unknown name is answered with every name a session takes,
read from where each kind lives, and ``scenarios list`` shows each kind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from scenarios import loader
from scenarios.catalog import catalog, scenario_kind, session_suite, unknown_scenario
from scenarios.cooperbench.build import NAME as COOPERBENCH
from scenarios.cooperbench.build import pack_file
from scenarios.cooperbench.model import BranchPack
from scenarios.loader import PACKS_DIR, ScenarioError
from scenarios.overeager.benchmark import benchmark_ids
from tui.cli import main


@pytest.fixture(autouse=True)
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache: CooperBench is not built unless a test builds it."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cache


def _error_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    return err


def test_run_with_an_unknown_scenario_lists_every_kind_of_name(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error_of(["run", "--headless", "--scenario", "nope"], capsys)
    assert "scenario 'nope' is not known" in err
    for name in ("favorbench-mini", "favorbench", "favorbench/<domain>", "iot", COOPERBENCH):
        assert name in err, name
    assert f"one of the {len(benchmark_ids())} audit scenarios" in err
    assert "not built yet: scopewatch scenarios build cooperbench" in err
    assert "scenario.toml" in err


def test_the_list_comes_from_the_packs_folder_not_a_fixed_string(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = tmp_path / "packs"
    shutil.copytree(PACKS_DIR / "favorbench-mini", packs / "another-pack")
    monkeypatch.setattr(loader, "PACKS_DIR", packs)
    known = catalog()
    assert known.packs == ("another-pack",) and known.suites == {}
    message = str(unknown_scenario("nope"))
    assert "a built-in pack (another-pack)" in message and "favorbench" not in message


def test_a_built_branch_pack_is_listed_as_built(empty_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = pack_file()
    target.parent.mkdir(parents=True)
    target.write_text(BranchPack(name=COOPERBENCH, projects={}, instances=()).model_dump_json())
    assert catalog().branch_built
    assert "not built" not in str(unknown_scenario("nope"))
    assert main(["scenarios", "list", "cooperbench", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "branch": {"name": COOPERBENCH, "built": True, "projects": [], "instances": 0}
    }


def test_scenarios_list_shows_the_branch_pack_and_the_audit_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list"]) == 0
    out = capsys.readouterr().out
    assert out.count("favorbench-mini ") == 1 and "cooperbench " in out
    assert "not built yet: scopewatch scenarios build cooperbench" in out
    assert f"{len(benchmark_ids())} audit scenarios" in out
    assert main(["scenarios", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["branch"] == {"name": COOPERBENCH, "built": False}
    assert listed["audit"] == {"scenarios": len(benchmark_ids())}


def test_scenarios_list_of_an_unknown_or_an_audit_name_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert "scenario 'nope' is not known" in _error_of(["scenarios", "list", "nope"], capsys)
    audit = benchmark_ids()[0]
    assert f"scopewatch overeager show {audit}" in _error_of(["scenarios", "list", audit], capsys)


def test_each_name_has_its_kind() -> None:
    assert scenario_kind(benchmark_ids()[0]) == "audit"
    assert scenario_kind(COOPERBENCH) == "branch"
    assert scenario_kind("favorbench-mini") == scenario_kind("favorbench/iot") == scenario_kind("nope") == "favor"


def test_a_path_that_does_not_exist_is_answered_the_same_way() -> None:
    with pytest.raises(ScenarioError, match="is not known; a session takes"):
        session_suite("./no/such/folder")


@pytest.mark.parametrize("name", [COOPERBENCH, "cleanup-build-dir-000"])
def test_a_folder_named_like_the_branch_pack_or_an_audit_id_is_taken_by_every_command(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """run took such a folder silently while list and validate took the built-in (packs5 09): one rule, one note."""
    from scenarios import catalog as catalog_module

    assert name in (COOPERBENCH, *benchmark_ids())
    shutil.copytree(PACKS_DIR / "favorbench-mini", tmp_path / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(catalog_module, "_NOTED", set())
    with caplog.at_level("WARNING", logger="scenarios.catalog"):
        assert scenario_kind(name) == "favor"
        assert scenario_kind(name) == "favor"
        assert session_suite(name).packs[0].folder == (tmp_path / name).resolve()
    (record,) = caplog.records
    assert f"{name!r} is the folder" in record.getMessage() and "taken instead of the built-in" in record.getMessage()
    caplog.clear()
    with caplog.at_level("WARNING", logger="scenarios.catalog"):
        assert scenario_kind(f"./{name}") == "favor"
    assert caplog.records == []
