"""Gemini CLI (``@google/gemini-cli``) in headless mode, its ``stream-json`` events read live.

Its stream: ``tool_use`` (name, id, parameters) then ``tool_result`` (same id, status, output);
``message`` events with role ``assistant`` carry its words in deltas; ``result`` ends the run. It
calls ``GOOGLE_GEMINI_BASE_URL`` (``streamGenerateContent?alt=sse``) once its settings name the
API-key auth type and folder trust is off (else it waits for a person). Gate off is ``--yolo``.
In ACP mode (``acp:gemini-cli:MODEL``, engine/agents/acp_launch.py) it runs ``--acp`` with its own
gate on: its reads and writes and its permission requests go through scopewatch as its client (its
shell commands it still runs itself).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.agents import homefiles
from engine.agents.products.base import Product, ProductCall, file_call

_FILE_TOOLS = {"read_file": "read_file", "write_file": "write_file", "replace": "edit_file"}


class GeminiCli(Product):
    name = "gemini-cli"
    package = "@google/gemini-cli"
    version = "0.61.0"
    binary = "gemini"
    key_env = "GEMINI_API_KEY"

    def __init__(self, *, gate: bool = False) -> None:
        super().__init__(gate=gate)
        self._pending: dict[str, tuple[str, dict[str, Any]]] = {}
        self._words: list[str] = []

    def arguments(self, model: str, prompt: str) -> list[str]:
        gate = ["--approval-mode", "default"] if self.gate else ["--yolo"]
        return ["-p", prompt, "--output-format", "stream-json", "-m", model.removeprefix("gemini/"), *gate]

    def acp_arguments(self, model: str) -> list[str] | None:
        return ["--acp", "-m", model.removeprefix("gemini/")]

    def setup_home(self, home: Path, model: str, api_base: str | None) -> None:
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
        }
        homefiles.write_file(home, home / ".gemini" / "settings.json", json.dumps(settings, indent=2))

    def model_env(self, api_base: str | None, key: str) -> dict[str, str]:
        env = {self.key_env: key, "GEMINI_CLI_NO_RELAUNCH": "true", "NO_COLOR": "1"}
        if api_base:
            env["GOOGLE_GEMINI_BASE_URL"] = api_base.rstrip("/").removesuffix("/v1").removesuffix("/v1beta")
        return env

    def project(self, event: dict[str, Any]) -> list[ProductCall]:
        kind = event.get("type")
        if kind == "tool_use":
            self._words.clear()  # its last words are what it says after its last call
            params = event.get("parameters")
            given = params if isinstance(params, dict) else {}
            self._pending[str(event.get("tool_id"))] = (str(event.get("tool_name")), given)
        elif kind == "tool_result":
            found = self._pending.pop(str(event.get("tool_id")), None)
            if found is not None:
                output = event.get("output")
                if output is None and isinstance(event.get("error"), dict):
                    output = event["error"].get("message")
                return [self._call(*found, ok=event.get("status") == "success", result=str(output or ""))]
        elif kind == "message" and event.get("role") == "assistant":
            self._words.append(str(event.get("content", "")))
        return []

    def _call(self, native: str, args: dict[str, Any], *, ok: bool, result: str) -> ProductCall:
        if native == "run_shell_command":
            return ProductCall(tool="run_shell", args={"command": str(args.get("command", ""))}, ok=ok,
                               result=result, native=native)
        if native in _FILE_TOOLS:
            return file_call(native, _FILE_TOOLS[native], args.get("file_path"), self, ok, result)
        if native in ("grep_search", "glob"):
            return ProductCall(tool="grep" if native == "grep_search" else "glob",
                               args={"pattern": str(args.get("pattern", "")),
                                     "path": self.relative(args.get("dir_path", "."))},
                               ok=ok, result=result, native=native)
        if native == "list_directory":
            return file_call(native, "list_files", args.get("dir_path"), self, ok, result)
        return ProductCall(tool=native, args={k: str(v) for k, v in args.items()}, ok=ok, result=result, native=native)

    def final_text(self, event: dict[str, Any]) -> str | None:
        return "".join(self._words) if event.get("type") == "result" else None

    def answered(self, event: dict[str, Any]) -> bool:
        return event.get("type") == "tool_use" or (event.get("type") == "message" and event.get("role") == "assistant")

    def failure(self, event: dict[str, Any]) -> str | None:
        error = event.get("error")
        if event.get("type") == "result" and event.get("status") == "error":
            return str(error.get("message", "")) if isinstance(error, dict) else "error"
        return None
