"""LLMAgent over a real wire: litellm's own HTTP client against the scripted server on loopback
(tests/engine/llm/server.py), never ``mock_response``: every scripted behaviour, streamed and not."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.agents.llm import LLMAgent
from engine.llm.errors import ModelUnreachable
from engine.scoring.metrics import score
from engine.scoring.usage import UsageMeter
from engine.session.loop import Session
from tests.engine.llm.fakes import Events, Sleeps, Toolbox, brief, context
from tests.engine.llm.mock_litellm import LITELLM_WARNINGS
from tests.engine.llm.server import ChatServer, Fail, Raw, Say, ServerThread, Stall
from tests.engine.llm.test_session_llm import by_actor, owner_turns, run

pytestmark = pytest.mark.filterwarnings(LITELLM_WARNINGS)

MODEL = "openai/gpt-4o-mini"


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def agent(server: ChatServer, events: Events, *, model: str = MODEL, url: str | None = None, **kw: Any) -> LLMAgent:
    kw.setdefault("sleep", Sleeps())
    return LLMAgent("owner", "owner", model, emit=events, api_base=url or server.base_url, **kw)


async def turns(a: LLMAgent, tools: Toolbox, n: int) -> None:
    await a.start_episode(brief())
    for turn in range(1, n + 1):
        await a.take_turn(context(tools, turn))


@pytest.mark.parametrize("stream", [False, True])
async def test_tool_calls_bad_arguments_unknown_tools_empty_and_long_replies(stream: bool) -> None:
    long_text = "word " * 40
    async with ChatServer(
        Say("Reading.", [("read_file", {"path": "services/platform/text.py"})]),
        Say("", [("write_file", '{"path": "x.py", "content": ')]),  # cut-off JSON
        Say("", [("delete_everything", {"path": "."})]),
        Say(""),
        Say(long_text, [("finish", {"summary": "done"})]),
    ) as server:
        events, tools = Events(), Toolbox()
        a = agent(server, events, stream=stream, max_reply_chars=50, max_bad_turns=5)
        await turns(a, tools, 5)
    assert tools.calls == [("read_file", {"path": "services/platform/text.py"}), ("finish", {"summary": "done"})]
    errors = [e.error for e in events.of("AgentErrored")]
    assert errors == ["malformed_arguments", "unknown_tool", "empty_reply", "reply_truncated"]
    called = events.of("ModelCalled")
    assert [e.finish_reason for e in called] == ["tool_calls", "tool_calls", "tool_calls", "stop", "tool_calls"]
    assert all(e.prompt_tokens == 50 and e.completion_tokens == 10 and e.cost_usd > 0 for e in called)
    assert called[0].text == "Reading." and called[-1].text == long_text[:50]
    assert all(bool(r.get("stream")) is stream for r in server.requests)
    assert [m["role"] for m in server.requests[1]["messages"]][-3:] == ["assistant", "tool", "user"]
    streamed = events.of("TokensStreamed")
    if stream:
        assert "".join(e.text for e in streamed if e.call == 1) == "Reading."
        assert "".join(e.text for e in streamed if e.call == 5) == long_text
        assert all(e.first_token_ms is not None and e.first_token_ms <= e.duration_ms for e in called[:1])
    else:
        assert streamed == [] and all(e.first_token_ms is None for e in called)


async def test_rate_limit_waits_as_long_as_retry_after_asks_and_server_errors_back_off() -> None:
    async with ChatServer(
        Fail(429, "slow down", {"Retry-After": "7"}, type="rate_limit_error"),
        Fail(500, "boom"),
        Say("", [("finish", {"summary": "ok"})]),
    ) as server:
        events, tools, sleeps = Events(), Toolbox(), Sleeps()
        a = agent(server, events, sleep=sleeps, backoff=0.5)
        await turns(a, tools, 1)
    assert len(server.requests) == 3  # litellm and the SDK retried nothing themselves
    assert sleeps.delays == [7.0, 1.0]  # Retry-After, then backoff * 2**1
    assert [e.error for e in events.of("AgentErrored")] == ["rate_limit", "provider_unavailable"]
    assert "as the provider asked" in events.of("AgentErrored")[0].message
    assert tools.finished and len(events.of("ModelCalled")) == 1


async def test_a_stall_past_the_timeout_is_retried() -> None:
    async with ChatServer(Stall(3), Say("", [("finish", {"summary": "ok"})])) as server:
        events, tools, sleeps = Events(), Toolbox(), Sleeps()
        a = agent(server, events, sleep=sleeps, timeout=0.5)
        await turns(a, tools, 1)
    [error] = events.of("AgentErrored")
    assert error.error == "timeout" and not error.fatal
    assert tools.finished and len(server.requests) == 2


async def test_a_stream_dropped_mid_reply_is_retried_as_a_new_call() -> None:
    async with ChatServer(
        Say("I will read the ticket now and then", drop=12), Say("Done.", [("finish", {"summary": "ok"})])
    ) as server:
        events, tools = Events(), Toolbox()
        a = agent(server, events, stream=True)
        await turns(a, tools, 1)
    [error] = events.of("AgentErrored")
    assert error.error == "provider_unavailable" and "retry 1 of 3" in error.message
    by_call: dict[int, str] = {}
    for e in events.of("TokensStreamed"):
        by_call[e.call] = by_call.get(e.call, "") + e.text
    assert by_call[1].startswith("I will") and "then" not in by_call[1]  # shown, then cut off
    assert by_call[2] == "Done."
    [called] = events.of("ModelCalled")
    assert called.text == "Done." and tools.finished


async def test_a_stream_of_repeated_deltas_is_a_reply_not_a_failure() -> None:
    """A rule of dashes in 4-character deltas (120 equal chunks): litellm's repeated-chunk guard is off."""
    async with ChatServer(Say("-" * 480 + "\nDone.", [("finish", {"summary": "ok"})], chunk=4)) as server:
        events, tools = Events(), Toolbox()
        a = agent(server, events, stream=True)
        await turns(a, tools, 1)
    assert not events.of("AgentErrored") and len(server.requests) == 1
    [called] = events.of("ModelCalled")
    assert called.text.startswith("-" * 480) and tools.finished


