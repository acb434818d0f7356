"""A small OpenAI-compatible (and Anthropic-compatible) chat server for the tests, on loopback.

Each test scripts it: every request takes the next item of the script (or asks a ``responder``
function), and the server answers over real HTTP, so ``LLMAgent`` goes through litellm's real client
(the OpenAI SDK on httpx) and nothing is mocked in-process. Items:

- :class:`Say`: a reply (text and/or tool calls, finish reason, usage), as JSON or, when the request
  asks ``stream``, as server-sent events cut into small deltas (tool-call arguments too); ``hold``
  stops the stream after that many characters of text until ``release`` is set (a Pilot test looks
  at the screen meanwhile); ``drop`` cuts the connection after that many characters, mid-stream;
- :class:`Fail`: an HTTP error status with a JSON error body (or ``text``, as is) and headers (429 +
  ``Retry-After``, 500, 401, 404);
- :class:`Stall`: wait ``seconds`` before answering at all (past the client's timeout).

It records every request body, and how many were in flight at once (``max_in_flight``);
``barrier=N`` holds each request until N are in flight together (proof that calls overlap).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

Call = tuple[str, Any]
"""A tool call: (name, arguments); arguments as a dict (sent as JSON) or a raw string (sent as is)."""


@dataclass
class Say:
    text: str = ""
    calls: Sequence[Call] = ()
    finish_reason: str | None = None
    """None: ``tool_calls`` with a call, else ``stop``; "" sends none (``null`` in every chunk)."""
    prompt_tokens: int = 50
    completion_tokens: int | None = 10
    """None: the usage has no ``completion_tokens``."""
    hold: int | None = None
    release: asyncio.Event | None = None
    drop: int | None = None
    chunk: int = 4
    """Characters per streamed delta."""
    usage: bool = True
    """False: the reply says nothing of its tokens (no ``usage``, streamed or whole)."""


@dataclass
class Fail:
    status: int
    message: str = "scripted failure"
    headers: dict[str, str] = field(default_factory=dict)
    type: str = "server_error"
    text: str | None = None
    """A body that is no JSON (sent as is, ``content_type``), instead of the JSON error."""
    content_type: str = "text/plain"


@dataclass
class Stall:
    seconds: float
    then: Say | Fail | None = None


@dataclass
class Raw:
    """A 200 answer that is no completion: ``body`` as it is (an HTML error page, truncated JSON, ...)."""

    body: str
    content_type: str = "text/html"


Item = Say | Fail | Stall | Raw
Responder = Callable[[dict[str, Any]], Item]


def _args_text(args: Any) -> str:
    return args if isinstance(args, str) else json.dumps(args)


class ChatServer:
    """The scripted server; ``async with ChatServer(...) as server: server.base_url``."""

    def __init__(
        self,
        *script: Item,
        responder: Responder | None = None,
        default: Item | None = None,
        barrier: int = 0,
    ) -> None:
        self.script: list[Item] = list(script)
        self._all = list(script)
        self.responder = responder
        self.default = default
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.barrier = barrier
        self._arrived = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def __aenter__(self) -> ChatServer:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/messages", self._messages)
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
        self.release_all()
        if self._runner is not None:
            await self._runner.cleanup()

    def release_all(self) -> None:
        for item in self._all:
            if isinstance(item, Say) and item.release is not None:
                item.release.set()

    # --- what answers a request ---

    def _next(self, body: dict[str, Any]) -> Item:
        if self.responder is not None:
            return self.responder(body)
        if self.script:
            return self.script.pop(0)
        if self.default is not None:
            return self.default
        return Fail(500, "the test server's script is used up")

    async def _enter(self, request: web.Request) -> tuple[dict[str, Any], Item]:
        body = await request.json()
        self.requests.append(body)
        self.paths.append(request.path)
        item = self._next(body)
        async with self._arrived:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self._arrived.notify_all()
            if self.barrier:
                await self._arrived.wait_for(lambda: self.max_in_flight >= self.barrier)
        if isinstance(item, Stall):
            await asyncio.sleep(item.seconds)
            item = item.then or Fail(504, "stalled")
        return body, item

    async def _leave(self) -> None:
        async with self._arrived:
            self.in_flight -= 1

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "test-model", "object": "model"}]})

    # --- OpenAI chat completions ---

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        try:
            body, item = await self._enter(request)
            if isinstance(item, Fail):
                return _error(item)
            if isinstance(item, Raw):
                return web.Response(text=item.body, content_type=item.content_type)
            assert isinstance(item, Say)
            if body.get("stream"):
                return await self._stream_chat(request, body, item)
            return web.json_response(_chat_json(body, item))
        finally:
            await self._leave()

    async def _stream_chat(self, request: web.Request, body: dict[str, Any], say: Say) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        ident, created, model = f"chatcmpl-{len(self.requests)}", int(time.time()), body.get("model", "test-model")

        async def send(delta: dict[str, Any], finish: str | None = None) -> None:
            chunk = {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            await response.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")

        await send({"role": "assistant", "content": ""})
        sent = 0
        for start in range(0, len(say.text), say.chunk):
            piece = say.text[start : start + say.chunk]
            if say.drop is not None and sent >= say.drop:
                _cut(request)
                return response
            await send({"content": piece})
            sent += len(piece)
            if say.hold is not None and say.release is not None and sent >= say.hold and not say.release.is_set():
                await say.release.wait()
        if say.drop is not None:
            _cut(request)
            return response
        for index, (name, args) in enumerate(say.calls):
            call_id = f"call_{len(self.requests)}_{index}"
            head = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
            await send({"tool_calls": [head]})
            text = _args_text(args)
            for start in range(0, len(text), say.chunk * 4):
                part = {"index": index, "function": {"arguments": text[start : start + say.chunk * 4]}}
                await send({"tool_calls": [part]})
        await send({}, _finish(say))
        if (body.get("stream_options") or {}).get("include_usage") and say.usage:
            usage = {"id": ident, "object": "chat.completion.chunk", "created": created, "model": model,
                     "choices": [], "usage": _usage(say)}
            await response.write(b"data: " + json.dumps(usage).encode() + b"\n\n")
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    # --- Anthropic messages ---

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        try:
            body, item = await self._enter(request)
            if isinstance(item, Fail):
                return _error(item)
            assert isinstance(item, Say)
            content: list[dict[str, Any]] = [{"type": "text", "text": item.text}] if item.text else []
            for index, (name, args) in enumerate(item.calls):
                arguments = args if isinstance(args, dict) else json.loads(args)
                content.append({"type": "tool_use", "id": f"toolu_{len(self.requests)}_{index}", "name": name,
                                "input": arguments})
            return web.json_response({
                "id": f"msg_{len(self.requests)}",
                "type": "message",
                "role": "assistant",
                "model": body.get("model", "test-model"),
                "content": content,
                "stop_reason": item.finish_reason or ("tool_use" if item.calls else "end_turn"),
                "stop_sequence": None,
                "usage": {"input_tokens": item.prompt_tokens, "output_tokens": item.completion_tokens},
            })
        finally:
            await self._leave()


def _finish(say: Say) -> str | None:
    if say.finish_reason is None:
        return "tool_calls" if say.calls else "stop"
    return say.finish_reason or None


def _usage(say: Say) -> dict[str, int]:
    if say.completion_tokens is None:
        return {"prompt_tokens": say.prompt_tokens}
    return {
        "prompt_tokens": say.prompt_tokens,
        "completion_tokens": say.completion_tokens,
        "total_tokens": say.prompt_tokens + say.completion_tokens,
    }


def _chat_json(body: dict[str, Any], say: Say) -> dict[str, Any]:
    calls = [
        {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": _args_text(args)}}
        for i, (name, args) in enumerate(say.calls)
    ]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "test-model"),
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": say.text or None, "tool_calls": calls or None},
            "finish_reason": _finish(say),
        }],
        **({"usage": _usage(say)} if say.usage else {}),
    }


def _error(fail: Fail) -> web.Response:
    if fail.text is not None:
        return web.Response(text=fail.text, status=fail.status, headers=fail.headers, content_type=fail.content_type)
    body = {"error": {"message": fail.message, "type": fail.type, "code": str(fail.status)}}
    return web.json_response(body, status=fail.status, headers=fail.headers)


def _cut(request: web.Request) -> None:
    """Drop the connection mid-response (no terminating chunk, no [DONE])."""
    transport = request.transport
    if transport is not None:
        transport.abort()


class ServerThread:
    """A :class:`ChatServer` on its own event loop in a thread, for code that runs its own loop
    (the CLI's ``asyncio.run``): ``with ServerThread(ChatServer(...)) as server: server.base_url``."""

    def __init__(self, server: ChatServer) -> None:
        self.server = server
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="chat-server", daemon=True)

    def __enter__(self) -> ChatServer:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.__aenter__(), self._loop).result(10)
        return self.server

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.server.__aexit__(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
