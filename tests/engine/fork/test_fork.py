"""Forking a recording at an event (issue 17): a changed norm changes what follows, no change
reproduces the parent, and what a re-run cannot reproduce is refused in one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from channel.events import EpisodeStarted, Event, FileChanged, Forked, NormChanged, SessionStarted, TurnStarted
from channel.recorder import RecordingError, load_recording
from channel.vocab.config import SessionConfig
from engine.export.inspect_log import recording_hash
from engine.fork.compare import compare_fork
from engine.fork.course import comparable, course, positions
from engine.fork.errors import ForkDiverged, ForkError
from engine.fork.plan import plan_fork
from engine.fork.split import split_course
from engine.runs.runner import run_session
from engine.scoring.judge import EpisodeLabel, judge
from tui.cli import main

PARENT = SessionConfig(seed=13, tasks=("t1-dates", "t2-retries"))
"""Two trap episodes; in episode 2 the scripted owner does the requester a solicited favor (seed 13)."""


@pytest.fixture(scope="module")
def parent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import asyncio

    path = tmp_path_factory.mktemp("fork") / "parent.jsonl"
    asyncio.run(run_session(PARENT, record=str(path)))
    return path


def labels(events: list[Event]) -> dict[int, EpisodeLabel]:
    return {label.episode: label for label in judge(events)}


def start_of(events: list[Event], episode: int) -> int:
    return next(e.seq for e in events if isinstance(e, EpisodeStarted) and e.episode == episode)


async def test_admin_only_at_the_fork_point_takes_the_favor_away(parent: Path, tmp_path: Path) -> None:
    events = load_recording(parent)
    favor = labels(events)[2]
    assert favor.favor and favor.favor_type == "solicited"
    at = start_of(events, 2)
    owner_favor_write = next(
        e for e in events if isinstance(e, FileChanged) and e.actor == "owner" and e.path in favor_paths(events, 2)
    )
    assert at < owner_favor_write.seq  # the fork point comes before the owner's favor

    out = tmp_path / "fork.jsonl"
    plan = plan_fork(parent, at, norms={"admin_only": "true"})
    assert plan.norms == {"admin_only": True}
    await run_session(plan.config, record=str(out), fork=plan)

    fork = load_recording(out)
    header = fork[0]
    assert isinstance(header, Forked)
    assert (header.parent, header.at, header.norms) == (recording_hash(parent), at, {"admin_only": True})
    # Up to the fork point the fork is the parent again; the change is applied right after it.
    p, f = course(events), course(fork)
    p_at, f_at = positions(events), positions(fork)
    upto = sum(1 for e in p if e.seq <= at)
    assert [comparable(e, f_at.get) for e in f[:upto]] == [comparable(e, p_at.get) for e in p[:upto]]
    change = f[upto]
    assert isinstance(change, NormChanged) and (change.actor, change.key, change.new) == ("fork", "admin_only", True)
    assert isinstance(f[upto + 1], TurnStarted)
    # The parent's episode had the favor; the fork's has none.
    assert labels(fork)[1].model_copy(update={"end_seq": 0}) == labels(events)[1].model_copy(update={"end_seq": 0})
    assert not labels(fork)[2].favor

    result = compare_fork(events, fork, parent_hash=recording_hash(parent))
    assert result.changes == "admin_only=true"
    assert [(r.episode, r.parent and r.parent["favor"], r.fork and r.fork["favor"]) for r in result.episodes] == [
        (2, True, False)
    ]
    # The fork's own change is no difference (docs/classroom.md): the first difference is where it changed
    # something, the same one the split view names.
    assert result.first_difference is not None
    assert result.first_difference.fork_event != "NormChanged admin_only by fork"
    assert result.first_difference == split_course(events, fork).first_difference


def favor_paths(events: list[Event], episode: int) -> tuple[str, ...]:
    return next(e.beneficiary_paths for e in events if isinstance(e, EpisodeStarted) and e.episode == episode)


async def test_a_fork_with_no_change_matches_the_parent_after_the_fork_point(parent: Path, tmp_path: Path) -> None:
    events = load_recording(parent)
    at = next(e.seq for e in events if isinstance(e, TurnStarted) and e.actor == "owner" and e.seq > 60)
    out = tmp_path / "same.jsonl"
    plan = plan_fork(parent, at)
    assert plan.norms == {} and plan.agents == {}
    await run_session(plan.config, record=str(out), fork=plan)
    fork = load_recording(out)
    p, f = course(events), course(fork)
    p_at, f_at = positions(events), positions(fork)
    assert len(f) == len(p)
    after = sum(1 for e in p if e.seq <= at)
    assert after < len(p)
    assert [comparable(e, f_at.get) for e in f[after:]] == [comparable(e, p_at.get) for e in p[after:]]
    assert compare_fork(events, fork, parent_hash=recording_hash(parent)).first_difference is None


def tampered_copy(parent: Path, tmp_path: Path) -> tuple[Path, int]:
    """The parent with the first read_file's result changed: a re-run cannot reproduce it."""
    tampered = []
    target = None
    for line in parent.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        if target is None and data["kind"] == "ToolCalled" and data["tool"] == "read_file":
            data["result"] = "something else"
            target = data["seq"]
        tampered.append(json.dumps(data))
    other = tmp_path / "tampered.jsonl"
    other.write_text("\n".join(tampered) + "\n", encoding="utf-8")
    assert target is not None
    return other, target


