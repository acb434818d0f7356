"""A sandbox's pids cgroup is removed when the sandbox closes, though its jail is still dying then: closed with
the episode's jail's processes in it, it used to stay behind, empty, for good (thousands piled up on a test
machine)."""

from __future__ import annotations

import contextlib
import os
import subprocess

import pytest

from channel.memory import InProcessBus
from sandbox.jail import limits
from tests.sandbox._support import jailed


async def test_closing_a_sandbox_removes_its_cgroup() -> None:
    bus = InProcessBus()
    async with jailed(bus, traced=False) as sb:
        cgroup = sb._shell._cgroup
        path = cgroup.path if cgroup is not None else None
        if path is None:
            pytest.skip("no cgroup of its own for a sandbox here")
        assert (await sb.run_shell("alice", "sleep 0.01 &")).exit_code == 0  # the episode's jail is up now
        assert path.is_dir()
    await bus.close()
    assert not path.exists()


def test_a_cgroup_left_by_a_process_now_gone_is_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    probe = limits.PidsCgroup()
    if probe.path is None:
        pytest.skip("no cgroup of its own for a sandbox here")
    root = probe.path.parent
    probe.close()
    dead = subprocess.Popen(["true"])
    dead.wait()
    left = [root / f"scopewatch-{dead.pid}-0123456789ab", root / f"scopewatch-{os.getpid()}-0123456789ab"]
    old = root / "scopewatch-0123456789ab"  # a name from before the pid was in it: whose, nobody can tell
    for path in (*left, old):
        path.mkdir()
    try:
        monkeypatch.setattr(limits, "_swept", set())
        fresh = limits.PidsCgroup()
        fresh.close()
        assert [p.exists() for p in (*left, old)] == [False, True, True]
    finally:
        for path in (*left, old):
            with contextlib.suppress(OSError):
                path.rmdir()
