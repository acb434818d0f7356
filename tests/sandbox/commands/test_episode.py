"""One jail per episode (sandbox.commands.episode): the jail and tracer are started once and kept, and each
command still gets what a jail of its own gave it: its events, its timeout, nothing it left running;
the command server is out of a command's reach."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from channel.emitter import Emitter
from channel.events import ShellCommandRan
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.commands.episode import EpisodeJail
from sandbox.jail.isolation import Isolation, _works
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS, drain

COMMANDS = (
    "git status --short",
    "ls services > /dev/null; cat README.md | wc -l",
    "sh -c 'rm -f services/billing/old.txt'",
    "python3 -c 'print(1)'",
)


async def _sandbox(bus: InProcessBus, mode: str) -> LocalSandbox:
    if not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    os.environ["SCOPEWATCH_JAIL"] = mode
    try:
        sb = await LocalSandbox.create(
            FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, mode), isolation=Isolation("bubblewrap")
        )
    finally:
        os.environ.pop("SCOPEWATCH_JAIL", None)
    if not sb.label.endswith("+ strace"):
        await sb.close()
        pytest.skip(f"no exec tracer here: {sb.label}")
    sb.register_actor("alice", "billing")
    return sb


@pytest.fixture
async def episode() -> AsyncIterator[tuple[LocalSandbox, InProcessBus]]:
    bus = InProcessBus()
    sb = await _sandbox(bus, "episode")
    try:
        yield sb, bus
    finally:
        await sb.close()
        await bus.close()


def _facts(events: list[object]) -> list[tuple[object, ...]]:
    """What an event says, without what differs between any two runs (pids, times, and the order of the
    programs of one command that ran at once: ``cat README.md | wc -l`` execs ``cat`` and ``wc`` in
    either order, in a jail of its own as in the episode's)."""
    out: list[tuple[object, ...]] = []
    ran: list[tuple[object, ...]] = []
    for e in events:
        if isinstance(e, ShellCommandRan):
            fact = (e.kind, e.argv, e.cwd, e.exit_code, e.atom, e.source, e.program, e.command)
            if ran and ran[-1][-1] != e.command:
                out += sorted(ran, key=repr)
                ran = []
            ran.append(fact)
            continue
        out += sorted(ran, key=repr)
        ran = []
        out.append((type(e).__name__, *(v for k, v in e.model_dump().items() if k not in ("ts", "seq", "session"))))  # type: ignore[attr-defined]
    return out + sorted(ran, key=repr)


async def test_the_events_are_those_of_a_jail_per_command() -> None:
    bus = InProcessBus()
    facts = {}
    for mode in ("command", "episode"):
        sub = await bus.subscribe("events/#")
        sb = await _sandbox(bus, mode)
        try:
            assert ("one jail per episode" in sb.label) == (mode == "episode")
            for command in COMMANDS:
                await sb.run_shell("alice", command)
            facts[mode] = _facts(await drain(sub))
        finally:
            await sb.close()
    await bus.close()
    assert facts["episode"] == facts["command"]
    assert any(f[0] == "ShellCommandRan" and f[5] == "trace" for f in facts["episode"])


async def test_the_jail_is_kept_and_nothing_a_command_left_reaches_the_next(
    episode: tuple[LocalSandbox, InProcessBus],
) -> None:
    sb, _ = episode
    first = await sb.run_shell("alice", "sleep 1000 & echo started")
    assert first.output.strip() == "started"
    jail = sb._shell.jails.jail
    assert jail is not None and jail.alive
    after = await sb.run_shell("alice", "ps -e -o comm=")
    assert "sleep" not in after.output.split()
    assert sb._shell.jails.jail is jail and jail.alive


async def test_a_command_keeps_its_own_timeout(episode: tuple[LocalSandbox, InProcessBus]) -> None:
    sb, _ = episode
    slow = await sb.run_shell("alice", "sleep 60", timeout=1)
    assert slow.timed_out and slow.exit_code == 124
    again = await sb.run_shell("alice", "echo still here")
    assert again.output.strip() == "still here"


async def test_the_command_server_is_out_of_reach(episode: tuple[LocalSandbox, InProcessBus]) -> None:
    sb, _ = episode
    command = "kill -9 $PPID || echo refused; cat /proc/$PPID/environ || echo hidden; echo on"
    result = await sb.run_shell("alice", command)
    assert "refused" in result.output and "hidden" in result.output and result.output.strip().endswith("on")
    jail = sb._shell.jails.jail
    assert jail is not None and jail.alive


async def test_a_cancelled_command_ends_its_jail_and_the_next_gets_a_fresh_one(
    episode: tuple[LocalSandbox, InProcessBus],
) -> None:
    sb, _ = episode
    running = asyncio.ensure_future(sb.run_shell("alice", "touch started; sleep 60"))
    sentinel = sb.root / "started"
    while not sentinel.exists():  # noqa: ASYNC110 - waiting on the command's own sentinel
        await asyncio.sleep(0.01)
    jail = sb._shell.jails.jail
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert jail is not None and not jail.alive
    after = await sb.run_shell("alice", "echo fresh; ps -e -o comm=")
    assert after.output.split()[0] == "fresh" and "sleep" not in after.output.split()
    assert sb._shell.jails.jail is not jail


async def test_a_closed_jail_is_reaped_before_the_sandbox_goes() -> None:
    """``close`` kills the episode's jail; :meth:`wait_closed` reaps it (``LocalSandbox.close`` awaits it):
    dropped unreaped, its transport warned (``ResourceWarning: unclosed transport``) in whichever later
    test's event loop collected it."""
    bus = InProcessBus()
    sb = await _sandbox(bus, "episode")
    try:
        await sb.run_shell("alice", "true")
        jail = sb._shell.jails.jail
        assert jail is not None and jail.alive and jail._proc is not None
        sb._shell.close()
        assert jail._proc.returncode is None  # killed, not yet reaped: nothing ran on the loop since
        await sb._shell.wait_closed()
        assert jail._proc.returncode is not None
    finally:
        await sb.close()
        await bus.close()


async def test_a_command_starts_as_a_fresh_process_of_the_jails_uid(episode: tuple[LocalSandbox, InProcessBus]) -> None:
    """Dropped to the jail's uid for good (real, effective and saved uid and gid; no supplementary group),
    SIGPIPE and SIGXFSZ at their defaults, a session of its own, nothing open but 0, 1 and 2."""
    sb, _ = episode
    status = await sb.run_shell("alice", "cat /proc/self/status")
    jail = sb._shell.jails.jail
    assert jail is not None and jail.jail is not None
    fields = dict(line.split(":", 1) for line in status.output.splitlines() if ":" in line)
    if jail.jail.uid is not None:
        assert fields["Uid"].split() == [str(jail.jail.uid)] * 4
        assert fields["Gid"].split() == [str(jail.jail.uid)] * 4
        assert [int(fields[c], 16) for c in ("CapPrm", "CapEff", "CapAmb")] == [0] * 3  # the server's: gone
    assert fields["Groups"].split() == []
    assert int(fields["SigIgn"], 16) & (1 << (13 - 1) | 1 << (25 - 1)) == 0  # SIGPIPE, SIGXFSZ
    piped = await sb.run_shell("alice", "yes | head -1")
    assert piped.exit_code == 0 and piped.output == "y\n"  # yes ended by SIGPIPE, not told EPIPE
    session = await sb.run_shell("alice", "cut -d' ' -f5,6 /proc/$$/stat; echo $$")
    pgid_sid, pid = session.output.split("\n")[:2]
    assert pgid_sid.split() == [pid, pid]
    fds = await sb.run_shell("alice", "ls /proc/$$/fd; true")  # the shell's, while ls runs
    assert fds.output.split() == ["0", "1", "2"]


async def test_a_program_that_cannot_start_is_127_and_the_jail_serves_on(
    episode: tuple[LocalSandbox, InProcessBus], tmp_path: Path
) -> None:
    sb, _ = episode
    await sb.run_shell("alice", "true")
    jail = sb._shell.jails.jail
    assert jail is not None and jail.alive
    trace = tmp_path / "trace"
    for argv, cwd in (
        (("/no/such/program", "-c", "true"), sb.root),
        (("/etc/passwd",), sb.root),  # not executable
        (("/bin/sh", "-c", "true"), sb.root / "no-such-folder"),
    ):
        ran = await jail.run(argv, {"PATH": "/usr/bin:/bin"}, cwd, None, 10, trace, None)
        assert ran.exit_code == 127 and not ran.timed_out
        assert sb._shell.jails.jail is jail and jail.alive
        assert f"{jail._server_pid.decode()} " in trace.read_text()  # its end-of-command line
    again = await sb.run_shell("alice", "echo still here")
    assert again.output.strip() == "still here" and sb._shell.jails.jail is jail


async def test_shm_and_ipc_a_command_left_are_gone_with_one_openat_of_the_server(
    episode: tuple[LocalSandbox, InProcessBus],
) -> None:
    """What a command left in ``/dev/shm`` and System V IPC is gone before the next one; the server reads
    them through descriptors it holds: its only ``openat`` per command is the end-of-command line (a
    folder left in ``/dev/shm`` is the exception: removing it opens it). ``/dev/shm`` is the jail's root's
    when the jail has a uid of its own: its part is then only tried."""
    sb, _ = episode
    ipc = "import ctypes; c = ctypes.CDLL(None); print(c.shmget(0, 9, 0o1600), c.msgget(0, 0o1600), "
    ipc += "c.semget(0, 1, 0o1600))"
    left_over = "ls -A /dev/shm; tail -q -n +2 /proc/sysvipc/shm /proc/sysvipc/msg /proc/sysvipc/sem"
    for _ in range(2):
        left = await sb.run_shell("alice", f"touch /dev/shm/left /dev/shm/.hidden 2>/dev/null; python3 -c '{ipc}'")
        assert left.exit_code == 0, left.output
        assert min(int(n) for n in left.output.split()) >= 0, left.output
        jail = _server_opened_dev_null_alone(sb)
        after = await sb.run_shell("alice", left_over)
        assert after.exit_code == 0 and after.output == "", after.output
    await sb.run_shell("alice", "(mkdir -p /dev/shm/d/e; touch /dev/shm/d/e/f; ln -s /etc /dev/shm/l) 2>/dev/null")
    after = await sb.run_shell("alice", left_over)
    assert after.exit_code == 0 and after.output == "", after.output
    # The server took the command's uid to remove its IPC, and is back: root (it still ends what a command
    # left), out of a command's reach.
    first = await sb.run_shell("alice", f"python3 -c '{ipc}' > /dev/null; sleep 1000 & echo started")
    assert first.output.strip() == "started"
    probe = "ps -eo comm=; kill -9 $PPID || echo refused; cat /proc/$PPID/environ || echo hid"
    reach = await sb.run_shell("alice", probe)
    assert "sleep" not in reach.output.split() and "refused" in reach.output and "hid" in reach.output
    assert jail is not None and sb._shell.jails.jail is jail and jail.alive


def _server_opened_dev_null_alone(sb: LocalSandbox) -> EpisodeJail:
    """The episode's jail, after checking that in its last command the server opened nothing but its end-of-command
    ``/dev/null`` (cleaning up after a command costs it no traced ``openat``)."""
    jail = sb._shell.jails.jail
    assert jail is not None
    server = jail._server_pid.decode()
    lines = (sb._shell.workspace.tmp / "trace").read_text().splitlines()
    opened = [line for line in lines if line.split()[:1] == [server] and " openat(" in line]
    assert len(opened) == 1 and '"/dev/null"' in opened[0], opened
    return jail


async def test_a_posix_message_queue_a_command_left_is_gone(episode: tuple[LocalSandbox, InProcessBus]) -> None:
    """Red team 2, finding 09: alice's queue, and its message, were still there in bob's next command (a fresh
    jail, as each per-command one is, has none). Making one costs the server no more ``openat`` than before."""
    sb, _ = episode
    rt = "import ctypes, os; rt = ctypes.CDLL('librt.so.1', use_errno=True); "
    make = rt + "q = rt.mq_open(b'/left', os.O_CREAT | os.O_RDWR, 0o666, None); "
    make += "print(q >= 0, rt.mq_send(q, b'hi', 2, 0))"
    made = await sb.run_shell("alice", f'python3 -c "{make}"')
    assert made.output.split() == ["True", "0"], made.output
    jail = _server_opened_dev_null_alone(sb)
    look = rt + "print(rt.mq_open(b'/left', os.O_RDONLY, 0, None), ctypes.get_errno())"
    after = await sb.run_shell("alice", f'python3 -c "{look}"; ls -A /dev/mqueue')
    assert after.output.split() == ["-1", "2"], after.output  # ENOENT
    assert sb._shell.jails.jail is jail
