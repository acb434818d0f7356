"""Running audit scenarios headless: every (cell, consent arm, seed) as one
session of :class:`~engine.overeager.episodes.AuditEpisodes` over the scenarios, a unit on a worker process of its own
(engine/pool/units.py), up to ``jobs`` at once, finished scenario-runs kept in a results store
(engine/overeager/store.py) so a restarted run redoes none; and choosing scenarios (all, by id, or a sample
stratified over archetypes). A resumed session goes on in the recording its killed run began
(:func:`continue_recording`)."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import os
import re
import time
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple, cast

from channel.codec import decode_event, encode
from channel.events import EpisodeEnded, EpisodeStarted, Event, SessionStarted
from channel.memory import InProcessBus
from channel.recorder import GZIP_LEVEL, Recorder, RecordingError, scan_recording
from channel.recording_files import is_compressed, open_bytes
from channel.vocab.config import SessionConfig
from engine.agents.profiles import Mode, Profile
from engine.overeager.episodes import Consent, audit_session
from engine.overeager.report import Run
from engine.overeager.store import ResultsStore, cell_of, run_key
from engine.pool.progress import report
from engine.pool.units import run_units
from engine.scoring.compare import CONSENT_ARM
from engine.scoring.unsettled import UnsettledMeter
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
    resume: Continued | None = None,
) -> tuple[list[Run], list[bytes]]:
    """One (cell, consent arm, seed) session over the scenarios: its runs, and its events (encoded)
    when ``record`` is True; ``record`` a path: each event is appended there as it happens (a recording
    the driver began), so a killed run leaves every finished scenario-run's events on disk.
    ``base`` gives what every session shares (the model endpoint, timeouts, reply
    bound, sandbox). A unit (engine/pool/units.py): it reports each verdict as it is reached, and
    with ``store`` adds each finished scenario-run to the results store at once, except one in no rate
    (``Run.scored``: its agent's model never answered in it, or a test run crashed in it): a resumed run does
    that one again.
    ``resume``: the session its recording holds, which this one goes on (:func:`continue_recording`)."""
    by_id = {s.id: s for s in scenarios}
    live = Verdicts()
    crashes = UnsettledMeter()
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
        if type(event) in UnsettledMeter.READS:
            crashes.feed(event)
        for v in live.feed(event) or ():
            crashed = crashes.unscored.get((v.trajectory, v.episode))
            run = Run(cell, v.task_id, by_id[v.task_id].archetype, seed, arm, v, crashed)
            runs.append(run)
            if results is not None and run.scored:  # a failed or unscored run is done again
                results.append(run)
            report(1)

    async def session() -> None:
        bus = InProcessBus()
        config = (base or SessionConfig()).model_copy(update={"seed": seed, "owner": "scripted" if scripted else cell})
        audit = audit_session(
            config, bus, scenarios, profile=profile, mode=mode, consent=arm,
            **({} if resume is None else resume._asdict()),
        )  # fmt: skip
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


class Continued(NamedTuple):
    """A session a killed run recorded part of, as its resumed rest goes on: same session, seqs and
    episode numbers following on from the recording's."""

    session_id: str
    start_seq: int
    episodes_before: int


def continue_recording(path: str, seed: int, arm: Consent) -> Continued | None:
    """Ready ``path``, the recording of this (seed, consent arm) session that an earlier, killed run
    began, for the rest of the session: a last line the kill cut short is cut off (a ``.gz`` is written
    again, its stream ended), and an episode the kill cut short is closed by an ``EpisodeEnded`` that
    says so (``completed`` false: not scored; the resumed session runs that scenario again). The resumed
    session's events follow on as the same session: its own ``SessionStarted`` (seq on, episode numbers
    after the recorded ones) marks where it resumed. None when ``path`` holds no event (begun afresh).
    Raises RecordingError, in one line, for a recording that is damaged or of another session."""
    p = Path(path)
    offsets = array("Q")
    started: SessionStarted | None = None
    last: Event | None = None
    cut: EpisodeStarted | None = None
    episodes = 0
    try:
        for event in scan_recording(p, offsets):
            if isinstance(event, SessionStarted) and started is None:
                started = event
            elif isinstance(event, EpisodeStarted):
                cut, episodes = event, max(episodes, event.episode)
            elif isinstance(event, EpisodeEnded):
                cut = None
            last = event
    except RecordingError as exc:
        raise RecordingError(f"--record {path}: cannot go on with it: {exc}") from None
    condition = "" if arm == "axis" else f"{CONSENT_ARM}{arm}"
    if started is not None and (started.seed, started.condition) != (seed, condition):
        raise RecordingError(
            f"--record {path}: holds another session (seed {started.seed}, {started.condition or 'consent axis'}) "
            f"than this run's seed {seed}, consent {arm}; record to a new file"
        )
    _cut_short(p, offsets[-1] if last is not None else 0)
    if last is None:
        return None
    seq = last.seq
    if cut is not None:
        recorder = Recorder(p, append=True)
        seq += 1
        end = EpisodeEnded(trajectory=cut.trajectory, episode=cut.episode, task_id=cut.task_id, completed=False)
        recorder.write(end.model_copy(update={"session": last.session, "seq": seq, "ts": time.time()}))
        recorder.close()
        if recorder.failure is not None:
            raise RecordingError(recorder.failure)
    return Continued(last.session, seq, episodes)


def _cut_short(path: Path, end: int) -> None:
    """Keep the recording's first ``end`` bytes (uncompressed): the complete events' lines."""
    try:
        if not is_compressed(path):
            if path.stat().st_size > end:
                os.truncate(path, end)
            return
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:  # a killed recorder's gzip stream has no end: another member after it would not read back
            with open_bytes(path) as source, gzip.open(partial, "wb", compresslevel=GZIP_LEVEL) as copy:
                while end > 0 and (chunk := source.read(min(end, 1 << 20))):
                    copy.write(chunk)
                    end -= len(chunk)
            os.replace(partial, path)
        finally:
            with contextlib.suppress(OSError):
                partial.unlink()
    except (OSError, EOFError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise RecordingError(f"--record {path}: cannot go on with it ({why})") from None


OnContinued = Callable[[str, int], None]
"""Told (recording, events it held) when a resumed session goes on in its earlier recording."""


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
    recording themselves as events happen; with ``store``, a session whose recording exists (an earlier,
    killed run of it) goes on in it (:func:`continue_recording`, ``on_continued`` is told)."""
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
    resumed: dict[int, Continued] = {}
    for i in live if paths else []:
        target = paths[i]
        existed = bool(store) and Path(target).exists()
        if existed:  # resumed: its earlier runs are recorded there, the rest goes on in it
            going_on = continue_recording(target, keys[i][2], keys[i][1])
            if going_on is not None:
                resumed[i] = going_on
                if on_continued is not None:
                    on_continued(target, going_on.start_seq)
        Recorder(target, append=existed).close()  # a bad path (or one taken) fails before anything runs
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
            [
                (todo[i], *keys[i], mode, targets.get(i, False) if local else i in targets, base, store, resumed.get(i))
                for i in live
            ],
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
