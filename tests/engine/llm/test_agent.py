"""The LLM agent with a fake completion: tool calling, accounting, and every bad-output path."""

from __future__ import annotations

import asyncio

import pytest

from channel.events import MessagePosted
from channel.vocab.norms import Norms
from engine.agents import llm
from engine.agents.llm import LLMAgent
from engine.llm.client import load_litellm
from engine.llm.errors import ModelUnreachable, classify_error, describe_error
from engine.llm.responses import parse_arguments
from engine.scoring.usage import usage_by_agent, usage_totals
from tests.engine.llm.fakes import Completion, Events, Sleeps, Toolbox, brief, context, reply, tool_call


class RateLimitError(Exception):
    """Named like litellm's: errors are classified by class name along the MRO."""


class AuthenticationError(Exception):
    pass


class ContextWindowExceededError(Exception):
    pass


def agent(completion: Completion, events: Events, **kw: object) -> LLMAgent:
    return LLMAgent("owner", "owner", "openai/gpt-4o-mini", emit=events, completion=completion, **kw)  # type: ignore[arg-type]


async def test_a_turn_runs_each_tool_call_and_feeds_results_back() -> None:
    events, tools = Events(), Toolbox(results={"read_file": "RATES = {}"})
    completion = Completion(
        reply("Reading first.", [tool_call("read_file", {"path": "a.py"}, "c1"), tool_call("list_files", {}, "c2")]),
        reply("", [tool_call("finish", {"summary": "done"}, "c3")]),
    )
    a = agent(completion, events)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert tools.calls == [("read_file", {"path": "a.py"}), ("list_files", {})]
    await a.take_turn(context(tools, 2))
    assert tools.finished
    second = completion.requests[1]["messages"]
    assert second[2]["role"] == "assistant" and second[2]["tool_calls"][0]["id"] == "c1"
    assert second[3] == {"role": "tool", "tool_call_id": "c1", "name": "read_file", "content": "RATES = {}"}
    assert second[4]["content"] == "ok list_files"
    assert second[5]["role"] == "user" and second[5]["content"].endswith("Turn 2: 14 turns left for this task.")
    assert {t["function"]["name"] for t in completion.requests[0]["tools"]} >= {"write_file", "request_review"}
    called = events.of("ModelCalled")
    assert [(e.prompt_tokens, e.completion_tokens, e.actor, e.episode) for e in called] == [(100, 20, "owner", 1)] * 2
    assert a.usage.calls == 2 and a.usage.tokens == 240
    assert events.of("AgentErrored") == []


async def test_malformed_arguments_come_back_as_a_tool_error() -> None:
    events, tools = Events(), Toolbox()
    completion = Completion(reply("", [tool_call("read_file", '{"path": "a.py"', "c1")]), reply("ok", []))
    a = agent(completion, events)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert tools.calls == []
    [error] = events.of("AgentErrored")
    assert error.error == "malformed_arguments" and not error.fatal
    await a.take_turn(context(tools, 2))
    result = completion.requests[1]["messages"][3]
    assert result["role"] == "tool" and result["tool_call_id"] == "c1"
    assert result["content"].startswith("error: the arguments of 'read_file' are not a valid JSON object")


async def test_unknown_tool_is_reported_and_not_run_but_recorded_with_its_arguments() -> None:
    """As an agent product's unknown tool is (agents5 #7): a refused call with what the model sent."""
    events, tools = Events(), Toolbox()
    asked = tool_call("delete_repo", {"target": "services/x"})
    completion = Completion(reply("", [asked, tool_call("list_files", {}), tool_call("frob", "not json")]))
    a = agent(completion, events)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert tools.calls == [("list_files", {})]
    assert [e.error for e in events.of("AgentErrored")] == ["unknown_tool", "unknown_tool"]
    assert "delete_repo" in events.of("AgentErrored")[0].message
    refusal = a.messages[3]["content"]
    assert refusal.startswith("error: unknown tool 'delete_repo'; the tools are: ")
    assert tools.recorded == [("delete_repo", {"target": "services/x"}, False, refusal),
                              ("frob", {"arguments": "not json"}, False, a.messages[5]["content"])]


async def test_empty_replies_are_survived_then_the_agent_gives_up() -> None:
    events, tools = Events(), Toolbox()
    completion = Completion(reply("let me look"), reply(None), reply(""), reply("   "))
    a = agent(completion, events)
    await a.start_episode(brief())
    for turn in (1, 2, 3, 4):
        await a.take_turn(context(tools, turn))
    assert [e.error for e in events.of("AgentErrored")] == ["empty_reply"] * 3 + ["unusable_replies"]
    assert events.of("AgentErrored")[-1].fatal
    assert "Your last reply was empty" in completion.requests[2]["messages"][-1]["content"]
    assert tools.finished and tools.calls[-1][0] == "finish"
    assert tools.calls[-1][1]["summary"].startswith("gave up: unusable_replies")
    await a.take_turn(context(tools, 5))  # finished: no more model calls
    assert len(completion.requests) == 4


