"""The jail's side of :mod:`sandbox.commands.episode`: a tiny command server, the one long-lived process
of an episode's bubblewrap jail besides the jail's init, that forks and execs each shell command.

Started as ``python -I -S _cmdserver.py FD`` as the last step into the jail (its seccomp filter, no
capability but ``CAP_SETUID``, ``CAP_SETGID`` and ``CAP_KILL``: it stays the jail's root, and each command drops to
the jail's uid, as ``setpriv`` does on the per-command path), with ``FD`` one end of a
``SOCK_SEQPACKET`` socket pair the engine holds the other end of. It imports nothing of scopewatch.
Protocol, one message each way per command:

- the engine sends a JSON request (``argv``, ``env``, ``cwd``, ``timeout``) with two descriptors
  (``SCM_RIGHTS``): the command's standard input and the write end of its output pipe;
- the server forks a child that starts a session of its own, takes the two descriptors as 0, 1 and 2,
  closes every other one it inherited and execs ``argv``; a one-byte message ``k`` from the engine (its
  output cap) or the request's ``timeout`` kills it;
- when the child has ended, every other process of the jail is killed and gone (``kill(-1)``: a
  daemon that left the command's session too) and ``/dev/shm`` and System V IPC are emptied (what a
  fresh jail would not have); then the server opens ``/dev/null`` once (a line the engine's tracer sees
  after every line of the command: the end of the command's part of the trace) and answers
  ``exit CODE`` (``exit timeout``, ``exit killed``).

The server is non-dumpable and another uid than the commands': a command cannot signal it, nor read
or write its memory or descriptors through ``/proc``. Were it ended (at the ``none`` of a jail without
its own uid, a command can kill it), the jail ends with it (its init exits, and every process of the
jail dies), which the engine sees as the socket's end.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import sys
import time


def _libc() -> object:
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _non_dumpable() -> None:
    pr_set_dumpable = 4
    if _libc().prctl(pr_set_dumpable, 0, 0, 0, 0) != 0:  # type: ignore[attr-defined]
        raise OSError("prctl(PR_SET_DUMPABLE) failed")


def _in_own_jail() -> bool:
    try:
        with open("/proc/1/comm") as f:
            return os.getpid() != 1 and f.read().strip() == "bwrap"
    except OSError:
        return False


def _others() -> list[int]:
    me = os.getpid()
    return [int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, me)]


def _clear_jail() -> None:
    """Every other process of the jail killed and gone; ``/dev/shm`` and System V IPC emptied."""
    deadline = time.monotonic() + 10
    while _others():
        try:
            os.kill(-1, signal.SIGKILL)  # all but the jail's init and this server
        except ProcessLookupError:
            pass
        while True:  # reap what is ours (the jail's init reaps the orphans)
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if time.monotonic() > deadline:
            raise RuntimeError("processes of a command survived SIGKILL")
        time.sleep(0.0005)
    try:
        names = os.listdir("/dev/shm")
    except OSError:
        names = []
    for name in names:
        path = os.path.join("/dev/shm", name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass
    _clear_sysv_ipc()


def _clear_sysv_ipc() -> None:
    found: list[tuple[str, int]] = []
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        found += [(kind, int(row.split()[1])) for row in rows if row.strip()]
    if not found:
        return
    libc = _libc()
    for kind, ident in found:
        if kind == "shm":
            libc.shmctl(ident, 0, None)  # type: ignore[attr-defined]
        elif kind == "msg":
            libc.msgctl(ident, 0, None)  # type: ignore[attr-defined]
        else:
            libc.semctl(ident, 0, 0)  # type: ignore[attr-defined]


def _child(request: dict[str, object], fds: list[int]) -> None:
    try:
        os.setsid()
        for number in (signal.SIGPIPE, signal.SIGXFSZ):  # as a fresh process has them (Python ignores both)
            signal.signal(number, signal.SIG_DFL)
        given, out = fds
        os.dup2(given, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.closerange(3, 1 << 16)  # the server's socket, the request's descriptors
        uid = request.get("uid")
        if isinstance(uid, int):  # as setpriv --reuid --regid --clear-groups: every capability goes with root
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        os.chdir(str(request["cwd"]))
        argv = [str(a) for a in request["argv"]]  # type: ignore[attr-defined]
        env = {str(k): str(v) for k, v in request["env"].items()}  # type: ignore[attr-defined]
        os.execve(argv[0], argv, env)
    except BaseException:
        pass
    os._exit(127)


def _wait(pid: int, sock: socket.socket, timeout: float) -> str:
    """``exit CODE`` of the child; ``exit timeout`` / ``exit killed`` when it was killed first."""
    pidfd = os.pidfd_open(pid)
    why = ""
    try:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([pidfd, sock.fileno()], [], [], max(0.0, left))
            if pidfd in ready:
                break
            if sock.fileno() in ready:
                if sock.recv(16):
                    why = "killed"
                else:
                    why = "gone"  # the engine has gone: end the command, then the server
            elif left <= 0:
                why = "timeout"
            if why:
                os.kill(-1, signal.SIGKILL)
                break
    finally:
        os.close(pidfd)
    _, status = os.waitpid(pid, 0)
    return f"exit {why}" if why else f"exit {os.waitstatus_to_exitcode(status)}"


def serve(sock: socket.socket) -> None:
    sock.send(b"ready")
    while True:
        msg, fds, _, _ = socket.recv_fds(sock, 1 << 20, 2)
        if not msg:
            return
        request = json.loads(msg)
        if len(fds) != 2:
            raise RuntimeError("a request without its two descriptors")
        pid = os.fork()
        if pid == 0:
            _child(request, fds)
        for fd in fds:
            os.close(fd)
        reply = _wait(pid, sock, float(request["timeout"]))
        _clear_jail()
        os.close(os.open("/dev/null", os.O_RDONLY | os.O_CLOEXEC))  # the tracer's end-of-command line
        if reply == "exit gone":
            return
        sock.send(reply.encode())


def main(argv: list[str]) -> int:
    if not _in_own_jail():
        sys.stderr.write("not in a jail of its own: refusing to kill(-1)\n")
        return 3
    _non_dumpable()
    sock = socket.socket(fileno=int(argv[0]))
    serve(sock)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
