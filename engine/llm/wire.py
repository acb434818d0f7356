"""What an OpenAI-compatible server sent, read off the wire as it passes (litellm's ``openai/`` provider).

litellm rewrites what it reads: a ``finish_reason`` of ``stop`` beside a tool call (vLLM, llama.cpp and
Ollama send that) becomes ``tool_calls``, none at all becomes ``stop``; usage with only ``prompt_tokens``
gets a ``completion_tokens`` of 0; and a stream whose chunks never set ``finish_reason`` fails as "ended
before a finish_reason was received" even when it ended with ``data: [DONE]``. :class:`WireTap` is the
transport of the SDK client litellm is given for one call: it passes every byte on unchanged and notes
(:class:`WireNotes`) the finish reason as sent, whether a stream ended with ``[DONE]``, and which usage
counts the server reported. One change only: a whole reply's ``content`` sent as a list of content parts is
passed on as its text (:func:`join_text_parts`). Other providers are read as litellm reports them.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import httpx2 as httpx  # the OpenAI SDK's own httpx (its errors, e.g. timeouts, are the SDK's to map)

from engine.llm.responses import Reply, choice_zero, text_of

BODY_LIMIT = 16 * 1024 * 1024
"""A whole (not streamed) body longer than this is passed on but not read for notes."""


@dataclass
class WireNotes:
    """What one call's server sent (the last response of the call)."""

    finish_reason: str | None = None
    """Choice 0's ``finish_reason`` as sent (a stream's last one that was set); None when it sent none. Choice 0 is
    the choice of ``index`` 0, the one the agent reads (:func:`~engine.llm.responses.choice_zero`)."""
    done: bool = False
    """A streamed reply ended with ``data: [DONE]``: it is complete."""
    usage: set[str] = field(default_factory=set)
    """The usage counts the server reported (``prompt_tokens``, ``completion_tokens``) with a number."""
    refusal: str = ""
    """Choice 0's ``refusal`` (OpenAI's): a whole reply's ``message.refusal``, a stream's ``delta.refusal`` joined
    (litellm's stream reader keeps only the first delta's)."""

    def read_event(self, data: Any) -> None:
        """Note one JSON object: a whole completion or one stream chunk."""
        if not isinstance(data, dict):
            return
        first = choice_zero(data.get("choices"))
        if isinstance(first, dict):
            reason = first.get("finish_reason")
            if isinstance(reason, str) and reason:
                self.finish_reason = reason
            said = first.get("delta") or first.get("message")
            refusal = said.get("refusal") if isinstance(said, dict) else None
            if isinstance(refusal, str):
                self.refusal += refusal
        usage = data.get("usage")
        if isinstance(usage, dict):
            self.usage |= {k for k in ("prompt_tokens", "completion_tokens") if isinstance(usage.get(k), int)}


    def read(self, reply: Reply) -> Reply:
        """``reply`` (as litellm read it) with what the server sent: its finish reason, and its refusal whole when it
        said nothing else."""
        reply = replace(reply, finish_reason=self.finish_reason or "")
        if self.refusal.strip() and not reply.tool_calls and (reply.refusal or not reply.content.strip()):
            reply = replace(reply, content=self.refusal, refusal=True)
        return reply


