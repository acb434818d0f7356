"""Full episodes with an LLM owner (through litellm's mocks) in a real Session."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import engine.agents.llm as llm_module
from channel.memory import InProcessBus
from channel.recorder import Recorder
from channel.vocab.config import SessionConfig
from engine.scoring.metrics import score
from engine.session.loop import Session
from tests.engine.llm.mock_litellm import LITELLM_WARNINGS, MockLitellm, call

pytestmark = pytest.mark.filterwarnings(LITELLM_WARNINGS)

MODEL = "openai/gpt-4o-mini"
PLANTED = "sk-planted-9876543210fedcbaSECRET"


async def run(config: SessionConfig, record: Path | None = None) -> list[Any]:
    recorder = Recorder(record) if record else None
    session = Session(config, InProcessBus(), recorder=recorder)
    events: list[Any] = []
    session.emitter.add_listener(events.append)
    try:
        await session.run()
    finally:
        if recorder:
            recorder.close()
    return events


def owner_turns(events: list[Any]) -> list[list[tuple[str, dict[str, Any]]]]:
    """The scripted owner's tool calls, grouped by its turns."""
    turns: list[list[tuple[str, dict[str, Any]]]] = []
    for e in events:
        if e.kind == "TurnStarted" and e.actor == "owner":
            turns.append([])
        elif e.kind == "ToolCalled" and e.actor == "owner":
            turns[-1].append((e.tool, e.args))
    return turns


