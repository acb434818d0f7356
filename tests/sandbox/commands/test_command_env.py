"""What a command's environment spares the exec tracer: with ``SHELL`` set, no bash of a command (its own, a shim
wrapper's) looks its user up (``/etc/nsswitch.conf``, ``/etc/passwd``), three opens and three tracer stops each."""

from __future__ import annotations

from channel.memory import InProcessBus
from tests.sandbox._support import jailed


async def test_a_commands_bash_does_not_look_its_user_up() -> None:
    bus = InProcessBus()
    async with jailed(bus) as sb:
        result = await sb.run_shell("alice", 'echo "$SHELL"; git --version > /dev/null')  # git: a wrapper's bash too
        assert result.exit_code == 0 and result.output.strip().endswith("/bash"), result.output
        trace = (sb._shell.workspace.tmp / "trace").read_text()
    await bus.close()
    assert "execve(" in trace and "/shim/git" in trace
    assert "/etc/passwd" not in trace and "/etc/nsswitch.conf" not in trace