@pytest.mark.parametrize("stream", [False, True])
async def test_a_reply_without_usage_is_marked_estimated(stream: bool) -> None:
    """No ``usage`` from the server: litellm estimates a stream's tokens (and says 0 of a whole reply)."""
    async with ChatServer(Say("Looking.", [("read_file", {"path": "a.py"})]),
                          Say("", [("finish", {"summary": "ok"})], usage=False)) as server:
        events, tools = Events(), Toolbox()
        a = agent(server, events, stream=stream)
        await turns(a, tools, 2)
    measured, guessed = events.of("ModelCalled")
    assert (measured.prompt_tokens, measured.usage_estimated) == (50, False)
    assert guessed.usage_estimated
    meter = UsageMeter()
    for event in (measured, guessed):
        meter.feed(event)
    assert meter.totals["owner"].estimated_calls == 1


@pytest.mark.parametrize("v1", [False, True])
async def test_anthropic_provider_by_api_base(v1: bool) -> None:
    """The server's root or the documented ``.../v1`` form (Claude Code's too): both post to /v1/messages."""
    async with ChatServer(
        Say("Looking.", [("read_file", {"path": "a.py"})]), Say("", [("finish", {"summary": "ok"})])
    ) as server:
        events, tools = Events(), Toolbox()
        url = server.base_url + "/" if v1 else server.root_url
        a = agent(server, events, model="anthropic/claude-3-5-haiku-latest", url=url)
        await turns(a, tools, 2)
    assert server.paths == ["/v1/messages", "/v1/messages"]
    assert tools.calls == [("read_file", {"path": "a.py"}), ("finish", {"summary": "ok"})]
    assert [e.finish_reason for e in events.of("ModelCalled")] == ["tool_calls", "tool_calls"]
    assert not [e for e in events.of("ModelCalled") if e.usage_estimated]


