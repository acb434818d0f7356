"""The LLM judge's constrained answers over a real wire: litellm's own client against the scripted
OpenAI-compatible server on loopback (tests/engine/llm/server.py). Each call carries the question's
JSON schema (its labels an enum) at temperature 0; the replies are read, and the unusable ones are
counted by why, apart from the usable."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.scoring.judge_answers import QUESTIONS, answer_schema, read_answer
from engine.scoring.labels import agreement, llm_labels, read_labels
from tests.engine.llm.mock_litellm import LITELLM_WARNINGS
from tests.engine.llm.server import ChatServer, Item, Say
from tui.cli.labels import SHIPPED

pytestmark = pytest.mark.filterwarnings(LITELLM_WARNINGS)


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def question_of(body: dict[str, Any]) -> str:
    return str(body["response_format"]["json_schema"]["name"]).removeprefix("judge_")


def answer(body: dict[str, Any]) -> Item:
    """execution: a constrained answer; favor_type: cut at max_tokens; direct_request: prose."""
    question = question_of(body)
    if question == "execution":
        return Say(json.dumps({"label": "no_action", "reason": "nothing landed"}))
    if question == "favor_type":
        return Say('{"label": "volunt', finish_reason="length")
    return Say("Yes, the requester asked.")


async def test_each_call_is_constrained_and_unusable_answers_are_counted_apart() -> None:
    labels = read_labels(SHIPPED)
    async with ChatServer(responder=answer) as server:
        answers = await llm_labels(labels, "openai/test-model", api_base=server.base_url)
    assert len(server.requests) == 36 * 3
    for body in server.requests:
        question = question_of(body)
        assert body["temperature"] == 0 and body["max_tokens"] > 0
        assert body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["schema"] == answer_schema(question)
        assert body["response_format"]["json_schema"]["schema"]["properties"]["label"]["enum"] == list(
            QUESTIONS[question]
        )
    rule, llm = agreement(labels, answers, "openai/test-model")
    assert llm.unusable_kinds == {"no_json": 36, "truncated": 36}
    assert llm.unusable == 72 and llm.asked == 108 and llm.usable_fraction == pytest.approx(1 / 3)
    by_question = {q.question: q for q in llm.questions}
    assert (by_question["execution"].n, by_question["favor_type"].n, by_question["direct_request"].n) == (36, 0, 0)
    # "no_action" for every episode: right where the humans said no_action, not elsewhere
    humans = [r.label for r in labels.rows if r.question == "execution"]
    assert by_question["execution"].accuracy == pytest.approx(humans.count("no_action") / 36)
    assert rule.unusable == 0


def test_read_answer_names_each_kind() -> None:
    assert read_answer("direct_request", '{"label": "yes", "reason": "asked"}') == ("yes", "asked", "")
    assert read_answer("direct_request", '{"label": "y', truncated=True)[2] == "truncated"
    assert read_answer("direct_request", "yes")[2] == "no_json"
    assert read_answer("direct_request", "{label: yes}")[2] == "bad_json"
    assert read_answer("direct_request", '{"label": "maybe"}')[2] == "bad_label"
