"""The gate runs' economies keep their verdicts: a run that makes the tool calls of an earlier run of
the same candidate is not made again (:func:`~engine.overeager.gates.shared_runs`), and gate runs
have no file watcher. Both are checked against the runs made for real, as before."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from channel.events import EpisodeStarted, Event, ToolCalled
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.agents.profiles import gate_script
from engine.overeager.episodes import audit_session, user_answer
from engine.overeager.gates import RUNS, gate_unit, shared_runs
from engine.scoring.verdicts import Verdict, verdicts
from sandbox.workspace.watcher import Watcher
from scenarios.overeager.generator import candidates
from scenarios.overeager.schema import AuditScenario


def _pick() -> list[AuditScenario]:
    """The first candidate whose moderate run is the reference's, the first whose moderate run is the
    overeager's, and the first that shares no run."""
    found: dict[str, AuditScenario] = {}
    for s in candidates(525, seed=42):
        kind = ",".join(f"{k}={v}" for k, v in sorted(shared_runs(s).items())) or "none"
        found.setdefault(kind, s)
    assert set(found) == {"moderate=reference", "moderate=overeager", "none"}, set(found)
    return list(found.values())


async def _run(scenarios: list[AuditScenario], profile: Any, mode: Any, *, watch: bool = False) -> list[Event]:
    bus = InProcessBus()
    events: list[Event] = []
    session = audit_session(SessionConfig(), bus, scenarios, profile=profile, mode=mode, watch=watch)
    session.emitter.add_listener(events.append)
    try:
        await session.run()
    finally:
        await bus.close()
    return events


def _cut(args: dict[str, str]) -> dict[str, str]:
    """As ``ToolCalled`` records arguments (each cut to 400 characters)."""
    return {k: v[:400] for k, v in args.items()}


def _judged(v: Verdict) -> tuple[Any, ...]:
    """What the gates read of a verdict (the sandbox's temp paths in ``read:`` left out)."""
    outside = tuple(u for u in v.unauthorised if not u.startswith("read:/"))
    return v.triggered, outside, v.task_complete, v.success_met, v.attempts


async def test_a_run_made_once_for_two_has_the_calls_and_verdict_of_both() -> None:
    picked = _pick()
    made: dict[str, dict[str, Verdict]] = {s.id: {} for s in picked}
    for name, profile, mode in RUNS:  # every run made for real, as before
        events = await _run(picked, profile, mode)
        by_episode: dict[int, list[tuple[str, dict[str, str]]]] = {}
        episode = 0
        for e in events:
            if isinstance(e, EpisodeStarted):
                episode = e.episode
            elif isinstance(e, ToolCalled) and e.tool != "finish":
                by_episode.setdefault(episode, []).append((e.tool, dict(e.args)))
        for v in verdicts(events):
            made[v.task_id][name] = v
            s = next(x for x in picked if x.id == v.task_id)
            script = gate_script(s, profile, mode, lambda q, s=s: user_answer(s, q))  # type: ignore[misc]
            expected = [(tool, _cut(json.loads(args))) for turn in script for tool, args in turn]
            assert by_episode.get(v.episode, []) == expected, (s.id, name)
    shared, _ = await asyncio.to_thread(gate_unit, picked)  # it runs its own event loop
    for s in picked:
        for name, twin in shared_runs(s).items():
            assert _judged(made[s.id][name]) == _judged(made[s.id][twin]), (s.id, name, twin)
        assert {r: _judged(v) for r, v in shared[s.id].items()} == {r: _judged(v) for r, v in made[s.id].items()}
        assert list(shared[s.id]) == [name for name, _, _ in RUNS]


def test_rates_mode_has_no_script() -> None:
    s = next(iter(candidates(1, seed=42)))
    with pytest.raises(ValueError):
        gate_script(s, "moderate", "rates", lambda q: "no")


async def test_a_gate_run_has_no_watcher_and_sees_what_a_watched_run_sees(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the agent's tools change a gate run's workspace, each settled as it returns: the watcher
    (a person's edits) has nothing to add."""
    picked = _pick()
    started: list[Watcher] = []
    real = Watcher.start

    async def start(self: Watcher) -> None:
        started.append(self)
        await real(self)

    monkeypatch.setattr(Watcher, "start", start)

    def seen(events: list[Event]) -> list[tuple[Any, ...]]:
        keep = ("actor", "path", "argv", "atom", "change", "tool", "trap", "reason", "source", "area")
        return [(type(e).__name__, *(getattr(e, k, None) for k in keep)) for e in events]

    unwatched = await _run(picked, "overeager", "gate")
    assert started == []
    watched = await _run(picked, "overeager", "gate", watch=True)
    assert len(started) == len(picked)
    assert seen(unwatched) == seen(watched)
    assert [_judged(v) for v in verdicts(unwatched)] == [_judged(v) for v in verdicts(watched)]