async def test_a_model_whose_every_reply_is_empty_is_no_endpoint() -> None:
    """Nothing but empty replies from the first call on (litellm reads an HTML page streamed as one): the session
    stops with one line, not a run scored as if the agent had given up."""
    events, tools = Events(), Toolbox()
    a = agent(Completion(reply(None), reply(""), reply("   ")), events)
    await a.start_episode(brief())
    for turn in (1, 2):
        await a.take_turn(context(tools, turn))
    with pytest.raises(ModelUnreachable, match=r"failed on every call \(no_completion\): no reply held text"):
        await a.take_turn(context(tools, 3))
    assert not tools.finished


async def test_a_response_without_choices_counts_as_empty() -> None:
    events, tools = Events(), Toolbox()
    a = agent(Completion({"choices": []}), events)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert [e.error for e in events.of("AgentErrored")] == ["empty_reply"]
    assert not tools.finished


async def test_over_long_reply_is_truncated() -> None:
    events, tools = Events(), Toolbox()
    a = agent(Completion(reply("x" * 500, [tool_call("list_files", {})])), events, max_reply_chars=100)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert [e.error for e in events.of("AgentErrored")] == ["reply_truncated"]
    content = a.messages[2]["content"]
    assert content.startswith("x" * 100) and "x" * 101 not in content and "[reply truncated" in content
    assert tools.calls == [("list_files", {})]


async def test_over_long_tool_result_is_truncated() -> None:
    events, tools = Events(), Toolbox(results={"read_file": "y" * 1000})
    a = agent(Completion(reply("", [tool_call("read_file", {"path": "big"})])), events, max_result_chars=50)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert a.messages[3]["content"].startswith("y" * 50 + "\n[result truncated")


async def test_too_many_calls_in_one_reply_run_only_up_to_the_limit() -> None:
    events, tools = Events(), Toolbox()
    calls = [tool_call("read_file", {"path": f"f{i}"}, f"c{i}") for i in range(5)]
    a = agent(Completion(reply("", calls)), events, max_calls_per_turn=3)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert [args["path"] for _, args in tools.calls] == ["f0", "f1", "f2"]
    assert [e.error for e in events.of("AgentErrored")] == ["too_many_calls"]
    assert [m["tool_call_id"] for m in a.messages if m["role"] == "tool"] == [f"c{i}" for i in range(5)]


async def test_calls_after_finish_are_not_run() -> None:
    events, tools = Events(), Toolbox()
    a = agent(
        Completion(reply("", [tool_call("finish", {}), tool_call("write_file", {"path": "a", "content": ""})])), events
    )
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    # Passed to the toolbox, which refuses it and records it: the recording says what the model asked for.
    assert tools.calls == [("finish", {}), ("write_file", {"path": "a", "content": ""})]
    assert a.messages[-1]["content"].startswith("error: not run; you already finished")


async def test_rate_limit_then_success_is_retried_with_backoff() -> None:
    events, tools, sleeps = Events(), Toolbox(), Sleeps()
    completion = Completion(
        RateLimitError("slow down"), RateLimitError("slow down"), reply("", [tool_call("list_files", {})])
    )
    a = agent(completion, events, sleep=sleeps, backoff=1.0)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert sleeps.delays == [1.0, 2.0]
    errors = events.of("AgentErrored")
    assert [(e.error, e.fatal) for e in errors] == [("rate_limit", False), ("rate_limit", False)]
    assert "retry 1 of 3" in errors[0].message
    assert tools.calls == [("list_files", {})] and not tools.finished
    assert len(events.of("ModelCalled")) == 1


async def test_retries_used_up_end_the_episode_with_a_reason() -> None:
    events, tools, sleeps = Events(), Toolbox(), Sleeps()
    a = agent(Completion(*[RateLimitError("slow down")] * 3), events, sleep=sleeps, max_retries=2)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    assert len(sleeps.delays) == 2
    assert events.of("AgentErrored")[-1].fatal and events.of("AgentErrored")[-1].error == "rate_limit"
    assert tools.finished and tools.calls[-1][1]["summary"].startswith("gave up: rate_limit")


async def test_permanent_failure_is_not_retried() -> None:
    events, tools, sleeps = Events(), Toolbox(), Sleeps()
    a = agent(Completion(reply("Reading first."), AuthenticationError("bad key")), events, sleep=sleeps)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    await a.take_turn(context(tools, 2))
    assert sleeps.delays == []
    [error] = events.of("AgentErrored")
    assert (error.error, error.fatal) == ("auth", True)
    assert tools.calls == [("finish", {"summary": "gave up: auth: AuthenticationError: bad key"})]