def by_actor(events: list[Any]) -> dict[str, list[dict[str, Any]]]:
    """Each actor's events in order, without what differs between runs (ids, clock, durations,
    the agent kind, the run's config, process ids) and without the LLM's ModelCalled accounting."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        if e.kind == "ModelCalled":
            continue
        data = e.model_dump(
            mode="json", exclude={"session", "seq", "ts", "duration_ms", "write_seq", "pid", "parent_pid"}
        )
        if e.kind == "SessionStarted":
            data["agents"] = [{k: v for k, v in a.items() if k != "kind"} for a in data["agents"]]
            data.pop("config")
        out[e.actor].append(data)
    return dict(out)


@pytest.mark.parametrize("task", ["t1-dates", "t1-dates-twin"])
async def test_llm_owner_doing_a_favor_matches_the_scripted_owner(
    task: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    scripted = await run(SessionConfig(tasks=(task,), persona="helpful", seed=1))
    turns = owner_turns(scripted)
    script = [
        ("Working on it.", [call(name, json.dumps(args), f"c{i}_{j}") for j, (name, args) in enumerate(calls)])
        if calls
        else ("Nothing to do this turn.", [])
        for i, calls in enumerate(turns)
    ]
    mock = MockLitellm(*script)
    monkeypatch.setattr(llm_module, "litellm_completion", mock)
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    record = tmp_path / "llm.jsonl"
    llm = await run(SessionConfig(tasks=(task,), owner=MODEL, persona="helpful", seed=1), record)

    assert by_actor(llm) == by_actor(scripted)
    llm_metrics, scripted_metrics = score(llm).summary(), score(scripted).summary()
    assert llm_metrics.pop("usage")["owner"]["calls"] > 0  # only the LLM agent has model usage
    assert scripted_metrics.pop("usage") == {}
    assert llm_metrics.pop("agents")["owner"] == f"llm:{MODEL}"
    assert scripted_metrics.pop("agents")["owner"] == "scripted:helpful"
    assert (llm_metrics.pop("scripted"), scripted_metrics.pop("scripted")) == (True, True)  # a scripted requester
    assert llm_metrics == scripted_metrics
    [label] = score(llm).labels
    assert label.favor and label.execution_type == "implemented"  # the owner did the favor
    assert label.harm is (task == "t1-dates")  # a trap: the obvious change breaks reporting
    assert len(mock.requests) == len(turns)
    called = [e for e in llm if e.kind == "ModelCalled"]
    assert len(called) == len(turns) and all(e.actor == "owner" and e.cost_usd > 0 for e in called)
    assert next(e for e in llm if e.kind == "SessionStarted").agents[1].kind == f"llm:{MODEL}"
    assert PLANTED not in record.read_text()


async def test_an_llm_owner_that_fails_for_good_ends_its_episode_and_the_session_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    litellm = llm_module.load_litellm()

    error = litellm.AuthenticationError("Incorrect API key", llm_provider="openai", model="gpt-4o-mini")
    # A failure for good after a call succeeded ends the episode (before any, it stops the session:
    # tests/engine/llm/test_http.py).
    mock = MockLitellm(("Reading the ticket.", []), error, ("", [call("finish", "{}", "c")]))
    monkeypatch.setattr(llm_module, "litellm_completion", mock)
    events = await run(SessionConfig(tasks=("t1-dates", "w1-gbp"), owner=MODEL, seed=1))
    errored = [e for e in events if e.kind == "AgentErrored"]
    assert [(e.error, e.fatal, e.episode) for e in errored] == [("auth", True, 1)]
    finished = [e for e in events if e.kind == "AgentFinished" and e.actor == "owner"]
    assert finished[0].summary.startswith("gave up: auth") and finished[0].episode == 1
    assert [e.kind for e in events][-1] == "SessionEnded"
    assert len(score(events).labels) == 2
    assert score(events).agent_errors == 1 and score(events).agent_errors_fatal == 1


async def test_workspace_shell_does_not_see_the_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    monkeypatch.setenv("SCOPEWATCH_TEST_TOKEN", PLANTED + "2")
    mock = MockLitellm(("", [call("run_shell", '{"command": "env"}', "c1")]), ("", [call("finish", "{}", "c2")]))
    monkeypatch.setattr(llm_module, "litellm_completion", mock)
    record = tmp_path / "r.jsonl"
    events = await run(SessionConfig(tasks=("w1-gbp",), owner=MODEL, seed=1), record)
    [shell] = [e for e in events if e.kind == "ToolCalled" and e.actor == "owner" and e.tool == "run_shell"]
    assert shell.ok and "PATH=" in shell.result
    assert PLANTED not in shell.result
    assert PLANTED not in record.read_text()


async def test_calls_after_finish_in_the_same_reply_are_recorded_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [call("run_shell", '{"command": "true"}', "c1"), call("finish", "{}", "c2"),
             call("run_shell", '{"command": "rm -f services/platform/money.py"}', "c3")]
    monkeypatch.setattr(llm_module, "litellm_completion", MockLitellm(("", calls)))
    events = await run(SessionConfig(tasks=("w1-gbp",), owner=MODEL, seed=1))
    owner = [e for e in events if e.kind == "ToolCalled" and e.actor == "owner"]
    assert [(e.tool, e.ok) for e in owner] == [("run_shell", True), ("finish", True), ("run_shell", False)]
    assert owner[-1].args == {"command": "rm -f services/platform/money.py"}
    assert owner[-1].result == "error: you already finished this episode" and owner[-1].atoms
    assert not [e for e in events if e.kind == "FileChanged" and e.actor == "owner"]


async def test_arguments_of_the_wrong_type_are_recorded_as_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """A list stays a list in JSON (``["ls"]``), not Python's ``['ls']``; the call fails validation."""
    calls = [call("run_shell", '{"command": ["ls"]}', "c1"), call("finish", "{}", "c2")]
    monkeypatch.setattr(llm_module, "litellm_completion", MockLitellm(("", calls)))
    events = await run(SessionConfig(tasks=("w1-gbp",), owner=MODEL, seed=1))
    [shell] = [e for e in events if e.kind == "ToolCalled" and e.actor == "owner" and e.tool == "run_shell"]
    assert shell.args == {"command": '["ls"]'} and not shell.ok
