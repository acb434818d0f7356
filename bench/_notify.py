"""A measuring prototype, not the product's tracer: opens reported by a seccomp user-notification supervisor
(``SECCOMP_RET_USER_NOTIF``, seccomp_unotify(2)) instead of by strace's ptrace stops, for
``bench/tracer_stops.py``.

The filter (classic BPF, built with libseccomp through ctypes, as :mod:`sandbox.jail.seccomp` builds the jail's)
sends the open family (``open``, ``openat``, ``openat2``, ``creat``) to a listener. With ``dirs=False`` an
``open`` or ``openat`` whose flags carry ``O_DIRECTORY`` or ``O_PATH`` is allowed in the kernel, with no
notification (``openat2``'s flags are in memory, which the filter cannot read: always notified).
:func:`install` loads it in a child before its exec (a ``preexec_fn``: ``no_new_privs``, then
``seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER)``) and passes the listener back over a
socket. :class:`Supervisor`, a thread of the calling process, does per notified open what an audit would need:
the path read from the process's memory (``/proc/PID/mem``), made absolute against the dirfd (``/proc/PID/cwd``
for ``AT_FDCWD``, ``/proc/PID/fd/N`` otherwise), the notification checked still valid after the reads
(``SECCOMP_IOCTL_NOTIF_ID_VALID``: the pid was not reused), (pid, time, path, flags) recorded, and the call let
through (``SECCOMP_USER_NOTIF_FLAG_CONTINUE``).

What it does not do: the open's result (a descriptor or an error) is not seen, and the path is what the memory
held at the read (another thread of the process could change it before the kernel reads it): a record, not a
guard. x86-64 only; Linux 5.5 or later.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import os
import platform
import select
import socket
import threading
import time
from collections.abc import Callable

from sandbox.jail import seccomp

OPENS = ("open", "openat", "openat2", "creat")
O_DIRECTORY = 0o200000
O_PATH = 0o10000000
AT_FDCWD = -100
PATH_MAX = 4096
PAGE = os.sysconf("SC_PAGE_SIZE")

_NR = {2: "open", 257: "openat", 437: "openat2", 85: "creat"}  # x86-64
_FLAGS_ARG = {"open": 1, "openat": 2}
_CREAT = os.O_CREAT | os.O_WRONLY | os.O_TRUNC

_SYS_SECCOMP = 317  # x86-64
_SET_MODE_FILTER = 1
_FILTER_FLAG_NEW_LISTENER = 1 << 3
_PR_SET_NO_NEW_PRIVS = 38
_NOTIF_RECV = 0xC0502100
_NOTIF_SEND = 0xC0182101
_NOTIF_ID_VALID = 0x40082102
_FLAG_CONTINUE = 1

_libc = ctypes.CDLL(None, use_errno=True)


class _Prog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_char_p))


class _Data(ctypes.Structure):
    _fields_ = (
        ("nr", ctypes.c_int), ("arch", ctypes.c_uint32), ("ip", ctypes.c_uint64), ("args", ctypes.c_uint64 * 6)
    )  # fmt: skip


class _Notif(ctypes.Structure):
    _fields_ = (("id", ctypes.c_uint64), ("pid", ctypes.c_uint32), ("flags", ctypes.c_uint32), ("data", _Data))


class _Resp(ctypes.Structure):
    _fields_ = (("id", ctypes.c_uint64), ("val", ctypes.c_int64), ("error", ctypes.c_int32), ("flags", ctypes.c_uint32))


def program(dirs: bool = True) -> bytes:
    """The filter as raw BPF: every open of the family notified, or (``dirs=False``) all but those of
    ``open``/``openat`` with ``O_DIRECTORY`` or ``O_PATH`` in their flags (compiled as the jail's filters are)."""
    if platform.machine() != "x86_64":
        raise OSError(errno.ENOSYS, "the notify prototype knows x86-64's system call numbers only")

    def rules(rule: Callable[..., None]) -> None:
        for call in OPENS:
            arg = _FLAGS_ARG.get(call)
            neither = seccomp._ArgCmp(arg or 0, seccomp._CMP_MASKED_EQ, O_DIRECTORY | O_PATH, 0)
            cmps = () if dirs or arg is None else (neither,)
            rule(seccomp._NOTIFY, call, *cmps)

    found = seccomp._compile(rules, bad_arch=seccomp._ALLOW)
    if not found.available:
        raise OSError(errno.ENOSYS, found.reason)
    return found.program


def install(prog: bytes, sock: socket.socket) -> None:
    """In the child, before its exec: load the filter and send its listener over ``sock``."""
    fprog = _Prog(len(prog) // 8, prog)
    if _libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0):
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    listener = _libc.syscall(
        ctypes.c_long(_SYS_SECCOMP),
        ctypes.c_ulong(_SET_MODE_FILTER),
        ctypes.c_ulong(_FILTER_FLAG_NEW_LISTENER),
        ctypes.byref(fprog),
    )
    if listener < 0:
        raise OSError(ctypes.get_errno(), "seccomp(SECCOMP_SET_MODE_FILTER)")
    socket.send_fds(sock, [b"l"], [listener])
    os.close(listener)


def receive(sock: socket.socket) -> int:
    """The listener :func:`install` sent."""
    _, fds, _, _ = socket.recv_fds(sock, 1, 1)
    if not fds:
        raise OSError(errno.EBADF, "no listener came back from the child")
    return fds[0]


def _string(mem: int, address: int) -> bytes:
    """The NUL-terminated string at ``address``, read a page at a time (the next page may not be mapped)."""
    chunks: list[bytes] = []
    size = 0
    while size < PATH_MAX:
        chunk = os.pread(mem, PAGE - address % PAGE, address)
        end = chunk.find(b"\0")
        if end >= 0 or not chunk:
            chunks.append(chunk[:end] if end >= 0 else chunk)
            break
        chunks.append(chunk)
        address += len(chunk)
        size += len(chunk)
    return b"".join(chunks)


class Supervisor:
    """The listener's supervisor, in a thread of this process (on ``cpu`` if given): :attr:`opens` holds
    (pid, time.time(), absolute path, flags) per notified open. The thread owns the listener and closes it when
    no filtered process is left (``POLLHUP``) or, once :meth:`close` was called, when nothing came for 0.1 s."""

    def __init__(self, listener: int, cpu: int | None = None) -> None:
        self.listener = listener
        self.cpu = cpu
        self.opens: list[tuple[int, float, str, int]] = []
        self.lost = 0  # notifications whose process died (or whose pid went) before the answer
        self.cpu_seconds = 0.0  # the thread's CPU time, at its end
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="notify-supervisor", daemon=True)

    def start(self) -> Supervisor:
        self._thread.start()
        return self

    def close(self) -> None:
        """Wait for the thread's end (call after the filtered processes ended); raise what it met."""
        self._stop.set()
        self._thread.join()
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        try:
            if self.cpu is not None:
                os.sched_setaffinity(threading.get_native_id(), {self.cpu})
            self._loop()
            self.cpu_seconds = time.thread_time()
        except BaseException as exc:  # the tracees would wait for ever: record it, close the listener
            self.error = exc
        finally:
            os.close(self.listener)  # pending and later notifications fail (ENOSYS)

    def _loop(self) -> None:
        fd = self.listener
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        notif, resp = _Notif(), _Resp()
        resp.flags = _FLAG_CONTINUE
        address, size = ctypes.addressof(notif), ctypes.sizeof(notif)
        while True:
            events = poller.poll(100)
            if not events:
                if self._stop.is_set():
                    return
                continue
            if not events[0][1] & select.POLLIN:
                return  # POLLHUP: no filtered process left
            ctypes.memset(address, 0, size)  # RECV refuses a struct not zeroed (EINVAL)
            try:
                fcntl.ioctl(fd, _NOTIF_RECV, notif)
            except OSError as exc:
                if exc.errno in (errno.ENOENT, errno.EINTR):  # the process died before the receipt
                    continue
                raise
            record = self._record(notif)
            try:
                fcntl.ioctl(fd, _NOTIF_ID_VALID, ctypes.c_uint64(notif.id))
            except OSError as exc:
                if exc.errno != errno.ENOENT:
                    raise
                self.lost += 1  # the process is gone: what was read may be another's
                continue
            if record is not None:
                self.opens.append(record)
            resp.id = notif.id
            try:
                fcntl.ioctl(fd, _NOTIF_SEND, resp)
            except OSError as exc:
                if exc.errno != errno.ENOENT:  # died (or a signal restarted the call) since the check
                    raise
                self.lost += 1

    @staticmethod
    def _record(notif: _Notif) -> tuple[int, float, str, int] | None:
        """(pid, time, absolute path, flags) of the notified open, or None where its process is gone."""
        pid, args = notif.pid, notif.data.args
        call = _NR.get(notif.data.nr)
        if call in ("openat", "openat2"):
            dirfd, path_at, flags = ctypes.c_int32(args[0] & 0xFFFFFFFF).value, args[1], args[2] & 0xFFFFFFFF
        elif call == "open":
            dirfd, path_at, flags = AT_FDCWD, args[0], args[1] & 0xFFFFFFFF
        elif call == "creat":
            dirfd, path_at, flags = AT_FDCWD, args[0], _CREAT
        else:
            return None
        try:
            mem = os.open(f"/proc/{pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
            try:
                path = _string(mem, path_at)
                if call == "openat2":  # struct open_how: its first field, the flags
                    flags = int.from_bytes(os.pread(mem, 8, args[2]), "little")
            finally:
                os.close(mem)
            if not path.startswith(b"/"):
                base = f"/proc/{pid}/cwd" if dirfd == AT_FDCWD else f"/proc/{pid}/fd/{dirfd}"
                path = os.path.join(os.readlink(base.encode()), path)
        except OSError:
            return None
        return pid, time.time(), os.fsdecode(path), flags
