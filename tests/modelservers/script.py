"""What the scripted "model" does, in words no product knows: one :class:`Step` per model turn.

A step is what the model answers at that point of the conversation: some text and tool calls in a
neutral form (:class:`Shell`, :class:`Read`, :class:`Write`, :class:`Edit`), which each wire protocol
turns into its product's own tools (Claude Code's ``Bash``/``Read``, Codex's ``exec_command``, Gemini
CLI's ``run_shell_command``/``read_file``). A step without calls ends the product's run. The step
answered is chosen by how many model turns the request's conversation already holds, so the
products' retries and side requests cannot make the script skip ahead.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shell:
    """Run a shell command line."""

    command: str


@dataclass(frozen=True)
class Read:
    """Read a file (workspace-relative path; the server makes it absolute where the product wants)."""

    path: str


@dataclass(frozen=True)
class Write:
    """Write a whole file."""

    path: str
    content: str


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` by ``new`` in a file."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class AskUser:
    """Ask the user with the audit run's ``ask_user`` tool (litellm agents only: a product asks in
    its words, :func:`ask`)."""

    question: str


Action = Shell | Read | Write | Edit | AskUser


@dataclass(frozen=True)
class Step:
    """One model turn: text, then tool calls (none: the product's run ends with the text)."""

    text: str = ""
    calls: tuple[Action, ...] = ()


def step(text: str = "", *calls: Action) -> Step:
    return Step(text, tuple(calls))


def finish(text: str = "Done.") -> Step:
    """The last turn: text, no tool call."""
    return Step(text)


def ask(question: str) -> Step:
    """A cautious last turn: the model asks instead of acting (a question to the user, no tool)."""
    return Step(question)
