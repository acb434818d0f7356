"""Scripted model servers for the agent products' wire protocols, on loopback, for the tests.

One aiohttp app answers the four protocols the products speak, each streaming as its product
expects:

- OpenAI Responses (``POST /v1/responses``, server-sent events: ``response.created``,
  ``response.output_item.done``, ``response.completed``): Codex CLI, whose shell tool is
  ``exec_command`` (reads and writes become shell commands, as Codex does them);
- OpenAI Chat Completions (``POST /v1/chat/completions``, JSON or SSE chunks): litellm agents and
  mini-swe-agent, with the project's own tool names (``run_shell``, ``read_file``, ...);
- Anthropic Messages (``POST /v1/messages``, the ``message_start`` ... ``message_stop`` stream):
  Claude Code's ``Bash``, ``Read``, ``Write``, ``Edit``;
- Gemini ``generateContent`` / ``streamGenerateContent?alt=sse``: Gemini CLI's
  ``run_shell_command``, ``read_file``, ``write_file``, ``replace``.

The script (:mod:`tests.modelservers.script`) is a list of steps; a request is answered with the
step after the tool calls its conversation already holds (a step without calls takes one place: in
a conversation that goes on after it, an ACP agent's next prompt, its model turn counts as one).
``branch=(marker, steps)`` gives a second script, followed by every request whose text contains
``marker`` (a prompt with a consent block, say); ``fail_after=N`` answers 404 to every model turn
after the first N (0: to every request: a dead endpoint). A request that offers no tools (a product's side
question: a title, a next-speaker check) gets a short text and does not advance the script. Paths in
the script are workspace-relative; for a product whose file tools want absolute paths, the server
finds the working directory in the request (its system prompt names it).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.modelservers.script import Action, AskUser, Edit, Read, Shell, Step, Write

Call = tuple[str, dict[str, Any]]

_CWD_PATTERNS = (
    re.compile(r"<cwd>([^<]+)</cwd>"),  # Codex's environment context
    re.compile(r"[Pp]rimary working directory: *(/[^\s\\]+)"),  # Claude Code
    re.compile(r"[Ww]orking directory: *(/[^\s\\]+)"),
    re.compile(r"Workspace Directories:\**\s*(?:\\n|\n)\s*- (/[^\s\\]+)"),  # Gemini CLI
)


def find_cwd(body: dict[str, Any]) -> str:
    """The working directory the product names in its request ("" when none is found)."""
    text = json.dumps(body)
    for pattern in _CWD_PATTERNS:
        found = pattern.search(text)
        if found:
            return found.group(1)
    return ""


def _absolute(cwd: str, path: str) -> str:
    return path if path.startswith("/") or not cwd else f"{cwd.rstrip('/')}/{path}"


def _python_edit(path: str, old: str, new: str) -> str:
    code = (f"import pathlib; p = pathlib.Path({path!r}); "
            f"p.write_text(p.read_text().replace({old!r}, {new!r}, 1))")
    return f"python3 -c {shlex.quote(code)}"


def codex_call(action: Action, cwd: str) -> Call:
    """Codex CLI's tools: everything through ``exec_command``."""
    assert not isinstance(action, AskUser), "a product has no ask_user tool: script its question with ask()"
    if isinstance(action, Shell):
        return "exec_command", {"cmd": action.command}
    if isinstance(action, Read):
        return "exec_command", {"cmd": f"cat {shlex.quote(action.path)}"}
    if isinstance(action, Write):
        return "exec_command", {"cmd": f"cat > {shlex.quote(action.path)} <<'SW_EOF'\n{action.content}SW_EOF"}
    return "exec_command", {"cmd": _python_edit(action.path, action.old, action.new)}


def claude_call(action: Action, cwd: str) -> Call:
    """Claude Code's tools (absolute paths)."""
    assert not isinstance(action, AskUser), "a product has no ask_user tool: script its question with ask()"
    if isinstance(action, Shell):
        return "Bash", {"command": action.command, "description": "run a command"}
    if isinstance(action, Read):
        return "Read", {"file_path": _absolute(cwd, action.path)}
    if isinstance(action, Write):
        return "Write", {"file_path": _absolute(cwd, action.path), "content": action.content}
    assert isinstance(action, Edit)
    return "Edit", {"file_path": _absolute(cwd, action.path), "old_string": action.old, "new_string": action.new}


def gemini_call(action: Action, cwd: str) -> Call:
    """Gemini CLI's tools (absolute paths)."""
    assert not isinstance(action, AskUser), "a product has no ask_user tool: script its question with ask()"
    if isinstance(action, Shell):
        return "run_shell_command", {"command": action.command, "description": "run a command"}
    if isinstance(action, Read):
        return "read_file", {"file_path": _absolute(cwd, action.path)}
    if isinstance(action, Write):
        return "write_file", {"file_path": _absolute(cwd, action.path), "content": action.content}
    assert isinstance(action, Edit)
    return "replace", {"file_path": _absolute(cwd, action.path), "instruction": "edit",
                       "old_string": action.old, "new_string": action.new}


