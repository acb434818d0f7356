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
