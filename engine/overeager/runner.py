"""Running audit scenarios headless: every (cell, consent arm, seed) as one
session of :class:`~engine.overeager.episodes.AuditEpisodes` over the scenarios, a unit on a worker process of its own
(engine/pool/units.py), up to ``jobs`` at once, finished scenario-runs kept in a results store
(engine/overeager/store.py) so a restarted run redoes none; and choosing scenarios (all, by id, or a sample
stratified over archetypes)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

from channel.codec import decode_event, encode
from channel.events import Event
from channel.memory import InProcessBus
from channel.recorder import Recorder
from channel.vocab.config import SessionConfig
from engine.agents.profiles import Mode, Profile
from engine.overeager.episodes import Consent, audit_session
from engine.overeager.report import Run
from engine.overeager.store import ResultsStore, cell_of, run_key
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


def cell_label(kind: str, profile: Profile | None = None) -> str:
    """The cell a run belongs to: ``scripted:PROFILE`` for a scripted profile, ``llm:MODEL`` for a
    litellm model (``openai/gpt-4o`` -> ``llm:openai/gpt-4o``: framework ``llm``, the project's own
    tool-calling loop), else the agent kind itself (``codex:gpt-5``, ``cmd:'...'``)."""
    if kind == "scripted" and profile:
        return f"scripted:{profile}"
    if kind != "scripted" and ":" not in kind.split("/", 1)[0]:
        return f"llm:{kind}"
    return kind


def audit_unit(
    scenarios: Sequence[AuditScenario],
    cell: str,
    arm: Consent,
    seed: int,
    mode: Mode,
    record: bool | str,
    base: SessionConfig | None = None,
    store: str | None = None,
) -> tuple[list[Run], list[bytes]]:
    """One (cell, consent arm, seed) session over the scenarios: its runs, and its events (encoded)
    when ``record`` is True; ``record`` a path: each event is appended there as it happens (a recording
    the driver began), so a killed run leaves every finished scenario-run's events on disk.
    ``base`` gives what every session shares (the model endpoint, timeouts, reply
    bound, sandbox). A unit (engine/pool/units.py): it reports each verdict as it is reached, and
    with ``store`` adds each finished scenario-run to the results store at once, except a failed one (its
    agent's model never answered in it, engine/scoring/failures.py): a resumed run does that one again."""
    by_id = {s.id: s for s in scenarios}
    live = Verdicts()
    events: list[bytes] = []
    runs: list[Run] = []
    results = ResultsStore(store) if store else None
    scripted = cell.startswith("scripted:")
    profile: Profile = cast("Profile", cell.removeprefix("scripted:")) if scripted else "moderate"
    recorder = Recorder(record, append=True) if isinstance(record, str) else None

    def feed(event: Event) -> None:
        if recorder is not None:
            recorder.write(event)
        elif record:
            events.append(encode(event))
        for v in live.feed(event) or ():
            run = Run(cell, v.task_id, by_id[v.task_id].archetype, seed, arm, v)
            runs.append(run)
            if results is not None and not v.failed:  # a run the model never answered in is done again
                results.append(run)
            report(1)

    async def session() -> None:
        bus = InProcessBus()
        config = (base or SessionConfig()).model_copy(update={"seed": seed, "owner": "scripted" if scripted else cell})
        audit = audit_session(config, bus, scenarios, profile=profile, mode=mode, consent=arm)
        audit.emitter.add_listener(feed)
        try:
            await audit.run()
        finally:
            await bus.close()

    try:
        asyncio.run(session())
    finally:
        if recorder is not None:
            recorder.close()
    return runs, events


def _slug(cell: str) -> str:
    """A cell as a file-name part: a profile by its name (``moderate``), any other kind sanitised."""
    if cell.startswith("scripted:"):
        return cell.removeprefix("scripted:")
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", cell).strip("-") or "agent"


def recording_paths(record: str, keys: Sequence[tuple[str, Consent, int]]) -> list[str]:
    """Where each (cell, arm, seed) session is recorded: ``record`` itself for a single session,
    else one file per session beside it (``r.jsonl`` -> ``r.moderate.axis.seed1.jsonl``,
    ``r.codex-gpt-5.kept.seed2.jsonl``); a recording holds one session."""
    if len(keys) == 1:
        return [record]
    path = Path(record)
    return [str(path.with_name(f"{path.stem}.{_slug(c)}.{a}.seed{s}{path.suffix}")) for c, a, s in keys]


def continued_path(path: str) -> str:
    """Where a resumed session's events go when its recording ``path`` exists: the first free
    ``r.resumed-N.jsonl`` beside it (a recording holds one session, so the resumed one gets its own)."""
    p = Path(path)
    name, suffix = p.name, "".join(p.suffixes[-2:]) if p.name.endswith(".gz") else p.suffix
    stem = name[: len(name) - len(suffix)] if suffix else name
    n = 1
    while (candidate := p.with_name(f"{stem}.resumed-{n}{suffix}")).exists():
        n += 1
    return str(candidate)


OnContinued = Callable[[str, str], None]
"""Told (recording, continuation) when a resumed session records beside its earlier recording."""


def run_audit(
    scenarios: Sequence[AuditScenario],
    *,
    cells: Sequence[str],
    arms: Sequence[Consent],
    seeds: Sequence[int],
    mode: Mode = "rates",
    jobs: int = 1,
    executor: str = "local",
    record: str | None = None,
    base: SessionConfig | None = None,
    store: str | None = None,
    on_episode: OnScenarioRun | None = None,
    on_continued: OnContinued | None = None,
) -> list[Run]:
    """Every run of every cell on the same scenarios and seeds, in a fixed order whatever ``jobs``:
    each (cell, arm, seed) session is a unit, at most ``jobs`` at once on ``executor``; with
    ``record``, each session's events go to its recording (:func:`recording_paths`) as its unit's
    result arrives. With ``store``, scenario-runs already in the results store are taken from it, not
    run again (``on_episode`` is called once for each), and a session runs only the scenarios it still
    lacks; a session with none left is not started (and not recorded). Local units write their
    recording themselves as events happen; a resumed session whose recording exists (an earlier, killed run
    of it) records the rest beside it (:func:`continued_path`, ``on_continued`` is told)."""
    keys = [(c, a, s) for c in cells for a in arms for s in seeds]
    done: dict[tuple[str, str, str, int, str], Run] = {}
    if store:
        stored = ResultsStore(store)
        done = stored.finished()  # a file that is not a store is refused before anything is appended
        stored.check_writable()
    todo: list[list[AuditScenario]] = []
    for c, a, s in keys:
        agent, model = cell_of(c)
        todo.append([sc for sc in scenarios if (sc.id, agent, model, s, a) not in done])
    if on_episode is not None:
        for _ in range(len(keys) * len(scenarios) - sum(map(len, todo))):
            on_episode()
    live = [i for i, left in enumerate(todo) if left]
    paths = recording_paths(record, keys) if record else []
    targets: dict[int, str] = {}
    for i in live if paths else []:
        target = paths[i]
        if len(todo[i]) < len(scenarios) and Path(target).exists():  # resumed: its earlier runs are recorded there
            target = continued_path(target)
            if on_continued is not None:
                on_continued(paths[i], target)
        Recorder(target).close()  # a bad path (or one taken) fails before anything runs
        targets[i] = target
    local = executor == "local"  # a Ray task's node may not see this file system: its events come back
    recorders: dict[int, Recorder] = {}
    try:

        def write(index: int, result: tuple[list[Run], list[bytes]]) -> None:
            target = targets.get(live[index])
            if target is not None and not local:
                recorder = recorders[live[index]] = Recorder(target, append=True)
                for line in result[1]:
                    recorder.write(decode_event(line))
                recorder.close()

        results = run_units(
            audit_unit,
            [(todo[i], *keys[i], mode, targets.get(i, False) if local else i in targets, base, store) for i in live],
            jobs=jobs,
            executor=executor,
            on_report=None if on_episode is None else lambda _: on_episode(),
            on_result=write,
        )
    finally:
        for recorder in recorders.values():
            recorder.close()
    fresh = {run_key(r): r for runs, _ in results for r in runs}
    ordered: list[Run] = []
    for c, a, s in keys:
        agent, model = cell_of(c)
        for sc in scenarios:
            key = (sc.id, agent, model, s, a)
            run = fresh.get(key) or done.get(key)
            if run is not None:
                ordered.append(run)
    return ordered
