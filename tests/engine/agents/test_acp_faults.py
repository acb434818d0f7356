"""ACP agents that misbehave (tests/engine/agents/acp_faulty.py): each is one clear line, never a hang,
a traceback on the terminal, or a clean score.

- one that never answers (start-up or a turn) is stopped at its bound and the session stops with it;
  one that acted, then overran its turn, is that episode's fatal error, scored on what it did;
- one that never starts (it exits, answers initialize with an error or another protocol version, its
  command is not found) stops the session, as a dead model endpoint does: ``run`` exits 1, nothing scored;
- what the ``acp`` library cannot read (a line that is not JSON, an update of an unknown kind) is one
  non-fatal ``ACPNotice`` in the recording, not a logged traceback;
- an ACP agent on an audit scenario is refused before anything runs."""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from channel.errors import ScopewatchError
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.agents.acp_guard import AgentUnreachable
from engine.runs.runner import check_agents
from engine.session.loop import Session

FAULTY = Path(__file__).with_name("acp_faulty.py")
ROOT = Path(__file__).resolve().parents[3]


def kind(mode: str, program: str = sys.executable) -> str:
    return "acp:" + shlex.join([program, str(FAULTY), mode])


async def run(mode: str, program: str = sys.executable, **config: Any) -> list[Any]:
    session = Session(SessionConfig(tasks=("w1-gbp",), owner=kind(mode, program), seed=1, **config), InProcessBus())
    events: list[Any] = []
    session.emitter.add_listener(events.append)
    await asyncio.wait_for(session.run(), 60)
    return events


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("silent", "did not answer initialize within 1 s"),
        ("garbage", "did not answer initialize within 1 s (--timeout) (its stdout: 'Welcome to SuperAgent"),
        ("noanswer", "did not answer session/prompt within 1 s (--turn-timeout)"),
    ],
)
async def test_an_agent_that_does_not_answer_is_stopped_at_its_bound(mode: str, said: str) -> None:
    with pytest.raises(AgentUnreachable, match="ACP agent 'acp:.*acp_faulty.py " + mode) as caught:
        await run(mode, timeout=1, turn_timeout=1)
    assert said in str(caught.value)


async def test_an_agent_that_acted_then_overruns_its_turn_is_scored_on_what_it_did() -> None:
    """Act, then block: the episode's fatal error (as an agent that exits mid-turn), scored, the session on."""
    events = await run("acthang", timeout=5, turn_timeout=3)
    errors = [e for e in events if e.kind == "AgentErrored"]
    assert [(e.error, e.fatal) for e in errors] == [("ScopewatchError", True)]
    assert "did not answer session/prompt within 3 s (--turn-timeout); stopped" in errors[0].message
    acted = [e.args for e in events if e.kind == "ToolCalled" and e.actor == "owner" and e.tool == "write_file"]
    assert acted == [{"path": "hang.txt", "content": "acted, then hung\n"}]  # recorded, then scored
    assert [e.completed for e in events if e.kind == "EpisodeEnded"] == [True]  # scored
    assert events[-1].kind == "SessionEnded" and events[-1].reason == "completed"


async def test_a_stop_reason_acp_does_not_have_is_one_line() -> None:
    events = await run("bogusstop")
    [error] = [e for e in events if e.kind == "AgentErrored"]
    assert error.fatal and "\n" not in error.message
    assert error.message.endswith("answered session/prompt against ACP: stopReason: Input should be 'end_turn', "
                                  "'max_tokens', 'max_turn_requests', 'refusal' or 'cancelled' "
                                  "(it sent 'gave_up_for_lunch')")


async def test_a_request_for_another_session_is_refused_and_recorded() -> None:
    events = await run("wrongsid")
    [call] = [e for e in events if e.kind == "ToolCalled" and e.actor == "owner" and e.tool == "write_file"]
    assert not call.ok and call.args["sessionId"] == "someone-else" and call.args["path"].endswith("/wrongsid.txt")
    assert call.result == "error: no session 'someone-else' here (the agent's session is 's1')"
    assert not [e for e in events if e.kind in ("FileChanged", "WriteRefused") and e.actor == "owner"]


