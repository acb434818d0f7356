"""The agent through the real litellm code path, with litellm's own mocks (no network)."""

from __future__ import annotations

import pytest

from engine.agents.llm import LLMAgent
from engine.llm.client import load_litellm
from tests.engine.llm.fakes import Events, Sleeps, Toolbox, brief, context
from tests.engine.llm.mock_litellm import LITELLM_WARNINGS, MockLitellm, call

pytestmark = pytest.mark.filterwarnings(LITELLM_WARNINGS)
litellm = load_litellm()  # offline cost map: never the network


async def test_tool_calls_tokens_and_cost_through_litellm() -> None:
    events, tools = Events(), Toolbox()
    mock = MockLitellm(
        ("Let me look.", [call("read_file", '{"path": "services/platform/money.py"}', "c1")]),
        ("", [call("finish", '{"summary": "done"}', "c2")]),
    )
    agent = LLMAgent("owner", "owner", "openai/gpt-4o-mini", emit=events, completion=mock)
    await agent.start_episode(brief())
    await agent.take_turn(context(tools, 1))
    await agent.take_turn(context(tools, 2))
    assert tools.calls == [("read_file", {"path": "services/platform/money.py"}), ("finish", {"summary": "done"})]
    called = events.of("ModelCalled")
    assert len(called) == 2
    assert all(e.prompt_tokens > 0 and e.completion_tokens > 0 for e in called)
    assert all(e.cost_usd > 0 for e in called)  # gpt-4o-mini is in litellm's offline cost map
    assert agent.usage.cost_usd == sum(e.cost_usd for e in called)


async def test_malformed_arguments_and_rate_limit_through_litellm() -> None:
    events, tools, sleeps = Events(), Toolbox(), Sleeps()
    mock = MockLitellm(
        ("", [call("edit_file", "{not json", "c1")]),
        litellm.RateLimitError("slow down", llm_provider="openai", model="gpt-4o-mini"),
        ("", [call("list_files", "{}", "c2")]),
    )
    agent = LLMAgent("owner", "owner", "openai/gpt-4o-mini", emit=events, completion=mock, sleep=sleeps)
    await agent.start_episode(brief())
    await agent.take_turn(context(tools, 1))
    await agent.take_turn(context(tools, 2))
    assert [e.error for e in events.of("AgentErrored")] == ["malformed_arguments", "rate_limit"]
    assert tools.calls == [("list_files", {})]
    assert len(sleeps.delays) == 1


async def test_unknown_model_costs_zero_but_counts_tokens() -> None:
    events = Events()
    mock = MockLitellm(("thinking", []))
    agent = LLMAgent("owner", "owner", "openai/not-a-real-model-xyz", emit=events, completion=mock)
    await agent.start_episode(brief())
    await agent.take_turn(context(Toolbox(), 1))
    [called] = events.of("ModelCalled")
    assert called.cost_usd == 0.0 and called.prompt_tokens > 0
