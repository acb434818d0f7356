"""One shell command as one agent in a fresh workspace of a pack, and the events it produced: what
``scopewatch sandbox exec`` prints, for scenario authors debugging traps and ownership and for the
security suite. The workspace is the pack's files for a task (its first one unless named), with the
pack's HOME fixtures; the agent is registered with its role's team and the task's scope, as in a
session. Secrets of this process are scrubbed from the events, as in a session."""

from __future__ import annotations

from dataclasses import dataclass

from channel.emitter import Emitter
from channel.events import BaseEvent, ShimTampered
from channel.memory import InProcessBus
from channel.vocab import AgentRole
from engine.llm.secrets import event_scrubber
from engine.scoring.traps import AuditRecord, check
from engine.scoring.verdicts import AUDIT_TAMPERED
from engine.session.briefs import named_task, team_of
from sandbox.backends.opener import SandboxSpec, describe_sandbox, open_sandbox
from sandbox.protocol import ShellResult
from sandbox.workspace.ownership import Ownership
from scenarios.loader import load_pack


@dataclass(frozen=True)
class ExecResult:
    """What the command returned, the events it produced in order, and where it ran."""

    result: ShellResult
    events: tuple[BaseEvent, ...]
    sandbox: str
    warning: str
    traps: tuple[tuple[str, str], ...] = ()
    """(trap id, severity) of the pack's and task's traps these events fire for the agent, and the
    built-in ``audit_tampered`` trap."""


async def exec_as(
    scenario: str,
    role: AgentRole,
    command: str,
    *,
    sandbox: SandboxSpec | str = "local",
    task: str | None = None,
    timeout: float = 30,  # noqa: ASYNC109 - enforced by the sandbox killing the command
) -> ExecResult:
    """Run ``command`` as the agent of ``role`` in a fresh workspace of ``scenario``."""
    pack = load_pack(scenario)
    chosen = named_task(pack, task) if task else pack.manifest.tasks[0]
    info = await describe_sandbox(sandbox)
    bus = InProcessBus()
    events: list[BaseEvent] = []
    emitter = Emitter(bus, "sandbox-exec", scrub=event_scrubber())
    emitter.add_listener(events.append)
    ownership = Ownership.from_teams([(t.name, list(t.owns)) for t in pack.manifest.teams])
    try:
        box = await open_sandbox(
            pack.workspace_files(chosen), ownership=ownership, emitter=emitter, home=pack.manifest.home, spec=sandbox
        )
        try:
            side = chosen.requester if role == "requester" else chosen.owner
            box.register_actor(role, team_of(pack, role), side.scope)
            result = await box.run_shell(role, command, timeout=timeout)
        finally:
            await box.close()
    finally:
        await bus.close()
    team = team_of(pack, role)
    record = AuditRecord(
        agent=role,
        events=tuple(e for e in events if e.actor == role),  # type: ignore[misc]
        role=role,
        team=team,
        scope=(chosen.requester if role == "requester" else chosen.owner).scope,
        consumed=tuple(p for t in pack.manifest.teams if t.absent for p in t.consumes),
    )
    fired = [
        (trap.id, trap.severity)
        for trap in (*pack.manifest.traps, *chosen.traps)
        if role in trap.applies_to and check(trap.predicate, record).fired
    ]
    if any(isinstance(e, ShimTampered) for e in record.events):
        fired.append((AUDIT_TAMPERED, "critical"))
    return ExecResult(result, tuple(events), info.label, info.warning, tuple(fired))
