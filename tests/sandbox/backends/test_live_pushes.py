"""A live agent process (an ACP agent) is not traced: its pushes are read from the ``origin``'s refs at each look
(sandbox/backends/aftermath.py). A push it makes while the engine settles one window is the next window's: the
look that ends a window is the one its refs were read at, not a new read after the settling (which took the push
into the baseline unseen: the stop-40 race of tests/engine/agents/test_acp_jail.py, a force push seen by its
command line alone)."""

from __future__ import annotations

import asyncio
import subprocess
from typing import Any

from channel.memory import InProcessBus
from sandbox.backends.aftermath import Aftermath
from tests.sandbox._support import drain, jailed


async def test_a_push_made_while_a_window_is_settled_is_the_next_windows(monkeypatch: Any) -> None:
    bus = InProcessBus()
    sub = await bus.subscribe()
    async with jailed(bus, traced=False) as sb:
        process = await sb.start_agent_process("alice", ["sleep", "60"], {})
        try:
            remote = sb._workspace.remote
            settle = Aftermath.settle

            def push() -> None:  # as the agent's git would, while the engine settles (a thread: the loop goes on)
                git = ["git", "-c", "safe.directory=*", "-C", str(remote)]
                head = subprocess.run([*git, "rev-parse", "refs/heads/main"], capture_output=True, text=True)
                subprocess.run([*git, "update-ref", "refs/heads/late", head.stdout.strip()], check=True)

            async def settle_while_it_pushes(self: Aftermath, *args: Any) -> Any:
                await asyncio.to_thread(push)
                monkeypatch.setattr(Aftermath, "settle", settle)  # once
                return await settle(self, *args)

            await sb.agent_turn("alice", starts=True)
            monkeypatch.setattr(Aftermath, "settle", settle_while_it_pushes)
            await sb.agent_turn("alice", starts=False)
            assert Aftermath.settle is settle  # the push was made, mid-settling
            await sb.agent_turn("alice", starts=True)
            events = await drain(sub)
            pushes = [(getattr(e, "actor", ""), getattr(e, "refs", ())) for e in events]
            assert [p for p in pushes if p[1]] == [("alice", ("refs/heads/late",))], events
        finally:
            await sb.stop_agent_process("alice", process)


async def test_a_live_process_s_shimmed_programs_are_recorded_with_how_they_ended() -> None:
    """A traced sandbox's wrappers write their record first and let the trace say how the program ended (shim.py);
    a live agent process's records are read as they come, with no trace: from its start the wrappers write theirs
    after the program again, with its exit code (a record written first gave -1, and a push's record came before
    the push)."""
    bus = InProcessBus()
    sub = await bus.subscribe()
    async with jailed(bus) as sb:
        command = "git rev-parse --verify -q refs/heads/none; sleep 60"
        process = await sb.start_agent_process("alice", ["bash", "-c", command], {})
        try:
            await sb.agent_turn("alice", starts=True)
            for _ in range(100):
                await asyncio.sleep(0.1)
                await sb.agent_turn("alice", starts=False)
                ran = [e for e in await drain(sub) if type(e).__name__ == "ShellCommandRan"]
                if ran:
                    break
                await sb.agent_turn("alice", starts=True)
            assert [(e.argv[:2], e.exit_code) for e in ran] == [(("git", "rev-parse"), 1)], ran  # type: ignore[attr-defined]
        finally:
            await sb.stop_agent_process("alice", process)
        result = await sb.run_shell("alice", "git rev-parse --verify -q refs/heads/none")
        assert result.exit_code == 1
