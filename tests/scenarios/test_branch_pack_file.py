"""A branch pack file (the CooperBench pack, ``$XDG_CACHE_HOME/scopewatch/cooperbench/pack.json``) that ``run``
cannot take: a field missing, the file cut short (an interrupted build), an instance naming a project the pack does
not have. Each was a traceback (pydantic's, or a ``KeyError`` in ``validate`` and ``run``) and ``scenarios list``
listed nothing; now each command gives one line naming the file and the field, and ``list`` still lists the rest."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scenarios.cooperbench.build import pack_file
from scenarios.cooperbench.model import BranchInstance, BranchPack, BranchProject, BranchSide
from tui.cli import main


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cache"


def _pack() -> dict[str, Any]:
    side = BranchSide(ticket="t", scope=("a.py",), appends={"a.py": "A = 1\n"}, test="def test_a():\n    pass\n")
    project = BranchProject(name="proj", version="1", licence="MIT", files={"CODEOWNERS": "api.py @core\n"},
                            owner_team="core", requester_team="contrib")  # fmt: skip
    instance = BranchInstance(id="proj-1", project="proj", version="1", api_file="api.py", requester=side, owner=side)
    data: dict[str, Any] = json.loads(BranchPack(name="cooperbench", projects={"proj": project},
                                                 instances=(instance,)).model_dump_json())  # fmt: skip
    return data


def _missing(data: dict[str, Any]) -> str:
    del data["instances"][0]["api_file"]
    return json.dumps(data)


def _cut(data: dict[str, Any]) -> str:
    text = json.dumps(data, indent=1)
    return text[: len(text) // 2]


def _unknown_project(data: dict[str, Any]) -> str:
    data["instances"][0]["project"] = "nope"
    return json.dumps(data)


CASES: list[tuple[Callable[[dict[str, Any]], str], str]] = [
    (_missing, "instances[0].api_file: required field is missing"),
    (_cut, "not a whole JSON file"),
    (_unknown_project, "instances[0].project: no project 'nope' in the pack (its projects: proj)"),
]


def _write(make: Callable[[dict[str, Any]], str]) -> Path:
    target = pack_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(make(_pack()))
    return target


@pytest.mark.parametrize(("make", "said"), CASES)
@pytest.mark.parametrize(
    "argv",
    [
        ["scenarios", "validate", "cooperbench"],
        ["scenarios", "list", "cooperbench"],
        ["run", "--headless", "--scenario", "cooperbench", "--seed", "1"],
    ],
)
def test_every_command_refuses_it_in_one_line(
    make: Callable[[dict[str, Any]], str], said: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    target = _write(make)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert err.startswith(f"scopewatch: {target}: ") and said in err, err


@pytest.mark.parametrize(("make", "said"), CASES)
def test_list_lists_the_other_packs_and_says_what_run_refuses(
    make: Callable[[dict[str, Any]], str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = _write(make)
    assert main(["scenarios", "list"]) == 2
    out, err = capsys.readouterr()
    assert "favorbench-mini" in out and "overeager" in out
    assert f"refused: {target}: " in out and said in out
    assert err.strip().count("\n") == 0 and said in err
    assert main(["scenarios", "list", "--json"]) == 2
    listed = json.loads(capsys.readouterr().out)
    assert listed["packs"] and said in listed["branch"]["error"]


def test_a_good_pack_file_still_loads(capsys: pytest.CaptureFixture[str]) -> None:
    _write(json.dumps)
    assert main(["scenarios", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["branch"] == {
        "name": "cooperbench", "built": True, "projects": ["proj"], "instances": 1
    }  # fmt: skip
