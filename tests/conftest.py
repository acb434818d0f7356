"""Shared fixtures. The MQTT broker fixtures start a private mosquitto on a loopback port."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.channel.broker import Broker, mosquitto_missing


def _require_mosquitto() -> None:
    missing = mosquitto_missing()
    if missing:
        pytest.fail(missing, pytrace=False)


@pytest.fixture(scope="session")
def mqtt_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    """One mosquitto shared by the tests of a run (each test uses its own session id)."""
    _require_mosquitto()
    broker = Broker(tmp_path_factory.mktemp("mosquitto"))
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def make_broker(tmp_path: Path) -> Iterator[Callable[[], Broker]]:
    """A private mosquitto per test, for tests that kill and restart it."""
    _require_mosquitto()
    started: list[Broker] = []

    def make() -> Broker:
        broker = Broker(tmp_path / f"mosquitto{len(started)}")
        broker.start()
        started.append(broker)
        return broker

    yield make
    for broker in started:
        broker.stop()