async def test_a_terminal_runs_in_the_workspace_root_or_a_folder_and_one_outside_is_refused_and_recorded() -> None:
    """ACP's ``cwd`` of ``terminal/create``: the session's own cwd is the natural one."""
    events = await run("terminals")
    shells = [e for e in events if e.kind == "ToolCalled" and e.actor == "owner" and e.tool == "run_shell"]
    ran = [e.args["command"] for e in shells if e.ok]
    assert ran == ["touch root.txt", "cd services && touch sub.txt"]  # both touched (and the guard refused them)
    assert [e.path for e in events if e.kind == "WriteRefused"] == ["root.txt", "services/sub.txt"]
    refused = [(e.args, e.result) for e in shells if not e.ok]
    assert refused == [({"command": "touch x", "cwd": "/etc"}, "error: /etc: a terminal's cwd outside the workspace")]
    assert not [e for e in events if e.kind == "AgentErrored"]


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("exit", "exited with 3"),
        ("initerror", "answered initialize with an error: no GPU found"),
        ("badversion", "answered initialize with ACP protocol version 999; scopewatch speaks version 1"),
        ("mcpversion", "answered initialize with ACP protocol version '2025-06-18'; scopewatch speaks version 1"),
        ("bigversion", "answered initialize with ACP protocol version 70000; scopewatch speaks version 1"),
        ("badsession", "answered session/new against ACP: sessionId: Field required (it sent {'session': 's1'})"),
    ],
)
async def test_an_agent_that_never_starts_stops_the_session(mode: str, said: str) -> None:
    """Agents tester (round 6) finding 3: a version outside ACP's schema (MCP's ``"2025-06-18"``, past a uint16)
    was no dead agent: the session ran, the episode was scored ``no_action`` and pydantic's dump recorded."""
    events: list[Any] = []
    with pytest.raises(AgentUnreachable) as caught:
        session = Session(SessionConfig(tasks=("w1-gbp",), owner=kind(mode), seed=1), InProcessBus())
        session.emitter.add_listener(events.append)
        await asyncio.wait_for(session.run(), 60)
    assert str(caught.value).endswith(f"acp_faulty.py {mode}' {said}") and "\n" not in str(caught.value)
    assert not [e for e in events if e.kind in ("AgentErrored", "EpisodeEnded")]  # nothing scored, no dump
    assert events[-1].kind == "SessionEnded" and events[-1].reason.startswith("failed: ")


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("noise", "ignored a line on the agent's stdout that is not JSON-RPC: 'DEBUG: not JSON-RPC at all'"),
        ("unknown", "ignored a session/update this client cannot read (sessionUpdate usage_update_from_the_future)"),
    ],
)
async def test_what_the_library_cannot_read_is_one_notice(
    mode: str, said: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        events = await run(mode)
    notices = [e for e in events if e.kind == "AgentErrored"]
    assert [(e.error, e.message, e.fatal) for e in notices] == [("ACPNotice", f"acp: {said}", False)]
    # Nothing of the library's reached a handler (in a terminal: Python's last resort, a traceback).
    assert not [r for r in caplog.records if f"{os.sep}acp{os.sep}" in r.pathname]
    assert logging.getLogger().filters == []  # the catch lives as long as the client


async def test_a_line_of_json_that_is_not_an_object_is_one_notice_and_the_agent_goes_on() -> None:
    """Agents tester (round 4) finding 8: ``[1, 2, 3]`` (or ``42``, ``"x"``, ``null``) on the agent's stdout
    stopped the library's receive loop; the episode ended "stopped answering"."""
    events = await run("nonobject")
    errors = [(e.error, e.message, e.fatal) for e in events if e.kind == "AgentErrored"]
    said = "acp: ignored a line on the agent's stdout that is JSON but not a JSON-RPC message: "
    assert errors == [("ACPNotice", said + shown, False) for shown in ("'[1, 2, 3]'", "'42'", "'\"hello\"'", "'null'")]
    [wrote] = [e for e in events if e.kind == "ToolCalled" and e.actor == "owner" and e.tool == "write_file"]
    assert wrote.args["path"].endswith("after.txt")  # served after the lines: the connection lived on


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "tui.cli", "run", "--headless", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)


@pytest.mark.parametrize(
    ("owner", "said"),
    [
        (kind("initerror"), "answered initialize with an error: no GPU found"),
        ("acp:no-such-agent-binary --acp", "cannot start 'no-such-agent-binary': No such file or directory"),
    ],
)
def test_run_exits_1_in_one_line_and_scores_nothing(owner: str, said: str) -> None:
    done = cli("--owner", owner)
    assert done.returncode == 1 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"scopewatch: the session stopped: ACP agent '{owner}' {said}"
    assert "Traceback" not in done.stderr


def test_no_traceback_on_the_terminal() -> None:
    done = cli("--owner", kind("noise"))
    assert done.returncode == 0 and "overeager rate" in done.stdout
    assert "Traceback" not in done.stderr and "ERROR:" not in done.stderr


def test_acp_agents_are_refused_on_audit_scenarios() -> None:
    config = SessionConfig(scenario="cleanup-build-dir-000", owner=kind("good"))
    with pytest.raises(ScopewatchError, match="ACP agents are not supported on audit scenarios"):
        check_agents(config)
    command = [sys.executable, "-m", "tui.cli", "overeager", "run", "--scenario", "cleanup-build-dir-000",
               "--agents", kind("good")]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 2 and "ACP agents are not supported by audit runs" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


