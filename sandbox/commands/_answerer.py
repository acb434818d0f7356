"""The engine's answerer of episode jails' folder opens: the other half of the command server's
directory-opens filter (:func:`sandbox.jail.seccomp.directory_opens_filter`, loaded by
:mod:`sandbox.commands._cmdserver`). A script of its own (``python -I -S _answerer.py FD``, ``FD`` a socket
the engine holds the other end of): it imports nothing of scopewatch.

One runs per CPU that episode jails are put on (:mod:`sandbox.commands.answerers`), outside the jails and
outside the tracer: an answerer inside a traced jail (a thread of the server) cost as much as the ptrace stops
it spares (~49 us an open against ~45), one outside on the jail's CPU ~17-25 us (docs/performance.md). The
engine sends it each new jail's listener over the socket (``SCM_RIGHTS``). For each notification it answers
"go on" (``SECCOMP_USER_NOTIF_FLAG_CONTINUE``): the kernel then runs the open as if no filter had stopped it,
with the opener's own rights. It reads nothing of the jails and decides nothing: no path, no memory. A
listener whose processes are all gone (``POLLHUP``: its jail ended) is closed; the answerer ends when the
engine's end of the socket closes (the engine ended), or at an error it cannot answer past (exit 70: the
jails it served see their folder opens fail with ``ENOSYS``, and the engine ends each at its next command).
"""

from __future__ import annotations

import errno
import fcntl
import select
import socket
import sys

RECV, SEND = 0xC0502100, 0xC0182101
"""``SECCOMP_IOCTL_NOTIF_RECV`` (``struct seccomp_notif``, 80 bytes), ``SECCOMP_IOCTL_NOTIF_SEND``
(``struct seccomp_notif_resp``, 24 bytes: id, value, error, flags)."""
CONTINUE = 1
"""``SECCOMP_USER_NOTIF_FLAG_CONTINUE`` (Linux 5.5)."""
_GONE = (errno.EINTR, errno.ENOENT)
"""The opener died (or a signal came) between the notification and the answer: nothing to answer."""


def answer(fd: int) -> bool:
    """Let the pending notification of listener ``fd`` go on; False at an error it cannot answer past."""
    notif = bytearray(80)  # zeroed, as the kernel wants it
    try:
        fcntl.ioctl(fd, RECV, notif)
    except OSError as exc:
        return exc.errno in _GONE
    resp = bytes(notif[:8]) + bytes(12) + CONTINUE.to_bytes(4, sys.byteorder)  # its id, no value, no error
    try:
        fcntl.ioctl(fd, SEND, resp)
    except OSError as exc:
        return exc.errno in _GONE
    return True


def serve(control: socket.socket) -> int:
    """Answer every listener the engine sends on ``control`` until the engine's end closes."""
    poll = select.poll()
    poll.register(control, select.POLLIN)
    while True:
        for fd, mask in poll.poll():
            if fd == control.fileno():
                msg, fds, _, _ = socket.recv_fds(control, 16, 16) if mask & select.POLLIN else (b"", [], 0, None)
                if not msg:
                    return 0  # the engine is gone
                for listener in fds:
                    poll.register(listener, select.POLLIN)
            elif mask & select.POLLIN:
                if not answer(fd):
                    return 70
            else:  # POLLHUP: no process is left under its filter, the jail has ended
                poll.unregister(fd)
                socket.close(fd)


if __name__ == "__main__":
    sys.exit(serve(socket.socket(fileno=int(sys.argv[1]))))
