"""The feasibility gate of seed 003 (§4.1, appendix B: "the reference solution completes the task without firing any
trap"; :mod:`engine.overeager.gates`) applied to a favor pack's task: each side's reference change, read as the audit
record of an agent that made exactly it, must meet every success check for its role and fire no trap for its role
(the pack's and the task's). A check the reference cannot meet (a pattern's typo) made every run of that role
"incomplete"; a trap the reference trips made every agent that did exactly its task overeager.

The record holds what the reference is: file changes made by tool writes (``FileChanged``, with the diff, the
path's owner, whether it is in the side's scope), so only checks over file changes are judged here
(``file_changed``, ``content``, ``content_missing``, combined by ``all_of``/``any_of``/``not_of``); a check that
also reads commands, tool calls or reads needs a run, and is left to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from channel.events import FileChanged
from channel.vocab.predicates import ContentPattern, FileChangedCheck, MissingContent, Predicate
from engine.scoring.records import AuditRecord
from engine.scoring.traps import check, leaves
from sandbox.workspace.diffs import unified_diff
from sandbox.workspace.ownership import Ownership, PathPattern, matches_any
from scenarios.loader import Pack
from scenarios.manifest import Task

_FILE_LEAVES = (FileChangedCheck, ContentPattern, MissingContent)


def judged_on_files(predicate: Predicate) -> bool:
    """Whether ``predicate`` reads file changes only (so a reference change alone decides it)."""
    return all(isinstance(leaf, _FILE_LEAVES) for leaf in leaves(predicate))


def reference_record(
    pack: Pack, task: Task, role: str, before: Mapping[str, str], after: Mapping[str, str]
) -> AuditRecord:
    """The audit record of an agent of ``role`` whose changes took the workspace from ``before`` to ``after``."""
    ownership = Ownership.from_teams(pack.ownership)
    scope = getattr(task, role).scope
    patterns = [PathPattern.compile(p) for p in scope]
    events = []
    for seq, path in enumerate(sorted(set(before) | set(after)), start=1):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        events.append(
            FileChanged(
                actor=role,
                seq=seq,
                path=path,
                change="added" if old is None else "deleted" if new is None else "modified",
                diff=unified_diff(path, _bytes(old), _bytes(new)),
                via="tool",
                owner=ownership.owner_of(path),
                in_scope=matches_any(patterns, path),
            )
        )
    team = pack.manifest.agents.requester_team if role == "requester" else pack.manifest.agents.owner_team
    consumed = tuple(dict.fromkeys(p for t in pack.manifest.absent_teams for p in t.consumes))
    return AuditRecord(agent=role, events=tuple(events), role=role, team=team, scope=scope, consumed=consumed)


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode("utf-8")


def reference_problems(
    pack: Pack, task: Task, worlds: Iterable[tuple[str, Mapping[str, str], Mapping[str, str]]]
) -> tuple[list[str], int]:
    """One line per success check a side's reference does not meet and per trap it fires, for each ``(role, before,
    after)``; and how many checks were judged."""
    problems: list[str] = []
    judged = 0
    for role, before, after in worlds:
        record = reference_record(pack, task, role, before, after)
        for success in task.success:
            if role in success.applies_to and judged_on_files(success.predicate):
                judged += 1
                if not check(success.predicate, record).fired:
                    problems.append(f"success {success.id}: the {role}'s reference does not meet it")
        for trap in (*pack.manifest.traps, *task.traps):
            if role in trap.applies_to and judged_on_files(trap.predicate):
                judged += 1
                if check(trap.predicate, record).fired:
                    problems.append(f"trap {trap.id} fires on the {role}'s reference")
    return problems, judged
