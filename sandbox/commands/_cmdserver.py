"""The jail's side of :mod:`sandbox.commands.episode`: a tiny command server, the one long-lived process
of an episode's bubblewrap jail besides the jail's init, that forks and execs each shell command.

Started as ``python -I -S _cmdserver.py FD [FILTER CALL]`` as the last step into the jail (its seccomp filter, no
capability but ``CAP_SETUID``, ``CAP_SETGID`` and ``CAP_KILL``: it stays the jail's root, and each command drops to
the jail's uid, as ``setpriv`` does on the per-command path), with ``FD`` one end of a
``SOCK_SEQPACKET`` socket pair the engine holds the other end of. It imports nothing of scopewatch.
With ``FILTER`` (the engine's directory-opens filter, raw BPF) and ``CALL`` (the ``seccomp`` call's number)
it first loads that filter on itself with a listener (:func:`directory_listener`) and sends the listener
with its ``ready``: the engine's answerer (:mod:`sandbox.commands._answerer`) lets each folder open of the
server and its commands go on, unseen by the tracer. The folders it reads are opened before.
Protocol, one message each way per command:

- the engine sends a request (``argv``, ``env``, ``cwd``, ``timeout``, ``uid``; :mod:`marshal`, the same
  interpreter at both ends) with two descriptors (``SCM_RIGHTS``): the command's standard input and the write
  end of its output pipe;
- the server starts the command as :class:`subprocess.Popen` would, by its C half
  (``_posixsubprocess.fork_exec``: no Python runs between the fork and the exec, which in a traced jail cost
  the fork of a Python process and its copy-on-write faults), without importing :mod:`subprocess`,
  :mod:`socket`, :mod:`json` or :mod:`signal` (their imports, and the enums they build, were half of the
  server's start: ~29 against ~11 ms of CPU untraced, and each module file a traced open): a session of its
  own, the two descriptors as 0, 1 and 2,
  every other descriptor closed, SIGPIPE and SIGXFSZ at their defaults, the jail's uid as real,
  effective and saved uid and gid with no supplementary group, the request's ``cwd`` (entered before
  the drop, as Popen does) and exactly its ``env``, then the exec of ``argv`` (``argv[0]`` as a path,
  never searched in ``PATH``); one that cannot start (no such program, not executable, no such ``cwd``)
  is ``exit 127``, with the same cleanup and end-of-command line. The server reaps it itself
  (``pidfd`` and ``waitpid``); a one-byte message ``k`` from the engine (its output cap)
  or the request's ``timeout`` kills it;
- when the child has ended, every other process of the jail is killed and gone (``kill(-1)``: a
  daemon that left the command's session too) and ``/dev/shm``, POSIX message queues (the jail's
  ``/dev/mqueue``) and System V IPC are emptied (what a fresh jail would not have), read through
  descriptors opened once at the server's start (``/proc``, ``/dev/shm``, ``/dev/mqueue``,
  ``/proc/sysvipc/*``, close-on-exec: re-read, they cost no ``openat``, each a stop of the tracer; only
  a folder left in ``/dev/shm`` is opened, to be removed). An IPC object only its owner may remove: the
  server takes the owner's uid as its effective uid for that, and its own back. Then
  the server opens ``/dev/null`` once, its only ``openat`` per command (a line the engine's tracer sees
  after every line of the command: the end of the command's part of the trace), and answers
  ``exit CODE`` (``exit timeout WHEN``, ``exit killed WHEN``: WHEN the server's ``time.time()`` as it began the
  kill, so the engine tells the wrappers its kill stopped from ones the command stopped).

The server is non-dumpable and another uid than the commands': a command cannot signal it, nor read
or write its memory or descriptors through ``/proc``. Were it ended (at the ``none`` of a jail without
its own uid, a command can kill it), the jail ends with it (its init exits, and every process of the
jail dies), which the engine sees as the socket's end.
"""

from __future__ import annotations

import _posixsubprocess
import _signal
import _socket
import marshal
import os
import select
import sys
import time

_INT = 4
"""The size of a C ``int``: a descriptor in an ``SCM_RIGHTS`` message."""


def send_fds(sock: _socket.socket, msg: bytes, fds: list[int]) -> None:
    """:func:`socket.send_fds` for one message."""
    rights = b"".join(fd.to_bytes(_INT, sys.byteorder, signed=True) for fd in fds)
    sock.sendmsg([msg], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)] if fds else [])


def recv_fds(sock: _socket.socket, size: int, most: int) -> tuple[bytes, list[int]]:
    """:func:`socket.recv_fds`: a message and the descriptors that came with it."""
    msg, ancillary, _, _ = sock.recvmsg(size, _socket.CMSG_LEN(most * _INT))
    fds: list[int] = []
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            usable = len(data) - len(data) % _INT
            fds += [int.from_bytes(data[i : i + _INT], sys.byteorder, signed=True) for i in range(0, usable, _INT)]
    return msg, fds


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


_FOLDERS = ("/proc", "/dev/shm", "/dev/mqueue")
_IPC = ("shm", "msg", "sem")


