"""Legal replies litellm reads its own way (outside tester agents6 #1, #2), over HTTP through litellm's real client:

- OpenAI's ``refusal`` field (``message.refusal``, streamed ``delta.refusal``, ``content`` null): the model's answer,
  its text the refusal, which ends its episode (as an ACP agent's ``refusal`` stop does); never an empty reply, and a
  model that refuses every call is no dead endpoint;
- a whole reply whose ``content`` is a list of content parts: its text parts joined, no traceback recorded, no
  pydantic warning, no retry as a 5xx; a 200 litellm cannot read at all is ``bad_reply`` in one line, not retried."""

from __future__ import annotations

import json
from typing import Any

import litellm
import pytest

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.agents.llm import LLMAgent
from engine.llm.errors import classify_error, describe_error
from engine.session.loop import Session
from tests.engine.llm.fakes import Completion, Events, Sleeps, Toolbox
from tests.engine.llm.mock_litellm import LITELLM_WARNINGS
from tests.engine.llm.server import ChatServer, Raw
from tests.engine.llm.test_http import agent, turns

pytestmark = pytest.mark.filterwarnings(LITELLM_WARNINGS)

MODEL = "openai/gpt-4o-mini"
REFUSAL = "I can't help with changing another team's code."
USAGE = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def whole(message: dict[str, Any]) -> Raw:
    body = {"id": "c1", "object": "chat.completion", "created": 1, "model": "m", "usage": USAGE,
            "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}]}
    return Raw(json.dumps(body), "application/json")


def streamed(*deltas: dict[str, Any]) -> Raw:
    base = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    chunks = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": USAGE})
    return Raw("".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n", "text/event-stream")


@pytest.mark.parametrize("stream", [False, True])
async def test_a_refusal_is_the_models_answer_and_ends_its_episode(stream: bool) -> None:
    answer = (streamed({"role": "assistant", "refusal": "I can't help "}, {"refusal": "with changing another "},
                       {"refusal": "team's code."}) if stream else whole({"content": None, "refusal": REFUSAL}))
    async with ChatServer(answer) as server:
        events, tools = Events(), Toolbox()
        await turns(agent(server, events, stream=stream), tools, 1)
    [called] = events.of("ModelCalled")
    assert called.text == REFUSAL and not events.of("AgentErrored")
    assert tools.calls == [("finish", {"summary": f"refused: {REFUSAL}"})]


async def test_a_model_that_refuses_every_call_is_no_dead_endpoint() -> None:
    async with ChatServer(default=whole({"content": None, "refusal": REFUSAL})) as server:
        session = Session(SessionConfig(tasks=("w1-gbp",), owner=MODEL, api_base=server.base_url, seed=1),
                          InProcessBus())
        got: list[Any] = []
        session.emitter.add_listener(got.append)
        await session.run()  # no ModelUnreachable
    mine = [e for e in got if getattr(e, "actor", "") == "owner"]
    assert [e.text for e in mine if e.kind == "ModelCalled"] == [REFUSAL]
    assert not [e for e in mine if e.kind == "AgentErrored"]
    assert [e.completed for e in got if e.kind == "EpisodeEnded"] == [True]  # scored
    assert got[-1].kind == "SessionEnded" and got[-1].reason == "completed"


async def test_content_sent_as_parts_is_its_text_joined() -> None:
    """pytest makes warnings errors: litellm's pydantic warning on a list ``content`` fails this test too."""
    parts = [{"type": "text", "text": "I will not "}, {"type": "image_url", "image_url": {"url": "x"}},
             {"type": "text", "text": "change platform code."}]
    call = {"id": "c1", "type": "function", "function": {"name": "finish", "arguments": '{"summary": "ok"}'}}
    async with ChatServer(whole({"content": parts, "tool_calls": [call]})) as server:
        events, tools, sleeps = Events(), Toolbox(), Sleeps()
        await turns(agent(server, events, sleep=sleeps), tools, 1)
    [called] = events.of("ModelCalled")
    assert called.text == "I will not change platform code." and not events.of("AgentErrored")
    assert tools.calls == [("finish", {"summary": "ok"})] and len(server.requests) == 1 and not sleeps.delays


async def test_a_reply_litellm_cannot_read_is_one_line_and_not_retried() -> None:
    inner = ("OpenAIException - Invalid response object Traceback (most recent call last):\n  File \"x.py\", "
             "line 870, in convert\n    message = Message(\nValueError: bad")
    unreadable = litellm.InternalServerError(message=inner, llm_provider="openai", model="m")
    assert classify_error(unreadable) == ("bad_reply", False)
    line = describe_error(unreadable)
    assert "Traceback" not in line and "\n" not in line and line.endswith("Invalid response object"), line
    finish = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "f", "type": "function", "function": {"name": "finish", "arguments": '{"summary": "ok"}'}}]}}],
        "usage": USAGE}
    events, tools, sleeps = Events(), Toolbox(), Sleeps()
    a = LLMAgent("owner", "owner", MODEL, emit=events, completion=Completion(unreadable, finish), sleep=sleeps)
    await turns(a, tools, 2)
    assert [e.error for e in events.of("AgentErrored")] == ["bad_reply", "empty_reply"] and not sleeps.delays
    assert "Traceback" not in events.of("AgentErrored")[0].message and tools.finished
