"""Sandbox folders of engines that died are swept; a live engine's never (sandbox/workspace/stale.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.workspace.repo import Workspace
from sandbox.workspace.stale import PREFIX, find_stale, owner_prefix, process_start, sweep

ROOT = Path(__file__).resolve().parents[3]
CHILD = """
import sys, time
from sandbox.workspace.repo import Workspace
ws = Workspace.make()
ws.materialise({"a/b.py": "x = 1\\n"})
(ws.home / ".bashrc").write_text("echo hi\\n")
print(ws.base, flush=True)
time.sleep(600)
"""


def _mounts_under(folder: Path) -> list[str]:
    points = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()]
    return [p for p in points if p == str(folder) or p.startswith(f"{folder}/")]


@pytest.fixture
def parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SCOPEWATCH_SANDBOX_DIR", str(tmp_path))
    monkeypatch.setenv("SCOPEWATCH_SWEEP", "0")  # the sweeps below are the tests' own
    return tmp_path


def test_the_folder_of_an_engine_killed_with_sigkill_is_swept_with_its_mounts(parent: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD], env=env, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    base = Path(child.stdout.readline().strip())
    try:
        assert base.parent == parent and base.name.startswith(f"{PREFIX}{child.pid}.")
        assert find_stale(parent) == []  # alive: not stale
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    if os.geteuid() == 0:
        assert len(_mounts_under(base)) == 4  # the folder, HOME, the agents' /tmp and the engine's tmp/: left mounted
    (stale,) = find_stale(parent)
    assert stale.path == base and stale.owner == child.pid
    assert [p.count("/") for p in stale.mounts] == sorted((p.count("/") for p in stale.mounts), reverse=True)
    removed, problems = sweep(parent)
    assert [s.path for s in removed] == [base] and problems == []
    assert not base.exists() and _mounts_under(base) == []
    assert sweep(parent) == ([], [])  # a second sweep finds nothing and does no harm


def test_a_live_engines_folder_is_kept(parent: Path) -> None:
    ws = Workspace.make()
    try:
        assert ws.base.name.startswith(owner_prefix())
        assert find_stale(parent) == [] and sweep(parent) == ([], [])
        assert ws.base.is_dir()
    finally:
        ws.remove()


def test_a_reused_pid_does_not_keep_a_stale_folder(parent: Path) -> None:
    start = process_start(os.getpid())
    assert start is not None
    reused = parent / f"{PREFIX}{os.getpid()}.{start + 1}-abcd1234"  # our pid, another process's start
    live = parent / f"{PREFIX}{os.getpid()}.{start}-abcd1234"
    reused.mkdir()
    live.mkdir()
    (reused / "file").write_text("x")
    assert [s.path for s in find_stale(parent)] == [reused]
    sweep(parent)
    assert not reused.exists() and live.is_dir()


def test_a_symlink_in_a_stale_folder_is_not_followed(parent: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "keep.txt").write_text("keep")
    stale = parent / f"{PREFIX}1.1-abcd1234"  # pid 1 never started at tick 1 after boot
    stale.mkdir()
    (stale / "link").symlink_to(outside)
    (parent / f"{PREFIX}2.2-notafolder").write_text("a file, not a sandbox")
    sweep(parent)
    assert not stale.exists() and (outside / "keep.txt").read_text() == "keep"
    assert (parent / f"{PREFIX}2.2-notafolder").exists()


def test_folders_without_an_owner_go_only_when_asked_and_old(parent: Path) -> None:
    old = parent / f"{PREFIX}oldstyle"
    old.mkdir()
    assert find_stale(parent) == [] and find_stale(parent, unowned_hours=1) == []  # changed just now
    an_hour_ago = time.time() - 3601
    os.utime(old, (an_hour_ago, an_hour_ago))
    assert find_stale(parent) == []
    (found,) = find_stale(parent, unowned_hours=1)
    assert found.path == old and found.owner == 0
    held = subprocess.Popen(["sleep", "60"], cwd=old)  # in use: kept even when old
    try:
        assert find_stale(parent, unowned_hours=1) == []
    finally:
        held.kill()
        held.wait()
    sweep(parent, unowned_hours=1)
    assert not old.exists()


def test_the_command_lists_then_removes(parent: Path) -> None:
    stale = parent / f"{PREFIX}1.1-abcd1234"
    stale.mkdir()
    cli = [sys.executable, "-m", "tui.cli", "sandbox", "sweep", "--dir", str(parent)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    dry = subprocess.run([*cli, "--dry-run"], env=env, capture_output=True, text=True, check=True)
    assert f"would remove {stale} (engine 1 gone)" in dry.stdout and stale.exists()
    done = subprocess.run(cli, env=env, capture_output=True, text=True, check=True)
    assert f"removed {stale}" in done.stdout and not stale.exists()
    bad = subprocess.run([*cli[:-2], "--dir", str(parent / "nope")], env=env, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--dir" in bad.stderr