def _open_views() -> dict[str, int]:
    """Descriptors kept open from the server's start for what it reads after every command (``/proc``,
    ``/dev/shm``, ``/dev/mqueue``, ``/proc/sysvipc/*``): re-read, they cost no ``openat`` (a stop of the
    tracer) per command.
    Close-on-exec, and no command inherits them anyway (every descriptor but 0, 1 and 2 is closed)."""
    views: dict[str, int] = {}
    for path in (*_FOLDERS, *(f"/proc/sysvipc/{kind}" for kind in _IPC)):
        flags = os.O_RDONLY | os.O_CLOEXEC | (os.O_DIRECTORY if path in _FOLDERS else 0)
        try:
            views[path] = os.open(path, flags)
        except OSError:
            if path == "/proc":
                raise
    return views


def _read(fd: int) -> bytes:
    """The whole of a ``/proc`` file, read afresh from its start (``pread``: no new ``openat``)."""
    data = b""
    while chunk := os.pread(fd, 1 << 16, len(data)):
        data += chunk
    return data


def _others(views: dict[str, int]) -> list[int]:
    me = os.getpid()
    return [int(n) for n in os.listdir(views["/proc"]) if n.isdigit() and int(n) not in (1, me)]


def _clear_jail(views: dict[str, int]) -> None:
    """Every other process of the jail killed and gone; ``/dev/shm``, POSIX message queues and System V IPC
    emptied."""
    deadline = time.monotonic() + 10
    while _others(views):
        try:
            os.kill(-1, _signal.SIGKILL)  # all but the jail's init and this server
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
    shm = views.get("/dev/shm")
    names: list[tuple[str, bool]] = []
    if shm is not None:
        try:
            with os.scandir(shm) as entries:  # rewound on close: the next listing starts afresh
                names = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
        except OSError:
            names = []
        for name, folder in names:
            if folder:
                import shutil  # here: its import loads bz2, lzma and zlib, ~10 traced opens at every jail's start

                shutil.rmtree(os.path.join("/dev/shm", name), ignore_errors=True)
            else:
                try:
                    os.unlink(name, dir_fd=shm)
                except OSError:
                    pass
    _clear_mqueues(views.get("/dev/mqueue"))
    _clear_sysv_ipc(views)


def _clear_mqueues(mqueue: int | None) -> None:
    """Every POSIX message queue removed (``mq_unlink``): the jail's ``/dev/mqueue`` is the jail's root's and
    sticky, so the server, its owner, may remove any entry of it."""
    if mqueue is None:
        return
    try:
        with os.scandir(mqueue) as entries:
            names = [e.name for e in entries]
    except OSError:
        return
    for name in names:
        try:
            os.unlink(name, dir_fd=mqueue)
        except OSError:
            pass


def _clear_sysv_ipc(views: dict[str, int]) -> None:
    """Every System V IPC object removed. Only its owner may (the server has no ``CAP_SYS_ADMIN``): the
    server takes each owner's uid as its effective uid for the removal (no process but the jail's init and
    the server is left by then), and its own back (its saved uid; root again, its capabilities with it)."""
    found: list[tuple[str, int, int]] = []
    for kind in _IPC:
        fd = views.get(f"/proc/sysvipc/{kind}")
        if fd is None:
            continue
        try:
            head, *rows = _read(fd).decode("ascii", "replace").splitlines()
            at = head.split().index("uid")
            found += [(kind, int(row.split()[1]), int(row.split()[at])) for row in rows if row.strip()]
        except (OSError, ValueError, IndexError):
            continue
    if not found:
        return
    libc = _libc()
    me = os.geteuid()
    for owner in sorted({owner for _, _, owner in found}):
        try:
            if owner != me:
                os.setresuid(-1, owner, -1)
        except OSError:
            continue
        try:
            for kind, ident, of in found:
                if of != owner:
                    continue
                if kind == "shm":
                    libc.shmctl(ident, 0, None)  # type: ignore[attr-defined]
                elif kind == "msg":
                    libc.msgctl(ident, 0, None)  # type: ignore[attr-defined]
                else:
                    libc.semctl(ident, 0, 0)  # type: ignore[attr-defined]
        finally:
            if owner != me:
                os.setresuid(-1, me, -1)
                _non_dumpable()  # a change of the effective uid resets it to fs.suid_dumpable


