"""LLM agents: any litellm model, tool calling, the papers' prompts, robust to bad model output.

Per turn an :class:`LLMAgent` sends one model call (the conversation so far plus a user message
with what arrived since its last turn), then runs each tool call of the reply through
``ctx.tools.call`` and appends the results to the conversation. It emits ``ModelCalled`` (tokens,
cost from litellm's offline cost map, duration) and ``AgentErrored`` events through the ``emit``
callable it is given, with every string redacted of secrets first.

Nothing the model sends crashes a session:

- malformed tool arguments, unknown tools, too many calls in one reply: the tool result the model gets back is an
  ``error: ...`` line, and an ``AgentErrored`` event is emitted (an unknown tool's call is recorded as refused too);
- an empty reply: ``AgentErrored``, and the next turn's message tells the model;
- a refusal (OpenAI's ``refusal`` field): its answer, its text the refusal, which ends its episode;
- an over-long reply or tool result: truncated (``AgentErrored`` for the reply);
- rate limits, timeouts, connection and server errors (a stream cut mid-reply too): retried with
  the one retry policy (:mod:`engine.llm.retry`: exponential backoff, or exactly as long as the
  provider's ``Retry-After`` asks; litellm's and the SDK's own retries are off);
- a context window overflow: the oldest remembered episodes are dropped and the call retried;
- a failure for good (authentication, bad request, retries used up, or ``max_bad_turns`` turns in a
  row without a usable tool call): a fatal ``AgentErrored`` and the agent ends its episode by
  calling the ``finish`` tool with the summary ``gave up: <reason>``. No exception reaches the
  session. Except when no call of the agent has ever succeeded: then the endpoint is dead (connection
  refused, a bad key, an unknown model) and :class:`~engine.llm.errors.ModelUnreachable` stops the
  session with one line naming the cause.

Streaming (``stream=True``): each reply's text is emitted as it arrives as transient
``TokensStreamed`` events (shown live, never recorded); the ``ModelCalled`` of the call then carries
the final text, the finish reason, the latency and the time to the first token. ``limiter`` (a
semaphore shared by a session's agents, ``--max-concurrency``) bounds the calls in flight at once.

litellm is imported lazily (:func:`load_litellm`; it takes seconds) with ``LITELLM_LOCAL_MODEL_COST_MAP=True``, so
it never fetches the cost map from the network."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import replace
from typing import Any

from channel.emitter import Emit
from channel.event_base import ESCAPED
from channel.events import AgentErrored, ModelCalled, TokensStreamed
from channel.vocab import AgentRole
from channel.vocab.norms import Memory, Norms
from engine.agents.base import CallRecorder, EpisodeBrief, TurnContext
from engine.llm.client import Completion, Sleep, litellm_completion, load_litellm, provider_base
from engine.llm.errors import DEAD_ENDPOINT, ModelUnreachable, classify_error, describe_error
from engine.llm.prompting import (
    FAVOR_BRIEFING,
    Briefing,
    ChatMessage,
    append_user,
    norm_change_note,
    note,
    render_inbox,
    render_turn,
)
from engine.llm.responses import (
    MalformedResponse,
    Reply,
    ToolCallRequest,
    parse_arguments,
    parse_response,
    recorded_arguments,
    replayable_arguments,
)
from engine.llm.retry import RetryPolicy
from engine.llm.secrets import redact, redact_value
from engine.llm.streaming import is_stream, read_stream
from engine.llm.wire import WireNotes, tap_client
from engine.scoring.usage import Usage

TIMEOUT_GRACE = 5.0
"""Seconds a call may run past ``timeout`` before the agent stops it itself (litellm's bound fires first, where it
has one: a stream that keeps sending is not bounded by it)."""


class _GiveUp(Exception):
    """Internal: the turn failed for good."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class LLMAgent:
    """An agent whose turns are model calls through litellm (see the module docstring).

    ``memory``: "full" keeps the whole conversation across the episodes of a trajectory (seed 000,
    B.2; it resets when a new trajectory starts, so trajectories stay independent); it is also
    switched on by the ``memory`` norm in an episode's brief. ``completion`` replaces
    ``litellm.acompletion`` (tests); ``sleep`` replaces ``asyncio.sleep`` for retry backoff.
    ``timeout``: seconds one model call may take. ``stream``: ask for a streamed reply and emit its
    tokens as they arrive. ``limiter``: shared by the agents of a session to bound calls in flight.
    ``briefing``: what it is told and which tools it has (a favor session's, or an audit run's).
    ``max_tokens``: a bound on each reply's length (None: the provider's).
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
        stream: bool = False,
        limiter: asyncio.Semaphore | None = None,
        briefing: Briefing = FAVOR_BRIEFING,
        max_tokens: int | None = None,
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
        self.stream = stream
        self.limiter = limiter
        self.briefing = briefing
        self.max_tokens = max_tokens
        self._tools = briefing.function_tools()
        self._tool_names = briefing.tool_names
        self.calls = 0
        """Model calls started in this session (retries included): numbers ``TokensStreamed.call``."""
        self._said = 0
        """Replies of this session that held text or a tool call (none: no chat endpoint answers, see ``take_turn``)."""
        self.messages: list[ChatMessage] = []
        """The conversation sent to the model (system prompt first)."""
        self.usage = Usage()
        self.episode_usage = Usage()
        self.brief: EpisodeBrief | None = None
        self._norms = Norms()
        self._trajectory: int | None = None
        """The trajectory of the last episode: memory carries within a trajectory, never across."""
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
        prompt = self.briefing.render(brief, brief.norms)
        remember = "full" in (self.memory, brief.norms.memory)
        new_trajectory = brief.trajectory != self._trajectory
        self._trajectory = brief.trajectory
        if remember and len(self.messages) > 1 and not new_trajectory:
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
            if exc.kind == "unusable_replies" and not self._said:
                # no reply of the session held text or a tool call: what answers is no chat endpoint (an HTML
                # error page, truncated JSON, a stream without one chunk, which litellm reads as an empty reply)
                exc = _GiveUp("no_completion", f"no reply held text or a tool call ({self.calls} calls)")
            if (self.usage.calls == 0 or exc.kind == "no_completion") and exc.kind in DEAD_ENDPOINT:
                raise ModelUnreachable(self._unreachable(exc)) from None
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
            budget = ctx.norms.budget_for(self.role)
            self.brief = replace(self.brief, norms=ctx.norms, budget=budget)
            self.messages[0] = {"role": "system", "content": self.briefing.system(self.brief, ctx.norms)}
            self._norms = ctx.norms
        extra, self._pending = self._pending, []
        return render_turn(
            ctx.turn, ctx.budget_left, render_inbox(ctx.inbox, self.id), norm_note=norm_note, extra=extra
        )

    async def _call_model(self) -> Reply:
        attempt = 0
        while True:
            self.calls += 1
            started = time.perf_counter()
            first_ms: float | None = None
            try:
                async with self.limiter or contextlib.nullcontext():
                    response, first_ms, estimated, wire = await self._complete(started)
                reply = parse_response(response, len(self.messages))
                if wire is not None:  # what the server sent, not litellm's rewrite of it (engine/llm/wire.py)
                    reply, estimated = wire.read(reply), estimated or len(wire.usage) < 2
                estimated = estimated or reply.usage_estimated
            except MalformedResponse:
                return Reply("", (), 0, 0, 0.0)  # reported as an empty reply by _act
            except Exception as exc:
                kind, _ = classify_error(exc)
                message = describe_error(exc)
                if kind == "bad_reply":  # a 200 that is no chat completion: an empty reply, as MalformedResponse
                    await self._error(kind, message)
                    return Reply("", (), 0, 0, 0.0)
                if kind == "context_window" and self._forget_oldest_episode():
                    await self._error(kind, message + " (dropped the oldest remembered episode)")
                    continue
                retry = RetryPolicy(self.max_retries, self.backoff).next(exc, attempt)
                if retry is None:
                    raise _GiveUp(kind, message) from None
                attempt += 1
                note = f"retry {attempt} of {self.max_retries} in {retry.delay:g}s, {retry.why}"
                await self._error(kind, f"{message} ({note})")
                await self._sleep(retry.delay)
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
                    finish_reason=reply.finish_reason,
                    first_token_ms=first_ms,
                    text=reply.content[: self.max_reply_chars],
                    usage_estimated=estimated,
                )
            )
            return reply

    async def _complete(self, started: float) -> tuple[Any, float | None, bool, WireNotes | None]:
        """One completion (read to its end when streamed): the response, the time to first token,
        whether a stream's usage is litellm's estimate, and what an OpenAI-compatible server sent (wire.py)."""
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": self.messages,
            "tools": self._tools,
            "timeout": self.timeout,
        }
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.stream:
            kwargs["stream"] = True
            kwargs["stream_options"] = {"include_usage": True}
        completion = self._completion
        if completion is None:
            completion = litellm_completion
            kwargs["drop_params"] = True
            kwargs["max_retries"] = 0  # the SDK's own retries would hide failures from our policy
            if self.api_base:
                kwargs["api_base"] = provider_base(self.model, self.api_base)
                if not load_litellm().validate_environment(model=self.model).get("keys_in_environment"):
                    kwargs["api_key"] = "no-key-needed"  # local servers ignore it; the SDK insists on one
        elif self.api_base:
            kwargs["api_base"] = provider_base(self.model, self.api_base)
        tapped = tap_client(self.model, kwargs) if completion is litellm_completion else None
        if tapped is not None:
            kwargs["client"] = tapped[1]
        call = self.calls

        async def on_text(text: str) -> None:
            if text:
                await self._emit_raw(TokensStreamed(actor=self.id, call=call, text=text, episode=self._episode))

        wire = tapped[0] if tapped is not None else None
        # litellm enforces ``timeout`` itself (not on a stream that keeps sending); this bound covers the rest.
        bound = asyncio.timeout(self.timeout + TIMEOUT_GRACE)
        try:
            async with bound:
                response = await completion(**kwargs)
                if not is_stream(response):
                    return response, None, False, wire.notes if wire else None
                complete = (lambda: wire.notes is not None and wire.notes.done) if wire is not None else None
                rebuilt, first_ms, estimated = await read_stream(
                    response, self.messages, on_text, started=started, complete=complete
                )
                return rebuilt, first_ms, estimated, wire.notes if wire else None
        except TimeoutError:
            if not bound.expired():
                raise
            raise TimeoutError(
                f"no whole reply within {self.timeout + TIMEOUT_GRACE:g} s (--timeout {self.timeout:g} s "
                f"and {TIMEOUT_GRACE:g} s of grace)"
            ) from None
        finally:
            if tapped is not None:
                await tapped[1].close()

    async def _act(self, reply: Reply, ctx: TurnContext) -> None:
        content = reply.content
        if len(content) > self.max_reply_chars:
            await self._error("reply_truncated", f"reply of {len(content)} characters cut to {self.max_reply_chars}")
            cut = note("errors", "truncated", length=len(content), limit=self.max_reply_chars)
            content = content[: self.max_reply_chars] + "\n" + cut
        content = redact(content)
        assistant: ChatMessage = {"role": "assistant", "content": content or None}
        if reply.tool_calls:
            assistant["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": redact(replayable_arguments(call.arguments))},
                }
                for call in reply.tool_calls
            ]
        self.messages.append(assistant)

        if content.strip() or reply.tool_calls:
            self._said += 1
        if not reply.tool_calls:
            if reply.refusal:  # the model's answer, a refusal: it ends its episode, as an ACP agent's refusal does
                await ctx.tools.call("finish", {"summary": f"refused: {content}"[:500]})
                return
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
            # Not run, but recorded: the toolbox refuses a call after finish and records it (``ToolCalled``,
            # ``ok`` false), so the recording says what the model asked for.
            await ctx.tools.call(call.name, redact_value(recorded_arguments(call.arguments)))
            error = note("errors", "after_finish")
        elif index >= self.max_calls_per_turn:
            error = note("errors", "too_many_calls", limit=self.max_calls_per_turn)
            if index == self.max_calls_per_turn:
                await self._error(
                    "too_many_calls", f"{len(self._last_calls)} tool calls in one reply; ran the first {index}"
                )
        elif call.name not in self._tool_names:
            error = note("errors", "unknown_tool", name=call.name, tools=", ".join(sorted(self._tool_names)))
            await self._error("unknown_tool", f"the model called an unknown tool {call.name!r}")
            if isinstance(ctx.tools, CallRecorder):
                # Not run (the toolbox may hold tools this agent was not offered), but recorded as a refused call
                # with its arguments, as an agent product's unknown tool is: the recording says what was asked for.
                asked = redact_value(recorded_arguments(call.arguments))
                await ctx.tools.record_call(call.name, asked, ok=False, result=error)
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

    def _unreachable(self, exc: _GiveUp) -> str:
        where = f" at {self.api_base}" if self.api_base else ""
        return redact(f"{self.id}'s model {self.model}{where} failed on every call ({exc.kind}): {exc.message}")[:300]

    async def _error(self, kind: str, message: str, *, fatal: bool = False) -> None:
        await self._emit(AgentErrored(actor=self.id, error=kind, message=message, episode=self._episode, fatal=fatal))

    async def _emit(self, event: AgentErrored | ModelCalled) -> None:
        """Emit with every string redacted of secrets first."""
        await self._emit_raw(type(event).model_validate(redact_value(event.model_dump()), context=ESCAPED))

