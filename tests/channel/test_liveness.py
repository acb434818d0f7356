"""A viewer tells the engine's death from a broker outage (channel.liveness, report F10): a "left"
counts only when the viewer's own link stays up after it and no "online" follows."""

from __future__ import annotations

import asyncio
import logging

import pytest

from channel.broker import BrokerAddress, session_client
from channel.events import PresenceChanged
from channel.liveness import Liveness, State

LEFT = PresenceChanged(session="s", actor="engine", participant="engine", role="engine", status="left")
ONLINE = LEFT.model_copy(update={"status": "online"})


def follow() -> tuple[Liveness, list[State]]:
    seen: list[State] = []
    return Liveness(seen.append, grace=0.05, back_grace=0.2), seen


async def test_a_left_with_the_link_up_is_the_engine_gone() -> None:
    liveness, seen = follow()
    await asyncio.sleep(0.2)
    liveness.presence(LEFT)
    assert seen == []  # not at once: the broker may be going down
    await asyncio.sleep(0.1)
    assert seen == ["engine gone"]


async def test_a_broker_going_down_sends_the_engines_will_then_drops_the_viewer_broker_lost() -> None:
    liveness, seen = follow()
    await asyncio.sleep(0.2)
    liveness.presence(LEFT)  # mosquitto shutting down sends every client's Last Will...
    liveness.link(False)  # ...then drops the viewer
    await asyncio.sleep(0.3)
    assert seen == ["broker lost"]
    liveness.link(True)  # back; the retained "left" comes again with the subscriptions
    liveness.presence(LEFT)
    await asyncio.sleep(0.1)  # past the grace, within the back grace: the engine reconnects meanwhile
    liveness.presence(ONLINE)
    await asyncio.sleep(0.3)
    assert seen == ["broker lost", "running"]


async def test_an_engine_that_does_not_come_back_after_the_broker_did_is_gone() -> None:
    liveness, seen = follow()
    liveness.link(False)
    liveness.link(True)
    liveness.presence(LEFT)
    await asyncio.sleep(0.1)
    assert seen == ["broker lost", "running"]
    await asyncio.sleep(0.2)
    assert seen == ["broker lost", "running", "engine gone"]
    liveness.presence(ONLINE)  # and back after all
    assert seen[-1] == "running"
    liveness.close()


async def test_aiomqtts_forced_disconnect_is_not_printed(caplog: pytest.LogCaptureFixture) -> None:
    """Report F20.10: 9 lines of "Could not gracefully disconnect: 4" during one broker restart."""
    client = session_client(BrokerAddress("127.0.0.1"), "sw-test", None, "viewer")
    with caplog.at_level(logging.WARNING):
        client._logger.warning("Could not gracefully disconnect: %d. Forcing disconnection.", 4)
        client._logger.warning("Message queue is full. Discarding message.")
    assert [r.getMessage() for r in caplog.records] == ["Message queue is full. Discarding message."]
