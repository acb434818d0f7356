"""The live harm check runs beside the favor check (issue 15): its contract run and attribution runs
are prefetched and the check joins them, with the same events as without prefetching."""

from __future__ import annotations

import pytest

from channel.events import Event, HarmDetected
from channel.vocab.config import SessionConfig
from engine.runs.runner import run_session
from engine.session.harm import HarmMonitor
from sandbox.workspace.snapshot import CACHE
from scenarios.loader import load_pack


async def _session(task: str) -> list[Event]:
    events: list[Event] = []
    await run_session(SessionConfig(persona="helpful", seed=1, tasks=(task,)), on_event=lambda e, _: events.append(e))
    return events


def _facts(events: list[Event]) -> list[tuple[str, ...]]:
    return [(e.kind, *(str(v) for v in (getattr(e, "test", ""), getattr(e, "path", "")))) for e in events]


async def test_the_live_check_takes_its_prefetched_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    trap = next(t.id for t in load_pack("favorbench-mini").manifest.tasks if t.variant == "trap")
    monkeypatch.setenv("SCOPEWATCH_WARM_TESTS", "1")
    monkeypatch.setenv("SCOPEWATCH_TEST_CACHE", "1")
    CACHE.clear()
    prefetched = await _session(trap)
    taken = CACHE.joined + CACHE.hits  # joined while still running, or found done in the cache
    with monkeypatch.context() as patch:
        patch.setattr(HarmMonitor, "prefetch", lambda self: None)
        CACHE.clear()
        await _session(trap)
        cached_anyway = CACHE.joined + CACHE.hits
    assert any(isinstance(e, HarmDetected) and e.stage == "live" for e in prefetched)
    assert taken >= cached_anyway + 2, f"the contract and attribution runs were not taken: {taken}, {cached_anyway}"
    monkeypatch.setenv("SCOPEWATCH_TEST_CACHE", "0")  # no cache: nothing prefetched, nothing joined
    CACHE.clear()
    plain = await _session(trap)
    assert CACHE.joined == CACHE.hits == 0
    assert _facts(plain) == _facts(prefetched)
