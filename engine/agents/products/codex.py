"""Codex CLI (``@openai/codex``) in ``exec --json`` mode, its events read live.

Its stream: ``item.completed`` events carry what it did: ``command_execution`` (the command line
it ran, usually ``/bin/bash -lc '...'``, its output and exit code), ``file_change`` (its patch
tool's writes), ``mcp_tool_call``, and ``agent_message`` (its words; the last one is its summary).
It reaches its model through a provider in ``$CODEX_HOME/config.toml`` (``wire_api = "responses"``:
``POST {base_url}/responses``, server-sent events). Gate off is
``--dangerously-bypass-approvals-and-sandbox`` (the jail is the sandbox); gate on is its own
``workspace-write`` sandbox with approvals on request, which ``exec`` refuses (no one to ask).

A call Codex refuses itself (its policy's ``rejected: rm -f style commands are not permitted``, an
unknown tool's ``unsupported call``) never reaches that stream: it is in the session log Codex keeps in
its HOME (``~/.codex/sessions/Y/M/D/rollout-*.jsonl``: each ``function_call`` and its
``function_call_output``), read after the run (:meth:`Codex.refused`), each a failed call. The same log
has a ``token_usage_record`` per response of its model: each is recorded as a ``ModelCalled``
(:meth:`Codex.model_calls`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.agents import homefiles
from engine.agents.products.base import Product, ProductCall, ProductModelCall, file_call
from sandbox.commands.commandline import shell_script

PROVIDER = "scopewatch"
SESSIONS = Path(".codex") / "sessions"
"""Where Codex logs its sessions in its HOME (``rollout-*.jsonl`` under ``Y/M/D``)."""
REFUSALS = ("exec_command failed:", "unsupported call:")
"""How the output Codex gives its model for a call it did not run begins."""
MAX_LOG = 32 << 20
"""A session log past this many bytes is not read (the refusals of that run are not recorded)."""


def unwrap_shell(command: str) -> str:
    """The command line inside ``bash -lc '...'`` (every spelling: sandbox.commands.commandline.shell_script),
    the line as given when it is not wrapped."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    script = shell_script(argv)
    return command if script is None else script


class Codex(Product):
    name = "codex"
    package = "@openai/codex"
    version = "0.169.0"
    binary = "codex"
    key_env = "OPENAI_API_KEY"

    def arguments(self, model: str, prompt: str) -> list[str]:
        gate = (["--sandbox", "workspace-write", "-c", 'approval_policy="on-request"'] if self.gate
                else ["--dangerously-bypass-approvals-and-sandbox"])
        return ["exec", "--json", "--skip-git-repo-check", "-m", model.removeprefix("openai/"), *gate, prompt]

    def setup_home(self, home: Path, model: str, api_base: str | None) -> None:
        # No login shells: a login shell's /etc/profile resets PATH, dropping the shim and sw-post.
        lines = ["check_for_update_on_startup = false", "allow_login_shell = false", "[analytics]", "enabled = false"]
        if api_base:
            lines = [f'model_provider = "{PROVIDER}"', *lines, f"[model_providers.{PROVIDER}]",
                     f'name = "{PROVIDER}"', f"base_url = {json.dumps(api_base)}", f'env_key = "{self.key_env}"',
                     'wire_api = "responses"']
        homefiles.write_file(home, home / ".codex" / "config.toml", "\n".join(lines) + "\n")

    def model_env(self, api_base: str | None, key: str) -> dict[str, str]:
        return {self.key_env: key}

    def project(self, event: dict[str, Any]) -> list[ProductCall]:
        item = event.get("item")
        if event.get("type") != "item.completed" or not isinstance(item, dict):
            return []
        kind = item.get("type")
        if kind == "command_execution":
            code = item.get("exit_code")
            return [ProductCall(tool="run_shell", args={"command": unwrap_shell(str(item.get("command", "")))},
                                ok=code == 0, result=str(item.get("aggregated_output", "")), native="exec_command")]
        if kind == "file_change":
            ok = item.get("status") != "failed"
            listed = item.get("changes")
            changes: list[Any] = listed if isinstance(listed, list) else []
            return [file_call("apply_patch", "write_file" if c.get("kind") == "add" else "edit_file",
                              c.get("path"), self, ok, str(c.get("kind", "")))
                    for c in changes if isinstance(c, dict)]
        if kind == "mcp_tool_call":
            return [ProductCall(tool=str(item.get("tool", "mcp")), args={"server": str(item.get("server", ""))},
                                ok=item.get("status") != "failed", native="mcp_tool_call")]
        return []

    def logs(self, home: Path) -> frozenset[Path]:
        return frozenset(_logs(home, home / SESSIONS))

    def refused(self, home: Path, before: frozenset[Path]) -> list[ProductCall]:
        calls: list[ProductCall] = []
        for log in sorted(self.logs(home) - before):  # each run of codex exec starts a log of its own
            with contextlib.suppress(OSError):
                data = homefiles.read_file(home, log)
                calls += refusals(data.decode("utf-8", errors="replace") if data else "")
        return calls

    def model_calls(self, home: Path, before: frozenset[Path]) -> list[ProductModelCall]:
        used: list[ProductModelCall] = []
        for log in sorted(self.logs(home) - before):
            with contextlib.suppress(OSError):
                data = homefiles.read_file(home, log)
                used += usage_records(data.decode("utf-8", errors="replace") if data else "")
        return used

    def final_text(self, event: dict[str, Any]) -> str | None:
        item = event.get("item")
        if event.get("type") == "item.completed" and isinstance(item, dict) and item.get("type") == "agent_message":
            return str(item.get("text", ""))
        return None

    def answered(self, event: dict[str, Any]) -> bool:
        item = event.get("item")
        if event.get("type") in ("item.started", "item.updated", "item.completed") and isinstance(item, dict):
            return item.get("type") != "error"  # its own notices (no model metadata) are items too
        return event.get("type") == "turn.completed"

    def failure(self, event: dict[str, Any]) -> str | None:
        error = event.get("error")
        if event.get("type") == "turn.failed" and isinstance(error, dict):
            return str(error.get("message", ""))
        return str(event.get("message", "")) if event.get("type") == "error" else None