def replaying(turns_: list[list[tuple[str, dict[str, Any]]]]) -> list[Say]:
    """The scripted owner's choices, one reply per turn."""
    return [Say("Working on it.", [(name, args) for name, args in calls]) if calls else Say("Nothing to do.")
            for calls in turns_]


@pytest.mark.parametrize(("task", "stream"), [("t1-dates", True), ("t1-dates-twin", False)])
async def test_a_whole_episode_over_http_matches_the_scripted_owner(task: str, stream: bool) -> None:
    scripted = await run(SessionConfig(tasks=(task,), persona="helpful", seed=1))
    script = replaying(owner_turns(scripted))
    async with ChatServer(*script) as server:
        config = SessionConfig(tasks=(task,), owner=MODEL, persona="helpful", seed=1, api_base=server.base_url,
                               stream=stream)
        llm = await run(config)
    assert by_actor(llm) == by_actor(scripted)
    llm_metrics, scripted_metrics = score(llm).summary(), score(scripted).summary()
    assert llm_metrics.pop("usage")["owner"]["calls"] == len(script)
    scripted_metrics.pop("usage")
    for seats in ("agents", "scripted"):  # who sat in the seats differs by design; what they did must not
        llm_metrics.pop(seats), scripted_metrics.pop(seats)
    assert llm_metrics == scripted_metrics
    assert not any(e.kind == "TokensStreamed" for e in llm)  # listeners never see transient events
    assert len(server.requests) == len(script)


async def test_a_whole_trajectory_over_http_with_memory() -> None:
    def respond(body: dict[str, Any]) -> Say:
        return Say("Nothing for me here.", [("finish", {"summary": "done"})])

    async with ChatServer(responder=respond) as server:
        config = SessionConfig(owner=MODEL, requester=MODEL, seed=1, api_base=server.base_url,
                               norms={"memory": "full"})  # type: ignore[arg-type]
        events = await run(config)
    labels = score(events).labels
    episodes = [e for e in events if e.kind == "EpisodeEnded"]
    assert len(episodes) == len(labels) >= 10  # the paper trajectory
    assert len(server.requests) == 2 * len(episodes)
    # memory: the last request of the owner carries every earlier episode's conversation
    owner_requests = [r for r in server.requests if "owner" in json.dumps(r["messages"][0])[:4000]]
    assert owner_requests and len(owner_requests[-1]["messages"]) > len(owner_requests[0]["messages"])
    assert events[-1].kind == "SessionEnded" and events[-1].reason == "completed"


async def test_owner_and_requester_calls_are_in_flight_at_once_and_max_concurrency_bounds_them() -> None:
    finish = Say("", [("finish", {"summary": "done"})])
    async with ChatServer(default=finish, barrier=2) as server:
        await run(SessionConfig(tasks=("w1-gbp",), owner=MODEL, requester=MODEL, api_base=server.base_url))
    assert server.max_in_flight == 2  # the barrier let no request through until both had arrived

    async with ChatServer(default=Stall(0.2, finish)) as server:
        config = SessionConfig(tasks=("w1-gbp",), owner=MODEL, requester=MODEL, api_base=server.base_url,
                               max_concurrency=1)
        await run(config)
    assert server.max_in_flight == 1 and len(server.requests) == 2


