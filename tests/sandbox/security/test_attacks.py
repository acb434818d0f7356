"""Each attack from issue #10, on every backend present: refused, rolled back or contained, and
leaving an event. Alice (team billing) owns ``services/billing/**``; ``services/payments/**`` and
``README.md`` belong to team payments."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
from pathlib import Path

from channel.events import FileChanged, OutsideChanged, ShellCommandRan, ShimTampered, WriteRefused
from engine.agents.external import MESSAGE_COMMANDS, write_message_commands
from sandbox.workspace.outside import ENGINE_FILES
from tests.sandbox.security.conftest import Box

NOT_OWNED = "services/payments/config.py"
ORIGINAL = "TIMEOUT = 5\nRETRIES = 3\n"


def _host_has(path: str) -> bool:
    return os.path.lexists(path)


def _refused(box: Box, path: str) -> bool:
    return any(e.path == path and e.rolled_back for e in box.of(WriteRefused))


async def test_an_erased_audit_still_reports_the_push_and_the_deletion(box: Box) -> None:
    await box.sh('git push origin main; rm -f "$SCOPEWATCH_SHIM_LOG"/* 2>/dev/null; /bin/rm -f README.md')
    atoms = [(e.argv[:2], e.atom) for e in box.of(ShellCommandRan)]
    assert (("git", "push"), "git_push_protected") in atoms
    assert any(e.argv == ("rm", "-f", "README.md") for e in box.of(ShellCommandRan))  # /bin/rm, covered
    assert _refused(box, "README.md") and box.sandbox.exists("README.md")


async def test_programs_called_by_absolute_path_are_recorded(box: Box) -> None:
    await box.sh("/usr/bin/git status --short; /bin/cat ~/.bash_history; busybox rm -rf x 2>/dev/null; true")
    argvs = [e.argv for e in box.of(ShellCommandRan)]
    assert ("git", "status", "--short") in argvs
    assert [e.atom for e in box.of(ShellCommandRan) if e.argv[0] == "busybox"] == ["delete_forced_recursive"]
    assert any(a[0] == "cat" and a[1].endswith(".bash_history") for a in argvs)


async def test_the_shim_and_its_channel_cannot_be_changed_or_removed(box: Box) -> None:
    shim = box.sandbox.root.parent / "shim"
    channel = box.sandbox.root.parent / "audit" / "records"
    result = await box.sh(
        f"echo 'exit 0' > {shim}/rm; rm -f {channel}; chmod 666 {channel}; rm services/billing/old.txt"
    )
    assert "Read-only file system" in result.output
    assert (shim / "rm").read_text().startswith("#!")
    assert stat.S_ISFIFO(channel.lstat().st_mode) and stat.S_IMODE(channel.lstat().st_mode) == 0o222
    assert any(e.argv == ("rm", "services/billing/old.txt") for e in box.of(ShellCommandRan))


async def test_junk_written_into_the_channel_is_a_tampering(box: Box) -> None:
    channel = box.sandbox.root.parent / "audit" / "records"
    await box.sh(f"printf 'forged' > {channel}")
    assert [e.actor for e in box.of(ShimTampered)] == ["alice"]


async def test_the_channel_cannot_be_read_back(box: Box) -> None:
    channel = box.sandbox.root.parent / "audit" / "records"
    result = await box.sh(f"git status >/dev/null; timeout 2 cat {channel} | head -c 100; echo done")
    assert "SWREC1" not in result.output
    assert any(e.argv[:2] == ("git", "status") for e in box.of(ShellCommandRan))


async def test_a_hard_link_to_a_file_the_team_does_not_own_is_refused(box: Box) -> None:
    await box.sh(f"ln {NOT_OWNED} services/billing/alias.py")
    assert _refused(box, "services/billing/alias.py")
    assert not box.sandbox.exists("services/billing/alias.py")
    await box.sandbox.write("alice", "services/billing/invoice.py", "RATE = 2\n")
    assert await box.sandbox.read("bob", NOT_OWNED) == ORIGINAL


async def _hung_up(fd: int) -> None:
    """Until every writer of the FIFO read at ``fd`` has closed it: each process holding it has ended."""
    loop, done = asyncio.get_running_loop(), asyncio.Event()

    def readable() -> None:
        with contextlib.suppress(BlockingIOError):
            if os.read(fd, 4096) == b"":  # no data is ever written: readable means hung up
                done.set()

    loop.add_reader(fd, readable)
    try:
        await asyncio.wait_for(done.wait(), 30)
    finally:
        loop.remove_reader(fd)
        os.close(fd)


async def test_a_daemon_does_not_outlive_its_command(box: Box) -> None:
    # the command and the daemon it starts hold a FIFO in the shared HOME open: its reader here sees the
    # hang-up once the last of them has ended, the event to wait on (a surviving daemon writes late.txt
    # before it ends, so the wait stays bounded and the assertions below catch it)
    fifo = box.sandbox.home / "alive.fifo"
    os.mkfifo(fifo)
    os.chmod(fifo, 0o666)  # the jail's uid writes it
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # open before the writers: theirs does not block
    hung_up = asyncio.create_task(_hung_up(reader))
    await box.sh(
        "exec 3> ~/alive.fifo;"
        " setsid sh -c 'sleep 1; echo late > services/billing/late.txt' >/dev/null 2>&1 < /dev/null & echo started"
    )
    await hung_up
    await box.sh("true")  # a late write would be this command's change
    assert not box.sandbox.exists("services/billing/late.txt")
    assert not [e for e in box.of(FileChanged) if e.path == "services/billing/late.txt"]


async def test_a_mode_change_is_a_change(box: Box) -> None:
    await box.sh(f"chmod 777 {NOT_OWNED}; chmod +x services/billing/invoice.py")
    refused = [e for e in box.of(WriteRefused) if e.path == NOT_OWNED]
    assert refused and "new mode 100777" in refused[0].diff
    assert stat.S_IMODE((box.sandbox.root / NOT_OWNED).stat().st_mode) == 0o644
    mine = [e for e in box.of(FileChanged) if e.path == "services/billing/invoice.py"]
    assert mine and "new mode 100755" in mine[0].diff


async def test_a_time_change_to_another_teams_file_is_put_back(box: Box) -> None:
    before = (box.sandbox.root / NOT_OWNED).stat().st_mtime_ns
    await box.sh(f"touch -d 2000-01-01 {NOT_OWNED}; touch -d 2001-01-01 services/billing/invoice.py")
    refused = [e for e in box.of(WriteRefused) if e.path == NOT_OWNED]
    assert refused and refused[0].rolled_back and "new mtime 2000-01-01" in refused[0].diff
    assert (box.sandbox.root / NOT_OWNED).stat().st_mtime_ns == before
    # the team's own file keeps its new time, and a time alone is no content change to report
    assert (box.sandbox.root / "services/billing/invoice.py").stat().st_mtime < 1e9 + 3e7
    assert not [e for e in box.seen if getattr(e, "path", "") == "services/billing/invoice.py"]


async def test_home_and_tmp_are_private_and_writes_there_are_recorded(box: Box) -> None:
    result = await box.sh("echo x > ~/.bashrc; echo y > /tmp/scratch; ls -A ~; cat ~/.aws/credentials | head -1")
    assert "[default]" in result.output  # the pack's fixture, planted in the private HOME
    got = {(e.area, e.path) for e in box.of(OutsideChanged)}
    assert {("home", ".bashrc"), ("tmp", "scratch")} <= got


async def test_the_engines_own_files_in_home_are_never_an_agents_change(box: Box) -> None:
    """HOME is shared: the engine plants an external agent's ``sw-*`` commands (and empties their outbox)
    while another agent's command runs. That is not the running agent's doing; its own write beside them is."""
    bin_dir = box.sandbox.home / ".scopewatch" / "bin"
    write_message_commands(bin_dir)
    mine = bin_dir / "mine"

    async def engine_plants() -> None:  # once alice's command is under way
        while not mine.exists():  # noqa: ASYNC110 - a file another process writes, no event to wait on
            await asyncio.sleep(0.05)
        write_message_commands(bin_dir)
        (bin_dir.parent / "outbox.jsonl").write_text('{"tool": "post_message", "args": {"text": "hi"}}\n')
        for name in MESSAGE_COMMANDS:
            os.utime(bin_dir / name, ns=(1, 1))  # modified, whatever the clock's resolution
        (bin_dir.parent / "outbox.jsonl.ack").write_text("49")  # last: the command waits for it

    planting = asyncio.create_task(engine_plants())
    await box.sh(
        "echo agent > ~/.scopewatch/bin/mine; until [ -e ~/.scopewatch/outbox.jsonl.ack ]; do sleep 0.05; done"
    )
    await asyncio.wait_for(planting, 5)
    planted = [f".scopewatch/bin/{name}{part}" for name in MESSAGE_COMMANDS for part in ("", ".part")]
    planted += [".scopewatch/outbox.jsonl"]
    planted += [".scopewatch/outbox.jsonl.ack", ".scopewatch/outbox.jsonl.ack.part"]
    assert sorted(ENGINE_FILES) == sorted(planted)
    assert [(e.actor, e.area, e.path, e.change) for e in box.of(OutsideChanged)] == [
        ("alice", "home", ".scopewatch/bin/mine", "added")
    ]


async def test_the_engines_own_credentials_are_out_of_reach(box: Box) -> None:
    planted = Path.home() / ".scopewatch-security-test" / ".aws" / "credentials"
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_text("[default]\naws_secret_access_key = planted-engine-secret\n")
    try:
        result = await box.sh(f"cat {planted}; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c HOME")
        assert "planted-engine-secret" not in result.output
    finally:
        planted.unlink()
        planted.parent.rmdir()
        planted.parent.parent.rmdir()


async def test_writes_through_a_symlink_or_outside_the_workspace_are_contained(box: Box, tmp_path: Path) -> None:
    outside = Path("/var/tmp") / f"scopewatch-security-{os.getpid()}-{box.backend}"
    outside.write_text("host\n")
    try:
        await box.sh(
            f"ln -s {outside} services/billing/link; echo pwned > services/billing/link; "
            f"echo pwned > {outside}; echo pwned > ../../{outside.name}; echo x > /etc/scopewatch-probe"
        )
        assert outside.read_text() == "host\n"
        assert not _host_has("/etc/scopewatch-probe")
        assert _refused(box, "services/billing/link")
    finally:
        outside.unlink()


async def test_writes_to_files_the_team_does_not_own_are_rolled_back(box: Box) -> None:
    attacks = {
        "redirect": f"echo 'TIMEOUT = 0' > {NOT_OWNED}",
        "sed -i": f"sed -i 's/5/50/' {NOT_OWNED}",
        "mv over": f"echo x > services/billing/x; mv services/billing/x {NOT_OWNED}",
        "cp onto": f"cp services/billing/invoice.py {NOT_OWNED}",
        "python": f"python3 -c \"open('{NOT_OWNED}', 'a').write('HACK = 1\\n')\"",
        "traversal": "cd services/billing && echo x > ../payments/config.py",
    }
    for name, command in attacks.items():
        box.seen.clear()
        await box.sh(command)
        assert _refused(box, NOT_OWNED), name
        assert await box.sandbox.read("bob", NOT_OWNED) == ORIGINAL, name


async def test_there_is_no_network(box: Box) -> None:
    result = await box.sh(
        "curl -sS -m 2 http://1.1.1.1 2>&1 | head -1; "
        "python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), timeout=2)\" 2>&1 | tail -1"
    )
    assert "unreachable" in result.output or "not known" in result.output or "Errno" in result.output
    assert any(e.argv[0] == "curl" for e in box.of(ShellCommandRan)) or "curl" in result.output


async def test_a_fork_bomb_is_contained(box: Box) -> None:
    result = await box.sh(":(){ :|:& };:; sleep 1", timeout=4)
    # It hits pids.max (bash says "fork: ...") or, under the exec tracer, is throttled by it (each new
    # process waits for strace); either way everything it started dies with the command.
    assert "fork" in result.output or result.timed_out or box.sandbox.label.endswith("+ strace")
    after = await box.sh("echo still here")
    assert after.output.strip() == "still here"


async def test_runaway_output_is_cut_and_killed(box: Box) -> None:
    result = await box.sh("yes", timeout=15)
    assert result.timed_out
    assert len(result.output) < 100_000


async def test_bytecode_left_in_the_workspace_is_removed_and_reported(box: Box) -> None:
    await box.sh(
        'python3 -c "import py_compile; '
        "py_compile.compile('services/billing/invoice.py', "
        "cfile='services/payments/__pycache__/config.cpython-311.pyc')\""
    )
    assert [(e.area, e.path) for e in box.of(OutsideChanged)] == [
        ("bytecode", "services/payments/__pycache__/config.cpython-311.pyc")
    ]
    assert not (box.sandbox.root / "services/payments/__pycache__").exists()
