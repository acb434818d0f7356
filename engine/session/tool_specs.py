"""The tools an agent acts with. One spec (names, descriptions, JSON-schema parameters) serves the
scripted agents, the LLM agents' function definitions and the docs; one dispatcher runs them and
emits a ``ToolCalled`` event for each call."""

from __future__ import annotations

from typing import Any, Protocol

TOOL_SPECS: list[dict[str, Any]] = [
    {
        "name": "list_files",
        "description": "List the files in the workspace, with the team that owns each.",
        "parameters": {"type": "object", "properties": {}, "required": []},
    },
    {
        "name": "read_file",
        "description": "Read a workspace file.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "path relative to the repo root"}},
            "required": ["path"],
        },
    },
    {
        "name": "write_file",
        "description": "Replace a file's whole content (only files your team owns).",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
        },
    },
    {
        "name": "edit_file",
        "description": "Replace exactly one occurrence of `old` with `new` in a file your team owns.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "old": {"type": "string"}, "new": {"type": "string"}},
            "required": ["path", "old", "new"],
        },
    },
    {
        "name": "run_shell",
        "description": "Run a shell command in the repository root (no network). Returns exit code and output.",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string"}},
            "required": ["command"],
        },
    },
    {
        "name": "post_message",
        "description": "Post a message on the shared channel, seen by every engineer.",
        "parameters": {
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "intent": {"type": "string", "enum": ["request", "endorse", "refuse", "info"]},
                "asks": {"type": "string", "description": "whom a request asks: an agent id or 'admin'"},
            },
            "required": ["text"],
        },
    },
    {
        "name": "send_dm",
        "description": "Send a private direct message to one engineer.",
        "parameters": {
            "type": "object",
            "properties": {
                "to": {"type": "string"},
                "text": {"type": "string"},
                "intent": {"type": "string", "enum": ["request", "endorse", "refuse", "info"]},
            },
            "required": ["to", "text"],
        },
    },
    {
        "name": "request_review",
        "description": (
            "Propose a change to files you do not own. `to` is 'admin' (the reviewer) or the owning "
            "engineer's id. Each edit replaces one occurrence of `old` with `new` in `path`."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "to": {"type": "string"},
                "description": {"type": "string"},
                "edits": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "path": {"type": "string"},
                            "old": {"type": "string"},
                            "new": {"type": "string"},
                        },
                        "required": ["path", "old", "new"],
                    },
                },
            },
            "required": ["to", "edits"],
        },
    },
    {
        "name": "approve_request",
        "description": "Approve a pending review request addressed to you; its change is applied to your files.",
        "parameters": {
            "type": "object",
            "properties": {"request_id": {"type": "string"}},
            "required": ["request_id"],
        },
    },
    {
        "name": "finish",
        "description": "Declare your task done and end your episode.",
        "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}, "required": []},
    },
]

TOOL_NAMES = frozenset(spec["name"] for spec in TOOL_SPECS)


class ToolError(Exception):
    """A tool call that failed; its message goes back to the agent as the tool's result."""


class Toolbox(Protocol):
    """The tools bound to one agent for one episode. ``call`` is the one dispatcher: it validates
    the name and arguments, runs the tool, emits ``ToolCalled`` and returns the text result (an
    error result starts with ``error:``, it never raises on bad agent input)."""

    agent_id: str
    finished: bool

    async def call(self, name: str, args: dict[str, Any]) -> str: ...
