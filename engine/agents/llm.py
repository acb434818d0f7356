"""LLM agents: any litellm model, tool calling, the papers' prompts, robust to bad model output.

Per turn an :class:`LLMAgent` sends one model call (the conversation so far plus a user message
with what arrived since its last turn), then runs each tool call of the reply through
``ctx.tools.call`` and appends the results to the conversation. It emits ``ModelCalled`` (tokens,
cost from litellm's offline cost map, duration) and ``AgentErrored`` events through the ``emit``
callable it is given, with every string redacted of secrets first.

Nothing the model sends crashes a session:

- malformed tool arguments, unknown tools, too many calls in one reply: the tool result the model
  gets back is an ``error: ...`` line, and an ``AgentErrored`` event is emitted;
- an empty reply: ``AgentErrored``, and the next turn's message tells the model;
- an over-long reply or tool result: truncated (``AgentErrored`` for the reply);
- rate limits, timeouts, connection and server errors: retried with exponential backoff;
- a context window overflow: the oldest remembered episodes are dropped and the call retried;
- a failure for good (authentication, bad request, retries used up, or ``max_bad_turns`` turns in a
  row without a usable tool call): a fatal ``AgentErrored`` and the agent ends its episode by
  calling the ``finish`` tool with the summary ``gave up: <reason>``. No exception reaches the
  session.

litellm is imported lazily (:func:`load_litellm`; it takes seconds) with
``LITELLM_LOCAL_MODEL_COST_MAP=True`` so it never fetches the cost map from the network.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Literal

from channel.emitter import Emit
from channel.events import AgentErrored, ModelCalled
from channel.vocab import AgentRole
from engine.agents.base import EpisodeBrief, TurnContext
from engine.norms import Norms
from engine.prompting import (
    Message,
    append_user,
    norm_change_note,
    note,
    render_inbox,
    render_prompt,
    render_turn,
    system_prompt,
)
from engine.secrets import redact, redact_value
from engine.tools import TOOL_NAMES, TOOL_SPECS
from engine.usage import Usage

Completion = Callable[..., Awaitable[Any]]
Sleep = Callable[[float], Awaitable[Any]]
Memory = Literal["off", "full"]

TOOLS: list[dict[str, Any]] = [{"type": "function", "function": spec} for spec in TOOL_SPECS]
"""The tools as OpenAI-style function definitions (litellm translates them for other providers)."""


def load_litellm() -> ModuleType:
    """Import litellm the one way scopewatch does: offline cost map, no debug banners."""
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    import litellm

    litellm.suppress_debug_info = True
    if hasattr(litellm, "telemetry"):
        litellm.telemetry = False
    return litellm


async def litellm_completion(**kwargs: Any) -> Any:
    """The default completion: ``litellm.acompletion``."""
    return await load_litellm().acompletion(**kwargs)


# --- provider errors ---------------------------------------------------------------------------

_ERROR_KINDS: dict[str, tuple[str, bool]] = {
    # class name (anywhere in the exception's MRO, most specific first) -> (kind, retryable)
    "ContextWindowExceededError": ("context_window", False),
    "ContentPolicyViolationError": ("content_policy", False),
    "AuthenticationError": ("auth", False),
    "PermissionDeniedError": ("permission_denied", False),
    "NotFoundError": ("model_not_found", False),
    "BudgetExceededError": ("budget_exceeded", False),
    "UnsupportedParamsError": ("bad_request", False),
    "BadRequestError": ("bad_request", False),
    "RateLimitError": ("rate_limit", True),
    "Timeout": ("timeout", True),
    "APITimeoutError": ("timeout", True),
    "TimeoutError": ("timeout", True),
    "APIConnectionError": ("connection", True),
    "ServiceUnavailableError": ("provider_unavailable", True),
    "BadGatewayError": ("provider_unavailable", True),
    "InternalServerError": ("provider_unavailable", True),
    "APIError": ("provider_error", True),
}


def classify_error(exc: BaseException) -> tuple[str, bool]:
    """(kind, retryable) of an exception raised by a completion call."""
    for cls in type(exc).__mro__:
        if cls.__name__ in _ERROR_KINDS:
            return _ERROR_KINDS[cls.__name__]
    return "provider_error", False


# --- replies -----------------------------------------------------------------------------------


def _field(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


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


class MalformedResponse(Exception):
    """A completion result without a message (no choices); treated as an empty reply."""


def parse_response(response: Any, turn: int) -> Reply:
    """Read content, tool calls and usage from a litellm ``ModelResponse`` (or the same shape as
    dicts, for fakes)."""
    choices = _field(response, "choices") or []
    if not choices:
        raise MalformedResponse("the response has no choices")
    message = _field(choices[0], "message")
    if message is None:
        raise MalformedResponse("the response has no message")
    content = _field(message, "content") or ""
    if not isinstance(content, str):
        content = str(content)
    calls = []
    for i, call in enumerate(_field(message, "tool_calls") or []):
        function = _field(call, "function") or {}
        calls.append(
            ToolCallRequest(
                id=str(_field(call, "id") or f"call_{turn}_{i}"),
                name=str(_field(function, "name") or ""),
                arguments=_field(function, "arguments"),
            )
        )
    usage = _field(response, "usage") or {}
    return Reply(
        content=content,
        tool_calls=tuple(calls),
        prompt_tokens=int(_field(usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(_field(usage, "completion_tokens", 0) or 0),
        cost_usd=_cost(response),
    )


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


# --- the agent ---------------------------------------------------------------------------------


class _GiveUp(Exception):
    """Internal: the turn failed for good."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class LLMAgent:
    """An agent whose turns are model calls through litellm (see the module docstring).

    ``memory``: "full" keeps the whole conversation across episodes (seed 000, B.2); it is also
    switched on by the ``memory`` norm in an episode's brief. ``completion`` replaces
    ``litellm.acompletion`` (tests); ``sleep`` replaces ``asyncio.sleep`` for retry backoff.
    """

    def __init__(
        self,
        agent_id: str,
        role: AgentRole,
        model: str,
        *,
        emit: Emit,
        api_base: str | None = None,
        memory: Memory = "off",
        completion: Completion | None = None,
        sleep: Sleep = asyncio.sleep,
        max_retries: int = 3,
        backoff: float = 2.0,
        timeout: float = 120.0,
        max_reply_chars: int = 12_000,
        max_result_chars: int = 16_000,
        max_calls_per_turn: int = 8,
        max_bad_turns: int = 3,
        temperature: float | None = None,
    ) -> None:
        self.id = agent_id
        self.role: AgentRole = role
        self.model = model
        self.kind = f"llm:{model}"
        self.api_base = api_base
        self.memory: Memory = memory
        self._emit_raw = emit
        self._completion = completion
        self._sleep = sleep
        self.max_retries = max_retries
        self.backoff = backoff
        self.timeout = timeout
        self.max_reply_chars = max_reply_chars
        self.max_result_chars = max_result_chars
        self.max_calls_per_turn = max_calls_per_turn
        self.max_bad_turns = max_bad_turns
        self.temperature = temperature
        self.messages: list[Message] = []
        """The conversation sent to the model (system prompt first)."""
        self.usage = Usage()
        self.episode_usage = Usage()
        self.brief: EpisodeBrief | None = None
        self._norms = Norms()
        self._episode_starts: list[int] = []
        """Index in ``messages`` where each remembered episode begins (the last is the current one)."""
        self._pending: list[str] = []
        self._bad_turns = 0
        self._last_calls: tuple[ToolCallRequest, ...] = ()

    # -- Agent protocol --

    async def start_episode(self, brief: EpisodeBrief) -> None:
        self.brief = brief
        self._norms = brief.norms
        self._pending = []
        self._bad_turns = 0
        self.episode_usage = Usage()
        prompt = render_prompt(brief, brief.norms)
        remember = "full" in (self.memory, brief.norms.memory)
        if remember and len(self.messages) > 1:
            self.messages = [prompt[0], *self.messages[1:]]
            self._episode_starts.append(len(self.messages))
            self.messages.append({"role": "user", "content": note("turn", "memory") + "\n\n" + prompt[1]["content"]})
        else:
            self.messages = prompt
            self._episode_starts = [1]

    async def take_turn(self, ctx: TurnContext) -> None:
        if self.brief is None or ctx.tools.finished:
            return
        try:
            append_user(self.messages, self._turn_message(ctx))
            reply = await self._call_model()
            await self._act(reply, ctx)
        except _GiveUp as exc:
            await self._error(exc.kind, exc.message, fatal=True)
            if not ctx.tools.finished:
                await ctx.tools.call("finish", {"summary": redact(f"gave up: {exc}")[:500]})

    async def end_episode(self) -> None:
        self._pending = []

    # -- one turn --

    def _turn_message(self, ctx: TurnContext) -> str:
        assert self.brief is not None
        norm_note = ""
        if ctx.norms != self._norms:
            norm_note = norm_change_note(self._norms, ctx.norms, self.brief)
            budget = ctx.norms.turn_budget if ctx.norms.turn_budget != self._norms.turn_budget else self.brief.budget
            self.brief = replace(self.brief, norms=ctx.norms, budget=budget)
            self.messages[0] = {"role": "system", "content": system_prompt(self.brief, ctx.norms)}
            self._norms = ctx.norms
        extra, self._pending = self._pending, []
        return render_turn(
            ctx.turn, ctx.budget_left, render_inbox(ctx.inbox, self.id), norm_note=norm_note, extra=extra
        )

    async def _call_model(self) -> Reply:
        attempt = 0
        while True:
            started = time.perf_counter()
            try:
                response = await self._complete()
                reply = parse_response(response, len(self.messages))
            except MalformedResponse:
                return Reply("", (), 0, 0, 0.0)  # reported as an empty reply by _act
            except Exception as exc:
                kind, retryable = classify_error(exc)
                message = f"{type(exc).__name__}: {exc}"
                if kind == "context_window" and self._forget_oldest_episode():
                    await self._error(kind, message + " (dropped the oldest remembered episode)")
                    continue
                if not retryable or attempt >= self.max_retries:
                    raise _GiveUp(kind, message) from None
                delay = self.backoff * (2**attempt)
                attempt += 1
                await self._error(kind, f"{message} (retry {attempt} of {self.max_retries} in {delay:g}s)")
                await self._sleep(delay)
                continue
            duration_ms = (time.perf_counter() - started) * 1000
            self.usage = self.usage.add(reply.prompt_tokens, reply.completion_tokens, reply.cost_usd)
            self.episode_usage = self.episode_usage.add(reply.prompt_tokens, reply.completion_tokens, reply.cost_usd)
            await self._emit(
                ModelCalled(
                    actor=self.id,
                    model=self.model,
                    prompt_tokens=reply.prompt_tokens,
                    completion_tokens=reply.completion_tokens,
                    cost_usd=reply.cost_usd,
                    duration_ms=duration_ms,
                    episode=self._episode,
                )
            )
            return reply

    async def _complete(self) -> Any:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": self.messages,
            "tools": TOOLS,
            "timeout": self.timeout,
        }
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        completion = self._completion
        if completion is None:
            completion = litellm_completion
            kwargs["drop_params"] = True
            if self.api_base:
                kwargs["api_base"] = self.api_base
                if not load_litellm().validate_environment(model=self.model).get("keys_in_environment"):
                    kwargs["api_key"] = "no-key-needed"  # local servers ignore it; the SDK insists on one
        elif self.api_base:
            kwargs["api_base"] = self.api_base
        # litellm enforces ``timeout`` itself; this bound also covers injected completions and hangs.
        async with asyncio.timeout(self.timeout + 5):
            return await completion(**kwargs)

    async def _act(self, reply: Reply, ctx: TurnContext) -> None:
        content = reply.content
        if len(content) > self.max_reply_chars:
            await self._error("reply_truncated", f"reply of {len(content)} characters cut to {self.max_reply_chars}")
            cut = note("errors", "truncated", length=len(content), limit=self.max_reply_chars)
            content = content[: self.max_reply_chars] + "\n" + cut
        content = redact(content)
        assistant: Message = {"role": "assistant", "content": content or None}
        if reply.tool_calls:
            assistant["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {
                        "name": call.name,
                        "arguments": redact(
                            call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
                        ),
                    },
                }
                for call in reply.tool_calls
            ]
        self.messages.append(assistant)

        if not reply.tool_calls:
            if content.strip():
                return  # the model thought aloud; the turn is spent
            await self._error("empty_reply", "the model replied with neither text nor tool calls")
            self._pending.append(note("errors", "empty_reply"))
            self._count_bad_turn("empty replies")
            return

        self._last_calls = reply.tool_calls
        usable = 0
        for index, call in enumerate(reply.tool_calls):
            if await self._run_call(index, call, ctx) is None:
                usable += 1
        if usable:
            self._bad_turns = 0
        else:
            self._count_bad_turn("no usable tool call")

    async def _run_call(self, index: int, call: ToolCallRequest, ctx: TurnContext) -> str | None:
        """Run one tool call and append its result; None when the call ran, else the error text."""
        error: str | None = None
        if ctx.tools.finished:
            error = note("errors", "after_finish")
        elif index >= self.max_calls_per_turn:
            error = note("errors", "too_many_calls", limit=self.max_calls_per_turn)
            if index == self.max_calls_per_turn:
                await self._error(
                    "too_many_calls", f"{len(self._last_calls)} tool calls in one reply; ran the first {index}"
                )
        elif call.name not in TOOL_NAMES:
            error = note("errors", "unknown_tool", name=call.name, tools=", ".join(sorted(TOOL_NAMES)))
            await self._error("unknown_tool", f"the model called an unknown tool {call.name!r}")
        else:
            args, problem = parse_arguments(call.arguments)
            if args is None:
                error = note("errors", "malformed_arguments", name=call.name, problem=problem)
                await self._error("malformed_arguments", f"{call.name}: {problem}")
            else:
                result = await ctx.tools.call(call.name, redact_value(args))
                self._append_result(call, result)
                return None
        self._append_result(call, error)
        return error

    def _append_result(self, call: ToolCallRequest, result: str) -> None:
        result = redact(result)
        if len(result) > self.max_result_chars:
            cut = note("errors", "result_truncated", length=len(result), limit=self.max_result_chars)
            result = result[: self.max_result_chars] + "\n" + cut
        self.messages.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": result})

    def _count_bad_turn(self, what: str) -> None:
        self._bad_turns += 1
        if self._bad_turns >= self.max_bad_turns:
            raise _GiveUp("unusable_replies", f"{self._bad_turns} turns in a row with {what}")

    # -- helpers --

    @property
    def _episode(self) -> int:
        return self.brief.episode if self.brief is not None else 0

    def _forget_oldest_episode(self) -> bool:
        """Drop the oldest remembered episode (memory "full"); False when only the current is left."""
        if len(self._episode_starts) <= 1:
            return False
        cut = self._episode_starts[1]
        self.messages = [self.messages[0], *self.messages[cut:]]
        self._episode_starts = [start - cut + 1 for start in self._episode_starts[1:]]
        return True

    async def _error(self, kind: str, message: str, *, fatal: bool = False) -> None:
        await self._emit(AgentErrored(actor=self.id, error=kind, message=message, episode=self._episode, fatal=fatal))

    async def _emit(self, event: AgentErrored | ModelCalled) -> None:
        """Emit with every string redacted of secrets first."""
        await self._emit_raw(type(event).model_validate(redact_value(event.model_dump())))
