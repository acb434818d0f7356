"""The episode's jail started early (sandbox.commands.keeper): a session's sandbox starts it as it opens; the first
command takes that jail (or waits for its start), its events are those of a jail started by the command, a close
during the start leaves no process, and a start that fails leaves the per-command path."""

from __future__ import annotations

import asyncio
import gc
import os
from pathlib import Path

import pytest

from channel.emitter import Emitter
from channel.events import ShellCommandRan
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.backends.opener import open_sandbox
from sandbox.commands.episode import EpisodeJail
from sandbox.jail.isolation import Isolation, _works
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS, drain

COMMANDS = ("git status --short", "ls services > /dev/null; cat README.md | wc -l", "python3 -c 'print(1)'")


async def _sandbox(bus: InProcessBus) -> LocalSandbox:
    if not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    sb = await LocalSandbox.create(
        FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "keeper"), isolation=Isolation("bubblewrap")
    )
    if "one jail per episode" not in sb.label:
        await sb.close()
        pytest.skip(f"no jail per episode here: {sb.label}")
    sb.register_actor("alice", "billing")
    return sb


def _ran(events: list[object]) -> list[tuple[object, ...]]:
    return sorted(
        (e.argv, e.cwd, e.exit_code, e.atom, e.source, e.program, e.command)
        for e in events
        if isinstance(e, ShellCommandRan)
    )


def _processes_under(base: Path) -> list[str]:
    """The command lines of the live processes that name ``base`` (the jail's bwrap, strace, server)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                line = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(base) in line:
            found.append(line[:200])
    return found


async def _alive(sb: LocalSandbox) -> EpisodeJail:
    for _ in range(1000):
        jail = sb._shell.jails.jail
        if jail is not None and jail.alive:
            return jail
        await asyncio.sleep(0.01)
    raise AssertionError("the early start did not bring the jail up within 10 s")


async def test_the_first_command_takes_the_early_jail_and_its_events_are_the_same() -> None:
    bus = InProcessBus()
    ran = {}
    for early in (False, True):
        sub = await bus.subscribe("events/#")
        sb = await _sandbox(bus)
        try:
            if early:
                sb.start_jail()
                jail = await _alive(sb)
            for command in COMMANDS:
                result = await sb.run_shell("alice", command)
                assert result.exit_code == 0, result.output
            if early:
                assert sb._shell.jails.jail is jail and jail.alive  # taken, not started again
            ran[early] = _ran(await drain(sub))
        finally:
            await sb.close()
    await bus.close()
    assert ran[True] == ran[False] and ran[True]


async def test_a_command_during_the_early_start_waits_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    starts = 0
    original = EpisodeJail.start

    async def counted(self: EpisodeJail, jail: object) -> bool:
        nonlocal starts
        starts += 1
        return await original(self, jail)  # type: ignore[arg-type]

    monkeypatch.setattr(EpisodeJail, "start", counted)
    bus = InProcessBus()
    sb = await _sandbox(bus)
    try:
        sb.start_jail()
        sb.start_jail()  # once
        result = await sb.run_shell("alice", "echo hi")
        assert result.output.strip() == "hi"
        await sb.run_shell("alice", "true")
        assert starts == 1
    finally:
        await sb.close()
        await bus.close()


async def _close_while_starting(after: float) -> Path:
    bus = InProcessBus()
    sb = await _sandbox(bus)
    sb.start_jail()
    await asyncio.sleep(after)
    await sb.close()
    await bus.close()
    return sb.root.parent


@pytest.mark.parametrize("after", [0.0, 0.005, 0.02, 0.05, 0.1])
async def test_a_close_during_the_early_start_leaves_no_process(after: float) -> None:
    errors: list[dict[str, object]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _, context: errors.append(context))
    base = await _close_while_starting(after)
    await asyncio.sleep(0.05)
    gc.collect()  # a task that failed unseen says so as it is collected (the sandbox gone with its references)
    assert not errors, [str(e.get("exception") or e.get("message")) for e in errors]
    for _ in range(100):  # reaped by close; a kill's delivery may lag a few ms
        left = _processes_under(base)
        if not left:
            break
        await asyncio.sleep(0.02)
    assert not left, left


async def test_an_early_start_that_fails_leaves_the_per_command_path(monkeypatch: pytest.MonkeyPatch) -> None:
    async def refused(*_: object) -> object:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(EpisodeJail, "_spawn", refused)
    bus = InProcessBus()
    sb = await _sandbox(bus)
    try:
        sb.start_jail()
        result = await sb.run_shell("alice", "echo fine")
        assert result.exit_code == 0 and result.output.strip() == "fine"
        assert "jail per command: the jail did not start" in sb.label
    finally:
        await sb.close()
        await bus.close()


async def test_a_sessions_sandbox_starts_its_jail_as_it_opens() -> None:
    if not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    bus = InProcessBus()
    sb = await open_sandbox(FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "keeper"))
    try:
        assert isinstance(sb, LocalSandbox)
        if "one jail per episode" not in sb.label:
            pytest.skip(f"no jail per episode here: {sb.label}")
        await _alive(sb)  # with no command run
    finally:
        await sb.close()
        await bus.close()
