"""A write whose inotify event comes after the command (red team 3, finding 03), on every backend present.

A write through a shared ``mmap`` queues no ``IN_MODIFY``; the file's last close queues ``IN_CLOSE_WRITE``.
A command that sends the file's descriptor and both ends of a socket pair over that pair leaves the file's
last reference in an unreachable unix socket: the kernel's garbage collector closes it, after the command's
reconcile. The sentry was quiet then, and the reconcile skipped its scan: the change was charged later to
``external`` (or to the file's owner), never rolled back. A command whose trace shows a workspace file opened
for writing is now scanned whatever the sentry says (:attr:`~sandbox.commands.calls.CommandRun.write_opens`)."""

from __future__ import annotations

import mmap
from pathlib import Path

from channel.events import FileChanged, WriteRefused
from channel.memory import InProcessBus
from sandbox.commands.calls import CommandRun
from sandbox.commands.hooks import opened_for_writing
from sandbox.commands.strace import parse
from tests.sandbox._support import jailed
from tests.sandbox.security.conftest import Box

NOT_OWNED = "services/payments/config.py"
ORIGINAL = "TIMEOUT = 5\nRETRIES = 3\n"
CYCLE = f"""
import mmap, os, socket
fd = os.open("{NOT_OWNED}", os.O_RDWR)
m = mmap.mmap(fd, 0)
m[0:11] = b"TIMEOUT = 0"
m.close()
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
socket.send_fds(a, [b"x"], [fd, b.fileno(), a.fileno()])
socket.send_fds(b, [b"y"], [a.fileno(), b.fileno()])
os.close(fd); a.close(); b.close()
print("written")
"""


async def test_a_write_whose_last_close_the_unix_gc_delays_is_found_after_the_command(box: Box) -> None:
    for _ in range(2):  # the sentry is quiet only after a whole scan with every folder already watched
        await box.sh("true")
    assert box.sandbox._reconciler.quiet() or box.backend == "docker"
    result = await box.sh(f"python3 - <<'EOF'\n{CYCLE}\nEOF\n", timeout=30)
    assert "written" in result.output, result.output
    refused = [e for e in box.of(WriteRefused) if e.path == NOT_OWNED]
    assert refused and refused[0].rolled_back and refused[0].actor == "alice"
    assert (box.sandbox.root / NOT_OWNED).read_text() == ORIGINAL
    await box.sh("true")  # the late close event: nothing left to report, nobody else charged
    assert not [e for e in box.of(FileChanged) if e.path == NOT_OWNED]


def _trace(*opens: str) -> str:
    head = '11 1.000 execve("/usr/bin/python3", ["python3"], 0x1 /* 3 vars */) = 0\n'
    body = "".join(f"11 1.{i + 1:03d} {line}\n" for i, line in enumerate(opens))
    return head + body + "11 1.100 +++ exited with 0 +++\n"


def test_a_workspace_file_opened_for_writing_is_told_from_reads_git_and_caches() -> None:
    root = Path("/ws")

    def opened(*lines: str) -> bool:
        return opened_for_writing(parse(_trace(*lines).splitlines(keepends=True), ("/ws/", "/tmp/")), root)

    read = 'openat(AT_FDCWD</ws>, "a.py", O_RDONLY|O_CLOEXEC) = 3</ws/a.py>'
    git = 'openat(AT_FDCWD</ws>, ".git/index.lock", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0666) = 3</ws/.git/index.lock>'
    cache = 'openat(AT_FDCWD</ws>, "__pycache__/a.pyc", O_WRONLY|O_CREAT|O_EXCL, 0644) = 3</ws/__pycache__/a.pyc>'
    tmp = 'openat(AT_FDCWD</ws>, "/tmp/x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/x>'
    assert not opened(read, git, cache, tmp)
    assert opened(read, 'openat(AT_FDCWD</ws>, "a.py", O_RDWR) = 3</ws/a.py>')
    assert opened('openat(AT_FDCWD</tmp>, "/proc/self/fd/3", O_WRONLY) = 4</ws/sub/b.py>')  # -y names the file
    # flags the reader cannot read (openat2's structure): as a write
    assert opened('openat2(AT_FDCWD</ws>, "a.py", {flags=O_RDWR, resolve=0}, 24) = 3</ws/a.py>')


async def test_a_run_without_a_whole_trace_is_scanned_whatever_the_sentry_says() -> None:
    """An untraced command (the docker backend on an image without strace) or an agent process's turn has no
    trace to vouch for it: its reconcile scans. Here a write through a shared mmap still open (no event yet)."""
    bus = InProcessBus()
    try:
        async with jailed(bus) as sb:
            sb.register_actor("bob", "payments")
            for _ in range(2):
                await sb.run_shell("bob", "true")
            assert sb._reconciler.quiet()
            with open(sb.root / NOT_OWNED, "r+b") as f, mmap.mmap(f.fileno(), 0) as m:  # noqa: ASYNC230
                m[0:11] = b"TIMEOUT = 0"
                assert sb._reconciler.quiet()  # the sentry's blind spot: nothing queued
                async with sb._reconciler.lock:
                    after = sb._after
                    run = CommandRun(0, "", False, ())
                    rolled = await after.settle("alice", "billing", run, after.git.snapshot(), after.git.head())
            assert [p for p, _ in rolled] == [NOT_OWNED]
            assert (sb.root / NOT_OWNED).read_text() == ORIGINAL
    finally:
        await bus.close()