async def test_a_dead_agent_whose_pipes_fail_to_close_is_still_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent died before scopewatch wrote to it: closing its pipes fails as well, and the line says why
    it did not start (not the ConnectionResetError of the close)."""
    from engine.agents import acp as module
    from engine.agents import acp_process

    class Conn:
        async def initialize(self, **kwargs: Any) -> None:
            raise ConnectionResetError("Connection lost")

        async def close(self) -> None:
            return None

    class Process:
        def __init__(self) -> None:
            self.cwd, self.stderr = tmp_path, asyncio.StreamReader()
            self.stderr.feed_eof()

        async def wait(self) -> int:
            return 3

    class Tools:
        agent_home = tmp_path

        async def start_agent_process(self, argv: Any, env: Any) -> Process:
            return Process()

        async def stop_agent_process(self, process: Any) -> None:
            raise ConnectionResetError("Connection lost")  # the close of a pipe whose reader is gone

    async def emit(event: Any) -> Any:
        return event

    monkeypatch.setattr(acp_process, "connect", lambda client, process: Conn())
    agent = module.ACPAgent("owner", "owner", "acp:dead-agent", emit=emit)
    agent.brief = types.SimpleNamespace(episode=1)  # type: ignore[assignment]  # _open reads its number
    with pytest.raises(AgentUnreachable, match=r"^ACP agent 'acp:dead-agent' exited with 3$"):
        await agent._open(Tools())  # type: ignore[arg-type]


@pytest.mark.parametrize("program", [sys.executable, "python3"])  # by path, and by name (the shim's on PATH)
async def test_an_agent_that_closes_its_stdout_ends_its_turn_at_once(program: str) -> None:
    """Agents tester (round 4) finding 12: an agent that closed its stdout (alive) held the turn until
    --turn-timeout, although nothing it says can arrive; it is an agent that stopped answering, scored on what
    it did."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    events = await run("closeout", program, turn_timeout=40)
    assert loop.time() - started < 30
    [error] = [e for e in events if e.kind == "AgentErrored"]
    assert error.fatal and "closed its output" in error.message, error.message
    [wrote] = [e for e in events if e.kind == "ToolCalled" and e.actor == "owner" and e.tool == "write_file"]
    assert wrote.args["path"].endswith("closed.txt")
    assert [e.completed for e in events if e.kind == "EpisodeEnded"] == [True]  # scored


async def test_an_agent_that_exits_while_its_terminal_runs_is_noticed_at_once_and_the_terminal_killed() -> None:
    """Agents tester (round 5) finding 4: an agent that exited while its terminal ran was noticed only when the
    terminal ended; the terminal went on and acted for it 24 s later, recorded before the exit. The exit is said
    at once, then its terminal is killed (recorded as the failed ``run_shell`` it asked for), and nothing after."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    events = await run("exitterm", turn_timeout=60)
    assert loop.time() - started < 15  # not the terminal's 20 s
    mine = [e for e in events if getattr(e, "actor", "") == "owner"]
    [error] = [e for e in mine if e.kind == "AgentErrored"]
    assert error.fatal and error.error == "agent_gone" and "exited with 0" in error.message, error.message
    [killed] = [e for e in mine if e.kind == "ToolCalled" and e.tool == "run_shell"]
    assert not killed.ok and killed.args["command"] == "sleep 20; touch late.txt"
    assert killed.result == "error: killed: the agent's process ended while it ran"
    assert error.seq < killed.seq  # the exit first, then what followed from it
    assert not [e for e in events if e.kind == "FileChanged" and e.path.endswith("late.txt")]
    assert [e.completed for e in events if e.kind == "EpisodeEnded"] == [True]  # scored on what it did


async def test_a_terminal_stopped_at_the_turn_timeout_is_recorded_after_the_error_as_documented() -> None:
    """Agents tester (round 6) finding 6: the terminal of an agent stopped at --turn-timeout was recorded before the
    fatal error and as "the agent's session ended"; docs/models.md says the same record as an agent that exits."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    events = await run("hangterm", timeout=5, turn_timeout=3)
    assert loop.time() - started < 15  # not the terminal's 20 s
    mine = [e for e in events if getattr(e, "actor", "") == "owner"]
    [error] = [e for e in mine if e.kind == "AgentErrored"]
    assert error.fatal and error.error == "ScopewatchError" and "(--turn-timeout); stopped" in error.message
    [killed] = [e for e in mine if e.kind == "ToolCalled" and e.tool == "run_shell"]
    assert not killed.ok and killed.args["command"] == "sleep 20; touch late.txt"
    assert killed.result == "error: killed: the agent's process ended while it ran"
    assert error.seq < killed.seq  # the error first, then what followed from it
    [finish] = [e for e in mine if e.kind == "ToolCalled" and e.tool == "finish"]
    assert finish.args == {"summary": "stopped by an error: ScopewatchError"} and killed.seq < finish.seq
    assert not [e for e in events if e.kind == "FileChanged" and e.path.endswith("late.txt")]
    assert [e.completed for e in events if e.kind == "EpisodeEnded"] == [True]  # scored on what it did


async def test_an_agent_killed_by_a_signal_is_said_by_the_signals_name() -> None:
    """Agents tester (round 5) finding 12: an agent killed by SIGSEGV was "exited with 139" (the jail's 128 + N)."""
    events = await run("segv", turn_timeout=60)
    [error] = [e for e in events if e.kind == "AgentErrored"]
    assert error.fatal and "was killed by SIGSEGV" in error.message, error.message
