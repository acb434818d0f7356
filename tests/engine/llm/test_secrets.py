"""Keys: checked before a run, and never in an event, a recording or a workspace environment."""

from __future__ import annotations

import pytest

from engine.agents.llm import LLMAgent
from engine.llm.secrets import (
    MissingCredentialsError,
    check_model_credentials,
    redact,
    redact_value,
    scrubbed_env,
    secret_values,
)
from tests.engine.llm.fakes import Completion, Events, Toolbox, brief, context, reply, tool_call

PLANTED = "sk-planted-0123456789abcdefSECRET"


def test_redact_replaces_secret_env_values_and_key_shapes() -> None:
    env = {"OPENAI_API_KEY": "abcd1234efgh", "MY_SERVICE_TOKEN": "tok-zzzzzzzz", "HOME": "/home/me", "X_KEY": "1"}
    text = "key abcd1234efgh and tok-zzzzzzzz in /home/me, flag 1, and sk-ant-aaaaaaaaaaaaaaaaaaaaaaaa"
    assert redact(text, env) == "key [redacted] and [redacted] in /home/me, flag 1, and [redacted]"
    assert [name for name, _ in secret_values(env)] == ["OPENAI_API_KEY", "MY_SERVICE_TOKEN"]
    assert redact_value({"a": ["abcd1234efgh", ("x", 3)]}, env) == {"a": ["[redacted]", ("x", 3)]}


def test_scrubbed_env_drops_secrets() -> None:
    env = {"OPENAI_API_KEY": "abcd1234efgh", "ANTHROPIC_AUTH_TOKEN": "t" * 20, "PATH": "/bin", "LANG": "C"}
    assert scrubbed_env(env) == {"PATH": "/bin", "LANG": "C"}


def test_missing_key_is_one_line_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(MissingCredentialsError) as info:
        check_model_credentials("openai/gpt-4o-mini")
    message = str(info.value)
    assert "OPENAI_API_KEY" in message and "\n" not in message
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    with pytest.raises(MissingCredentialsError, match="ANTHROPIC_API_KEY"):
        check_model_credentials("anthropic/claude-3-5-haiku-latest")


def test_key_present_local_models_and_api_base_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    check_model_credentials("openai/gpt-4o-mini")
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("OLLAMA_API_BASE", raising=False)
    check_model_credentials("ollama/llama3")
    check_model_credentials("openai/qwen2.5-coder", api_base="http://127.0.0.1:8000/v1")


def test_unknown_provider_is_a_clear_error() -> None:
    with pytest.raises(MissingCredentialsError, match="provider/model"):
        check_model_credentials("definitely-not-a-model")


def test_headless_run_without_key_fails_fast_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli import main

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code = main(["run", "--headless", "--agents", "openai/gpt-4o-mini"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("scopewatch: ") and "OPENAI_API_KEY" in err
    assert "Traceback" not in err


async def test_a_planted_key_never_reaches_an_event_or_a_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    events = Events()
    tools = Toolbox(results={"run_shell": f"OPENAI_API_KEY={PLANTED}\nPATH=/bin"})

    class LeakyError(Exception):
        pass

    completion = Completion(
        reply("Reading the ticket."),
        LeakyError(f"Incorrect API key provided: {PLANTED}"),
        reply(
            f"my key is {PLANTED}" + "!" * 50,
            [
                tool_call("write_file", {"path": "services/platform/k.py", "content": f"KEY = '{PLANTED}'"}),
                tool_call("run_shell", {"command": "env"}),
                tool_call("nope", {"x": PLANTED}),
            ],
        ),
        reply("", [tool_call("finish", f'{{"summary": "{PLANTED}"')]),
    )
    agent = LLMAgent("owner", "owner", "openai/gpt-4o-mini", emit=events, completion=completion, max_reply_chars=20)
    await agent.start_episode(brief())
    await agent.take_turn(context(tools, 1))
    await agent.take_turn(context(tools, 2))  # the leaky error is fatal: the agent gives up
    assert tools.finished
    tools.finished = False
    await agent.start_episode(brief(episode=2))
    await agent.take_turn(context(tools, 1))
    await agent.take_turn(context(tools, 2))
    assert events.events and PLANTED not in events.dump()
    assert PLANTED not in repr(tools.calls)
    assert PLANTED not in repr(agent.messages)
    assert {e.error for e in events.of("AgentErrored")} >= {"provider_error", "unknown_tool", "malformed_arguments"}
