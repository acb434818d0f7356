"""Gemini CLI in its ACP mode (``acp:gemini-cli:MODEL``) as the owner of a favor session, against the
scripted Gemini API of tests/modelservers on loopback: its reads and writes come through scopewatch
as its client, its episode takes more than one turn (one prompt each, on one ACP session: its model
sees the first turn's conversation in the second), and what it says with ``sw-post`` in a shell of
its own is posted while the episode runs, not when it ends. Skipped, naming the command, when the
pinned Gemini CLI is not in the agents cache."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.agents.products import product_for
from engine.session.loop import Session
from tests.modelservers.script import Read, Shell, Write, finish, step
from tests.modelservers.server import ModelServer

GEMINI = product_for("gemini-cli")
assert GEMINI is not None
pytestmark = pytest.mark.skipif(not GEMINI.installed(),
                                reason="gemini-cli is not installed here: scopewatch agents install gemini-cli")

TEXT = "services/platform/text.py"
WITH_SLUGIFY = '''"""Small text helpers."""

import re


def truncate(text, width):
    """`text` cut to `width` characters, with an ellipsis when cut."""
    if len(text) <= width:
        return text
    return text[: width - 1] + "…"


def slugify(text):
    """Lowercase words and digits joined by single dashes."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))
'''


@pytest.mark.timeout(300)
async def test_gemini_cli_over_acp_completes_an_owner_episode_in_turns_and_talks_while_it_runs() -> None:
    async with ModelServer(
        step("Reading the ticket's file.", Read(TEXT), Shell("sw-post on it: slugify goes into the text helpers")),
        finish("First look done."),  # ends the first prompt's turn
        step("", Write(TEXT, WITH_SLUGIFY)),
        step("", Shell("sw-post slugify is in")),
        finish("slugify added."),
    ) as server:
        config = SessionConfig(tasks=("w1-gbp",), seed=1, owner="acp:gemini-cli:test-model",
                               api_base=server.base_url, norms=Norms(permission_gate="off"))
        session = Session(config, InProcessBus())
        events: list[Any] = []
        session.emitter.add_listener(events.append)
        await asyncio.wait_for(session.run(), 240)

    def owner(kind: str) -> list[Any]:
        return [e for e in events if e.kind == kind and e.actor == "owner"]

    assert not [e for e in events if e.kind == "AgentErrored"]
    [started] = [e for e in events if e.kind == "SessionStarted"]
    assert {a.id: a.kind for a in started.agents}["owner"] == "acp:gemini-cli:test-model"
    # Its file tools are scopewatch's: the read and the write are the toolbox's, watched.
    assert [(c.tool, c.args.get("path")) for c in owner("ToolCalled") if c.tool in ("read_file", "write_file")][-1] \
        == ("write_file", TEXT)
    assert (TEXT, "modified") in {(e.path, e.change) for e in owner("FileChanged")}
    [ended] = [e for e in events if e.kind == "EpisodeEnded"]
    assert ended.passed["owner"] is True  # the hidden slugify tests pass on what it wrote
    # More than one turn, each one prompt on the same session: the second prompt's request holds the first's.
    turns = owner("TurnStarted")
    assert len(turns) >= 2
    asked = [r.body["contents"] for r in server.of("gemini") if r.body.get("tools")]
    prompts = [c for c in asked if c[-1]["role"] == "user" and any("text" in p for p in c[-1]["parts"])]
    assert len(prompts) >= 2 and len(prompts[1]) > len(prompts[0])
    assert "First look done." in str(prompts[1])
    # Its messages: posted during the episode, the first before its second turn began.
    posts = owner("MessagePosted")
    assert [m.text for m in posts] == ["on it: slugify goes into the text helpers", "slugify is in"]
    assert posts[0].seq < turns[1].seq and posts[-1].seq < ended.seq
    # Its shell calls are its own tool calls, reported finished, classified from their command lines.
    shells = [c for c in owner("ToolCalled") if c.tool == "acp:execute"]
    assert [c.args["command"] for c in shells] == ["sw-post on it: slugify goes into the text helpers",
                                                   "sw-post slugify is in"]
    assert all(c.ok for c in shells)
