"""Reading a model's reply: content, tool calls, usage and cost, from litellm's response (or the
same shape as plain dicts, for fakes)."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any


def field_of(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def choice_index(choice: Any, place: int) -> Any:
    """A choice's ``index``; one without is numbered by its ``place`` among the choices."""
    index = field_of(choice, "index")
    return place if index is None else index


def choice_zero(choices: Any) -> Any:
    """The choice of index 0 among a response's or a stream chunk's ``choices`` (a chunk of a reply with ``n``
    choices may carry choice 1 alone): the choice the agent reads. None when there is none."""
    for place, choice in enumerate(choices if isinstance(choices, list) else []):
        if choice_index(choice, place) == 0:
            return choice
    return None


@dataclass(frozen=True)
class ToolCallRequest:
    id: str
    name: str
    arguments: Any
    """As the model sent it: a JSON string (usually), a dict, or anything else."""


@dataclass(frozen=True)
class Reply:
    content: str
    tool_calls: tuple[ToolCallRequest, ...]
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    finish_reason: str = ""
    usage_estimated: bool = False
    """The provider reported no usage (the counts are litellm's estimate, or 0)."""
    refusal: bool = False
    """The model refused (OpenAI's ``refusal`` field, ``message.refusal`` or streamed ``delta.refusal``): ``content``
    is its refusal."""


class MalformedResponse(Exception):
    """A completion result without a message (no choices); treated as an empty reply."""


def parse_response(response: Any, turn: int) -> Reply:
    """Read content, tool calls and usage from a litellm ``ModelResponse`` (or the same shape as
    dicts, for fakes)."""
    choices = field_of(response, "choices") or []
    if not choices:
        raise MalformedResponse("the response has no choices")
    first = choice_zero(choices)
    if first is None:
        first = choices[0]
    message = field_of(first, "message")
    if message is None:
        raise MalformedResponse("the response has no message")
    content = text_of(field_of(message, "content"))
    refused = text_of(field_of(message, "refusal"))
    refusal = bool(refused.strip()) and not content.strip()
    calls = []
    for i, call in enumerate(field_of(message, "tool_calls") or []):
        function = field_of(call, "function") or {}
        calls.append(
            ToolCallRequest(
                id=str(field_of(call, "id") or f"call_{turn}_{i}"),
                name=str(field_of(function, "name") or ""),
                arguments=field_of(function, "arguments"),
            )
        )
    usage = field_of(response, "usage") or {}
    prompt_tokens = int(field_of(usage, "prompt_tokens", 0) or 0)
    completion_tokens = int(field_of(usage, "completion_tokens", 0) or 0)
    return Reply(
        content=refused if refusal else content,
        tool_calls=tuple(calls),
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost_usd=_cost(response),
        finish_reason=str(field_of(first, "finish_reason") or ""),
        usage_estimated=not (prompt_tokens or completion_tokens),  # a whole reply without usage: litellm says 0
        refusal=refusal,
    )


def text_of(content: Any) -> str:
    """A message's ``content`` as text: a string as sent; a list of content parts (the form of the Chat
    Completions request, which some gateways and multimodal servers answer with) as its text parts joined;
    nothing (None) as the empty string."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(text for part in content if isinstance(text := field_of(part, "text"), str))
    return str(content)


def _cost(response: Any) -> float:
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost") if isinstance(hidden, dict) else None
    if cost is None and "litellm" in sys.modules and not isinstance(response, dict):
        try:
            cost = sys.modules["litellm"].completion_cost(completion_response=response)
        except Exception:  # a model missing from the cost map costs "unknown", shown as 0
            cost = 0.0
    try:
        return float(cost or 0.0)
    except (TypeError, ValueError):
        return 0.0


def parse_arguments(raw: Any) -> tuple[dict[str, Any] | None, str]:
    """Tool arguments as a dict, or (None, what is wrong with them)."""
    if raw is None or raw == "":
        return {}, ""
    if isinstance(raw, dict):
        return raw, ""
    if not isinstance(raw, str):
        return None, f"got {type(raw).__name__}"
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        return None, f"{exc.msg} at character {exc.pos}"
    if not isinstance(value, dict):
        return None, f"got a JSON {type(value).__name__}, not an object"
    return value, ""


def recorded_arguments(raw: Any) -> dict[str, Any]:
    """A tool call's arguments as the recording keeps a call that was not run: the JSON object sent, else what
    was sent as the text ``arguments``."""
    args, _ = parse_arguments(raw)
    return args if args is not None else {"arguments": raw if isinstance(raw, str) else json.dumps(raw)}


def replayable_arguments(raw: Any) -> str:
    """A tool call's arguments as the conversation replays them: a JSON object as sent; anything else (JSON
    cut by ``max_tokens``, a list, ...) wrapped as ``{"malformed_arguments": <the text>}``. Providers that parse
    the history's arguments (litellm's ``anthropic/``) refuse to build the next request from broken JSON, which
    ended the episode after one cut reply; the model still sees what it sent, and its tool result says what
    was wrong."""
    text = raw if isinstance(raw, str) else json.dumps(raw)
    args, _ = parse_arguments(raw)
    if args is not None:
        return text if isinstance(raw, str) and raw.strip() else json.dumps(args)
    return json.dumps({"malformed_arguments": text})