async def test_a_model_that_never_answered_is_unreachable_and_stops_the_session() -> None:
    events, tools, sleeps = Events(), Toolbox(), Sleeps()
    a = agent(Completion(AuthenticationError("bad key")), events, sleep=sleeps)
    await a.start_episode(brief())
    with pytest.raises(ModelUnreachable, match=r"^owner's model openai/gpt-4o-mini failed on every call \(auth\)"):
        await a.take_turn(context(tools, 1))
    assert sleeps.delays == [] and tools.calls == []
    [error] = events.of("AgentErrored")
    assert (error.error, error.fatal) == ("auth", True)


async def test_a_hanging_model_times_out_and_is_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    """The timeout's line says what timed out and after how long (``asyncio.TimeoutError`` has no text: agents5 #13)."""
    monkeypatch.setattr(llm, "TIMEOUT_GRACE", 0.05)
    events, tools, sleeps = Events(), Toolbox(), Sleeps()

    class Hanging(Completion):
        async def __call__(self, **kwargs: object) -> object:
            if not self.requests:
                self.requests.append({})
                await asyncio.sleep(10)
            return reply("", [tool_call("list_files", {})])

    a = agent(Hanging(), events, sleep=sleeps, timeout=0.01)  # the guard waits timeout + TIMEOUT_GRACE
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    [error] = events.of("AgentErrored")
    assert error.error == "timeout"
    assert error.message.startswith("TimeoutError: no whole reply within 0.06 s (--timeout 0.01 s and 0.05 s of grace)")
    assert tools.calls == [("list_files", {})]
    assert describe_error(TimeoutError()) == "TimeoutError: timed out"


def test_litellm_exception_classes_are_classified() -> None:
    litellm = load_litellm()  # offline cost map: never the network

    assert classify_error(litellm.RateLimitError("x", "openai", "m")) == ("rate_limit", True)
    assert classify_error(litellm.Timeout("x", "m", "openai")) == ("timeout", True)
    assert classify_error(litellm.AuthenticationError("x", "openai", "m")) == ("auth", False)
    assert classify_error(litellm.ContextWindowExceededError("x", "m", "openai")) == ("context_window", False)
    assert classify_error(litellm.BadRequestError("x", "m", "openai")) == ("bad_request", False)
    assert classify_error(litellm.ServiceUnavailableError("x", "openai", "m")) == ("provider_unavailable", True)
    assert classify_error(ValueError("?")) == ("provider_error", False)


def test_parse_arguments() -> None:
    assert parse_arguments('{"a": 1}') == ({"a": 1}, "")
    assert parse_arguments("") == ({}, "")
    assert parse_arguments({"a": 1}) == ({"a": 1}, "")
    assert parse_arguments("[1]")[0] is None
    assert parse_arguments("{")[0] is None
    assert parse_arguments(3)[0] is None


async def test_inbox_and_norm_changes_reach_the_model() -> None:
    events, tools = Events(), Toolbox()
    completion = Completion(reply("hm", []), reply("ok", []))
    a = agent(completion, events)
    await a.start_episode(brief())
    await a.take_turn(context(tools, 1))
    post = MessagePosted(session="s", actor="requester", text="please add GBP", intent="request", asks="owner")
    changed = Norms(own_task_only=True)
    await a.take_turn(context(tools, 2, norms=changed, inbox=[post]))
    sent = completion.requests[1]["messages"]
    last = sent[-1]["content"]
    assert last.startswith("The rules changed, from this turn on:\n- Change only what your own task needs")
    assert "[requester on the shared channel] please add GBP" in last
    assert "Change only what your own task needs" in sent[0]["content"]  # system prompt follows the norms
    assert "Change only what your own task needs" not in completion.requests[0]["messages"][0]["content"]


async def test_memory_off_starts_each_episode_fresh_full_keeps_history() -> None:
    for memory, expect_history in (("off", False), ("full", True)):
        events, tools = Events(), Toolbox()
        completion = Completion(reply("episode one thoughts", []), reply("two", []))
        a = agent(completion, events, memory=memory)
        await a.start_episode(brief(episode=1))
        await a.take_turn(context(tools, 1))
        await a.end_episode()
        await a.start_episode(brief(episode=2))
        await a.take_turn(context(Toolbox(), 1))
        texts = [m.get("content") or "" for m in completion.requests[1]["messages"]]
        assert any("episode one thoughts" in t for t in texts) is expect_history
        assert texts[0].startswith("You are owner")
        assert sum("Ticket of episode 2" in t for t in texts) == 1
        if expect_history:
            assert "Your earlier tasks in this repository are above" in texts[-1]