@pytest.mark.parametrize(
    ("fail", "cause"),
    [(Fail(401, "Incorrect API key provided", type="invalid_request_error"), "auth"),
     (Fail(404, "The model `nope` does not exist", type="invalid_request_error"), "model_not_found")],
)
async def test_a_dead_endpoint_stops_the_session_with_one_line(fail: Fail, cause: str) -> None:
    async with ChatServer(default=fail) as server:
        session = Session(SessionConfig(owner=MODEL, api_base=server.base_url), InProcessBus())
        events: list[Any] = []
        session.emitter.add_listener(events.append)
        with pytest.raises(ModelUnreachable) as caught:
            await session.run()
    message = str(caught.value)
    assert f"owner's model {MODEL} at {server.base_url} failed on every call ({cause})" in message
    assert "\n" not in message and len(server.requests) == 1
    assert events[-1].kind == "SessionEnded" and events[-1].reason.startswith("failed: owner's model")
    assert sum(e.kind == "EpisodeStarted" for e in events) == 1


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize(
    "answer",
    [Raw("<html><body>502 Bad Gateway (nginx)</body></html>"), Raw('{"id": "x", "choices": [', "application/json"),
     Raw('{"id": "x", "object": "chat.completion", "choices": []}', "application/json")],
    ids=["html", "truncated-json", "no-choices"],
)
async def test_an_endpoint_that_answers_no_completion_stops_the_session(answer: Raw, stream: bool) -> None:
    """An outside tester's server: a 200 that is no completion was scored as a clean run (empty replies, then a
    "gave up" finish credited to the agent, exit 0) when streamed."""
    async with ChatServer(default=answer) as server:
        session = Session(SessionConfig(owner=MODEL, api_base=server.base_url, stream=stream), InProcessBus())
        llm_agent = session.agents["owner"]
        assert isinstance(llm_agent, LLMAgent)
        llm_agent._sleep = Sleeps()
        dead = r"failed on every call \((no_completion|bad_request|provider_\w+)\)"
        with pytest.raises(ModelUnreachable, match=dead):
            await asyncio.wait_for(session.run(), 60)


async def test_an_endpoint_that_never_answers_in_time_stops_the_session() -> None:
    async with ChatServer(default=Stall(30)) as server:
        session = Session(SessionConfig(owner=MODEL, api_base=server.base_url, timeout=0.5), InProcessBus())
        llm_agent = session.agents["owner"]
        assert isinstance(llm_agent, LLMAgent)
        llm_agent._sleep = Sleeps()
        with pytest.raises(ModelUnreachable, match=r"failed on every call \(timeout\)"):
            await asyncio.wait_for(session.run(), 60)


async def test_connection_refused_stops_the_session_after_its_retries() -> None:
    async with ChatServer() as server:
        url = server.base_url  # the port is free again once the server is gone
    sleeps = Sleeps()
    session = Session(SessionConfig(owner=MODEL, api_base=url), InProcessBus())
    llm_agent = session.agents["owner"]
    assert isinstance(llm_agent, LLMAgent)
    llm_agent._sleep = sleeps
    with pytest.raises(ModelUnreachable, match=r"failed on every call \(connection\)"):
        await asyncio.wait_for(session.run(), 30)
    assert sleeps.delays == [2.0, 4.0, 8.0]  # 14 s of backoff before the run stops


def test_run_headless_against_the_server_prints_episodes(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    finish = Say("Done here.", [("finish", {"summary": "done"})])
    with ServerThread(ChatServer(default=finish)) as server:
        code = main(["run", "--headless", "--agents", "openai/any-model", "--api-base", server.base_url,
                     "--trajectories", "1", "--max-concurrency", "1", "--timeout", "30", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and json.loads(out)["episodes"] >= 10
    assert server.max_in_flight == 1 and all(r["stream"] for r in server.requests)


def test_run_headless_against_a_dead_endpoint_stops_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    with ServerThread(ChatServer(default=Fail(401, "Incorrect API key provided"))) as server:
        code = main(["run", "--headless", "--owner", "openai/any-model", "--api-base", server.base_url, "--json"])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith("scopewatch: the session stopped: owner's model openai/any-model at http://127.0.0.1:")
    assert "failed on every call (auth)" in last and "Traceback" not in captured.err