async def test_a_parent_the_re_run_does_not_reproduce_is_refused_naming_the_event(parent: Path, tmp_path: Path) -> None:
    other, target = tampered_copy(parent, tmp_path)
    plan = plan_fork(other, target + 20)
    # Both sides alike but for the result: the line names the field and the pack's files, not only the agents
    # (outside tester, packs3 06: "the parent had ToolCalled read_file by requester, the re-run ToolCalled ...").
    with pytest.raises(ForkDiverged) as info:
        await run_session(plan.config, fork=plan)
    assert str(info.value).startswith(
        f"the fork differs from the parent at its event {target}: both had ToolCalled read_file by "
    ), str(info.value)
    assert "with a different result (the re-run reads the pack as it is now: were its files or tests changed" in str(
        info.value
    )


def test_bad_forks_are_refused_in_one_line(parent: Path, tmp_path: Path) -> None:
    events = load_recording(parent)
    with pytest.raises(ForkError, match=r"--at 9999: .* has no event with that seq"):
        plan_fork(parent, 9999)
    with pytest.raises(ForkError, match="no agent turn follows it"):
        plan_fork(parent, events[-1].seq)
    with pytest.raises(ForkError, match="unknown norm 'admin'"):
        plan_fork(parent, 5, norms={"admin": "true"})
    with pytest.raises(ForkError, match="the owner's seat needs a person"):
        plan_fork(parent, 5, agents={"owner": "human"}, headless=True)
    # A model played the owner: a re-run cannot repeat it.
    lines = []
    for line in parent.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        if data["kind"] == "SessionStarted":
            data["agents"][1]["kind"] = "llm:openai/gpt-4o-mini"
        lines.append(json.dumps(data))
    llm = tmp_path / "llm.jsonl"
    llm.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ForkError, match="the parent's owner was 'llm:openai/gpt-4o-mini'"):
        plan_fork(llm, 60)


def test_fork_at_finds_its_event_through_the_index_and_reads_no_further_than_it_needs(
    parent: Path, tmp_path: Path
) -> None:
    """``--at`` through the recording's index (issue 29): the events up to the fork point are read,
    after it only up to the next agent turn (and the last event). The copy's events after that are
    overwritten with garbage of the same length, its modification time kept, so its index still
    matches: the fork is planned as on the intact recording, which a whole read would refuse."""
    events = load_recording(parent)
    at = start_of(events, 1)
    copy = tmp_path / "parent.jsonl"
    copy.write_bytes(parent.read_bytes())
    intact = plan_fork(copy, at)  # builds the index beside it
    turn = next(i for i, e in enumerate(events) if isinstance(e, TurnStarted) and e.seq > at)
    lines = copy.read_bytes().splitlines(keepends=True)
    garbled = [b"x" * (len(line) - 1) + b"\n" if turn < i < len(lines) - 1 else line for i, line in enumerate(lines)]
    info = copy.stat()
    copy.write_bytes(b"".join(garbled))
    os.utime(copy, ns=(info.st_atime_ns, info.st_mtime_ns))
    with pytest.raises(RecordingError, match="not a scopewatch event"):
        load_recording(copy)  # the garbage is there
    again = plan_fork(copy, at)
    assert again.prefix == intact.prefix and again.config == intact.config and again.norms == intact.norms
    assert len(again.prefix) <= at < len(events) // 2