def refusals(log: str) -> list[ProductCall]:
    """The calls of a Codex session log that Codex answered with a refusal instead of running them."""
    asked: dict[str, tuple[str, str]] = {}
    calls: list[ProductCall] = []
    for line in log.splitlines():
        with contextlib.suppress(ValueError):
            payload = json.loads(line).get("payload")
            if not isinstance(payload, dict):
                continue
            if payload.get("type") == "function_call":
                asked[str(payload.get("call_id"))] = (str(payload.get("name", "")), str(payload.get("arguments", "")))
            output = payload.get("output")
            if payload.get("type") != "function_call_output" or not isinstance(output, str):
                continue
            name, raw = asked.pop(str(payload.get("call_id")), ("", ""))
            if name and output.startswith(REFUSALS):
                calls.append(_refused(name, raw, output))
    return calls


def usage_records(log: str) -> list[ProductModelCall]:
    """The model calls of a Codex session log: one ``token_usage_record`` per response of its model, with
    that response's ``usage`` (``input_tokens`` counts the cached ones too)."""
    used: list[ProductModelCall] = []
    for line in log.splitlines():
        with contextlib.suppress(ValueError, TypeError):
            record = json.loads(line)
            payload = record.get("payload") if isinstance(record, dict) else None
            if record.get("type") != "token_usage_record" or not isinstance(payload, dict):
                continue
            usage = payload.get("usage")
            if isinstance(usage, dict):
                used.append(ProductModelCall(prompt_tokens=int(usage.get("input_tokens") or 0),
                                             completion_tokens=int(usage.get("output_tokens") or 0)))
    return used


def _refused(name: str, raw: str, output: str) -> ProductCall:
    try:
        args = json.loads(raw)
    except ValueError:
        args = None
    args = args if isinstance(args, dict) else {"arguments": raw}
    if name == "exec_command" and isinstance(args.get("cmd"), str):
        return ProductCall(tool="run_shell", args={"command": unwrap_shell(args["cmd"])}, ok=False, result=output,
                           native=name)
    return ProductCall(tool=name, args=args, ok=False, result=output, native=name)


def _logs(home: Path, folder: Path, depth: int = 3) -> Iterator[Path]:
    """The session logs under ``folder`` (Y/M/D below it), no link followed."""
    try:
        with homefiles.folder(home, folder, create=False) as fd:
            entries = []
            for name in sorted(os.listdir(fd)):
                with contextlib.suppress(OSError):
                    entries.append((name, os.stat(name, dir_fd=fd, follow_symlinks=False)))
    except OSError:
        return
    for name, info in entries:
        if depth and stat.S_ISDIR(info.st_mode):
            yield from _logs(home, folder / name, depth - 1)
        elif not depth and stat.S_ISREG(info.st_mode) and name.endswith(".jsonl") and info.st_size <= MAX_LOG:
            yield folder / name
