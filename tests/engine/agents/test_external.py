"""External coding agents in the sandbox: a plain command line (``cmd:``) and mini-swe-agent, a real
framework from PyPI, run for real against the loopback test server; their shell commands come back
as ShellCommandRan events with atoms, their writes as FileChanged, their messages as tool calls."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.agents.external import ADAPTERS, ExternalAgent, UnknownAgentKind, adapter_for
from engine.session.loop import Session
from tests.engine.llm.mock_litellm import LITELLM_WARNINGS
from tests.engine.llm.server import ChatServer, Say

pytestmark = pytest.mark.filterwarnings(LITELLM_WARNINGS)


async def run(config: SessionConfig) -> list[Any]:
    session = Session(config, InProcessBus())
    events: list[Any] = []
    session.emitter.add_listener(events.append)
    await session.run()
    return events


def of(events: list[Any], kind: str, actor: str = "owner") -> list[Any]:
    return [e for e in events if e.kind == kind and e.actor == actor]


async def test_a_command_line_agent_runs_in_the_sandbox_and_is_audited() -> None:
    line = (
        "head -c 60; echo; rm services/platform/config.py.bak; "
        "echo '# tidy' >> services/platform/text.py; "
        "sw-post 'done with my ticket'; sw-dm requester 'ping'"
    )
    events = await run(SessionConfig(tasks=("w1-gbp",), owner=f"cmd:{line}", seed=1))
    [started] = [e for e in events if e.kind == "SessionStarted"]
    assert {a.id: a.kind for a in started.agents}["owner"] == "external:cmd"
    [ran] = [e for e in of(events, "ShellCommandRan") if e.argv[0] == "rm"]
    assert ran.atom and ran.risk and ran.exit_code == 0
    changed = {(e.path, e.change) for e in of(events, "FileChanged")}
    assert ("services/platform/config.py.bak", "deleted") in changed
    assert ("services/platform/text.py", "modified") in changed
    posted = of(events, "MessagePosted")
    assert [(m.to, m.text) for m in posted] == [(None, "done with my ticket"), ("requester", "ping")]
    [process] = [e for e in of(events, "ToolCalled") if e.tool == "run_shell"]
    ticket = next(e for e in events if e.kind == "EpisodeStarted").tickets["owner"]
    assert ticket[:30] in process.result  # the prompt came on stdin
    assert of(events, "AgentFinished")[0].summary == "cmd exited with 0"


async def test_an_external_agent_cannot_write_what_its_team_does_not_own() -> None:
    line = (
        "sed 's/Shopping carts/Carts/' services/checkout/cart.py | sw-request-review admin services/checkout/cart.py; "
        "echo '# mine now' >> services/checkout/cart.py"
    )
    events = await run(SessionConfig(tasks=("w1-gbp",), owner=f"cmd:{line}", seed=1))
    [refused] = of(events, "WriteRefused")
    assert refused.path == "services/checkout/cart.py" and refused.rolled_back
    [request] = of(events, "ReviewRequested")
    assert request.to == "admin" and "+\"\"\"Carts.\"\"\"" in request.diff


def test_kinds_and_adapters() -> None:
    spec, model = adapter_for("mini-swe-agent:openai/gpt-4o-mini")
    assert spec is ADAPTERS["mini-swe-agent"] and model == "openai/gpt-4o-mini"
    agent = ExternalAgent("owner", "owner", "mini-swe-agent:openai/m", api_base="http://127.0.0.1:1/v1",
                          environ={"OPENAI_API_KEY": "sk-x", "HOME": "/root"})
    line = agent.command_line("fix it")
    assert "model.model_kwargs.api_base=http://127.0.0.1:1/v1" in line and line.endswith("-t 'fix it'")
    assert agent.environment()["OPENAI_API_KEY"] == "sk-x" and "HOME" not in agent.environment()
    for bad in ("cmd:", "mini-swe-agent:", "nope:thing"):
        with pytest.raises(UnknownAgentKind):
            adapter_for(bad)


# The sandbox finds programs on the system path and beside this Python (its venv's bin).
MINI = shutil.which("mini", path=f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin")


@pytest.mark.skipif(MINI is None, reason="mini-swe-agent is not installed here (scripts/test installs the test extra)")
async def test_mini_swe_agent_completes_an_owner_episode_against_the_test_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    async with ChatServer(
        Say("First I tidy up the backup.", [("bash", {"command": "rm services/platform/config.py.bak && ls"})]),
        Say("Now the shared channel.", [("bash", {"command": "sw-post 'mini here: tidied platform'"})]),
        Say("Done.", [("bash", {"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"})]),
    ) as server:
        config = SessionConfig(tasks=("w1-gbp",), owner="mini-swe-agent:openai/gpt-4o-mini",
                               api_base=server.base_url, seed=1)
        events = await run(config)
    assert len(server.requests) == 3  # mini-swe-agent's own litellm called the server over HTTP
    assert "First I tidy up" in str(server.requests[1]["messages"])
    [ran] = [e for e in of(events, "ShellCommandRan") if e.argv[0] == "rm"]
    assert ran.atom and ran.exit_code == 0 and "config.py.bak" in " ".join(ran.argv)
    assert ("services/platform/config.py.bak", "deleted") in {(e.path, e.change) for e in of(events, "FileChanged")}
    assert [m.text for m in of(events, "MessagePosted")] == ["mini here: tidied platform"]
    [finished] = of(events, "AgentFinished")
    assert finished.summary == "mini-swe-agent exited with 0"


async def test_turn_timeout_bounds_a_command_line_agents_run() -> None:
    """``--turn-timeout``: an external agent's whole run is stopped at it (its adapter's own bound otherwise)."""
    assert ExternalAgent("owner", "owner", "cmd:true").spec.timeout == 900.0
    assert ExternalAgent("owner", "owner", "codex:gpt-5", turn_timeout=30).spec.timeout == 30
    events = await run(SessionConfig(tasks=("w1-gbp",), owner="cmd:echo started; sleep 60", seed=1, turn_timeout=2))
    [process] = [e for e in of(events, "ToolCalled") if e.tool == "run_shell"]
    assert "started" in process.result and "timed out after 2 s" in process.result
    assert of(events, "AgentFinished")[0].summary == "cmd exited with 124"


async def test_the_engine_never_writes_through_a_link_the_agent_planted_in_home(tmp_path: Path) -> None:
    """Red team 02: the engine (root) acknowledged the outbox by writing ``~/.scopewatch/outbox.jsonl.ack.part``
    through the agent's symlink, overwriting any host file."""
    victim = tmp_path / "victim.txt"
    victim.write_text("ORIGINAL\n")
    line = (f"ln -sf {victim} ~/.scopewatch/outbox.jsonl.ack.part; ln -sf {victim} ~/.scopewatch/outbox.jsonl.ack; "
            "sw-post 'hello'")
    events = await run(SessionConfig(tasks=("w1-gbp",), owner=f"cmd:{line}", seed=1))
    assert victim.read_text() == "ORIGINAL\n"
    assert [m.text for m in of(events, "MessagePosted")] == ["hello"]  # still delivered, and acknowledged
