"""The jail seen from inside, on every backend present: an unprivileged uid, ``/proc/sys`` and the
host's root-only files shut, and the seccomp filter refusing keys, io_uring and nested user
namespaces (issue #24)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from sandbox.jail.limits import AREA_MAX, SANDBOX_MAX
from sandbox.jail.seccomp import jail_filter
from tests.sandbox.security.conftest import Box

# One line per syscall attempt: `name rc errno` (x86-64 numbers: add_key 248, io_uring_setup 425).
SYSCALLS = """python3 - <<'PY'
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
params = ctypes.create_string_buffer(120)
for name, nr, args in (("add_key", 248, (b"user", b"sw", b"secret", 1, -3)), ("io_uring_setup", 425, (4, params))):
    rc = libc.syscall(nr, *args)
    print(name, rc, ctypes.get_errno())
PY"""


def _need_filter(box: Box) -> None:
    if box.backend != "docker" and not jail_filter().available:
        pytest.skip(f"no seccomp filter here: {jail_filter().reason}")


async def test_the_command_runs_as_a_non_zero_uid(box: Box) -> None:
    result = await box.sh("id -u; id -g")
    uid, gid = (int(x) for x in result.output.split()[:2])
    assert uid != 0 and gid != 0
    if os.geteuid() != 0:
        assert uid == os.geteuid()


async def test_proc_sys_is_not_writable(box: Box) -> None:
    result = await box.sh("echo '|/bin/sh -c id' > /proc/sys/kernel/core_pattern && echo WROTE; echo done")
    assert "WROTE" not in result.output and "done" in result.output
    assert not Path("/proc/sys/kernel/core_pattern").read_text().startswith("|/bin/sh -c id")  # noqa: ASYNC240


async def test_root_only_host_files_are_not_readable(box: Box) -> None:
    if not Path("/etc/shadow").exists() and box.backend != "docker":  # noqa: ASYNC240
        pytest.skip("this host has no /etc/shadow")
    result = await box.sh("cat /etc/shadow && echo READ; cat /etc/gshadow 2>/dev/null | head -c 1; echo done")
    assert "READ" not in result.output and "root:" not in result.output and "done" in result.output


async def test_add_key_and_io_uring_setup_are_refused(box: Box) -> None:
    _need_filter(box)
    result = await box.sh(SYSCALLS)
    lines = dict(line.split(" ", 1) for line in result.output.strip().splitlines() if " " in line)
    assert lines["add_key"].split()[0] == "-1", result.output
    assert lines["io_uring_setup"].split()[0] == "-1", result.output


async def test_a_nested_user_namespace_is_refused(box: Box) -> None:
    _need_filter(box)
    result = await box.sh("unshare -U true && echo NESTED; unshare -Ur id && echo NESTED; echo done")
    assert "NESTED" not in result.output and "done" in result.output


async def test_ptrace_is_refused_but_the_command_is_still_traced(box: Box) -> None:
    _need_filter(box)
    if box.backend == "docker":
        pytest.skip("in a container the exec tracer runs inside and keeps ptrace (sandbox/jail/seccomp.py)")
    result = await box.sh("strace -f -o /dev/null true && echo TRACED; echo done")
    assert "TRACED" not in result.output and "done" in result.output


async def test_the_agent_owns_what_the_engine_wrote(box: Box) -> None:
    await box.sandbox.write("alice", "services/billing/invoice.py", "RATE = 3\n")
    result = await box.sh("echo 'RATE = 4' > services/billing/invoice.py && git add -A && git commit -qm x && echo OK")
    assert "OK" in result.output, result.output
    assert await box.sandbox.read("alice", "services/billing/invoice.py") == "RATE = 4\n"


async def test_home_and_tmp_are_limited_in_total(box: Box) -> None:
    if os.geteuid() != 0:
        pytest.skip("the engine is not root here: HOME and /tmp are limited per file only")
    result = await box.sh('df -B1 --output=size "$HOME" /tmp | tail -n 2')
    assert [int(x) for x in result.output.split()] == [AREA_MAX, AREA_MAX], result.output


async def test_the_workspace_is_limited_in_total(box: Box) -> None:
    if os.geteuid() != 0:
        pytest.skip("the engine is not root here: the sandbox's folder is on disk")
    result = await box.sh("df -B1 --output=size . | tail -n 1")
    assert int(result.output.split()[-1]) == SANDBOX_MAX, result.output


# seccomp(SECCOMP_SET_MODE_FILTER, FLAGS, allow-all program): `FLAGS rc errno`, listener first (x86-64: seccomp 317).
OWN_FILTERS = """python3 - <<'PY'
import ctypes, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.prctl(38, 1, 0, 0, 0)
code = struct.pack("HBBI", 0x06, 0, 0, 0x7FFF0000)
class Prog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_char_p))
for flags in (8, 0):
    rc = libc.syscall(317, 1, flags, ctypes.byref(Prog(1, code)))
    print(flags, rc, ctypes.get_errno())
PY"""


@pytest.mark.parametrize("network", [False, True], ids=["jail", "network"])
async def test_a_command_cannot_make_a_seccomp_listener_of_its_own(box: Box, network: bool) -> None:
    """Red team 2, finding 11: a listener of the command's own answering ``CONTINUE`` hid its opens and execs from
    strace (a notification outranks ``SECCOMP_RET_TRACE``). ``network``: the per-command path external agents'
    processes take. A filter without a listener stays allowed (it hides nothing)."""
    _need_filter(box)
    if network and box.backend == "docker":
        pytest.skip("the docker backend gives commands no network (an agent that needs it runs with --sandbox local)")
    result = await box.sandbox.run_shell("alice", OWN_FILTERS, timeout=20, network=network)
    got = {line.split()[0]: line.split()[1:] for line in result.output.strip().splitlines() if line[:1].isdigit()}
    assert got["8"][0] == "-1" and int(got["8"][1]) in (errno.EPERM, errno.EBUSY), result.output
    assert got["0"][0] == "0", result.output


async def test_no_folder_listener_still_no_listener(box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SCOPEWATCH_TRACE_FOLDERS=1``: the command server makes no listener, so no ``EBUSY`` either; the jail's
    filter refuses the command's (finding 11)."""
    _need_filter(box)
    monkeypatch.setenv("SCOPEWATCH_TRACE_FOLDERS", "1")
    result = await box.sh(OWN_FILTERS)
    assert "8 -1 1" in result.output and "0 0 " in result.output, result.output