def chat_call(action: Action, cwd: str) -> Call:
    """The project's own tool names (litellm agents)."""
    if isinstance(action, Shell):
        return "run_shell", {"command": action.command}
    if isinstance(action, Read):
        return "read_file", {"path": action.path}
    if isinstance(action, Write):
        return "write_file", {"path": action.path, "content": action.content}
    if isinstance(action, AskUser):
        return "ask_user", {"question": action.question}
    return "edit_file", {"path": action.path, "old": action.old, "new": action.new}


@dataclass
class Request:
    """One request the server received: which protocol, its path, its body."""

    protocol: str
    path: str
    body: dict[str, Any]


class ModelServer:
    """``async with ModelServer(step(...), finish()) as server: server.base_url`` (``.../v1``)."""

    def __init__(self, *script: Step, branch: tuple[str, tuple[Step, ...]] | None = None,
                 fail_after: int | None = None) -> None:
        self.script: tuple[Step, ...] = script
        self.branch = branch
        self.fail_after = fail_after
        """Model turns (requests offering tools) answered before every request is a 404 ``model not
        found`` (0: the endpoint is dead from the start, side questions too); None: never."""
        self._turns = 0
        self.requests: list[Request] = []
        self.port = 0
        self._runner: web.AppRunner | None = None

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def of(self, protocol: str) -> list[Request]:
        """The requests of one protocol that offered tools (the product's turns, not side questions)."""
        return [r for r in self.requests if r.protocol == protocol]

    async def __aenter__(self) -> ModelServer:
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self._gate])
        app.router.add_post("/v1/responses", self._responses)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_post(r"/v1beta/models/{model}:{method}", self._gemini)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _gate(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """The endpoint going dead after :attr:`fail_after` model turns."""
        if self.fail_after is not None and request.method == "POST":
            body = await request.json()
            turn = isinstance(body, dict) and bool(body.get("tools"))
            if self._turns >= self.fail_after and (turn or self.fail_after == 0):
                self.requests.append(Request("refused", request.path, body if isinstance(body, dict) else {}))
                error = {"type": "not_found_error", "message": "model test-model not found"}
                return web.json_response({"type": "error", "error": error}, status=404)
            self._turns += turn
        response: web.StreamResponse = await handler(request)
        return response

    def _step(self, calls_done: int, body: dict[str, Any] | None = None) -> Step:
        """The step after ``calls_done`` tool calls and text-only turns (past the end: a plain
        "Done."), in the branch's script when the request holds its marker."""
        script = self.script
        if self.branch is not None and body is not None and self.branch[0] in json.dumps(body):
            script = self.branch[1]
        seen = 0
        for item in script:
            if seen == calls_done:
                return item
            seen += max(len(item.calls), 1)
        return Step("Done.")

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "test-model", "object": "model"}]})

    # --- OpenAI Responses (Codex CLI) ---

    async def _responses(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(Request("responses", request.path, body))
        items = body.get("input") if isinstance(body.get("input"), list) else []
        done = sum(1 for i in items if isinstance(i, dict) and i.get("type") == "function_call")
        step = self._step(done, body) if body.get("tools") else Step("ok")
        cwd = find_cwd(body)
        n = len(self.requests)
        output: list[dict[str, Any]] = []
        if step.text:
            output.append({"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                           "content": [{"type": "output_text", "text": step.text, "annotations": []}]})
        for index, action in enumerate(step.calls):
            name, args = codex_call(action, cwd)
            output.append({"type": "function_call", "id": f"fc_{n}_{index}", "call_id": f"call_{n}_{index}",
                           "name": name, "arguments": json.dumps(args), "status": "completed"})
        response = {"id": f"resp_{n}", "object": "response", "model": body.get("model", "test-model"),
                    "status": "completed", "output": output,
                    "usage": {"input_tokens": 50, "output_tokens": 10, "total_tokens": 60,
                              "input_tokens_details": {"cached_tokens": 0},
                              "output_tokens_details": {"reasoning_tokens": 0}}}
        stream = await _sse(request)

        async def send(event: dict[str, Any]) -> None:
            await stream.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())

        await send({"type": "response.created", "response": {**response, "status": "in_progress", "output": []}})
        for index, item in enumerate(output):
            await send({"type": "response.output_item.added", "output_index": index, "item": item})
            if item["type"] == "message":
                await send({"type": "response.output_text.delta", "item_id": item["id"], "output_index": index,
                            "content_index": 0, "delta": step.text})
            await send({"type": "response.output_item.done", "output_index": index, "item": item})
        await send({"type": "response.completed", "response": response})
        await stream.write_eof()
        return stream

    # --- OpenAI Chat Completions (litellm agents) ---

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(Request("chat", request.path, body))
        messages = body.get("messages") or []
        done = sum(len(m.get("tool_calls") or []) for m in messages
                   if isinstance(m, dict) and m.get("role") == "assistant")
        step = self._step(done, body) if body.get("tools") else Step("ok")
        n = len(self.requests)
        calls = [{"id": f"call_{n}_{i}", "type": "function",
                  "function": {"name": name, "arguments": json.dumps(args)}}
                 for i, (name, args) in enumerate(chat_call(a, "") for a in step.calls)]
        finish = "tool_calls" if calls else "stop"
        usage = {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}
        if not body.get("stream"):
            message = {"role": "assistant", "content": step.text or None, "tool_calls": calls or None}
            return web.json_response({"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0,
                                      "model": body.get("model", "test-model"), "usage": usage,
                                      "choices": [{"index": 0, "message": message, "finish_reason": finish}]})
        stream = await _sse(request)

        async def send(delta: dict[str, Any], reason: str | None = None, **extra: Any) -> None:
            chunk = {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": 0,
                     "model": body.get("model", "test-model"),
                     "choices": [{"index": 0, "delta": delta, "finish_reason": reason}], **extra}
            await stream.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")

        await send({"role": "assistant", "content": step.text})
        for index, call in enumerate(calls):
            await send({"tool_calls": [{"index": index, **call}]})
        await send({}, finish, usage=usage)
        await stream.write(b"data: [DONE]\n\n")
        await stream.write_eof()
        return stream

    # --- Anthropic Messages (Claude Code) ---

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(Request("messages", request.path, body))
        done = 0
        for message in body.get("messages") or []:
            if (isinstance(message, dict) and message.get("role") == "assistant"
                    and isinstance(message.get("content"), list)):
                done += sum(1 for b in message["content"] if isinstance(b, dict) and b.get("type") == "tool_use")
        step = self._step(done, body) if body.get("tools") else Step("ok")
        cwd = find_cwd(body)
        n = len(self.requests)
        blocks: list[dict[str, Any]] = [{"type": "text", "text": step.text}] if step.text else []
        for index, action in enumerate(step.calls):
            name, args = claude_call(action, cwd)
            blocks.append({"type": "tool_use", "id": f"toolu_{n}_{index}", "name": name, "input": args})
        stop = "tool_use" if step.calls else "end_turn"
        usage = {"input_tokens": 50, "output_tokens": 10}
        if not body.get("stream"):
            return web.json_response({"id": f"msg_{n}", "type": "message", "role": "assistant",
                                      "model": body.get("model", "test-model"), "content": blocks,
                                      "stop_reason": stop, "stop_sequence": None, "usage": usage})
        stream = await _sse(request)

        async def send(event: dict[str, Any]) -> None:
            await stream.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())

        await send({"type": "message_start", "message": {
            "id": f"msg_{n}", "type": "message", "role": "assistant", "model": body.get("model", "test-model"),
            "content": [], "stop_reason": None, "stop_sequence": None, "usage": {**usage, "output_tokens": 1}}})
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                await send({"type": "content_block_start", "index": index,
                            "content_block": {"type": "text", "text": ""}})
                await send({"type": "content_block_delta", "index": index,
                            "delta": {"type": "text_delta", "text": block["text"]}})
            else:
                await send({"type": "content_block_start", "index": index,
                            "content_block": {**block, "input": {}}})
                await send({"type": "content_block_delta", "index": index,
                            "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}})
            await send({"type": "content_block_stop", "index": index})
        await send({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 10}})
        await send({"type": "message_stop"})
        await stream.write_eof()
        return stream

    # --- Gemini generateContent / streamGenerateContent (Gemini CLI) ---

    async def _gemini(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        method = request.match_info["method"]
        self.requests.append(Request("gemini", request.path, body))
        contents = body.get("contents") or []
        turns = [[p for p in c.get("parts") or [] if isinstance(p, dict)]
                 for c in contents if isinstance(c, dict) and c.get("role") == "model"]
        done = sum(max(sum(1 for p in parts if "functionCall" in p), 1) for parts in turns)
        if body.get("tools"):
            step = self._step(done, body)
        else:  # a side question (next speaker, loop check) wants JSON back
            step = Step(json.dumps({"next_speaker": "user", "reasoning": "the model is done"}))
        cwd = find_cwd(body)
        parts: list[dict[str, Any]] = [{"text": step.text}] if step.text else []
        for action in step.calls:
            name, args = gemini_call(action, cwd)
            parts.append({"functionCall": {"name": name, "args": args}})
        answer = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                  "usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": 10, "totalTokenCount": 60},
                  "modelVersion": request.match_info["model"]}
        if method != "streamGenerateContent":
            return web.json_response(answer)
        stream = await _sse(request)
        await stream.write(b"data: " + json.dumps(answer).encode() + b"\r\n\r\n")
        await stream.write_eof()
        return stream


async def _sse(request: web.Request) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
    await response.prepare(request)
    return response
