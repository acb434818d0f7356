"""What a live agent process (an ACP agent's, :mod:`sandbox.commands.agentproc`) does while another agent's command
runs is not that command's (red team 5, findings 03 and 04; sandbox/backends/aftermath.py): its write to a file the
command's trace shows no process of the command wrote is the live process's (refused and rolled back where its team
may not write), and a record it writes into the audit channel is its ``ShimTampered``, not the command's actor's.
The command's own writes stay its own."""

from __future__ import annotations

from typing import Any

from channel.events import FileChanged, ShimTampered, WriteRefused
from channel.memory import InProcessBus
from sandbox.commands.shim import END, MAGIC
from tests.sandbox._support import drain, jailed

CONFIG = "services/payments/config.py"

# alice's live process: waits for bob's command to start (its go.txt), forges a record in bob's name, then rewrites
# payments' config.py; bob's command waits until it has.
_LIVE = """
import os, sys, time
fifo, record = sys.argv[1], bytes.fromhex(sys.argv[2])
while not os.path.exists("services/payments/go.txt"):
    time.sleep(0.02)
fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
os.write(fd, record)
os.close(fd)
with open("services/payments/config.py", "w") as f:
    f.write("TIMEOUT = 0  # alice was here\\n")
time.sleep(60)
"""
_BOB = (
    "echo go > services/payments/go.txt; "
    'until [[ "$(<services/payments/config.py)" == *alice* ]]; do sleep 0.02; done; echo seen'
)


async def test_a_live_process_write_and_record_during_another_command_are_its_own() -> None:
    bus = InProcessBus()
    sub = await bus.subscribe()
    async with jailed(bus) as sb:
        sb.register_actor("bob", "payments")
        shim = sb._shell.shim
        assert shim is not None
        parts = (MAGIC, b"bob", b"/", b"1.0", b"1.1", b"0", b"rm", b"-rf", b"services", END)
        record = b"".join(p + b"\0" for p in parts)
        process = await sb.start_agent_process("alice", ["python3", "-c", _LIVE, str(shim.fifo), record.hex()], {})
        try:
            result = await sb.run_shell("bob", _BOB, timeout=30)
            assert result.output.strip() == "seen" and not result.timed_out
            events: list[Any] = await drain(sub)
        finally:
            await sb.stop_agent_process("alice", process)
        on_disk = (sb.root / CONFIG).read_text()
    about = [(type(e).__name__, e.actor, e.path) for e in events if isinstance(e, (FileChanged, WriteRefused))]
    assert ("FileChanged", "bob", "services/payments/go.txt") in about  # the command's own write
    assert [a for a in about if a[2] == CONFIG] == [("WriteRefused", "alice", CONFIG)], about
    assert on_disk == "TIMEOUT = 5\nRETRIES = 3\n"
    tampered = [(e.actor, e.reason) for e in events if isinstance(e, ShimTampered)]
    assert tampered and all(actor == "alice" for actor, _ in tampered), tampered


async def test_a_record_the_command_itself_forges_is_still_its_own() -> None:
    bus = InProcessBus()
    sub = await bus.subscribe()
    async with jailed(bus) as sb:
        sb.register_actor("bob", "payments")
        process = await sb.start_agent_process("alice", ["sleep", "60"], {})
        shim = sb._shell.shim
        assert shim is not None
        try:
            forge = f"printf 'SWREC1\\0bob\\0/\\0001.0\\0001.1\\0000\\0rm\\0-rf\\0x\\0\\x1eSWEND\\0' >> {shim.fifo}"
            await sb.run_shell("bob", forge, timeout=30)
            events: list[Any] = await drain(sub)
        finally:
            await sb.stop_agent_process("alice", process)
    tampered = [(e.actor, e.reason) for e in events if isinstance(e, ShimTampered)]
    assert tampered and all(actor == "bob" for actor, _ in tampered), tampered


# Red team 6, 02: alice's live process waits for bob (payments' owner) to be done writing his own config.py, then
# appends to it while bob's command goes on; by the path alone the whole change was bob's, kept and never refused.
# (It waits a while after bob's close: a write within the clock tick of it, or while bob holds the file open, cannot
# be told from bob's by the file's change time: docs/sandbox-and-audit.md.)
_RIDER = """
import os, time
p = "services/payments/config.py"
while not os.path.exists("services/payments/done.txt"):
    time.sleep(0.01)
time.sleep(0.05)
with open(p, "a") as f:
    f.write("STEAL = 'alice was here'\\n")
time.sleep(60)
"""
_OWNER = (
    "echo 'BOB = 1' >> services/payments/config.py; echo > services/payments/done.txt; "
    "until grep -q alice services/payments/config.py; do sleep 0.02; done; echo done"
)


async def test_a_live_process_write_after_the_command_wrote_the_same_file_is_its_own() -> None:
    bus = InProcessBus()
    sub = await bus.subscribe()
    async with jailed(bus) as sb:
        sb.register_actor("bob", "payments")
        process = await sb.start_agent_process("alice", ["python3", "-c", _RIDER], {})
        try:
            result = await sb.run_shell("bob", _OWNER, timeout=30)
            assert result.output.strip() == "done" and not result.timed_out
            events: list[Any] = await drain(sub)
        finally:
            await sb.stop_agent_process("alice", process)
        on_disk = (sb.root / CONFIG).read_text()
    about = [(type(e).__name__, e.actor) for e in events if isinstance(e, (FileChanged, WriteRefused))
             and e.path == CONFIG]
    assert about == [("WriteRefused", "alice")], about
    assert "alice" not in on_disk


async def test_the_command_own_write_to_a_file_stays_its_own_beside_a_live_process() -> None:
    bus = InProcessBus()
    sub = await bus.subscribe()
    async with jailed(bus) as sb:
        sb.register_actor("bob", "payments")
        process = await sb.start_agent_process("alice", ["sleep", "60"], {})
        try:  # a redirect (dup2 onto stdout, restored after), a copy of a descriptor, a subshell holding one
            own = ("echo 'A = 1' >> services/payments/config.py; exec 5>>services/payments/config.py; exec 6>&5; "
                   "exec 5>&-; (echo 'B = 2' >&6; sleep 0.2; echo 'C = 3' >&6) ; exec 6>&-; sleep 0.3")
            await sb.run_shell("bob", own, timeout=30)
            events: list[Any] = await drain(sub)
        finally:
            await sb.stop_agent_process("alice", process)
        on_disk = (sb.root / CONFIG).read_text()
    about = [(type(e).__name__, e.actor) for e in events if isinstance(e, (FileChanged, WriteRefused))
             and e.path == CONFIG]
    assert about == [("FileChanged", "bob")], about
    assert on_disk.endswith("A = 1\nB = 2\nC = 3\n")


async def test_descriptors_are_traced_from_the_first_live_process_on() -> None:
    """A command's ``close`` calls are stopped on only once another actor's process lives beside the commands (the
    episode's jail is started again with them): every ``close`` is a ptrace stop (issue 29)."""
    bus = InProcessBus()
    async with jailed(bus) as sb:
        sb.register_actor("bob", "payments")
        trace = sb._shell.workspace.tmp / "trace"
        await sb.run_shell("bob", "echo 1 >> services/payments/config.py", timeout=30)
        assert " close(" not in trace.read_text()
        process = await sb.start_agent_process("alice", ["sleep", "60"], {})
        try:
            await sb.run_shell("bob", "echo 2 >> services/payments/config.py", timeout=30)
            assert " close(" in trace.read_text()
        finally:
            await sb.stop_agent_process("alice", process)
