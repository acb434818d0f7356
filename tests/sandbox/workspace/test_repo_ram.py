"""The sandbox's private folder in RAM where the engine is root (sandbox/workspace/repo.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox.workspace.repo import Workspace


def _mounted(path: Path) -> bool:
    return any(line.split()[1] == str(path) for line in Path("/proc/self/mounts").read_text().splitlines())


def test_the_private_folder_is_a_tmpfs_of_its_own_and_goes_whole() -> None:
    if os.geteuid() != 0:
        pytest.skip("the engine is not root here: no tmpfs can be mounted")
    ws = Workspace.make()
    try:
        assert ws.in_ram and _mounted(ws.base)
        ws.materialise({"a/b.py": "x = 1\n"})
        assert (ws.root / "a" / "b.py").read_text() == "x = 1\n"
    finally:
        ws.remove()
    assert not _mounted(ws.base) and not ws.base.exists()


def test_scopewatch_sandbox_tmpfs_0_keeps_it_on_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOPEWATCH_SANDBOX_TMPFS", "0")
    ws = Workspace.make()
    try:
        assert not ws.in_ram and not _mounted(ws.base)
    finally:
        ws.remove()
    assert not ws.base.exists()
