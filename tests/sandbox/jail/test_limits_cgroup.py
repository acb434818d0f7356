"""A sandbox's pids cgroup is removed when the sandbox closes, though its jail is still dying then: closed with
the episode's jail's processes in it, it used to stay behind, empty, for good (thousands piled up on a test
machine)."""

from __future__ import annotations

import pytest

from channel.emitter import Emitter
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.jail.isolation import Isolation, _works
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS


async def test_closing_a_sandbox_removes_its_cgroup() -> None:
    if not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    bus = InProcessBus()
    sb = await LocalSandbox.create(
        FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "cg"), isolation=Isolation("bubblewrap")
    )
    cgroup = sb._shell._cgroup
    path = cgroup.path if cgroup is not None else None
    try:
        if path is None:
            pytest.skip("no cgroup of its own for a sandbox here")
        sb.register_actor("alice", "billing")
        assert (await sb.run_shell("alice", "sleep 0.01 &")).exit_code == 0  # the episode's jail is up now
        assert path.is_dir()
    finally:
        await sb.close()
        await bus.close()
    assert not path.exists()
