"""Running audit scenarios headless: every (profile, consent arm, seed) as one
session of :class:`~engine.overeager.episodes.AuditEpisodes` over the scenarios, a unit on a worker process of its own
(engine/pool/units.py), up to ``jobs`` at once; and choosing scenarios (all, by id, or a sample
stratified over archetypes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from channel.codec import decode_event, encode
from channel.events import Event
from channel.memory import InProcessBus
from channel.recorder import Recorder
from channel.vocab.config import SessionConfig
from engine.agents.profiles import Mode, Profile
from engine.overeager.episodes import Consent, audit_session
from engine.overeager.report import Run
from engine.pool.progress import report
from engine.pool.units import run_units
from engine.scoring.verdicts import Verdicts
from scenarios.overeager.schema import AuditScenario

OnScenarioRun = Callable[[], None]


def stratified_sample(scenarios: Sequence[AuditScenario], limit: int) -> list[AuditScenario]:
    """Up to ``limit`` scenarios, round-robin over archetypes in index order (deterministic)."""
    if limit <= 0 or limit >= len(scenarios):
        return list(scenarios)
    by_archetype: dict[str, list[AuditScenario]] = {}
    for s in scenarios:
        by_archetype.setdefault(s.archetype, []).append(s)
    picked: list[AuditScenario] = []
    depth = 0
    while len(picked) < limit:
        for group in by_archetype.values():
            if depth < len(group) and len(picked) < limit:
                picked.append(group[depth])
        depth += 1
    return picked


def audit_unit(
    scenarios: Sequence[AuditScenario], profile: Profile, arm: Consent, seed: int, mode: Mode, record: bool
) -> tuple[list[Run], list[bytes]]:
    """One (profile, consent arm, seed) session over the scenarios: its runs, and its events (encoded)
    when ``record``. A unit (engine/pool/units.py): it reports each verdict as it is reached."""
    by_id = {s.id: s for s in scenarios}
    live = Verdicts()
    events: list[bytes] = []

    def feed(event: Event) -> None:
        if record:
            events.append(encode(event))
        if live.feed(event):
            report(1)

    async def session() -> None:
        bus = InProcessBus()
        audit = audit_session(SessionConfig(seed=seed), bus, scenarios, profile=profile, mode=mode, consent=arm)
        audit.emitter.add_listener(feed)
        try:
            await audit.run()
        finally:
            await bus.close()

    asyncio.run(session())
    agent = f"scripted:{profile}"
    return [Run(agent, v.task_id, by_id[v.task_id].archetype, seed, arm, v) for v in live.verdicts], events


def recording_paths(record: str, keys: Sequence[tuple[Profile, Consent, int]]) -> list[str]:
    """Where each (profile, arm, seed) session is recorded: ``record`` itself for a single session,
    else one file per session beside it (``r.jsonl`` -> ``r.moderate.axis.seed1.jsonl``); a recording
    holds one session."""
    if len(keys) == 1:
        return [record]
    path = Path(record)
    return [str(path.with_name(f"{path.stem}.{p}.{a}.seed{s}{path.suffix}")) for p, a, s in keys]


def run_audit(
    scenarios: Sequence[AuditScenario],
    *,
    profiles: Sequence[Profile],
    arms: Sequence[Consent],
    seeds: Sequence[int],
    mode: Mode = "rates",
    jobs: int = 1,
    executor: str = "local",
    record: str | None = None,
    on_episode: OnScenarioRun | None = None,
) -> list[Run]:
    """Every run, in a fixed order whatever ``jobs``: each (profile, arm, seed) session is a unit, at
    most ``jobs`` at once on ``executor``; with ``record``, each session's events go to its recording
    (:func:`recording_paths`) as its unit's result arrives."""
    keys = [(p, a, s) for p in profiles for a in arms for s in seeds]
    recorders: list[Recorder] = []
    try:
        for path in recording_paths(record, keys) if record else []:
            recorders.append(Recorder(path))  # a bad path fails before anything runs

        def write(index: int, result: tuple[list[Run], list[bytes]]) -> None:
            if recorders:
                for line in result[1]:
                    recorders[index].write(decode_event(line))
                recorders[index].close()

        results = run_units(
            audit_unit,
            [(scenarios, p, a, s, mode, bool(recorders)) for p, a, s in keys],
            jobs=jobs,
            executor=executor,
            on_report=None if on_episode is None else lambda _: on_episode(),
            on_result=write,
        )
    finally:
        for recorder in recorders:
            recorder.close()
    return [run for runs, _ in results for run in runs]
