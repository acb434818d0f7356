"""The app raises the collector's young threshold while it runs and puts the previous one back."""

from __future__ import annotations

import gc

from channel.memory import InProcessBus
from tests.tui.scripted import SESSION
from tui.app import build_app
from tui.collector import YOUNG, CollectorTuning


def test_tuning_starts_once_and_stop_restores() -> None:
    before = gc.get_threshold()
    tuning = CollectorTuning()
    try:
        tuning.start()
        tuning.start()
        assert gc.get_threshold() == (max(YOUNG, before[0]), before[1], before[2])
    finally:
        tuning.stop()
    assert gc.get_threshold() == before
    tuning.stop()
    assert gc.get_threshold() == before


async def test_the_app_tunes_the_collector_while_it_runs() -> None:
    before = gc.get_threshold()
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=(80, 24)):
        assert gc.get_threshold()[0] == max(YOUNG, before[0])
    assert gc.get_threshold() == before
    await bus.close()
