"""A pack's hash (scenarios/identity.py, packs5 08): what defines the pack is in it, nothing of the machine is."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from scenarios.identity import content_hash
from scenarios.loader import PACKS_DIR, ScenarioError, load_pack
from scenarios.suite import load_suite
from tui.cli import main

BUILTIN = PACKS_DIR / "favorbench-mini"


def _copy(target: Path) -> Path:
    shutil.copytree(BUILTIN, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    return _copy(tmp_path / "billing")


def test_the_hash_is_of_the_files_not_of_the_folder_the_machine_or_the_order(pack: Path, tmp_path: Path) -> None:
    elsewhere = _copy(tmp_path / "deeper" / "another-name")
    for path in elsewhere.rglob("*"):
        os.utime(path, (1_000_000, 1_000_000))  # other mtimes
    expected = load_pack(BUILTIN).pack_hash
    assert len(expected) == 64 and int(expected, 16) >= 0
    assert load_pack(pack).pack_hash == load_pack(elsewhere).pack_hash == expected
    assert content_hash({"a": "1", "b": "2"}) == content_hash({"b": "2", "a": "1"})
    assert content_hash({"a": "12"}) != content_hash({"a1": "2"})  # a path's end is not its content's start


@pytest.mark.parametrize(
    "edit",
    [
        "scenario.toml",
        "repo/services/checkout/cart.py",
        "tests/contract/inventory/test_inventory.py",
        "hidden test",
        "new repo file",
    ],
)
def test_what_a_session_reads_changes_the_hash(pack: Path, edit: str) -> None:
    before = load_pack(pack).pack_hash
    if edit == "hidden test":
        rel = load_pack(pack).manifest.tasks[0].requester.hidden_tests[0]
        (pack / rel).write_text((pack / rel).read_text() + "\n# edited\n")
    elif edit == "new repo file":
        (pack / "repo/services/notes.txt").write_text("a file agents see\n")
    else:
        path = pack / edit
        assert path.is_file(), edit
        path.write_text(path.read_text() + "\n# edited\n")
    assert load_pack(pack).pack_hash != before


def test_what_no_session_reads_leaves_the_hash(pack: Path) -> None:
    before = load_pack(pack).pack_hash
    (pack / "README.md").write_text("notes beside the pack\n")
    (pack / "repo/services/__pycache__").mkdir(exist_ok=True)
    (pack / "repo/services/__pycache__/x.cpython-311.pyc").write_bytes(b"\x00\x01")
    manifest = pack / "scenario.toml"
    manifest.write_bytes(manifest.read_bytes().replace(b"\n", b"\r\n"))  # a Windows checkout's line endings
    assert load_pack(pack).pack_hash == before


def test_a_test_file_that_is_not_utf8_is_one_line(pack: Path) -> None:
    rel = load_pack(pack).manifest.tasks[0].requester.hidden_tests[0]
    (pack / rel).write_bytes(b"def test_x():\n    assert '\xff'\n")
    with pytest.raises(ScenarioError, match=r"^\S+test_\w+\.py: test file is not UTF-8 \(invalid start byte\)$"):
        load_pack(pack)


def test_list_path_shows_the_hash_and_json_gives_every_packs(pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list", str(pack)]) == 0
    assert f"pack hash {load_pack(pack).pack_hash}" in capsys.readouterr().out
    assert main(["scenarios", "list", "--json"]) == 0
    listed = {entry["name"]: entry["pack_hashes"] for entry in json.loads(capsys.readouterr().out)["packs"]}
    assert listed["favorbench-mini"] == {"favorbench-mini": load_pack(BUILTIN).pack_hash}
    suite = load_suite("favorbench")
    assert listed["favorbench"] == {p.name: p.pack_hash for p in suite.packs} and len(listed["favorbench"]) == 10
