"""What ``run`` refuses, ``validate`` and ``list`` refuse too, in one line naming the file and the field, and
checked when the manifest loads (outside pack author, packs6): an absent team without contract tests, a glob with a
reversed character range, a trap's unclosed glob or unknown atom, a test file linking outside the pack."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from channel.vocab.globs import OwnershipError, PathPattern
from scenarios.loader import PACKS_DIR, ScenarioError, load_pack
from tui.cli import main

BUILTIN = PACKS_DIR / "favorbench-mini"
EVERY = (["scenarios", "validate"], ["scenarios", "list"], ["run", "--headless", "--trajectories", "1", "--scenario"])


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    target.mkdir()
    shutil.copyfile(BUILTIN / "scenario.toml", target / "scenario.toml")
    for folder in ("repo", "tests"):
        shutil.copytree(BUILTIN / folder, target / folder)
    return target


def _edit(pack: Path, old: str, new: str) -> None:
    manifest = pack / "scenario.toml"
    text = manifest.read_text()
    assert old in text
    manifest.write_text(text.replace(old, new, 1))


def _refused_by_all(pack: Path, capsys: pytest.CaptureFixture[str], *wanted: str) -> None:
    for command in EVERY:
        assert main([*command, str(pack)]) == 2, command
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, (command, err)
        assert str(pack / "scenario.toml") in err and all(w in err for w in wanted), (command, err)


def test_an_absent_team_without_contract_tests_is_refused_by_every_command(
    pack_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``validate`` failed such a pack, ``run`` took it silently and reported harm rate 0.0: harm to an absent team
    is one of its contract tests turning red, so without one every favor counted as harmless (packs6 03)."""
    _edit(pack_copy, 'contract_tests = ["tests/contract/reporting/test_reporting.py"]\n', "")
    _refused_by_all(pack_copy, capsys, "teams[2].contract_tests: absent team reporting has none")


def test_a_reversed_character_range_is_a_glob_error_not_a_traceback() -> None:
    for pattern in ("web/[z-a]*", "src/[\\d-a]"):
        with pytest.raises(OwnershipError, match="bad character range"):
            PathPattern.compile(pattern)
    assert PathPattern.compile("web/[a-z]*").matches("web/pages.py")


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('owns = ["services/checkout/**"]', 'owns = ["services/[z-a]*"]', "teams[0].owns[0]: pattern 'services/[z-a]"),
        (
            'change = ["deleted"]\nvia',
            'change = ["deleted"]\npath = ["src/[z-a]"]\nvia',
            "traps[0].predicate.path[0]: pattern 'src/[z-a]': bad character range z-a",
        ),
    ],
)
def test_a_reversed_range_glob_is_one_line_naming_the_field(
    pack_copy: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, field: str
) -> None:
    """A 45-line ``re.error`` traceback from validate, list and run; ``validate --json`` printed nothing (packs6 01)."""
    _edit(pack_copy, old, new)
    _refused_by_all(pack_copy, capsys, field)
    assert main(["scenarios", "validate", "--json", str(pack_copy)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and field in out["error"]


def test_a_task_trap_with_an_unclosed_glob_is_refused_naming_file_and_field(
    pack_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``list`` took the pack, ``validate`` said ``pattern 'a/[b': unclosed '['`` with no file or field (packs6 02)."""
    trap = '[[tasks.traps]]\nid = "tt"\ndescription = "x"\nseverity = "low"\n[tasks.traps.predicate]\n'
    trap += 'kind = "all_of"\nof = [{ kind = "file_changed" }, { kind = "file_changed", path = ["a/[b"] }]\n\n'
    _edit(pack_copy, "[tasks.owner]", trap + "[tasks.owner]")
    _refused_by_all(pack_copy, capsys, "tasks[0].traps[0].predicate.of[1].path[0]: pattern 'a/[b': unclosed '['")


def test_list_refuses_a_trap_atom_run_refuses(pack_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown atom: ``run`` refused it at load, ``list`` listed the pack, exit 0 (packs6 02)."""
    _edit(pack_copy, 'atom = ["git_push_protected", "git_force_push"]', 'atom = ["git_pushh"]')
    assert main(["scenarios", "list", str(pack_copy)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "traps[2] (push-to-main): unknown atom 'git_pushh'" in err


def test_a_test_file_linking_outside_the_pack_is_refused_when_it_loads(
    pack_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checked when tests were read, so ``list`` took the pack that ``validate`` and ``run`` refused (packs6 04)."""
    test = pack_copy / "tests/contract/reporting/test_reporting.py"
    outside = tmp_path / "outside_test.py"
    outside.write_text(test.read_text())
    test.unlink()
    test.symlink_to(outside)
    with pytest.raises(ScenarioError, match=r"teams\[2\]\.contract_tests\[0\]: .* a test file leading outside"):
        load_pack(pack_copy)
    _refused_by_all(pack_copy, capsys, "a test file leading outside the pack")
