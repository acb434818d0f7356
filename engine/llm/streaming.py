"""Reading a streamed reply: its text handed on as it arrives, the whole response rebuilt at the end.

litellm yields chunks (OpenAI's ``chat.completion.chunk`` shape, whatever the provider);
:func:`read_stream` passes each chunk's new text to ``on_text`` and, once the stream ends, rebuilds
one response with ``litellm.stream_chunk_builder`` (text, tool calls, usage, finish reason), so the
rest of the agent reads a streamed and a plain reply the same way. When no chunk carried usage, the
builder estimates it (litellm's token counter): :func:`read_stream` says so.

Parallel tool calls are told apart by their ``id`` as well as their ``index``: Ollama's OpenAI endpoint (and some
Gemini bridges) streams every call of a batch at ``index`` 0, each whole with its own id, and litellm's builder,
which keys calls by index alone, joined them into one call with two JSON objects end to end
(:func:`split_shared_indexes`). With ``n`` choices, the text passed on is choice 0's, the choice the agent reads.

Text is passed on up to the last whitespace only: a secret is one unbroken word, so it is redacted
whole before any of it leaves (a key split across two chunks would otherwise slip through).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from engine.llm.client import load_litellm
from engine.llm.responses import choice_index, choice_zero, field_of
from engine.llm.secrets import redact

OnText = Callable[[str], Awaitable[None]]
"""Receives each piece of new reply text (already redacted)."""


def is_stream(response: Any) -> bool:
    """Whether a completion result is a stream of chunks (rather than a whole response)."""
    return hasattr(response, "__aiter__")


async def read_stream(
    stream: Any,
    messages: list[Any],
    on_text: OnText,
    *,
    started: float,
    clock: Callable[[], float] = time.perf_counter,
    complete: Callable[[], bool] | None = None,
) -> tuple[Any, float | None, bool]:
    """Read ``stream`` to its end; returns the rebuilt response, the milliseconds from ``started``
    to the first token (None when no token came), and whether its usage is an estimate (no chunk had one).

    ``complete`` says whether the stream ended as the protocol ends one (``data: [DONE]``: engine/llm/wire.py);
    litellm fails a stream that set no ``finish_reason`` as cut short, which a complete one is not (a whole
    reply without one is accepted too)."""
    if complete is not None and hasattr(stream, "_should_fail_on_clean_eof"):
        cut_short = stream._should_fail_on_clean_eof
        stream._should_fail_on_clean_eof = lambda: cut_short() and not complete()
    chunks: list[Any] = []
    first_ms: float | None = None
    pending = ""
    async for chunk in stream:
        chunks.append(chunk)
        choice = choice_zero(field_of(chunk, "choices") or [])
        delta = field_of(choice, "delta") if choice is not None else None
        text = (field_of(delta, "content") or "") if delta is not None else ""
        if first_ms is None and (text or (delta is not None and field_of(delta, "tool_calls"))):
            first_ms = (clock() - started) * 1000
        if not isinstance(text, str) or not text:
            continue
        pending += text
        cut = max(pending.rfind(" "), pending.rfind("\n"), pending.rfind("\t"))
        if cut >= 0:
            ready, pending = pending[: cut + 1], pending[cut + 1 :]
            await on_text(redact(ready))
    if pending:
        await on_text(redact(pending))
    if not chunks:
        return {"choices": []}, first_ms, True
    # litellm ends a stream asked for usage with a chunk holding usage, its own estimate when the provider
    # sent none: what the provider sent is in its wrapper's ``chunks`` (a fake stream's are the chunks themselves).
    sent = getattr(stream, "chunks", None)
    estimated = not any(field_of(chunk, "usage") for chunk in (sent if isinstance(sent, list) else chunks))
    split_shared_indexes(chunks)
    return load_litellm().stream_chunk_builder(chunks, messages=messages), first_ms, estimated


def split_shared_indexes(chunks: list[Any]) -> None:
    """Renumber the tool-call deltas of ``chunks`` (in place) so that each call has an ``index`` of its own.

    A delta with an ``id`` other than the one of the call at its index starts a new call, provided that call's
    arguments so far are a whole JSON value (a server that sent a fresh id with every fragment of one call would
    otherwise be cut into pieces); a delta without an id continues the latest call at its index. Calls are
    numbered in the order they began, per choice."""
    calls: dict[tuple[Any, Any], list[Any]] = {}
    """(choice index, index as sent) -> [new index, id, arguments so far]."""
    count: dict[Any, int] = {}
    for chunk in chunks:
        for place, choice in enumerate(field_of(chunk, "choices") or []):
            which = choice_index(choice, place)
            delta = field_of(choice, "delta")
            for call in (field_of(delta, "tool_calls") or []) if delta is not None else []:
                sent, ident = field_of(call, "index", 0), field_of(call, "id")
                known = calls.get((which, sent))
                if known is None or (ident and known[1] and ident != known[1] and _whole_json(known[2])):
                    known = calls[(which, sent)] = [count.get(which, 0), ident, ""]
                    count[which] = known[0] + 1
                known[1] = known[1] or ident
                arguments = field_of(field_of(call, "function"), "arguments")
                known[2] += arguments if isinstance(arguments, str) else ""
                _set_index(call, known[0])


def _whole_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _set_index(call: Any, index: int) -> None:
    if isinstance(call, dict):
        call["index"] = index
    else:
        call.index = index