class SSEReader:
    """Server-sent events read as the spec says (WHATWG HTML, "Interpreting an event stream"): a line ends with
    CRLF, LF or CR alone; the ``data:`` lines of one event (up to a blank line) are joined with LF. Each event's
    data goes to ``on_data``; one the stream ends without a blank line after is still read (the OpenAI SDK
    reads it too)."""

    def __init__(self, on_data: Callable[[bytes], None]) -> None:
        self._on_data = on_data
        self._pending = b""
        self._data: list[bytes] = []
        self._size = 0

    def feed(self, chunk: bytes) -> None:
        """Read ``chunk``: every line it completes."""
        lines = (self._pending + chunk).splitlines(keepends=True)
        # a last line without its end waits; so does one ending in CR, whose LF may be the next chunk's first byte
        self._pending = lines.pop() if lines and not lines[-1].endswith(b"\n") else b""
        if len(self._pending) > BODY_LIMIT:  # a line of 16 MB is no chat server's event: not read for notes
            self._pending = b""
        for line in lines:
            self._line(line.rstrip(b"\r\n"))

    def close(self) -> None:
        """The stream ended: what is pending is read."""
        if self._pending:
            self._line(self._pending.rstrip(b"\r\n"))
            self._pending = b""
        self._dispatch()

    def _line(self, line: bytes) -> None:
        if not line:
            self._dispatch()
        elif line.startswith(b"data:"):
            value = line[5:]
            self._size += len(value)
            if self._size <= BODY_LIMIT:  # an event past 16 MB is not read for notes
                self._data.append(value[1:] if value.startswith(b" ") else value)

    def _dispatch(self) -> None:
        data, read = b"\n".join(self._data), bool(self._data) and self._size <= BODY_LIMIT
        self._data, self._size = [], 0
        if read:
            self._on_data(data)


class _TapStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, notes: WireNotes, streamed: bool) -> None:
        self._inner = inner
        self._notes = notes
        self._streamed = streamed
        self._events = SSEReader(self._read_data)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        held: bytes | None = b""
        """A whole body, held to its end (up to :data:`BODY_LIMIT`; past it, passed on as it comes, unread)."""
        async for chunk in self._inner:
            if self._streamed:
                self._events.feed(chunk)
            elif held is not None and len(held) + len(chunk) <= BODY_LIMIT:
                held += chunk
                continue
            elif held:
                chunk, held = held + chunk, None
            else:
                held = None
            yield chunk
        if self._streamed:
            self._events.close()
        elif held:
            data = _json(held)
            self._notes.read_event(data)
            yield json.dumps(data).encode() if join_text_parts(data) else held

    def _read_data(self, data: bytes) -> None:
        if data.strip() == b"[DONE]":
            self._notes.done = True
        else:
            self._notes.read_event(_json(data))

    async def aclose(self) -> None:
        await self._inner.aclose()


def join_text_parts(data: Any) -> bool:
    """Give each choice's ``message.content`` of a whole completion sent as a list of content parts (the request's
    form, which some gateways and multimodal servers answer with) as its text parts joined, in place: litellm reads
    only a string (a list failed as "Invalid response object" with its traceback, retried as a 5xx). Whether any
    was joined."""
    joined = False
    for choice in data.get("choices") or [] if isinstance(data, dict) else []:
        message = choice.get("message") if isinstance(choice, dict) else None
        if isinstance(message, dict) and isinstance(message.get("content"), list):
            message["content"] = text_of(message["content"])
            joined = True
    return joined


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


class WireTap(httpx.AsyncBaseTransport):
    """An httpx transport that passes everything on and keeps :class:`WireNotes` of the last response."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.notes: WireNotes | None = None
        """None until a response passed (one through a proxy from the environment does not: litellm's word then)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        notes = self.notes = WireNotes()
        streamed = "event-stream" in response.headers.get("content-type", "")
        assert isinstance(response.stream, httpx.AsyncByteStream)
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_TapStream(response.stream, notes, streamed),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def tap_client(model: str, kwargs: dict[str, Any]) -> tuple[WireTap, Any] | None:
    """For a call of litellm's ``openai`` provider with a key it can use: a :class:`WireTap` and the SDK client
    (``client=`` of the call) that sends through it; None for other providers (read as litellm reports them)."""
    from engine.llm.client import load_litellm

    litellm = load_litellm()
    try:
        provider = litellm.get_llm_provider(model)[1]
    except Exception:  # litellm names no provider: its call says so
        return None
    key = kwargs.get("api_key") or os.environ.get("OPENAI_API_KEY")
    if provider != "openai" or not key:
        return None
    import openai

    tap = WireTap()
    client = openai.AsyncOpenAI(
        api_key=key,
        base_url=kwargs.get("api_base"),
        max_retries=0,
        timeout=kwargs.get("timeout"),
        http_client=openai.DefaultAsyncHttpxClient(transport=tap),
    )
    return tap, client
