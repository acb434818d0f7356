"""Fixtures for the sandbox tests: a real LocalSandbox on a temp workspace, observed through an
InProcessBus subscription."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from channel.bus import Subscription
from channel.emitter import Emitter
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS


@pytest.fixture
async def bus() -> AsyncIterator[InProcessBus]:
    b = InProcessBus()
    yield b
    await b.close()


@pytest.fixture
async def events(bus: InProcessBus) -> Subscription:
    return await bus.subscribe("events/#")


@pytest.fixture
async def sandbox(bus: InProcessBus, events: Subscription) -> AsyncIterator[LocalSandbox]:
    sb = await LocalSandbox.create(FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "test"))
    sb.register_actor("alice", "billing", ["services/billing/invoice.py"])
    sb.register_actor("bob", "payments", ["services/payments/config.py"])
    yield sb
    await sb.close()
