"""Folder opens in the episode's jail: answered by the engine's answerer, unseen by the tracer, the command
unchanged (``sandbox.jail.seccomp.directory_opens_filter``, ``_cmdserver.directory_listener``, ``_answerer``)."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.commands import _answerer, _cmdserver
from sandbox.jail.seccomp import directory_opens_filter, seccomp_call
from tests.sandbox.commands.test_episode import _sandbox

pytestmark = pytest.mark.skipif(not directory_opens_filter().available, reason="libseccomp is not installed")

WALK = "find . -type d | wc -l; ls -d services/*/ | wc -l; python3 -c 'import os; os.close(os.open(\".\", os.O_PATH))'"


@pytest.fixture
async def episode(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LocalSandbox]:
    monkeypatch.delenv("SCOPEWATCH_TRACE_FOLDERS", raising=False)
    bus = InProcessBus()
    sb = await _sandbox(bus, "episode")
    try:
        yield sb
    finally:
        await sb.close()
        await bus.close()


def _trace(sb: LocalSandbox) -> str:
    return (sb._shell.workspace.tmp / "trace").read_text()


def _opens(trace: str, flag: str) -> int:
    """The opens in ``trace`` with ``flag``."""
    return len(re.findall(rf"^\d+ +[0-9.]+ openat\([^\n]*{flag}[^\n]*\) = \d", trace, re.M))


async def test_a_commands_folder_opens_are_answered_and_not_traced(episode: LocalSandbox) -> None:
    sb = episode
    bare = await asyncio.create_subprocess_exec("bash", "-c", WALK, cwd=sb.root, stdout=asyncio.subprocess.PIPE)
    listing, _ = await bare.communicate()
    ran = await sb.run_shell("alice", WALK)
    assert ran.exit_code == 0 and ran.output == listing.decode()  # the same listing as outside any jail
    trace = _trace(sb)
    # find opened each of the workspace's folders; a forked process's first call may still reach the tracer
    # (strace follows a new child call by call until its first stop), as before
    folders = int(ran.output.split()[0])
    assert folders > 10 and _opens(trace, "O_DIRECTORY") <= 2
    # an O_PATH open is the tracer's (its descriptor can be linked to a name: sandbox.commands.reads)
    assert _opens(trace, "O_PATH") == 1
    assert "ld.so.cache" in trace  # every other open is the tracer's, as before
    jail = sb._shell.jails.jail
    assert jail is not None and jail._answerer is not None and jail._answerer.alive
    answerer = jail._answerer
    assert os.sched_getaffinity(answerer.proc.pid) == os.sched_getaffinity(jail._proc.pid)  # type: ignore[union-attr]
    await sb.close()
    assert answerer.alive  # it serves the next jails on its CPU, and ends with the engine


async def test_folders_are_traced_again_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOPEWATCH_TRACE_FOLDERS", "1")
    bus = InProcessBus()
    sb = await _sandbox(bus, "episode")
    try:
        ran = await sb.run_shell("alice", WALK)
        assert ran.exit_code == 0
        jail = sb._shell.jails.jail
        assert jail is not None and jail._answerer is None
        trace = _trace(sb)
        assert _opens(trace, "O_DIRECTORY") > int(ran.output.split()[0]) and _opens(trace, "O_PATH") == 1
    finally:
        await sb.close()
        await bus.close()


async def test_an_answerer_gone_ends_the_jail_and_the_next_command_gets_a_fresh_one(episode: LocalSandbox) -> None:
    sb = episode
    assert (await sb.run_shell("alice", "ls > /dev/null")).exit_code == 0
    jail = sb._shell.jails.jail
    assert jail is not None and jail._answerer is not None
    jail._answerer.proc.kill()
    jail._answerer.proc.wait()
    lost = await sb.run_shell("alice", "ls > /dev/null", timeout=20)
    assert lost.exit_code == 137 and not jail.alive  # said, not waited for until the timeout
    assert "answerer" in jail.broken
    again = await sb.run_shell("alice", "ls services")
    assert again.exit_code == 0 and again.output.split() == sorted(os.listdir(sb.root / "services"))
    assert sb._shell.jails.jail is not jail
    fresh = sb._shell.jails.jail
    assert fresh is not None and fresh._answerer is not None and fresh._answerer.alive  # another one started


def test_the_answerer_lets_each_folder_open_go_on_and_ends_with_the_engine(tmp_path: Path) -> None:
    """The filter on a process of its own (as the server loads it), its listener handed to an answerer: folder
    opens (from several threads at once) go on with their results; the answerer outlives the process (its
    listener closed) and ends when the engine's end of its socket closes."""
    code = f"""
import os, socket, sys, threading
sys.path.insert(0, {str(Path(_cmdserver.__file__).parent)!r})
import _cmdserver
ours = socket.socket(fileno=int(sys.argv[1]))
program = open(sys.argv[2], "rb").read()
listener = _cmdserver.directory_listener(program, int(sys.argv[3]))
socket.send_fds(ours, [b"ready"], [listener])
os.close(listener)
ours.recv(1)
results = []
def walk():
    for _ in range(200):
        results.append(os.open("/", os.O_RDONLY | os.O_DIRECTORY))
        os.close(results[-1])
threads = [threading.Thread(target=walk) for _ in range(4)]
[t.start() for t in threads]
[t.join() for t in threads]
try:
    os.open("/nonexistent", os.O_RDONLY | os.O_DIRECTORY)
except FileNotFoundError:
    print(len(results), "ENOENT")
"""
    program = tmp_path / "filter.bpf"
    program.write_bytes(directory_opens_filter().program)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    child = subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", code, str(theirs.fileno()), str(program), str(seccomp_call())],
        pass_fds=(theirs.fileno(),), stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    theirs.close()
    msg, fds, _, _ = socket.recv_fds(ours, 16, 1)
    assert msg == b"ready" and len(fds) == 1
    engine, its_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    answerer = subprocess.Popen(
        [sys.executable, "-I", "-S", _answerer.__file__, str(its_end.fileno())], pass_fds=(its_end.fileno(),)
    )
    its_end.close()
    socket.send_fds(engine, [b"l"], fds)
    os.close(fds[0])
    ours.send(b"g")
    out, _ = child.communicate(timeout=60)
    assert out.split() == ["800", "ENOENT"]
    ours.close()
    assert answerer.poll() is None  # the listener's jail is gone: it waits for the next
    engine.close()
    assert answerer.wait(timeout=10) == 0


async def test_a_command_cannot_add_a_listener_of_its_own(episode: LocalSandbox) -> None:
    """A command's own listener (to answer, or hold, another's opens; or to hide its own from the tracer) is
    refused: the server's folder-opens filter refuses it (``EPERM``, seccomp.py), before the kernel would
    (it allows one listener in a process's filters: the server's, ``EBUSY``)."""
    code = (
        "import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); libc.syscall.restype = ctypes.c_long\n"
        "class P(ctypes.Structure): _fields_ = (('len', ctypes.c_ushort), ('f', ctypes.c_char_p))\n"
        "allow = P(1, bytes([6, 0, 0, 0, 0, 0, 0xFF, 0x7F]))\n"
        f"print(libc.syscall({seccomp_call()}, 1, 8, ctypes.byref(allow)), os.strerror(ctypes.get_errno()))"
    )
    ran = await episode.run_shell("alice", f'python3 -c "{code}"')
    assert ran.output.strip() == "-1 Operation not permitted", ran.output
