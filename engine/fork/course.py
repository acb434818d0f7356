"""A session's course: what happened in it, without how it was watched or commanded, and an event as
two runs of one session must agree on it (a fork's re-execution checks these; ``compare`` reads them)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from channel.events import Event

NOT_THE_COURSE = frozenset(
    {
        "Forked", "SessionPaused", "SessionResumed", "SpeedChanged", "CommandRefused", "PresenceChanged",
        "TokensStreamed", "RoomChanged", "VoteCast", "VoteRuleSet", "VoteClosed",
    }
)  # fmt: skip
"""Event kinds that record how a session was watched or commanded, not what happened in it: a fork
neither reproduces nor compares them. A room's (who was present, their votes, the rule, the tally) are
people's doings like a pause; what a vote decided is the course: the ``ReviewDecided`` by ``room``
that follows it, which a fork repeats as it repeats a human reviewer's decisions."""
VOLATILE = frozenset({"session", "seq", "ts", "duration_ms", "first_token_ms", "config", "pid", "parent_pid", "paused"})
"""Fields that differ between two runs of the same session (ids, clocks, timings, run options,
process ids; whether a lesson's prompt paused it: on a screen it does, headless it does not)."""
_SANDBOX_DIR = re.compile(r"/scopewatch-sandbox-[^/\s]+")
"""A sandbox's private folder in a program's arguments (``ls ~`` expands HOME): another one per run."""


def changes_text(norms: dict[str, Any], agents: dict[str, str]) -> str:
    """A fork's changes as a person would type them: ``admin_only=true, owner=human``."""
    parts = [f"{k}={json.dumps(v)}" for k, v in norms.items()] + [f"{k}={v}" for k, v in agents.items()]
    return ", ".join(parts) or "no change"


def course(events: Sequence[Event]) -> list[Event]:
    """What happened in a session, without how it was watched or commanded (:data:`NOT_THE_COURSE`)."""
    return [e for e in events if e.kind not in NOT_THE_COURSE]


def comparable(event: Event, position: Callable[[int], int | None] | None = None) -> dict[str, Any]:
    """An event as two runs of one session must agree on it (without :data:`VOLATILE` fields).

    A field that names another event by its seq (``*_seq``, e.g. ``FavorChecked.write_seq``) is
    replaced by ``position(seq)``, that event's place in its run's course: a fork's seqs are shifted
    by its ``Forked`` header (and by any watching events), its course is not."""
    data = {k: v for k, v in event.model_dump(mode="json").items() if k not in VOLATILE}
    if isinstance(data.get("argv"), list):
        data["argv"] = [_SANDBOX_DIR.sub("/<sandbox>", a) if isinstance(a, str) else a for a in data["argv"]]
    if position is not None:
        for key, value in data.items():
            if key.endswith("_seq") and isinstance(value, int):
                data[key] = position(value)
    return data


def comparable_pair(
    parent: Event, fork: Event, parent_at: Callable[[int], int | None], fork_at: Callable[[int], int | None]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A parent's event and a fork's as :func:`comparable` gives them, the pack hash left out of both when the parent
    has none (recorded before packs were hashed: its pack is unknown, not another one)."""
    return unhashed(comparable(parent, parent_at), comparable(fork, fork_at))


def unhashed(theirs: dict[str, Any], mine: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A parent's :func:`comparable` event and a fork's, the pack hash left out of both when the parent has none
    (recorded before packs were hashed)."""
    if theirs.get("pack_hash") == "":
        theirs, mine = dict(theirs), dict(mine)
        del theirs["pack_hash"]
        mine.pop("pack_hash", None)
    return theirs, mine


def positions(events: Sequence[Event]) -> dict[int, int]:
    """seq -> place in the course, for :func:`comparable`."""
    return {e.seq: i for i, e in enumerate(course(events))}


def describe(event: Event) -> str:
    """A few words naming an event (a divergence message, a comparison)."""
    detail = next((getattr(event, f) for f in ("tool", "path", "key", "agent_id") if getattr(event, f, None)), "")
    actor = f" by {event.actor}" if event.actor != "engine" else ""
    return f"{event.kind}{' ' + str(detail) if detail else ''}{actor}"
