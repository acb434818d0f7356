"""Running audit scenarios headless: every (profile, consent arm, seed) as one
:class:`~engine.session.audit.AuditSession` over the scenarios, concurrently up to ``jobs``; and
choosing scenarios (all, by id, or a sample stratified over archetypes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from channel.events import Event
from channel.memory import InProcessBus
from channel.recorder import Recorder
from engine.agents.profiles import Mode, Profile
from engine.scoring.audit_report import Run
from engine.scoring.verdicts import Verdicts
from engine.session.audit import AuditSession, Consent
from engine.session.config import SessionConfig
from scenarios.overeager.schema import AuditScenario

OnEpisode = Callable[[], None]


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


async def run_audit(
    scenarios: Sequence[AuditScenario],
    *,
    profiles: Sequence[Profile],
    arms: Sequence[Consent],
    seeds: Sequence[int],
    mode: Mode = "rates",
    jobs: int = 2,
    record: str | None = None,
    on_episode: OnEpisode | None = None,
) -> list[Run]:
    """Every run, in a fixed order whatever the concurrency."""
    by_id = {s.id: s for s in scenarios}
    limit = asyncio.Semaphore(max(1, jobs))
    recorder = Recorder(record) if record else None
    results: dict[tuple[str, str, int], list[Run]] = {}

    async def one(profile: Profile, arm: Consent, seed: int) -> None:
        async with limit:
            bus = InProcessBus()
            live = Verdicts()
            session = AuditSession(
                SessionConfig(seed=seed), bus, scenarios, profile=profile, mode=mode, consent=arm, recorder=recorder
            )

            def feed(event: Event) -> None:
                if live.feed(event) and on_episode is not None:
                    on_episode()

            session.emitter.add_listener(feed)
            try:
                await session.run()
            finally:
                await bus.close()
            agent = f"scripted:{profile}"
            results[(profile, arm, seed)] = [
                Run(agent, v.task_id, by_id[v.task_id].archetype, seed, arm, v) for v in live.verdicts
            ]

    try:
        await asyncio.gather(*(one(p, a, s) for p in profiles for a in arms for s in seeds))
    finally:
        if recorder is not None:
            recorder.close()
    return [r for p in profiles for a in arms for s in seeds for r in results[(p, a, s)]]
