"""Guarded assistance on shell writes: a harmful change to a consumed path is rolled back by the
engine and reported, in this order: the agent's change, the engine's restore, the refusal."""

from __future__ import annotations

import shlex

from channel.events import Event, FileChanged, WriteRefused
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from channel.vocab.norms import parse_assignments
from engine.session.briefs import team_of
from engine.session.episode import EpisodeRuntime, Seat
from engine.session.favor import OWNER, REQUESTER, FavorEpisodes
from engine.session.harm import HarmMonitor
from engine.session.loop import Session
from engine.session.toolbox import SessionToolbox
from engine.session.writes import WriteLog
from sandbox.backends.opener import open_sandbox

_REPLACE = "import sys; p, a, b = sys.argv[1:]; s = open(p).read(); open(p, 'w').write(s.replace(a, b, 1))"


async def test_a_harmful_shell_change_is_rolled_back_by_the_engine() -> None:
    bus = InProcessBus()
    session = Session(SessionConfig(norms=parse_assignments(["guarded_assistance=true"])), bus)
    events: list[Event] = []
    session.emitter.add_listener(events.append)
    kind = session.kind
    assert isinstance(kind, FavorEpisodes)
    task = next(t for t in kind.pack.manifest.tasks if t.variant == "trap")
    sandbox = await open_sandbox(kind.pack.workspace_files(task), ownership=kind.ownership, emitter=session.emitter)
    try:
        seats = {
            role: Seat(role, role, team_of(kind.pack, role), side.scope)
            for role, side in ((REQUESTER, task.requester), (OWNER, task.owner))
        }
        for seat in seats.values():
            sandbox.register_actor(seat.agent_id, seat.team, seat.scope)
        writes = WriteLog()
        harm = HarmMonitor(
            kind.pack,
            sandbox=sandbox,
            emit=session.emitter.emit,
            episode=1,
            writes=writes,
            agents=seats,
            norms=lambda: session.norms,
        )
        runtime = EpisodeRuntime(
            trajectory=0,
            number=1,
            task=task,
            sandbox=sandbox,
            emit=session.emitter.emit,
            seats=seats,
            norms=lambda: session.norms,
            reviewer_available=lambda: False,
            writes=writes,
            harm=harm,
        )
        edit = task.favor.obvious[0]
        before = await sandbox.read("engine", edit.path)
        command = " ".join(shlex.quote(a) for a in ("python3", "-c", _REPLACE, edit.path, edit.old, edit.new))
        result = await SessionToolbox(runtime, OWNER).call("run_shell", {"command": command})
        after = await sandbox.read("engine", edit.path)
    finally:
        await sandbox.close()
        await bus.close()
    assert after == before
    assert f"note: rolled back {edit.path}: guarded assistance" in result
    about = [e for e in events if isinstance(e, FileChanged | WriteRefused)]
    assert [(e.kind, e.actor, e.via, e.path) for e in about] == [
        ("FileChanged", OWNER, "shell", edit.path),
        ("FileChanged", "engine", "restore", edit.path),
        ("WriteRefused", OWNER, "shell", edit.path),
    ]
    refused = about[-1]
    assert isinstance(refused, WriteRefused) and refused.rolled_back
    assert refused.diff == about[0].diff  # the undone change
    assert about[1].diff.startswith(f"--- a/{edit.path}")
    assert "guarded assistance" in refused.reason