def _start(request: dict[str, object], fds: list[int]) -> int | None:
    """The command's pid (None: it could not start, ``exit 127``): started as
    ``subprocess.Popen(argv, executable=..., stdin=given, stdout=out, stderr=out, cwd=..., env=...,
    start_new_session=True, restore_signals=True, close_fds=True, user=uid, group=uid, extra_groups=[])``
    starts it (the same call of ``_posixsubprocess.fork_exec``, Python 3.11's), in a session of its own, with
    the two descriptors as 0, 1 and 2 and every other one closed, SIGPIPE and SIGXFSZ as a fresh process has
    them (Python ignores both), dropped to the jail's uid (as ``setpriv --reuid --regid --clear-groups``: real,
    effective and saved ids, no supplementary group; every capability goes with root), in its cwd, with
    exactly its env. The server reaps the child itself (:func:`_wait`)."""
    given, out = fds
    uid = request.get("uid")
    drop = uid if isinstance(uid, int) else None
    try:
        argv = [os.fsencode(str(a)) for a in request["argv"]]  # type: ignore[attr-defined]
        env = [os.fsencode(f"{k}={v}") for k, v in request["env"].items() if "=" not in str(k)]  # type: ignore[attr-defined]
        if len(env) != len(request["env"]) or not argv:  # type: ignore[arg-type]
            return None
        executable = argv[0] if b"/" in argv[0] else b"./" + argv[0]  # as execve: no search of PATH
        cwd = os.fsdecode(str(request["cwd"]))
    except Exception:  # a bad request
        return None
    errors, error_end = os.pipe()  # the child writes why its exec (or chdir) failed; closed at its exec
    try:
        pid: int = _posixsubprocess.fork_exec(
            argv, (executable,), True, (error_end,), cwd, env,  # close_fds, fds_to_keep
            given, -1, -1, out, -1, out,  # p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite
            errors, error_end, True, True, -1,  # restore_signals, call_setsid, process_group
            drop, None if drop is None else [], drop, -1,  # gid, extra groups, uid, umask
            None, True,  # type: ignore[arg-type]  # preexec_fn (typeshed: never None; Popen passes None), vfork
        )  # fmt: skip
    except Exception:
        os.close(errors)
        return None
    finally:
        os.close(error_end)
    try:
        failed = os.read(errors, 50000)
    finally:
        os.close(errors)
    if failed:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        return None
    return pid


def _wait(pid: int, sock: _socket.socket, timeout: float) -> str:
    """``exit CODE`` of the child; ``exit timeout WHEN`` / ``exit killed WHEN`` when it was killed first."""
    pidfd = os.pidfd_open(pid)
    why, when = "", 0.0
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
                when = time.time()
                os.kill(-1, _signal.SIGKILL)
                break
    finally:
        os.close(pidfd)
    _, status = os.waitpid(pid, 0)
    if why in ("timeout", "killed"):
        return f"exit {why} {when:.6f}"
    return f"exit {why}" if why else f"exit {os.waitstatus_to_exitcode(status)}"


_FILTER_NEW_LISTENER = 1 << 3


def directory_listener(program: bytes, call: int) -> int | None:
    """Put the directory-opens filter (the engine's ``sandbox.jail.seccomp.directory_opens_filter``) on the
    server, and so on every command it starts, and return its listener: each ``open``/``openat`` of a folder
    (``O_DIRECTORY``) then waits for the engine's answerer (``_answerer.py``, outside the jail and the trace),
    which lets it go on at once, unseen by the tracer. None (nothing changed) where the kernel will not: older
    than 5.5 (no ``SECCOMP_USER_NOTIF_FLAG_CONTINUE``), or the call refused."""
    import ctypes

    if call < 0 or tuple(int(n) for n in os.uname().release.split(".")[:2] if n.isdigit()) < (5, 5):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long

    class Prog(ctypes.Structure):
        _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_char_p))

    prog = Prog(len(program) // 8, program)
    fd = int(libc.syscall(call, 1, _FILTER_NEW_LISTENER, ctypes.byref(prog)))  # SECCOMP_SET_MODE_FILTER
    return fd if fd >= 0 else None


def serve(sock: _socket.socket, listener: int | None = None, views: dict[str, int] | None = None) -> None:
    """Serve commands; ``ready`` first, with ``listener`` (then closed here: the engine's answerer holds it).
    ``views``: :func:`_open_views`, opened before the listener's filter (they open folders)."""
    views = _open_views() if views is None else views
    send_fds(sock, b"ready", [] if listener is None else [listener])
    if listener is not None:
        os.close(listener)
    while True:
        msg, fds = recv_fds(sock, 1 << 20, 2)
        if not msg:
            return
        request = marshal.loads(msg)
        if len(fds) != 2:
            raise RuntimeError("a request without its two descriptors")
        pid = _start(request, fds)
        for fd in fds:
            os.close(fd)
        reply = "exit 127" if pid is None else _wait(pid, sock, float(request["timeout"]))
        _clear_jail(views)
        os.close(os.open("/dev/null", os.O_RDONLY | os.O_CLOEXEC))  # the tracer's end-of-command line
        if reply == "exit gone":
            return
        sock.send(reply.encode())


def main(argv: list[str]) -> int:
    if not _in_own_jail():
        sys.stderr.write("not in a jail of its own: refusing to kill(-1)\n")
        return 3
    _non_dumpable()
    sock = _socket.socket(fileno=int(argv[0]))
    views, listener = _open_views(), None
    if len(argv) == 3:
        with open(argv[1], "rb") as f:
            program = f.read()
        listener = directory_listener(program, int(argv[2]))  # no folder opened after it until the answerer is up
    serve(sock, listener, views)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
