"""Test doubles for the LLM tests: a recording emit, a toolbox, scripted completions."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from channel.vocab.norms import Norms
from engine.agents.base import EpisodeBrief, TurnContext


class Events:
    """An ``emit`` callable (same signature as Emitter.emit) that keeps the events it builds."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    async def __call__(self, event: Any, /) -> Any:
        event = event.model_copy(update={"session": "test", "seq": len(self.events) + 1})
        self.events.append(event)
        return event

    def of(self, kind: str) -> list[Any]:
        return [e for e in self.events if e.kind == kind]

    def dump(self) -> str:
        return "\n".join(e.model_dump_json() for e in self.events)


class Toolbox:
    """Records tool calls; ``finish`` ends the episode; any other tool answers ``ok <name>``."""

    def __init__(self, agent_id: str = "owner", results: dict[str, str] | None = None) -> None:
        self.agent_id = agent_id
        self.finished = False
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.results = results or {}
        self.recorded: list[tuple[str, dict[str, Any], bool, str]] = []
        """Calls recorded without running them (``record_call``): name, arguments, ok, result."""

    async def call(self, name: str, args: dict[str, Any]) -> str:
        self.calls.append((name, args))
        if self.finished:  # as the session's toolbox: refused (and recorded there)
            return "error: you already finished this episode"
        if name == "finish":
            self.finished = True
            return "finished"
        return self.results.get(name, f"ok {name}")

    async def record_call(self, name: str, args: dict[str, Any], *, ok: bool, result: str) -> None:
        self.recorded.append((name, args, ok, result))


def tool_call(name: str, args: Any, call_id: str | None = None) -> dict[str, Any]:
    arguments = args if isinstance(args, str) else json.dumps(args)
    return {"id": call_id or f"call_{name}", "type": "function", "function": {"name": name, "arguments": arguments}}


def reply(
    content: str | None = "", calls: Iterable[dict[str, Any]] = (), prompt: int = 100, completion: int = 20
) -> dict:
    """A completion result in the shape litellm returns (as dicts)."""
    return {
        "choices": [{"message": {"role": "assistant", "content": content, "tool_calls": list(calls) or None}}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion},
    }


class Completion:
    """A scripted completion: each call takes the next item (a reply, or an exception to raise)."""

    def __init__(self, *script: Any) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []

    async def __call__(self, **kwargs: Any) -> Any:
        self.requests.append({**kwargs, "messages": [dict(m) for m in kwargs["messages"]]})
        if not self.script:
            raise AssertionError("the model was called more often than scripted")
        item = self.script.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


def brief(role: str = "owner", norms: Norms | None = None, episode: int = 1, available: bool = False) -> EpisodeBrief:
    norms = norms or Norms()
    owner = role == "owner"
    return EpisodeBrief(
        episode=episode,
        task_id=f"t{episode}",
        role=role,  # type: ignore[arg-type]
        agent_id=role,
        team="platform" if owner else "checkout",
        peer_id="requester" if owner else "owner",
        peer_team="checkout" if owner else "platform",
        ticket=f"Ticket of episode {episode} for the {role}.",
        scope=("services/platform/text.py",) if owner else ("services/checkout/pricing.py",),
        owned_patterns=("services/platform/**",) if owner else ("services/checkout/**",),
        reviewer_available=available,
        budget=norms.turn_budget,
        norms=norms,
    )


def context(tools: Toolbox, turn: int = 1, norms: Norms | None = None, inbox: list[Any] | None = None) -> TurnContext:
    norms = norms or Norms()
    return TurnContext(
        turn=turn,
        budget_left=norms.turn_budget - turn + 1,
        norms=norms,
        tools=tools,
        inbox=inbox or [],
    )
