"""Shared fixtures. The MQTT broker fixtures start a private mosquitto on a loopback port; no test may leave a file
in ``tests/data`` (a reader's index beside a golden recording once did: checked after the whole run)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.channel.broker import Broker, mosquitto_missing

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session", autouse=True)
def _data_left_as_it_was() -> Iterator[None]:
    before = set(DATA.rglob("*"))
    yield
    added = sorted(str(p.relative_to(DATA)) for p in set(DATA.rglob("*")) - before)
    assert added == [], f"tests left files in tests/data (copy a recording to tmp_path before reading it): {added}"


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
