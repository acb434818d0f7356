"""A sandbox's jail has a memory limit (``sandbox.jail.limits.MEMORY_MAX``, a cgroup's): a command that allocates
past it is killed there, says so, and the next command runs (before, only the machine's end stopped it)."""

from __future__ import annotations

import pytest

from sandbox.jail.limits import MEMORY_MAX
from tests.sandbox.security.conftest import Box

GROW = "python3 -c 'b = bytearray(1); import itertools\nfor _ in itertools.count(): b += bytearray(256 << 20)'"


async def test_a_command_past_the_memory_limit_is_killed_and_the_next_runs(box: Box) -> None:
    if box.backend == "docker":
        pytest.skip("the docker backend has its container's own memory limit")
    if box.sandbox._shell._cgroup is None or box.sandbox._shell._cgroup.memory is None:
        pytest.skip("no memory cgroup here (cgroup v2 without memory delegated, or not root)")
    result = await box.sh(GROW, timeout=60)
    assert result.exit_code != 0
    assert f"the sandbox's memory limit is {MEMORY_MAX // 2**20} MB" in result.output, result.output[-500:]
    after = await box.sh("echo still here")
    assert after.output.strip() == "still here"
