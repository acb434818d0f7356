"""An ACP agent's process, one per episode: started in the sandbox's jail by its toolbox
(sandbox/commands/agentproc.py: the jail's uid, no host filesystem but the sandbox's, the network kept for
its model), its standard input and output the ACP connection, its standard error kept for the error when it
stops answering; each of its turns is told to the sandbox, which settles what its own code did (its pushes,
its file changes: sandbox/backends/aftermath.py); stopped with everything it started at the episode's end."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import acp

from channel.tasks import wait_ended
from engine.agents.acp_guard import ObjectLines
from engine.agents.acp_terminals import ended
from sandbox.protocol import AgentPipes

STDERR_LINES = 20
"""The last lines of an agent's standard error kept for the error when it stops answering."""


@runtime_checkable
class ProcessTools(Protocol):
    """What a session's toolbox offers to run an ACP agent's process (engine.session.toolbox)."""

    @property
    def agent_home(self) -> Path: ...

    async def start_agent_process(self, argv: Sequence[str], env: Mapping[str, str]) -> AgentPipes: ...

    async def agent_turn(self, *, starts: bool) -> None: ...

    async def stop_agent_process(self, process: AgentPipes) -> None: ...


def connect(client: Any, process: AgentPipes) -> acp.ClientSideConnection:
    """The ACP connection over the process's pipes, scopewatch the client (its stdout without the lines of
    JSON that are not objects, which would stop the library: engine/agents/acp_guard.py)."""
    return acp.ClientSideConnection(client, process.stdin, ObjectLines(process.stdout))


class ACPProcess:
    """One episode's process: started into an exit stack (closed in reverse: the connection, then the process)."""

    def __init__(self, tools: ProcessTools) -> None:
        self.tools = tools
        self.process: AgentPipes | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._drain: asyncio.Task[None] | None = None

    async def start(self, stack: contextlib.AsyncExitStack, client: Any, argv: Sequence[str],
                    env: Mapping[str, str]) -> tuple[acp.ClientSideConnection, Path]:
        """Start it, its connection on ``stack``; returns the connection and its working directory."""
        process = await self.tools.start_agent_process(argv, env)
        self.process = process
        stack.push_async_callback(self.tools.stop_agent_process, process)
        self._drain = asyncio.ensure_future(self._read_stderr(process.stderr))
        conn = connect(client, process)
        stack.push_async_callback(conn.close)
        return conn, process.cwd

    async def _read_stderr(self, stream: asyncio.StreamReader) -> None:
        # Read, always: a full pipe would block the agent. Kept for the error, never shown on the
        # terminal (the TUI draws there).
        async for line in stream:
            self._stderr.append(line.decode("utf-8", errors="replace").rstrip())

    async def gone(self) -> str:
        """What the agent did when it stopped answering: its exit code (a signal that killed it by its name) and its
        last words on stderr."""
        code = None
        if self.process is not None:
            with contextlib.suppress(TimeoutError):
                code = await asyncio.wait_for(self.process.wait(), 2)
        if self._drain is not None:
            await wait_ended(self._drain, 1)
        said = " | ".join(line for line in self._stderr if line.strip())[-400:]
        exited = ended(code) if code is not None else "closed its output (stopped answering)"
        return exited + (f": {said}" if said else "")

    def ended(self) -> None:
        if self._drain is not None:
            self._drain.cancel()
        self.process = self._drain = None
        self._stderr.clear()