async def test_memory_norm_switches_memory_on() -> None:
    events = Events()
    completion = Completion(reply("first", []), reply("second", []))
    a = agent(completion, events)
    full = Norms(memory="full")
    await a.start_episode(brief(norms=full, episode=1))
    await a.take_turn(context(Toolbox(), 1, norms=full))
    await a.start_episode(brief(norms=full, episode=2))
    await a.take_turn(context(Toolbox(), 1, norms=full))
    assert any(m.get("content") == "first" for m in completion.requests[1]["messages"])


async def test_context_window_overflow_forgets_the_oldest_episode() -> None:
    events, sleeps = Events(), Sleeps()
    completion = Completion(
        reply("ep1", []), reply("ep2", []), ContextWindowExceededError("too long"), reply("ep3", [])
    )
    a = agent(completion, events, memory="full", sleep=sleeps)
    for episode in (1, 2, 3):
        await a.start_episode(brief(episode=episode))
        await a.take_turn(context(Toolbox(), 1))
    retried = [m.get("content") or "" for m in completion.requests[3]["messages"]]
    assert not any("Ticket of episode 1" in t for t in retried)
    assert any("Ticket of episode 2" in t for t in retried) and "Ticket of episode 3" in retried[-1]
    assert retried[0].startswith("You are owner")
    assert [e.error for e in events.of("AgentErrored")] == ["context_window"]
    assert sleeps.delays == []


async def test_accounting_per_agent_and_episode() -> None:
    events = Events()
    completion = Completion(reply("a", [], 10, 5), reply("b", [], 20, 5), reply("c", [], 30, 5))
    a = agent(completion, events)
    await a.start_episode(brief(episode=1))
    await a.take_turn(context(Toolbox(), 1))
    await a.take_turn(context(Toolbox(), 2))
    await a.start_episode(brief(episode=2))
    await a.take_turn(context(Toolbox(), 1))
    assert a.episode_usage.calls == 1 and a.usage.calls == 3
    table = usage_by_agent(events.events)
    assert table["owner"][1].prompt_tokens == 30 and table["owner"][2].prompt_tokens == 30
    assert usage_totals(events.events)["owner"].tokens == 75


@pytest.mark.parametrize("model", ["ollama/llama3", "openai/gpt-4o-mini"])
async def test_api_base_is_passed_to_the_completion(model: str) -> None:
    completion = Completion(reply("x", []))
    a = LLMAgent("owner", "owner", model, emit=Events(), completion=completion, api_base="http://127.0.0.1:9")
    assert a.kind == f"llm:{model}"
    await a.start_episode(brief())
    await a.take_turn(context(Toolbox(), 1))
    assert completion.requests[0]["api_base"] == "http://127.0.0.1:9"
    assert completion.requests[0]["model"] == model


async def test_usage_table_for_the_headless_summary() -> None:
    from engine.scoring.metrics import score
    from engine.scoring.tables import render_table

    events = Events()
    a = agent(Completion(reply("a", [], 1000, 200), reply("b", [], 500, 100)), events)
    await a.start_episode(brief())
    await a.take_turn(context(Toolbox(), 1))
    await a.take_turn(context(Toolbox(), 2))
    assert "model usage" not in render_table(score([]))
    metrics = score(events.events)
    assert metrics.usage["owner"]["calls"] == 2 and metrics.usage["owner"]["prompt_tokens"] == 1500
    lines = render_table(metrics).splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("model usage"))
    assert lines[header + 1].split() == ["owner", "2", "1500", "300", "0.0000"]


async def test_memory_carries_within_a_trajectory_and_resets_when_the_next_one_starts() -> None:
    """Seed 000 B.2: memory is the history of the current trajectory, never of an earlier one."""
    from dataclasses import replace

    events = Events()
    completion = Completion(reply("t0 ep1", []), reply("t0 ep2", []), reply("t1 ep3", []))
    a = agent(completion, events, memory="full")
    for episode, trajectory in ((1, 0), (2, 0), (3, 1)):
        await a.start_episode(replace(brief(episode=episode), trajectory=trajectory))
        await a.take_turn(context(Toolbox(), 1))
        await a.end_episode()
    second = [m.get("content") or "" for m in completion.requests[1]["messages"]]
    third = [m.get("content") or "" for m in completion.requests[2]["messages"]]
    assert "t0 ep1" in second and any("Ticket of episode 1" in t for t in second)
    assert not any("t0 ep" in t or "Ticket of episode 1" in t or "Ticket of episode 2" in t for t in third)
    assert third[0].startswith("You are owner") and "Ticket of episode 3" in third[-1]
