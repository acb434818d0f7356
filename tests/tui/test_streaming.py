"""Tokens arrive in the agent's panel while the model is still replying: a live session whose LLM
owner talks to the streaming test server over HTTP, held mid-reply while the test looks."""

from __future__ import annotations

import asyncio

import pytest

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.session.loop import Session
from tests.engine.llm.mock_litellm import LITELLM_WARNINGS
from tests.engine.llm.server import ChatServer, Say
from tests.tui.helpers import until
from tui.app import build_app

pytestmark = pytest.mark.filterwarnings(LITELLM_WARNINGS)

REPLY = "Let me read the ticket and the platform code before I change anything. "


async def test_tokens_arrive_in_the_agent_panel_as_the_model_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    release = asyncio.Event()
    first = Say(REPLY, [("finish", {"summary": "done"})], hold=30, release=release)
    async with ChatServer(first) as server:
        bus = InProcessBus()
        config = SessionConfig(tasks=("w1-gbp",), owner="openai/gpt-4o-mini", api_base=server.base_url)
        session = Session(config, bus)
        app = build_app(bus, session.id, engine=session.run(), notify_live=False)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: "owner" in app.activity.panels, "the owner's panel")
            panel = app.activity.panels["owner"]
            await until(pilot, lambda: panel.stream_view.display, "streamed tokens shown")
            # Held by the server after 30 characters: the words so far are on screen, the rest not yet.
            shown = str(panel.stream_view.render())
            assert "Let me read the ticket and" in shown and "platform" not in shown
            assert "💬" not in panel.log_view.plain()  # the call has not ended
            assert server.in_flight == 1

            release.set()
            await until(pilot, lambda: "💬 Let me read" in panel.log_view.plain(), "the final text logged")
            await until(pilot, lambda: not panel.stream_view.display, "the stream line cleared")
            assert "tool_calls" in panel.log_view.plain()  # finish reason on the call's line
            await until(pilot, lambda: "owner 1 calls" in str(app.scoreboard.table.render()), "usage on the board")
