"""Until when a command could write each path it wrote, from its trace (sandbox/commands/lastwrite.py; red team 6,
02): a descriptor is held until closed, overwritten by ``dup2``, or its process ends; copies and children hold it."""

from __future__ import annotations

import math
from pathlib import Path

from sandbox.commands.lastwrite import footprint, last_write
from sandbox.commands.strace import parse

W = "/w"
_BASH_REDIRECT = f"""\
10 1.000000 openat(AT_FDCWD<{W}>, "a.txt", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3<{W}/a.txt>
10 1.000100 fcntl(1</dev/pts/0>, F_DUPFD, 10) = 11</dev/pts/0>
10 1.000200 dup2(3<{W}/a.txt>, 1</dev/pts/0>) = 1<{W}/a.txt>
10 1.000300 close(3<{W}/a.txt>) = 0
10 2.000000 dup2(11</dev/pts/0>, 1<{W}/a.txt>) = 1</dev/pts/0>
10 2.000100 close(11</dev/pts/0>) = 0
10 2.500000 openat(AT_FDCWD<{W}>, "b.txt", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 4<{W}/b.txt>
10 2.600000 fcntl(4<{W}/b.txt>, F_DUPFD, 10) = 12<{W}/b.txt>
10 2.700000 close(4<{W}/b.txt>) = 0
10 2.800000 clone(child_stack=NULL, flags=SIGCHLD) = 20
20 3.000000 execve("/bin/sleep", ["sleep", "1"], 0x1 /* 1 vars */) = 0
10 3.100000 close(12<{W}/b.txt>) = 0
20 4.000000 +++ exited with 0 +++
10 5.000000 openat(AT_FDCWD<{W}>, "c.txt", O_RDWR) = 5<{W}/c.txt>
10 5.100000 renameat(AT_FDCWD<{W}>, "d", AT_FDCWD<{W}>, "e") = 0
"""


def test_a_write_is_the_command_s_until_its_last_descriptor_on_it_is_closed() -> None:
    found = footprint(parse(_BASH_REDIRECT.splitlines()), Path(W), ())
    assert found.written is not None and {"a.txt", "b.txt", "c.txt", "d", "e"} <= found.written
    assert found.ends["a.txt"] == 2.0  # the dup2 that put stdout back closed it, not the close of fd 3
    assert found.ends["b.txt"] == 4.0  # a copy without O_CLOEXEC, held by the child forked meanwhile until it ended
    assert found.ends["c.txt"] == math.inf  # its process never seen to end
    assert last_write("e/f.py", found.ends) == 5.1 and found.gone == frozenset({"d"})
    assert last_write("x.txt", found.ends) == -math.inf


def test_close_range_closes_every_descriptor_in_it() -> None:
    lines = [f'10 1.0 openat(AT_FDCWD<{W}>, "a", O_WRONLY) = 7<{W}/a>', "10 2.0 close_range(3, 4294967295, 0) = 0"]
    assert footprint(parse(lines), Path(W), ()).ends["a"] == 2.0


def test_descriptor_calls_are_stopped_on_only_once_a_live_process_is_beside_the_commands() -> None:
    """Every ``close`` is a ptrace stop: without another actor's live process a command's changes are its own, so its
    trace need not say when it was done with a file (issue 29's per-command cost)."""
    from sandbox.commands.tracer import DESCRIPTOR_CALLS, Tracer

    tracer = Tracer(strace="/usr/bin/strace", seccomp=True)
    calls = next(a for a in tracer.argv(Path("/t")) if a.startswith("trace="))
    assert "close" not in calls.split("=", 1)[1].split(",")
    following = tracer.following_descriptors()
    assert following != tracer and following.following_descriptors() == following
    assert next(a for a in following.argv(Path("/t")) if a.startswith("trace=")).endswith(DESCRIPTOR_CALLS)
