"""An ACP agent's terminals, answered as ACP's schema says (``terminal/output``, ``terminal/wait_for_exit``).

A terminal's command runs to its end before ``terminal/create`` answers (engine/agents/acp.py), so a
terminal is a finished command: what ``run_shell`` gave back (``exit N`` and the output).

- exit status (ACP ``TerminalExitStatus``): ``exitCode`` is the command's code; a command killed by a
  signal has none ("may be null if terminated by signal") and ``signal`` its name (``SIGKILL``): ``run_shell``
  says ``exit -9`` for one; a command past the sandbox's timeout exits 124, as it does for every agent;
- a terminal still running when the agent is gone (it exited) is killed at once (:class:`RunningTerminals`): ACP's
  terminals are the session's, and the session ended with the agent;
- output (ACP ``outputByteLimit``): past the limit "the Client truncates from the beginning of the output",
  at a character boundary, so the agent keeps the end (where a build's or a test run's errors are), and
  ``truncated`` says so. The sandbox keeps at most :data:`~sandbox.commands.volume.OUTPUT_LIMIT` characters of
  any command, its head and its tail (:func:`~sandbox.commands.shell.clip`): an output it cut is ``truncated``
  too, with no limit set. The agent gets the whole of what the sandbox kept, not the toolbox's 4,000
  characters an LLM agent's tool result is cut to.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from signal import Signals
from typing import Any, Protocol, runtime_checkable

from acp import schema

CLIPPED = re.compile(r"\n\[\.\.\. \d+ characters cut \.\.\.\]\n")
"""The mark :func:`sandbox.commands.shell.clip` leaves where it cut a long output."""


def signal_name(number: int) -> str:
    """A signal's name (``SIGSEGV``), as the project says it wherever a process was killed by one."""
    try:
        return Signals(number).name
    except ValueError:
        return f"SIG{number}"


def ended(code: int) -> str:
    """How a process that ran in a jail ended, from its exit status: ``exited with N``, or for a death by a
    signal its name: a negative status (the process itself), or 128 + the number, the status a jail's wrapper
    (bubblewrap, a shell) passes on for a child a signal killed (``killed by SIGSEGV (exit status 139)``)."""
    if code < 0:
        return f"was killed by {signal_name(-code)}"
    if 128 < code < 128 + 65:
        return f"was killed by {signal_name(code - 128)} (exit status {code})"
    return f"exited with {code}"


@dataclass(frozen=True)
class Terminal:
    """One finished terminal: its output as the agent may read it, its exit code (negative: the signal)."""

    output: str
    exit_code: int
    truncated: bool = False

    @classmethod
    def ran(cls, result: str, byte_limit: int | None) -> Terminal:
        """The terminal of a ``run_shell`` result (``exit N`` then the output; ``error: ...`` for one that
        did not run: code 1), its output cut to ``byte_limit`` bytes from the beginning."""
        head, _, output = result.partition("\n")
        words = head.split()
        if result.startswith("error:"):
            output, code = result, 1
        elif len(words) == 2 and words[0] == "exit" and words[1].lstrip("-").isdigit():
            code = int(words[1])
        else:
            code = 1
        return cls.cut(output, code, byte_limit, clipped=bool(CLIPPED.search(output)))

    @classmethod
    def cut(cls, output: str, exit_code: int, byte_limit: int | None, *, clipped: bool = False) -> Terminal:
        """``output`` kept within ``byte_limit`` bytes, its end kept (ACP), never half a character."""
        data = output.encode()
        if byte_limit is None or len(data) <= byte_limit:
            return cls(output, exit_code, clipped)
        kept = data[len(data) - byte_limit :] if byte_limit else b""
        while kept and (kept[0] & 0xC0) == 0x80:  # a continuation byte: the character began before the cut
            kept = kept[1:]
        return cls(kept.decode("utf-8", errors="replace"), exit_code, True)

    @property
    def signal(self) -> str | None:
        """The name of the signal that killed the command, or None when it exited."""
        return None if self.exit_code >= 0 else signal_name(-self.exit_code)

    def status(self) -> schema.TerminalExitStatus:
        signalled = self.signal
        return schema.TerminalExitStatus(exit_code=None if signalled else self.exit_code, signal=signalled)

    def output_response(self) -> schema.TerminalOutputResponse:
        return schema.TerminalOutputResponse(output=self.output, truncated=self.truncated, exit_status=self.status())

    def exit_response(self) -> schema.WaitForTerminalExitResponse:
        status = self.status()
        return schema.WaitForTerminalExitResponse(exit_code=status.exit_code, signal=status.signal)


@runtime_checkable
class TerminalTools(Protocol):
    """What a terminal runs through: a session's toolbox (engine.session.toolbox)."""

    async def call(self, name: str, args: dict[str, Any], *, limit: int | None = ...,
                   view: Callable[[str], str] | None = ..., noted: Mapping[str, Any] | None = ...) -> str: ...

    async def record_call(self, name: str, args: dict[str, Any], *, ok: bool, result: str) -> None: ...


class RunningTerminals:
    """The terminals whose commands run now (each ``terminal/create`` request's task): they belong to the agent's
    session, so when the agent is gone (it exited while one ran) they are killed at once, not left acting for it."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[object]] = set()
        self.why = "the agent's session ended while it ran"
        """Why a terminal was killed, for its record."""

    async def run(self, tools: TerminalTools, line: str, byte_limit: int | None) -> Terminal:
        """The terminal of ``line`` run through ``run_shell`` (the whole of what the sandbox kept: ACP's limit keeps
        the end); one killed is recorded as the failed ``run_shell`` it asked for, its reason said."""
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            return Terminal.ran(await tools.call("run_shell", {"command": line}, limit=None), byte_limit)
        except asyncio.CancelledError:
            await tools.record_call("run_shell", {"command": line}, ok=False, result=f"error: killed: {self.why}")
            raise
        finally:
            self._tasks.discard(task)

    async def kill(self, why: str) -> None:
        """Kill every terminal running (their commands with everything they started: the sandbox's end of a
        cancelled command), each recorded as killed, ``why`` its reason."""
        self.why = why
        tasks = set(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
