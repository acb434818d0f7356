"""``overeager run``'s table counts the runs ``report`` scores (engine/scoring/scored.py): its summary left out only
failed runs (a dead model), so a run whose test runs crashed (unscored, engine/scoring/unsettled.py) was in its
rates and stored, while ``report`` of its recording left it out: one recording, two rates. Now both read the one
rule, and the table says in one line how many runs it left out and why, as ``report`` does.

Audit sessions run no test suite today, and a scripted agent calls no model: the session here is a real scripted
run's events with a model call, a crashed test run and a dead model's fatal error put in, replayed through the
real ``overeager run`` (its runner, store, recording and table)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import engine.overeager.runner as runner
from channel.codec import decode_event
from channel.emitter import Listener
from channel.events import AgentErrored, EpisodeStarted, Event, FailingTest, ModelCalled, SuiteRan
from engine.overeager.runner import audit_unit
from engine.overeager.store import ResultsStore
from scenarios.overeager.benchmark import audit_scenario
from tui.cli import main

ANSWERED, CRASHED, OVEREAGER, FAILED = (
    "cleanup-build-dir-000",  # the agent's model answers in it: later, a dead model's episode is failed
    "obst-lint-config-006",  # overeager under the moderate profile; a test run crashes in it: unscored
    "cred-deploy-history-009",  # overeager, scored
    "dd-migration-column-003",  # the agent's model never answers in it: failed
)
CRASH = "test process crashed (exit code 1): PermissionError: [Errno 13] Permission denied: '/var/tmp/x/tmp/'"


def _put_in(event: EpisodeStarted) -> list[Event]:
    """What the episode ``event`` starts gets beside its own events."""
    at: dict[str, Any] = {"session": event.session, "ts": event.ts, "episode": event.episode}
    if event.task_id == ANSWERED:
        return [ModelCalled(**at, actor="agent", model="openai/test-model")]
    if event.task_id == CRASHED:
        failed = (FailingTest(test="tests/test_lint.py::test_config", last_line=CRASH),)
        return [SuiteRan(**at, actor="engine", suite="contract", team="project", failed=failed)]
    if event.task_id == FAILED:
        return [AgentErrored(**at, actor="agent", error="model_not_found", message="no such model", fatal=True)]
    return []


@pytest.fixture(scope="module")
def session() -> list[Event]:
    """A scripted moderate session over the four scenarios, with the events above put in (seqs renumbered)."""
    scenarios = [audit_scenario(i) for i in (ANSWERED, CRASHED, OVEREAGER, FAILED)]
    _, lines = audit_unit(scenarios, "scripted:moderate", "axis", 1, "rates", True)
    events: list[Event] = []
    for event in map(decode_event, lines):
        events += [event, *(_put_in(event) if isinstance(event, EpisodeStarted) else [])]
    return [e.model_copy(update={"seq": seq}) for seq, e in enumerate(events, 1)]


class _Replay:
    """An audit session that is ``events`` again (what ``audit_session`` returns: an emitter and ``run``)."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events = events
        self.listeners: list[Listener] = []
        self.emitter = self

    def add_listener(self, listener: Listener) -> None:
        self.listeners.append(listener)

    async def run(self) -> None:
        for event in self.events:
            for listener in self.listeners:
                listener(event)


def test_overeager_run_counts_the_runs_report_scores(
    session: list[Event], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runner, "audit_session", lambda *_, **__: _Replay(session))
    record, store = tmp_path / "run.jsonl", tmp_path / "store.jsonl"
    run = ["overeager", "run", "--scenario", f"{ANSWERED},{CRASHED},{OVEREAGER},{FAILED}", "--profile", "moderate",
           "--jobs", "1"]  # fmt: skip
    assert main([*run, "--json", "--store", str(store), "--record", str(record)]) == 1  # a failed run: exit 1
    out = capsys.readouterr()
    ran = json.loads(out.out)
    assert main(["report", str(record), "--json"]) == 0
    reported = json.loads(capsys.readouterr().out)

    assert reported["failed_episodes"] == ran["failed_runs"] == 1
    assert [u["task_id"] for u in reported["unscored"]] == [CRASHED]
    row, block = ran["agents"][0], reported["overeager"]
    assert row["runs"] == block["runs"] == reported["episodes"] == 2  # was 3 in the table: the unscored run counted
    assert ran["unscored_runs"] == 1
    for key in ("overeager", "overeager_rate", "overeager_ci", "severity", "critical_hits", "task_completion",
                "safety_gate", "outside_authorised_rate"):  # fmt: skip
        assert row[key] == block[key], key
    assert row["overeager_rate"] == 0.5  # was 2/3
    assert row["unauthorised_runs"] == block["outside_authorised"]
    assert [r["archetype"] for r in ran["by_archetype"]] == ["cleanup_overreach", "credential_hoarding"]
    warning = [line for line in out.err.splitlines() if "test runs crashed" in line]
    assert len(warning) == 1 and f"episode 2 ({CRASHED})" in warning[0] and "not stored" in warning[0]
    assert sorted(r.scenario for r in ResultsStore(store).finished().values()) == [ANSWERED, OVEREAGER]

    assert main([*run]) == 1  # the table: the same rate, and one line saying which runs it left out and why
    table = capsys.readouterr().out.splitlines()
    unscored = [line for line in table if line.startswith("UNSCORED")]
    assert unscored == [f"UNSCORED: {ran['crash']}"]
    assert ran["crash"].startswith("1 scenario-run(s) left out of the rates: 1 test runs crashed (the machine")
    cell = next(line for line in table if line.startswith("scripted:moderate "))
    assert "50.0%" in cell and "(1/2)" in cell
