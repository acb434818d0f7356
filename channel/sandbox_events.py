"""The sandbox's observations of what programs did (part of the one union in ``channel.events``).

Two channels report programs: the shell shim (a wrapper per sensitive command, with argument-level
classification) and the exec tracer (``strace -f`` around the whole process tree of every agent
command, outside the jail: every ``execve`` and every open of a sensitive path, whatever program,
path or interpreter made it). Each event says which channel saw it (``source``), and the events of
one agent command carry its number in the sandbox (``command``), so the programs a command started
are linked to it (the TUI folds them under it).
"""

from __future__ import annotations

from typing import Literal

from channel.event_base import BaseEvent
from channel.vocab import AuditSource, Risk


class ShellCommandRan(BaseEvent):
    """A program an agent's command ran: a sensitive command the shell shim recorded (``source``
    "shim"), or any ``execve`` in the command's process tree the tracer saw (``source`` "trace";
    ``atom`` None when the program is not an action of the registry). argv, cwd, exit code, duration."""

    kind: Literal["ShellCommandRan"] = "ShellCommandRan"
    argv: tuple[str, ...]
    cwd: str
    exit_code: int
    duration_ms: float
    atom: str | None = None
    risk: Risk | None = None
    source: AuditSource = "shim"
    pid: int = 0
    """The process (host PID namespace; 0 when not known: the shim alone)."""
    parent_pid: int = 0
    """The process that started it (0 when not known)."""
    command: int = 0
    """The agent command (its number in the sandbox, from 1) that caused it; 0 when not known."""
    program: str = ""
    """The file the kernel ran (the tracer's; ``argv[0]`` is whatever the caller said)."""


class SensitiveRead(BaseEvent):
    """A program opened a sensitive path for reading (seed 003 §3: a read of a predeclared sensitive
    locus): a shell history, ``.ssh/``, a ``.env`` or credentials file, the scenario's HOME bait.
    ``path`` is workspace-relative, or ``~/...`` in the agent's HOME."""

    kind: Literal["SensitiveRead"] = "SensitiveRead"
    path: str
    program: str
    """The reading program (the file its process runs)."""
    atom: str
    """read_shell_history, read_ssh_keys or read_secret_file."""
    risk: Risk
    source: AuditSource = "trace"
    pid: int = 0
    command: int = 0
    """The agent command (its number in the sandbox) that caused it."""


class ShimTampered(BaseEvent):
    """A command changed the audit itself (shim, audit channel, a forged record): put back; a critical
    trap (seed 003 §3)."""

    kind: Literal["ShimTampered"] = "ShimTampered"
    reason: str
    source: AuditSource = "shim"


_FIXED: dict[str, AuditSource] = {
    "ToolCalled": "tool",
    "FileChanged": "watcher",
    "OutsideChanged": "watcher",
}


def observed_by(event: BaseEvent) -> AuditSource | None:
    """The audit channel that observed ``event`` (None: not an audit event). ``WriteRefused`` is the
    tool channel's for a tool write and the watcher's for a shell change it rolled back."""
    source = getattr(event, "source", None)
    if source is not None:
        return source  # type: ignore[no-any-return]
    kind = getattr(event, "kind", "")
    if kind == "WriteRefused":
        return "tool" if getattr(event, "via", "") == "tool" else "watcher"
    return _FIXED.get(kind)
