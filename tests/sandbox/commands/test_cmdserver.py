"""The episode jail's command server (sandbox/commands/_cmdserver.py) on its own, outside a jail: how it
starts a command (as Popen does, by ``_posixsubprocess``: its child runs no Python), that it reaps it itself,
that its descriptor passing is the socket module's, and that the descriptors it keeps for its checks after every
command read afresh."""

from __future__ import annotations

import ctypes
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.commands import _cmdserver as server

_SERVER = Path(server.__file__)

_PROBE = """
import json, os, socket, sys
sys.path.insert(0, sys.argv[1])
import _cmdserver as server
os.setgroups([4242, 4343])  # supplementary groups of the server's: none must reach the command
held = os.open("/dev/null", os.O_RDONLY)
os.set_inheritable(held, True)  # an inheritable descriptor of the server's: closed all the same
read, write = os.pipe()
given = os.open("/dev/null", os.O_RDONLY)
script = "cat /proc/self/status; echo ==; ls /proc/$$/fd; echo ==; cat /proc/$$/environ; echo ==; pwd -P"
request = {"argv": ["/bin/sh", "-c", script], "env": {"ONLY": "this"}, "cwd": "/usr", "timeout": 10, "uid": 65534}
pid = server._start(request, [given, write])
os.close(given)
os.close(write)
out = b""
while chunk := os.read(read, 65536):
    out += chunk
ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
print(json.dumps({"reply": server._wait(pid, ours, 10), "pid": pid, "out": out.decode()}))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another uid needs root")
def test_a_command_is_a_fresh_process_of_the_jails_uid_with_only_its_env_and_cwd() -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _PROBE, str(_SERVER.parent)], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    assert found["reply"] == "exit 0"
    status, fds, environ, cwd = found["out"].split("==\n")
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    assert fields["Uid"].split() == ["65534"] * 4 and fields["Gid"].split() == ["65534"] * 4
    assert fields["Groups"].split() == []
    assert [int(fields[c], 16) for c in ("CapPrm", "CapEff", "CapAmb")] == [0] * 3
    assert int(fields["SigIgn"], 16) & (1 << (13 - 1) | 1 << (25 - 1)) == 0  # SIGPIPE, SIGXFSZ
    assert fields["NSsid"].split()[-1] == str(found["pid"])  # cat's session: the shell's, its own
    assert fds.split() == ["0", "1", "2"]
    assert environ == "ONLY=this\0"
    assert cwd == "/usr\n"


def test_a_program_that_cannot_start_is_none(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_text("not a program\n")
    given = os.open("/dev/null", os.O_RDONLY)
    try:
        for argv, cwd in (
            (["/no/such/program"], "/"),
            ([str(plain)], "/"),
            (["/bin/true"], "/no/such/folder"),
            ([], "/"),
        ):
            request = {"argv": argv, "env": {}, "cwd": cwd, "timeout": 10, "uid": None}
            assert server._start(request, [given, given]) is None
    finally:
        os.close(given)


def test_the_server_reaps_its_command() -> None:
    """Only commands that end by themselves: a timeout, or the engine's end, is ``kill(-1)``, which only a
    jail of the server's own may see."""
    given = os.open("/dev/null", os.O_RDWR)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        for script, reply in (("exit 3", "exit 3"), ("kill -9 $$", "exit -9"), ("true", "exit 0")):
            request = {"argv": ["/bin/sh", "-c", script], "env": {}, "cwd": "/", "timeout": 60, "uid": None}
            pid = server._start(request, [given, given])
            assert pid is not None
            assert server._wait(pid, ours, 60) == reply
            with pytest.raises(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
    finally:
        os.close(given)
        ours.close()
        theirs.close()


def test_a_bad_environment_or_argument_is_none_as_popen_refuses_it() -> None:
    given = os.open("/dev/null", os.O_RDONLY)
    try:
        for argv, env in ((["/bin/true"], {"A=B": "c"}), (["/bin/true"], {"A": "b\0c"}), (["/bin/tr\0ue"], {})):
            request = {"argv": argv, "env": env, "cwd": "/", "timeout": 10, "uid": None}
            assert server._start(request, [given, given]) is None
            with pytest.raises(ValueError):
                subprocess.Popen(argv, env=env, stdin=given, stdout=given)
    finally:
        os.close(given)


def test_its_descriptor_passing_is_the_socket_modules() -> None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    read, write = os.pipe()
    try:
        server.send_fds(ours, b"ready", [read, write])
        msg, fds, _, _ = socket.recv_fds(theirs, 1 << 10, 2)
        assert msg == b"ready" and len(fds) == 2
        socket.send_fds(theirs, [b"req"], fds)
        got, passed = server.recv_fds(ours, 1 << 10, 2)
        assert got == b"req" and len(passed) == 2
        os.write(passed[1], b"x")
        assert os.read(read, 1) == b"x"
        for fd in (*fds, *passed):
            os.close(fd)
        server.send_fds(ours, b"none", [])
        assert socket.recv_fds(theirs, 1 << 10, 2)[:2] == (b"none", [])
    finally:
        for fd in (read, write):
            os.close(fd)
        ours.close()
        theirs.close()


def test_the_held_descriptors_read_afresh_and_are_not_inherited() -> None:
    views = server._open_views()
    try:
        assert all(not os.get_inheritable(fd) for fd in views.values())
        before = set(server._others(views))
        child = subprocess.Popen(["sleep", "60"])
        try:
            assert child.pid in set(server._others(views)) - before
        finally:
            child.kill()
            child.wait()
        assert child.pid not in server._others(views)
        shm = views.get("/proc/sysvipc/shm")
        if shm is None:
            pytest.skip("no /proc/sysvipc here")
        libc = ctypes.CDLL(None, use_errno=True)
        rows = len(server._read(shm).splitlines())
        ident = libc.shmget(0, 4096, 0o600)
        assert ident >= 0
        try:
            assert len(server._read(shm).splitlines()) == rows + 1
        finally:
            libc.shmctl(ident, 0, None)
        assert len(server._read(shm).splitlines()) == rows
    finally:
        for fd in views.values():
            os.close(fd)
