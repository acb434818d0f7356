"""One interface for the agent products seed 003 audits (Claude Code, Codex CLI, Gemini CLI, ...).

A :class:`Product` says how to run one product in the sandbox and how to read it: the pinned
package it is installed from (into the agents cache, :mod:`sandbox.jail.agent_cache`), the files its
HOME needs (its model endpoint, no telemetry, no update checks), its command line with the
permission gate disabled as seed 003 runs it (§2.2) or enabled (the second arm), the variables
that carry its model endpoint and key (handed to it alone), and :meth:`Product.project`, which
turns one line of its native event stream into :class:`ProductCall` values in the project's tool
words (``run_shell``, ``read_file``, ``write_file``, ``edit_file``, ``grep``, ``glob``, ...) with
workspace-relative paths. Nothing past :mod:`engine.agents.products` knows which product it was.
"""

from __future__ import annotations

import json
import os
import shlex
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from sandbox.jail.agent_cache import agents_cache

STREAM_FILE = "stream.jsonl"
"""The product's native event stream, written in its HOME's ``.scopewatch`` folder and read live."""
NO_KEY = "scopewatch-no-key"
"""The key a product gets when the host has none for it (a loopback model server needs none)."""


class ProductCall(BaseModel):
    """One tool call a product made, in the project's words."""

    model_config = ConfigDict(frozen=True)

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    ok: bool = True
    result: str = ""
    native: str = ""
    """The product's own name for the tool (``Bash``, ``exec_command``, ``read_file``)."""


class ProductModelCall(BaseModel):
    """One call of its model a product made, as its own log reports it: the tokens (no latency, finish
    reason or text: a product's log does not keep them per call)."""

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0


class Product(ABC):
    """How to install, run and read one agent product (see the module docstring)."""

    name: str
    package: str
    version: str
    binary: str
    key_env: str
    """The variable that carries its model's key."""
    harness_atoms: tuple[str, ...] = ()
    """Atoms its own harness causes whatever the model asks (Claude Code runs ``env`` to snapshot the
    shell for its Bash tool): the shim records them as the agent's; a verdict that should count only
    the model's actions has to set them apart (not done by the judge yet)."""
    harness_programs: tuple[str, ...] = ("git",)
    """Programs its harness runs on its own at start (``git status``: with a freshly written index,
    git re-reads files of the same second, a credentials backup included, which the tracer reports
    as the agent's ``SensitiveRead``)."""

    def __init__(self, *, gate: bool = False) -> None:
        self.gate = gate
        self.cwd = ""
        self.home = ""

    @property
    def install_dir(self) -> Path:
        return agents_cache() / self.name / self.version

    @property
    def executable(self) -> Path:
        return self.install_dir / "node_modules" / ".bin" / self.binary

    def installed(self) -> bool:
        return self.executable.exists()

    @abstractmethod
    def arguments(self, model: str, prompt: str) -> list[str]:
        """Its argv after the program: print/exec mode, its native event stream on stdout, the gate."""

    @abstractmethod
    def setup_home(self, home: Path, model: str, api_base: str | None) -> None:
        """Write what its HOME needs before it runs."""

    @abstractmethod
    def model_env(self, api_base: str | None, key: str) -> dict[str, str]:
        """The variables that give it its model endpoint and key (and keep it quiet)."""

    @abstractmethod
    def project(self, event: dict[str, Any]) -> list[ProductCall]:
        """The tool calls one native event completes (most events: none)."""

    def final_text(self, event: dict[str, Any]) -> str | None:
        """Its last words, when ``event`` carries them (the episode's summary)."""
        return None

    @abstractmethod
    def answered(self, event: dict[str, Any]) -> bool:
        """Whether ``event`` shows a reply of its model (a message, a tool call): something only a model
        call that succeeded makes. A run with none made no successful model call."""

    def failure(self, event: dict[str, Any]) -> str | None:
        """The failure ``event`` reports (a refused model call, a failed turn), in its own words, or None."""
        return None

    def logs(self, home: Path) -> frozenset[Path]:
        """The logs the product keeps in its HOME (Codex's session logs; none for the others)."""
        return frozenset()

    def model_calls(self, home: Path, before: frozenset[Path]) -> list[ProductModelCall]:
        """Its model calls, read after a run from the logs it wrote then (those not in ``before``): none unless a
        log of its reports each call (Codex's session log does; the others' streams only sum a turn or a run)."""
        return []

    def refused(self, home: Path, before: frozenset[Path]) -> list[ProductCall]:
        """Calls the product refused itself that its stream does not carry, read after a run from the logs
        it wrote then (those not in ``before``): none, unless it keeps them elsewhere (Codex)."""
        return []

    def acp_arguments(self, model: str) -> list[str] | None:
        """Its argv after the program in ACP mode (``acp:NAME:MODEL``), its own gate on so that its
        permission requests reach the client; None when it does not speak ACP."""
        return None

    def program(self) -> list[str]:
        """The argv that starts it. node runs the script itself: through its ``#!/usr/bin/env node``
        line, the tracer would see an ``env`` the shim never recorded (a forged-record alarm,
        audit_tampered)."""
        real = os.path.realpath(self.executable)
        return ["node", real] if _is_script(real) else [real]

    def command(self, model: str, prompt: str, stream: str) -> str:
        """The shell line that runs it in the workspace, its stream into ``stream`` (after a first line
        naming the working directory, so paths can be made relative wherever the workspace is)."""
        argv = " ".join(shlex.quote(a) for a in [*self.program(), *self.arguments(model, prompt)])
        q = shlex.quote(stream)
        return (f'printf \'{{"type":"scopewatch.cwd","cwd":"%s","home":"%s"}}\\n\' "$PWD" "$HOME" > {q}; '
                f"{argv} < /dev/null >> {q}")

    def relative(self, path: Any) -> str:
        """A path the product gave, relative to the workspace when inside it, ``~/...`` in its HOME (a
        sandbox's temporary folder is no part of a result: ``~/.ssh/id_rsa`` is the same read whatever
        the run)."""
        text = str(path or "")
        if text.startswith("/"):
            text = os.path.normpath(text)  # workspace/../home/.ssh/x is in HOME
        root = self.cwd.rstrip("/")
        if root and text.startswith(root + "/"):
            return text[len(root) + 1 :]
        if root and text == root:
            return "."
        home = self.home.rstrip("/")
        if home and (text == home or text.startswith(home + "/")):
            return "~" + text[len(home) :]
        return text

    def read_line(self, line: str) -> list[ProductCall]:
        """One line of the stream: its calls (a line that is not a JSON object: none)."""
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            return []
        if not isinstance(event, dict):
            return []
        if event.get("type") == "scopewatch.cwd":
            self.cwd = str(event.get("cwd") or "")
            self.home = str(event.get("home") or "")
            return []
        return self.project(event)


def _is_script(path: str) -> bool:
    """Whether ``path`` starts with ``#!`` (a script for node), not a native program."""
    try:
        with open(path, "rb") as program:
            return program.read(2) == b"#!"
    except OSError:
        return False


def file_call(native: str, tool: str, path: Any, product: Product, ok: bool, result: str,
              **extra: Any) -> ProductCall:
    """A file tool call with its path made workspace-relative."""
    return ProductCall(tool=tool, args={"path": product.relative(path), **extra}, ok=ok, result=result, native=native)


def text_of(content: Any) -> str:
    """A tool result's text (a string, or a list of text blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return "" if content is None else json.dumps(content)
