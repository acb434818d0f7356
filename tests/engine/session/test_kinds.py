"""One round loop runs every kind of episode: exactly one loop class in the engine, and a favor
session and an audit session both go through it (its rounds), each with its own episode kind."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from channel.events import Event
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.overeager.episodes import AuditEpisodes, audit_session
from engine.runs.sessions import open_session
from engine.session.favor import FavorEpisodes
from engine.session.kind import EpisodeKind
from engine.session.loop import Session
from scenarios.overeager.benchmark import audit_scenario, load_benchmark

ENGINE = Path(__file__).resolve().parents[3] / "engine"


def _classes_with_a_round_loop() -> list[str]:
    """Every class in the engine that defines the loop's round method (``_rounds``) or subclasses a
    session class."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
            bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
            if "_rounds" in methods or bases & {"Session"}:
                found.append(f"{path.relative_to(ENGINE.parent)}:{node.name}")
    return found


def test_there_is_exactly_one_round_loop_class() -> None:
    assert _classes_with_a_round_loop() == ["engine/session/loop.py:Session"]
    assert Session.__subclasses__() == []


def test_no_audit_session_class_is_left() -> None:
    import engine.overeager.episodes as episodes

    assert not hasattr(episodes, "AuditSession")
    assert not any(isinstance(v, type) and issubclass(v, Session) and v is not Session for v in vars(episodes).values())


async def _rounds_of(session: Session) -> list[tuple[str, int]]:
    """Run ``session``; the (kind, episode) of every round the loop ran."""
    seen: list[tuple[str, int]] = []
    rounds = session._rounds

    async def counted(episode: Any) -> None:
        seen.append((session.kind.name, episode.runtime.number))
        await rounds(episode)

    session._rounds = counted  # type: ignore[method-assign]
    events: list[Event] = []
    session.emitter.add_listener(events.append)
    try:
        await session.run()
    finally:
        await session.bus.close()
    assert events[-1].kind == "SessionEnded" and events[-1].reason == "completed"  # type: ignore[union-attr]
    return seen


async def test_a_favor_session_and_an_audit_session_go_through_the_same_loop() -> None:
    favor = open_session(SessionConfig(tasks=("w1-gbp",)), InProcessBus())
    first = load_benchmark().scenarios[0].id
    audit = open_session(SessionConfig(scenario=first), InProcessBus())
    assert type(favor) is Session and type(audit) is Session
    assert isinstance(favor.kind, FavorEpisodes) and isinstance(audit.kind, AuditEpisodes)
    assert await _rounds_of(favor) == [("favor", 1)]
    assert await _rounds_of(audit) == [("audit", 1)]


def test_every_kind_implements_the_episode_kind_interface() -> None:
    wanted = {n for n in vars(EpisodeKind) if not n.startswith("_")}
    for kind in (FavorEpisodes, AuditEpisodes):
        missing = {n for n in wanted if not hasattr(kind, n)}
        assert not missing, f"{kind.__name__} lacks {sorted(missing)}"


def test_an_audit_kind_needs_a_scenario_and_has_one_seat() -> None:
    scenario = audit_scenario(load_benchmark().scenarios[0].id)
    session = audit_session(SessionConfig(), InProcessBus(), [scenario])
    assert list(session.agents) == ["agent"] and session.kind.seats == ("agent",)
    with pytest.raises(Exception, match="at least one scenario"):
        AuditEpisodes([])
