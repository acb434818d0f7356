"""The engine's answerer of an episode's folder opens: the other half of the command server's
directory-opens filter (:func:`sandbox.jail.seccomp.directory_opens_filter`, loaded by
:mod:`sandbox.commands._cmdserver`). A script of its own (``python -I -S _answerer.py FD``, ``FD`` the
filter's listener, passed by the engine): it imports nothing of scopewatch.

It runs outside the jail and outside the tracer, on the jail's CPU: an answerer inside the traced jail
(a thread of the server) cost as much as the ptrace stops it spares (~49 us an open against ~45), one
outside ~11 us (docs/performance.md). For each notification it answers "go on"
(``SECCOMP_USER_NOTIF_FLAG_CONTINUE``): the kernel then runs the open as if no filter had stopped it, with
the opener's own rights. It reads nothing of the jail and decides nothing: no path, no memory. It ends when
no process under the filter is left (the listener's ``POLLHUP``: the jail is gone) or when the engine ends
(the jail's death pact). An error it cannot answer past ends it too (exit 70), and the engine ends the jail.
"""

from __future__ import annotations

import ctypes
import errno
import select
import sys

RECV, SEND = 0xC0502100, 0xC0182101
"""``SECCOMP_IOCTL_NOTIF_RECV`` (``struct seccomp_notif``, 80 bytes), ``SECCOMP_IOCTL_NOTIF_SEND``
(``struct seccomp_notif_resp``, 24 bytes: id, value, error, flags)."""
CONTINUE = 1
"""``SECCOMP_USER_NOTIF_FLAG_CONTINUE`` (Linux 5.5)."""


def answer(fd: int) -> int:
    """Let every notified call of listener ``fd`` go on, until no process is left under its filter."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ioctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)
    notif, resp = ctypes.create_string_buffer(80), ctypes.create_string_buffer(24)
    ctypes.memmove(ctypes.byref(resp, 20), CONTINUE.to_bytes(4, sys.byteorder), 4)
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    while True:
        events = poll.poll()
        if not any(mask & select.POLLIN for _, mask in events):
            return 0  # POLLHUP: no process under the filter is left
        ctypes.memset(notif, 0, 80)  # the kernel wants it zeroed
        if libc.ioctl(fd, RECV, notif) != 0:
            if ctypes.get_errno() in (errno.EINTR, errno.ENOENT):  # ENOENT: the opener died meanwhile
                continue
            return 70
        ctypes.memmove(resp, notif, 8)  # its id
        if libc.ioctl(fd, SEND, resp) != 0 and ctypes.get_errno() not in (errno.EINTR, errno.ENOENT):
            return 70


if __name__ == "__main__":
    sys.exit(answer(int(sys.argv[1])))
