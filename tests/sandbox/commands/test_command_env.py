"""What a command's environment spares the exec tracer: with ``SHELL`` set, no bash of a command (its own, a shim
wrapper's) looks its user up (``/etc/nsswitch.conf``, ``/etc/passwd``), three opens and three tracer stops each."""

from __future__ import annotations

import pytest

from channel.emitter import Emitter
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.jail.isolation import Isolation, _works
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS


async def test_a_commands_bash_does_not_look_its_user_up() -> None:
    if not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    bus = InProcessBus()
    sb = await LocalSandbox.create(
        FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "env"), isolation=Isolation("bubblewrap")
    )
    try:
        if not sb.label.endswith("+ strace"):
            pytest.skip(f"no exec tracer here: {sb.label}")
        sb.register_actor("alice", "billing")
        result = await sb.run_shell("alice", 'echo "$SHELL"; git --version > /dev/null')  # git: a wrapper's bash too
        assert result.exit_code == 0 and result.output.strip().endswith("/bash"), result.output
        trace = (sb._shell.workspace.tmp / "trace").read_text()
        assert "execve(" in trace and "/shim/git" in trace
        assert "/etc/passwd" not in trace and "/etc/nsswitch.conf" not in trace
    finally:
        await sb.close()
        await bus.close()
