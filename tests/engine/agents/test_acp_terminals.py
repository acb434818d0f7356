"""An ACP agent's terminals answered as ACP's schema says (agents4 #1, #2): a command killed by a signal has no
exit code and the signal's name; ``outputByteLimit`` keeps the output's end, at a character boundary, and says
``truncated``; a ``terminal/*`` request naming another session is refused and recorded, as ``fs/*`` ones are.
A read with ``line``/``limit`` is recorded as what the agent got (agents4, smaller observations)."""

from __future__ import annotations

from typing import Any

import acp
import pytest

from engine.agents.acp import ScopewatchClient
from engine.agents.acp_terminals import Terminal
from sandbox.commands.volume import clip


class Tools:
    """The toolbox's part a terminal uses: ``run_shell`` answers ``result``; calls are kept."""

    def __init__(self, result: str) -> None:
        self.result = result
        self.calls: list[tuple[str, dict[str, Any], int | None]] = []
        self.recorded: list[tuple[str, dict[str, Any], bool, str]] = []

    async def call(self, name: str, args: dict[str, Any], *, limit: int | None = 4000,
                   view: Any = None, noted: Any = None) -> str:
        """As the session's toolbox: ``view`` the part the agent gets, recorded with ``noted``."""
        self.calls.append((name, args, limit))
        result = view(self.result) if view is not None else self.result
        self.recorded.append((name, {**args, **(noted or {})}, True, result))
        return result

    async def record_call(self, name: str, args: dict[str, Any], *, ok: bool, result: str) -> None:
        self.recorded.append((name, args, ok, result))

    def relative(self, path: str, *, strict: bool = True) -> str:
        return path

    def read_atom(self, path: str) -> tuple[str, None]:
        return path, None  # the file read is the one named, no atom (the session's toolbox resolves and classifies)


async def emit(event: Any) -> None:
    return None


async def client_with(result: str) -> tuple[ScopewatchClient, Tools]:
    tools = Tools(result)
    client = ScopewatchClient("owner", tools, emit, episode=1)  # type: ignore[arg-type]
    client.session_id = "s1"
    return client, tools


def dumped(model: Any) -> dict[str, Any]:
    return dict(model.model_dump(mode="json", by_alias=True, exclude_none=True))


async def test_a_command_killed_by_a_signal_has_no_exit_code_and_the_signals_name() -> None:
    client, _ = await client_with("exit -9\n")
    created = await client.create_terminal("s1", "sh", ["-c", "kill -9 $$"])
    waited = await client.wait_for_terminal_exit("s1", created.terminal_id)
    assert dumped(waited) == {"signal": "SIGKILL"}
    output = await client.terminal_output("s1", created.terminal_id)
    assert dumped(output) == {"output": "", "truncated": False, "exitStatus": {"signal": "SIGKILL"}}
    client, _ = await client_with("exit 3\nboom\n")
    created = await client.create_terminal("s1", "false")
    assert dumped(await client.wait_for_terminal_exit("s1", created.terminal_id)) == {"exitCode": 3}


async def test_the_output_byte_limit_keeps_the_end_and_says_truncated() -> None:
    client, tools = await client_with("exit 0\n" + "abcdefghij" * 100)
    created = await client.create_terminal("s1", "sh", ["-c", "printf ..."], output_byte_limit=25)
    output = await client.terminal_output("s1", created.terminal_id)
    assert (output.output, output.truncated) == ("fghij" + "abcdefghij" * 2, True)
    assert tools.calls[0][2] is None  # the whole of what the sandbox kept, not the toolbox's 4,000 characters
    client, _ = await client_with("exit 0\n" + "x" * 10_000 + "END")
    created = await client.create_terminal("s1", "seq", ["1", "2000"])
    output = await client.terminal_output("s1", created.terminal_id)
    assert output.output.endswith("END") and len(output.output) == 10_003 and not output.truncated


def test_a_cut_never_splits_a_character_and_a_sandbox_clip_is_truncated() -> None:
    cut = Terminal.cut("é" * 10, 0, 5)  # 2 bytes each: 5 bytes hold two whole ones
    assert (cut.output, cut.truncated) == ("éé", True)
    assert Terminal.cut("abc", 0, 0).output == ""
    clipped = Terminal.ran("exit 0\n" + clip("\n".join(map(str, range(100_000)))), None)
    assert clipped.truncated and clipped.output.endswith("99999")
    assert not Terminal.ran("exit 0\nsmall\n", None).truncated
    assert Terminal.ran("error: refused", None).exit_code == 1


@pytest.mark.parametrize("method", ["terminal_output", "wait_for_terminal_exit", "kill_terminal", "release_terminal"])
async def test_a_terminal_request_for_another_session_is_refused_and_recorded(method: str) -> None:
    client, tools = await client_with("exit 0\nsecret output\n")
    created = await client.create_terminal("s1", "cat", ["notes.txt"])
    with pytest.raises(acp.RequestError, match="no session 'not-mine' here"):
        await getattr(client, method)("not-mine", created.terminal_id)
    [(name, args, ok, _)] = tools.recorded[1:]  # after the terminal's own run_shell
    assert name.startswith("terminal/") and args == {"terminalId": "t1", "sessionId": "not-mine"} and not ok
    assert "t1" in client._terminals  # a release for another session released nothing


async def test_a_read_of_some_lines_is_recorded_as_what_the_agent_got() -> None:
    client, tools = await client_with("one\ntwo\nthree\nfour\n")
    read = await client.read_text_file("s1", "notes.txt", line=2, limit=2)
    assert read.content == "two\nthree\n"
    assert tools.recorded == [("read_file", {"path": "notes.txt", "line": 2, "limit": 2}, True, "two\nthree\n")]
    whole = await client.read_text_file("s1", "notes.txt")
    assert whole.content == "one\ntwo\nthree\nfour\n" and tools.recorded[-1][1] == {"path": "notes.txt"}