def test_the_session_config_is_recorded_so_a_fork_can_rebuild_it(parent: Path) -> None:
    started = load_recording(parent)[0]
    assert isinstance(started, SessionStarted)
    assert SessionConfig.model_validate(started.config) == PARENT
    assert "reviewer_secret" not in started.config


def test_fork_and_report_on_the_command_line(parent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    at = start_of(load_recording(parent), 2)
    out = tmp_path / "cli.jsonl"
    argv = ["fork", str(parent), "--at", str(at), "--norm", "admin_only=true", "--headless", "--json"]
    assert main([*argv, "--record", str(out)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["favors"] == 1  # episode 1's favor stays; episode 2's is gone
    assert f"after seq {at}: admin_only=true" in captured.err
    assert main(["report", str(out), "--parent", str(parent)]) == 0
    table = capsys.readouterr().out
    assert "admin_only=true" in table and "favor (solicited)" in table
    assert main(["report", str(out), "--parent", str(out)]) == 2
    assert "not this fork's parent" in capsys.readouterr().err


async def test_an_audit_session_forks_like_a_favor_session(tmp_path: Path) -> None:
    """Fork works on every episode kind: an audit session (``run --scenario AUDIT-ID``) re-runs to the
    fork point event for event, then a norm changed there (a turn budget of 1) changes what follows."""
    from scenarios.overeager.benchmark import load_benchmark

    first = load_benchmark().scenarios[0].id
    parent_path, fork_path = tmp_path / "audit.jsonl", tmp_path / "audit-fork.jsonl"
    await run_session(SessionConfig(scenario=first, persona="overeager"), record=str(parent_path))
    parent = load_recording(parent_path)
    turns = [e.seq for e in parent if isinstance(e, TurnStarted)]
    assert len(turns) >= 2 and [a.id for a in next(e for e in parent if isinstance(e, SessionStarted)).agents] == [
        "agent"
    ]
    plan = plan_fork(parent_path, turns[0], norms={"turn_budget": "1"})
    await run_session(plan.config, record=str(fork_path), fork=plan)
    fork = load_recording(fork_path)
    assert isinstance(fork[0], Forked) and fork[0].at == turns[0]
    reproduced = course(fork)[: len(plan.prefix)]
    where = positions(fork)
    assert [comparable(e, where.get) for e in reproduced] == [comparable(e, positions(parent).get) for e in plan.prefix]
    assert len([e for e in fork if isinstance(e, TurnStarted)]) < len(turns)
    with pytest.raises(ForkError, match=r"no seat 'owner' in .* \(its seats: agent\)"):
        plan_fork(parent_path, turns[0], agents={"owner": "human"})


def test_a_pack_folder_recorded_as_typed_is_found_beside_the_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.fork.plan import _pack_folder

    pack = tmp_path / "runs" / "packB"
    pack.mkdir(parents=True)
    (pack / "scenario.toml").write_text("")
    recording = tmp_path / "runs" / "r.jsonl"
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "packB").mkdir(parents=True)
    (elsewhere / "packB" / "scenario.toml").write_text("")
    monkeypatch.chdir(elsewhere)
    assert _pack_folder("packB", recording) == str(pack)  # not the other pack of the same name here
    assert _pack_folder("favorbench-mini", recording) == "favorbench-mini"
    assert _pack_folder(str(pack), recording) == str(pack)


def test_run_records_a_pack_folder_by_its_absolute_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from scenarios.loader import PACKS_DIR
    from tui.cli import build_parser
    from tui.cli.common import session_config

    shutil.copytree(PACKS_DIR / "favorbench-mini", tmp_path / "packB")
    monkeypatch.chdir(tmp_path)
    args = build_parser().parse_args(["run", "--headless", "--scenario", "packB"])
    assert session_config(args).scenario == str(tmp_path / "packB")
    args = build_parser().parse_args(["run", "--headless", "--scenario", "favorbench-mini"])
    assert session_config(args).scenario == "favorbench-mini"
