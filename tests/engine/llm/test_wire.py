"""What a server said, kept as it said it (outside tester agents4): a non-JSON error body, the finish reason,
partial usage, a complete stream without a finish reason, and a reply's broken tool arguments replayed to a
provider that parses them (``anthropic/``). litellm's own HTTP client against the loopback server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.agents.llm import LLMAgent
from engine.llm.client import litellm_completion
from engine.llm.errors import ModelUnreachable, classify_error, describe_error
from engine.session.loop import Session
from tests.engine.llm.fakes import Events, Sleeps, Toolbox
from tests.engine.llm.mock_litellm import LITELLM_WARNINGS
from tests.engine.llm.server import ChatServer, Fail, Raw, Say
from tests.engine.llm.test_http import agent, turns

pytestmark = pytest.mark.filterwarnings(LITELLM_WARNINGS)

MODEL = "openai/gpt-4o-mini"
NGINX_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
    "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
)


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("fail", "said"),
    [(Fail(400, text="Bad Request: context too long (4096 > 2048)\nsecond line"),
      "Bad Request: context too long (4096 > 2048)"),
     (Fail(502, text=NGINX_502, content_type="text/html"), "502 Bad Gateway")],
    ids=["text", "html"],
)
async def test_a_non_json_error_body_is_quoted_in_the_one_line(fail: Fail, said: str, stream: bool) -> None:
    async with ChatServer(default=fail) as server:
        session = Session(SessionConfig(owner=MODEL, api_base=server.base_url, stream=stream), InProcessBus())
        owner = session.agents["owner"]
        assert isinstance(owner, LLMAgent)
        owner._sleep = Sleeps()
        with pytest.raises(ModelUnreachable) as caught:
            await session.run()
    line = str(caught.value)
    assert line.endswith(f": {said}") and "second line" not in line and "<" not in line, line


async def test_broken_tool_arguments_do_not_stop_an_anthropic_agent() -> None:
    """A tool call cut by ``max_tokens`` (``{"command": "rm -rf serv``): litellm's ``anthropic/`` parses the
    history's arguments and refused to build the next request, recorded as the provider's fatal ``bad_request``;
    the history now carries them wrapped, and the next call reaches the server."""
    broken = {"name": "run_shell", "arguments": '{"command": "rm -rf serv'}
    call = {"id": "toolu_1", "type": "function", "function": broken}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    cut = {"choices": [{"finish_reason": "length", "message": message}], "usage": {"prompt_tokens": 5}}
    calls = 0

    async def completion(**kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            return cut
        return await litellm_completion(**kwargs, api_key="no-key-needed", max_retries=0)

    async with ChatServer(Say("", [("finish", {"summary": "ok"})])) as server:
        events, tools = Events(), Toolbox()
        a = agent(server, events, model="anthropic/claude-3-5-haiku-latest", completion=completion)
        await turns(a, tools, 2)
    assert [e.error for e in events.of("AgentErrored")] == ["malformed_arguments"]
    assert len(server.requests) == 1 and tools.finished
    replayed = server.requests[0]["messages"][1]["content"][0]
    assert replayed["type"] == "tool_use" and replayed["input"] == {"malformed_arguments": '{"command": "rm -rf serv'}


async def test_a_request_litellm_refuses_to_build_is_not_the_providers_bad_request() -> None:
    broken = {"id": "t1", "type": "function", "function": {"name": "run_shell", "arguments": '{"command": "x'}}
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": [broken]},
                {"role": "tool", "tool_call_id": "t1", "content": "error"}, {"role": "user", "content": "go"}]
    with pytest.raises(Exception) as caught:
        await litellm_completion(model="anthropic/m", messages=messages, api_base="http://127.0.0.1:9",
                                 api_key="x", max_retries=0)
    assert classify_error(caught.value) == ("not_sent", False)
    assert describe_error(caught.value).startswith("litellm built no request (nothing was sent): ValueError: ")


@pytest.mark.parametrize("stream", [False, True])
async def test_the_finish_reason_is_recorded_as_the_server_sent_it(stream: bool) -> None:
    """``stop`` beside a tool call (vLLM, llama.cpp, Ollama) and none at all: litellm says ``tool_calls``."""
    script = [Say("", [("run_shell", {"command": "ls"})], finish_reason="stop"),
              Say("", [("run_shell", {"command": "ls"})], finish_reason=""),
              Say("", [("run_shell", {"command": "ls"})], finish_reason="tool_calls")]
    async with ChatServer(*script) as server:
        events, tools = Events(), Toolbox()
        await turns(agent(server, events, stream=stream), tools, 3)
    assert [e.finish_reason for e in events.of("ModelCalled")] == ["stop", "", "tool_calls"]
    assert [name for name, _ in tools.calls] == ["run_shell"] * 3 and not events.of("AgentErrored")


async def test_a_complete_stream_without_a_finish_reason_is_a_reply() -> None:
    """It ended with ``data: [DONE]``: accepted as the same reply whole is, not retried as cut short."""
    async with ChatServer(Say("hello", [("finish", {"summary": "ok"})], finish_reason="")) as server:
        events, tools, sleeps = Events(), Toolbox(), Sleeps()
        await turns(agent(server, events, stream=True, sleep=sleeps), tools, 1)
    assert len(server.requests) == 1 and tools.finished and not events.of("AgentErrored")
    (called,) = events.of("ModelCalled")
    assert called.finish_reason == "" and called.text == "hello"


async def test_a_stream_cut_without_done_is_still_retried() -> None:
    async with ChatServer(Say("hello there", drop=4), Say("", [("finish", {"summary": "ok"})])) as server:
        events, tools = Events(), Toolbox()
        await turns(agent(server, events, stream=True), tools, 1)
    assert len(server.requests) == 2 and tools.finished


@pytest.mark.parametrize("stream", [False, True])
async def test_usage_without_a_completion_count_is_not_a_measured_zero(stream: bool) -> None:
    async with ChatServer(Say("", [("finish", {"summary": "ok"})], prompt_tokens=77, completion_tokens=None)) as server:
        events, tools = Events(), Toolbox()
        await turns(agent(server, events, stream=stream), tools, 1)
    (called,) = events.of("ModelCalled")
    assert called.prompt_tokens == 77 and called.usage_estimated


def _chunk(delta: dict[str, Any], finish: str | None = None, index: int = 0, **extra: Any) -> dict[str, Any]:
    choices = [] if index < 0 else [{"index": index, "delta": delta, "finish_reason": finish}]
    return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": choices, **extra}


def _events(*chunks: dict[str, Any], end: str = "\n") -> Raw:
    """A whole stream as server-sent events, each line ended by ``end``."""
    lines = [f"data: {json.dumps(chunk)}{end}{end}" for chunk in chunks]
    return Raw("".join(lines) + f"data: [DONE]{end}{end}", content_type="text/event-stream")


USAGE = _chunk({}, index=-1, usage={"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7})


@pytest.mark.parametrize("framing", ["cr", "crlf", "multiline"])
async def test_the_wire_tap_reads_every_legal_sse_framing(framing: str) -> None:
    """Lines ended by CR alone or CRLF, and one event's JSON over two ``data:`` lines (joined with a newline, as
    the SSE spec says): the finish reason and the usage are what the server sent (agents5 #10)."""
    said, finished = _chunk({"role": "assistant", "content": "Hello"}), _chunk({}, "length")
    if framing == "multiline":
        head, tail = json.dumps(finished).split('"choices"')
        body = f"data: {json.dumps(said)}\n\ndata: {head}\ndata: \"choices\"{tail}\n\ndata: {json.dumps(USAGE)}\n\n"
        raw = Raw(body + "data: [DONE]\n\n", content_type="text/event-stream")
    else:
        raw = _events(said, finished, USAGE, end="\r" if framing == "cr" else "\r\n")
    async with ChatServer(raw, Say("", [("finish", {"summary": "ok"})])) as server:
        events, tools = Events(), Toolbox()
        await turns(agent(server, events, stream=True), tools, 1)
    called = events.of("ModelCalled")[0]
    assert (called.text, called.finish_reason, called.usage_estimated) == ("Hello", "length", False)
    assert (called.prompt_tokens, called.completion_tokens) == (5, 2)


async def test_with_two_choices_choice_zero_is_recorded_and_streamed() -> None:
    """Choice 0 calls a tool (``tool_calls``), choice 1 says text (``stop``), each chunk one choice: the call
    runs and the record and the streamed text are choice 0's (agents5 #11)."""
    call = {"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "run_shell", "arguments": '{"command": "ls"}'}}
    raw = _events(_chunk({"role": "assistant", "content": None}),
                  _chunk({"role": "assistant", "content": "no "}, index=1), _chunk({"tool_calls": [call]}),
                  _chunk({"content": "thanks"}, "stop", index=1),
                  _chunk({}, "tool_calls"), USAGE)
    async with ChatServer(raw) as server:
        events, tools = Events(), Toolbox()
        await turns(agent(server, events, stream=True), tools, 1)
    called = events.of("ModelCalled")[0]
    assert (called.finish_reason, called.text) == ("tool_calls", "")
    assert tools.calls == [("run_shell", {"command": "ls"})] and not events.of("TokensStreamed")


async def test_parallel_calls_streamed_at_one_index_are_two_calls() -> None:
    """Ollama streams every call of a parallel batch at ``index`` 0, each with its own id: both run (agents5 #8).
    A call whose fragments each carry a fresh id (its arguments not yet whole JSON) stays one call."""

    def call(ident: str, name: str | None, arguments: str) -> dict[str, Any]:
        function = {"arguments": arguments} | ({"name": name} if name else {})
        return _chunk({"tool_calls": [{"index": 0, "id": ident, "type": "function", "function": function}]})

    raw = _events(_chunk({"role": "assistant", "content": None}), call("A", "run_shell", '{"command": "ls"}'),
                  call("B", "list_files", '{"path": "services"}'), call("C", "read_file", '{"path": '),
                  call("D", None, '"a.py"}'), _chunk({}, "tool_calls"), USAGE)
    async with ChatServer(raw) as server:
        events, tools = Events(), Toolbox()
        await turns(agent(server, events, stream=True), tools, 1)
    assert tools.calls == [("run_shell", {"command": "ls"}), ("list_files", {"path": "services"}),
                           ("read_file", {"path": "a.py"})]
    assert not events.of("AgentErrored")
