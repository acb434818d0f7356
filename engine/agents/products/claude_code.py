"""Claude Code (``@anthropic-ai/claude-code``) in print mode, its ``stream-json`` events read live.

Its stream: ``assistant`` messages carry ``tool_use`` blocks, the ``user`` message after them the
``tool_result`` of each (by id); a call is complete, and projected, when its result arrives. The
last ``result`` event holds its final text. It talks to ``ANTHROPIC_BASE_URL`` (the Messages API,
streaming). ``IS_SANDBOX=1`` tells it that it runs in a sandbox, which it requires before
``--dangerously-skip-permissions`` when its uid is 0 (the jail's user namespace maps the agent to a
non-root uid; on a host without one it still runs, jailed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.agents import homefiles
from engine.agents.products.base import Product, ProductCall, file_call, text_of

_FILE_TOOLS = {"Read": "read_file", "Write": "write_file", "Edit": "edit_file", "MultiEdit": "edit_file"}


class ClaudeCode(Product):
    name = "claude-code"
    package = "@anthropic-ai/claude-code"
    version = "2.1.328"
    binary = "claude"
    key_env = "ANTHROPIC_API_KEY"
    harness_atoms = ("dump_environment",)

    def __init__(self, *, gate: bool = False) -> None:
        super().__init__(gate=gate)
        self._pending: dict[str, tuple[str, dict[str, Any]]] = {}

    def arguments(self, model: str, prompt: str) -> list[str]:
        gate = ["--permission-mode", "default"] if self.gate else ["--dangerously-skip-permissions"]
        return ["-p", prompt, "--output-format", "stream-json", "--verbose",
                "--model", model.removeprefix("anthropic/"), *gate]

    def setup_home(self, home: Path, model: str, api_base: str | None) -> None:
        homefiles.make_folder(home, home / ".claude")

    def model_env(self, api_base: str | None, key: str) -> dict[str, str]:
        env = {self.key_env: key, "IS_SANDBOX": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_ERROR_REPORTING": "1"}
        if api_base:
            env["ANTHROPIC_BASE_URL"] = api_base.rstrip("/").removesuffix("/v1")
        return env

    def project(self, event: dict[str, Any]) -> list[ProductCall]:
        message = event.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            return []
        calls: list[ProductCall] = []
        for block in content:
            if not isinstance(block, dict):
                continue
            if event.get("type") == "assistant" and block.get("type") == "tool_use":
                arguments = block.get("input")
                given = arguments if isinstance(arguments, dict) else {}
                self._pending[str(block.get("id"))] = (str(block.get("name")), given)
            elif event.get("type") == "user" and block.get("type") == "tool_result":
                found = self._pending.pop(str(block.get("tool_use_id")), None)
                if found is not None:
                    calls.append(self._call(*found, ok=not block.get("is_error"), result=text_of(block.get("content"))))
        return calls

    def _call(self, native: str, args: dict[str, Any], *, ok: bool, result: str) -> ProductCall:
        if native == "Bash":
            return ProductCall(tool="run_shell", args={"command": str(args.get("command", ""))}, ok=ok,
                               result=result, native=native)
        if native in _FILE_TOOLS:
            return file_call(native, _FILE_TOOLS[native], args.get("file_path"), self, ok, result)
        if native == "NotebookEdit":
            return file_call(native, "edit_file", args.get("notebook_path"), self, ok, result)
        if native in ("Grep", "Glob"):
            return ProductCall(tool=native.lower(), args={"pattern": str(args.get("pattern", "")),
                                                          "path": self.relative(args.get("path", "."))},
                               ok=ok, result=result, native=native)
        return ProductCall(tool=native.lower(), args={k: str(v) for k, v in args.items()}, ok=ok, result=result,
                           native=native)

    def final_text(self, event: dict[str, Any]) -> str | None:
        return str(event.get("result", "")) if event.get("type") == "result" else None

    def answered(self, event: dict[str, Any]) -> bool:
        message = event.get("message")
        # its own stand-in for a failed call is an assistant message of the model "<synthetic>"
        return (event.get("type") == "assistant" and isinstance(message, dict) and not event.get("error")
                and message.get("model") != "<synthetic>")

    def failure(self, event: dict[str, Any]) -> str | None:
        if event.get("type") == "result" and event.get("is_error"):
            return str(event.get("result") or event.get("subtype") or "error")
        if event.get("type") == "system" and event.get("subtype") == "api_retry":
            return f"{event.get('error_status', '')} {event.get('error', '')}".strip()
        return None
