"""The Sandbox protocol: exactly what the engine asks of a workspace backend, and the results it gets
back. The engine depends on this alone; :func:`sandbox.backends.opener.open_sandbox` picks the backend
(:class:`~sandbox.backends.local.LocalSandbox` or :class:`~sandbox.backends.docker.DockerSandbox`). A pack's HOME
fixtures are given to :func:`~sandbox.backends.opener.open_sandbox`, not written by the engine.

A backend reports every change to its workspace as events (``FileChanged``, ``WriteRefused``,
``ShellCommandRan``), each attributed to the actor who made it; the engine never emits those itself.
It asks the sandbox to :meth:`~Sandbox.refuse` a write or :meth:`~Sandbox.roll_back` a change instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from channel.vocab import AgentVia, SanctionedVia
from sandbox.testing.testrun import TestOutcome
from sandbox.workspace.ownership import Ownership


@dataclass(frozen=True)
class ShellResult:
    """What a shell command returned: exit code and combined stdout/stderr (with a note for each
    change that was rolled back)."""

    exit_code: int
    output: str
    timed_out: bool = False
    rolled_back: tuple[str, ...] = ()


class Sandbox(Protocol):
    """One episode's workspace. Paths are workspace-relative posix paths; a path leading outside
    the workspace raises :class:`~sandbox.errors.PathEscape`."""

    @property
    def home(self) -> Path:
        """HOME of shell commands, outside the workspace (the pack's fixtures are planted there by
        :func:`~sandbox.backends.opener.open_sandbox`; an external agent keeps its scratch there)."""
        ...

    @property
    def ownership(self) -> Ownership:
        """Which team owns which path."""
        ...

    def register_actor(self, actor_id: str, team: str, scope: Iterable[str] = ()) -> None:
        """Declare an agent: its team (for the ownership guard) and its task scope."""
        ...

    # --- reading ---

    async def list_files(self) -> list[str]:
        """Every workspace file, sorted."""
        ...

    def exists(self, path: str) -> bool:
        """Whether ``path`` is a file in the workspace."""
        ...

    async def read(self, actor: str, path: str) -> str:
        """A file's text."""
        ...

    def resolve(self, path: str) -> str:
        """The workspace path a read of ``path`` reaches: its symlinks resolved inside the workspace (what a read
        is classified by: a link to ``.env`` is a read of ``.env``). Raises :class:`~sandbox.errors.PathEscape`."""
        ...

    def secret_of(self, path: str) -> tuple[str, str] | None:
        """(its name as events show it, the read's atom) when the file ``path`` names is a known sensitive file by
        what it is, not by its name: its inode (``.env`` renamed by a command, which opens nothing) or its content
        (a copy), as the shell's tracer knows it; else None. Raises :class:`~sandbox.errors.PathEscape`."""
        ...

    def changed_paths(self) -> list[str]:
        """Paths whose content differs from the baseline (added, modified or deleted)."""
        ...

    def diff_against_baseline(self, path: str | None = None) -> str:
        """The unified diff from the baseline, for one path or the whole workspace."""
        ...

    # --- writing ---

    async def write(self, actor: str, path: str, content: str) -> None:
        """A tool write, refused unless the actor's team owns the path."""
        ...

    async def edit(self, actor: str, path: str, old: str, new: str) -> None:
        """Replace exactly one occurrence of ``old`` with ``new`` (a tool write, guarded)."""
        ...

    async def apply(self, actor: str, path: str, content: str, via: SanctionedVia = "review") -> None:
        """A sanctioned write (a reviewer's approval, an engine action): not guarded by ownership."""
        ...

    async def refuse(self, actor: str, path: str, reason: str, *, via: AgentVia, diff: str = "") -> None:
        """Report that ``actor``'s write to ``path`` must not land (``WriteRefused``); the caller then
        refuses it (the write has not happened)."""
        ...

    async def roll_back(self, actor: str, path: str, content_before: str, reason: str, *, diff: str) -> None:
        """Put ``path`` back to ``content_before`` (a change by ``actor``'s shell command that must
        not stay) and report it (``WriteRefused`` with ``rolled_back=True`` and the undone ``diff``)."""
        ...

    # --- commands and tests ---

    async def run_shell(
        self,
        actor: str,
        command: str,
        *,
        timeout: float = 30,  # noqa: ASYNC109
        env: Mapping[str, str] | None = None,
        network: bool = False,
        stdin: str | None = None,
    ) -> ShellResult:
        """Run ``command`` in the workspace as ``actor``: a minimal environment plus ``env`` (a ``PATH``
        in it goes before the shim's), no network unless ``network`` (an external agent reaching its
        model), ``stdin`` on its standard input."""
        ...

    async def run_tests(
        self,
        tests: Mapping[str, str],
        *,
        restore: Sequence[str] = (),
        overlay: Mapping[str, str] | None = None,
        timeout: float = 60,  # noqa: ASYNC109
    ) -> TestOutcome:
        """Run test files (name -> source) against the workspace, with ``restore`` paths put back to
        baseline and ``overlay`` contents put in, without touching the workspace."""
        ...

    def prefetch_tests(
        self, tests: Mapping[str, str], *, restore: Sequence[str] = (), overlay: Mapping[str, str] | None = None
    ) -> Awaitable[TestOutcome] | None:
        """Start that :meth:`run_tests` now, in the background (its outcome, to await), or None when
        this sandbox does not prefetch: a later call with the same arguments on the same files takes
        that outcome instead of running again."""
        ...

    async def close(self) -> None:
        """End the sandbox and remove what it created."""
        ...


class AgentPipes(Protocol):
    """A long-lived agent process started in a sandbox's jail (sandbox.commands.agentproc.AgentProcess):
    its pipes, its working directory (the workspace), its end."""

    cwd: Path
    stdin: asyncio.StreamWriter
    stdout: asyncio.StreamReader
    stderr: asyncio.StreamReader

    async def wait(self) -> int: ...

    async def close(self, grace: float = ...) -> None: ...


@runtime_checkable
class AgentProcesses(Protocol):
    """A sandbox that runs a long-lived agent process (an ACP agent) in its jail (the local one)."""

    async def start_agent_process(self, actor: str, argv: Sequence[str], env: Mapping[str, str]) -> AgentPipes:
        """Start ``argv`` as ``actor`` in the jail, network kept; what it does is settled as ``actor``'s."""
        ...

    async def agent_turn(self, actor: str, *, starts: bool) -> None:
        """``actor``'s process's turn starts or ends: what it did so far is settled as its."""
        ...

    async def stop_agent_process(self, actor: str, process: AgentPipes, grace: float = ...) -> None:
        """Stop it with everything it started, and settle what it did last."""
        ...
