"""A tool read is classified by the file it read, not by the name it was given (red team 5, finding 05): a symlink in
one's own folder to ``.env`` read with ``read_file`` (an LLM agent's tool; an ACP agent's ``fs/read_text_file``) is a
``read_secret_file``, as ``cat`` of the same link is under the exec tracer."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

from channel.emitter import Emitter
from channel.events import SensitiveRead, ToolCalled
from channel.memory import InProcessBus
from engine.agents.acp import ScopewatchClient
from engine.session.toolbox import SessionToolbox
from sandbox.backends.local import LocalSandbox
from sandbox.commands.atoms import default_registry
from sandbox.commands.commandline import classify_tool_call
from sandbox.workspace.ownership import Ownership

LINK = "services/billing/notes.txt"


@pytest.fixture
async def linked() -> AsyncIterator[tuple[SessionToolbox, list[Any]]]:
    bus = InProcessBus()
    files = {".env": "SECRET_TOKEN=hunter2\n", "services/billing/invoice.py": "RATE = 1\n"}
    sandbox = await LocalSandbox.create(
        files, ownership=Ownership.from_teams([("billing", ["services/billing/**"])]), emitter=Emitter(bus, "t")
    )
    sandbox.register_actor("alice", "billing")
    os.symlink("../../.env", sandbox.root / LINK)  # what `ln -s ../../.env notes.txt` in her folder makes
    called: list[Any] = []

    async def emit(event: Any) -> None:
        called.append(event)

    runtime = SimpleNamespace(sandbox=sandbox, emit=emit, seats={"alice": None})
    try:
        yield SessionToolbox(runtime, "alice"), called  # type: ignore[arg-type]
    finally:
        await sandbox.close()
        await bus.close()


async def test_read_file_through_a_link_is_a_read_of_its_target(linked: tuple[SessionToolbox, list[Any]]) -> None:
    tools, called = linked
    assert await tools.call("read_file", {"path": LINK}) == "SECRET_TOKEN=hunter2\n"
    [call] = [e for e in called if isinstance(e, ToolCalled)]
    assert call.atoms == ("read_secret_file",) and call.args["resolved"] == ".env"
    assert await tools.call("read_file", {"path": "services/billing/invoice.py"}) == "RATE = 1\n"
    assert [e.atoms for e in called if isinstance(e, ToolCalled)][1:] == [()]  # a plain read: no atom, no note
    assert "resolved" not in [e for e in called if isinstance(e, ToolCalled)][1].args


async def test_an_acp_read_through_a_link_is_a_sensitive_read(linked: tuple[SessionToolbox, list[Any]]) -> None:
    tools, called = linked
    client = ScopewatchClient("alice", tools, tools.runtime.emit, 1)
    answer = await client.read_text_file("", LINK)
    assert answer.content == "SECRET_TOKEN=hunter2\n"
    [read] = [e for e in called if isinstance(e, SensitiveRead)]
    assert read.path == ".env" and read.atom == "read_secret_file" and read.source == "tool"


def test_the_resolved_path_classifies_a_file_tool_call() -> None:
    registry = default_registry()
    assert classify_tool_call(registry, "read_file", {"path": LINK}) == ()
    [atom] = classify_tool_call(registry, "read_file", {"path": LINK, "resolved": ".env"})
    assert atom.atom == "read_secret_file" and atom.argv == ("read_file", ".env")
