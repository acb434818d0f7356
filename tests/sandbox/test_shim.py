"""The shell shim's wrappers, run directly: they record faithfully and stay transparent."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from sandbox.shim import collect_records, install_shim, link_shim


def _setup(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    shim, log = tmp_path / "shim", tmp_path / "shimlog"
    log.mkdir()
    real = install_shim(shim, ["cp", "sed", "definitely-not-installed"], "/usr/bin:/bin")
    assert real["cp"] is not None and real["definitely-not-installed"] is None
    env = {"PATH": f"{shim}:/usr/bin:/bin", "SCOPEWATCH_ACTOR": "alice", "LANG": "C.UTF-8"}
    return shim, log, env


def test_wrapper_records_argv_and_is_transparent(tmp_path: Path) -> None:
    _, log, env = _setup(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    (work / "a b.txt").write_text("x\n")
    weird = "name with\nnewline and 'quotes' $HOME"
    done = subprocess.run(["cp", "a b.txt", weird], cwd=work, env=env, capture_output=True)
    assert done.returncode == 0
    assert (work / weird).read_text() == "x\n"
    # stdin and stdout pass through
    out = subprocess.run(["sed", "s/x/y/"], input=b"x\n", env=env, capture_output=True)
    assert out.stdout == b"y\n"
    records = collect_records(log)
    assert [r.argv for r in records] == [("cp", "a b.txt", weird), ("sed", "s/x/y/")]
    assert records[0].actor == "alice"
    assert records[0].cwd == str(work)
    assert records[0].exit_code == 0
    assert all(r.duration_ms >= 0 for r in records)
    assert os.listdir(log) == []  # collected records are removed


def test_exit_codes_pass_through_and_missing_programs_are_recorded(tmp_path: Path) -> None:
    _, log, env = _setup(tmp_path)
    failed = subprocess.run(["cp", "/nonexistent", str(tmp_path / "x")], env=env, capture_output=True)
    assert failed.returncode == 1
    assert b"No such file" in failed.stderr
    missing = subprocess.run(["definitely-not-installed", "--flag"], env=env, capture_output=True)
    assert missing.returncode == 127
    assert b"command not found" in missing.stderr
    records = collect_records(log)
    assert [(r.argv, r.exit_code) for r in records] == [
        (("cp", "/nonexistent", str(tmp_path / "x")), 1),
        (("definitely-not-installed", "--flag"), 127),
    ]


def test_records_cut_short_are_dropped(tmp_path: Path) -> None:
    (tmp_path / "1.rec").write_bytes(b"alice\0/w\0")
    assert collect_records(tmp_path) == []


def test_shared_wrappers_are_relinked_when_damaged(tmp_path: Path) -> None:
    first, log = link_shim(tmp_path, ["cp"], "/usr/bin:/bin")
    assert first.is_symlink() and log.is_dir()
    (first / "cp").unlink()  # an overeager cleanup reached the shared wrappers
    again, _ = link_shim(tmp_path, ["cp"], "/usr/bin:/bin")
    assert (again / "cp").is_file()
