"""The jail's seccomp filter: the system calls an agent's command has no use for, refused.

Every jailed command (bubblewrap: ``--seccomp FD``; unshare: a loader run last, after the jail's
set-up and the drop to the jail's uid; Docker: the same list as a container seccomp profile) runs
under one filter, built once per process with libseccomp (through ctypes: no binding to install)
from :data:`REFUSED`. A refused call fails with ``EPERM`` (``clone3``: ``ENOSYS``, so the C library
falls back to ``clone``, whose flags the filter can read); calls of another architecture's ABI (a
32-bit ``int 0x80``) kill the process. Everything else is allowed.

What is refused, and why:

- ``io_uring_setup``, ``io_uring_enter``, ``io_uring_register``: file I/O the exec tracer cannot see
  (a sensitive read through io_uring would leave no trace);
- ``keyctl``, ``add_key``, ``request_key``: the kernel keyrings are not namespaced (a key outlives
  the command and crosses sandboxes);
- ``unshare`` and ``clone`` with ``CLONE_NEWUSER``, ``clone3``, ``setns``: a nested user namespace
  gives back every capability inside it (bind mounts that rename files, a fresh ``/proc``);
- ``mount``, ``umount2``, ``pivot_root``, ``move_mount``, ``open_tree``, ``fsopen``, ``fsconfig``,
  ``fsmount``, ``fspick``, ``mount_setattr``: the jail's mounts are its walls;
- ``ptrace``, ``process_vm_readv``, ``process_vm_writev``, ``pidfd_getfd``, ``kcmp``: reading or
  steering another process (the exec tracer runs outside the filter, attached before it applies);
- ``bpf``, ``perf_event_open``, ``userfaultfd``: kernel attack surface an agent never needs;
- ``kexec_load``, ``kexec_file_load``, ``init_module``, ``finit_module``, ``delete_module``,
  ``reboot``, ``swapon``, ``swapoff``, ``acct``, ``quotactl``, ``quotactl_fd``, ``syslog``,
  ``settimeofday``, ``clock_settime``, ``clock_adjtime``, ``adjtimex``, ``sethostname``,
  ``setdomainname``, ``iopl``, ``ioperm``, ``open_by_handle_at``, ``name_to_handle_at``,
  ``fanotify_init``, ``lookup_dcookie``, ``vhangup``, ``uselib``, ``nfsservctl``: administering the
  machine;
- ``ioctl(TIOCSTI)``: typing into the terminal of whoever runs the engine;
- ``seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER)``: a filter with a listener of the
  command's own: its ``SECCOMP_RET_USER_NOTIF`` outranks the exec tracer's ``SECCOMP_RET_TRACE``, and a
  listener answering ``CONTINUE`` hid its opens and execs from strace (red team 2, finding 11). Filters
  without a listener stay allowed (their other actions only make the command's own calls fail). The
  episode's command server loads a listener of its own (:func:`directory_opens_filter`), so its jail gets
  :func:`jail_filter` ``(listeners=True)`` and that filter, which it loads before any command, refuses the same.

A second, small filter (:func:`directory_opens_filter`) is the episode's command server's: it hands folder opens
to a listener instead of to the exec tracer (see the function).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

CLONE_NEWUSER = 0x10000000
TIOCSTI = 0x5412

REFUSED: tuple[str, ...] = (
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "keyctl", "add_key", "request_key",
    "setns",
    "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
    "mount_setattr",
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
    "bpf", "perf_event_open", "userfaultfd",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "sethostname", "setdomainname",
    "iopl", "ioperm", "open_by_handle_at", "name_to_handle_at", "fanotify_init", "lookup_dcookie",
    "vhangup", "uselib", "nfsservctl",
)  # fmt: skip
"""Refused outright (``EPERM``)."""
REFUSED_WITH_FLAG: tuple[tuple[str, int, int], ...] = (
    ("unshare", 0, CLONE_NEWUSER),
    ("clone", 0, CLONE_NEWUSER),
)
"""(call, argument index, flag): refused when the flag is set in that argument."""
SECCOMP_SET_MODE_FILTER = 1
SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3
REFUSED_ARG: tuple[tuple[str, int, int], ...] = (("ioctl", 1, TIOCSTI),)
"""(call, argument index, value): refused when that argument is the value."""
NOT_IMPLEMENTED: tuple[str, ...] = ("clone3",)
"""Answered ``ENOSYS`` (its flags sit in memory the filter cannot read; the C library falls back)."""

_ALLOW = 0x7FFF0000
_NOTIFY = 0x7FC00000
_KILL_PROCESS = 0x80000000
_CMP_EQ = 4
_CMP_MASKED_EQ = 7
_ATTR_ACT_BADARCH = 2


def _errno(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)


class _ArgCmp(ctypes.Structure):
    _fields_ = (("arg", ctypes.c_uint), ("op", ctypes.c_int), ("a", ctypes.c_uint64), ("b", ctypes.c_uint64))


@dataclass(frozen=True)
class Filter:
    """The compiled filter (:attr:`program`: raw BPF, as bubblewrap's ``--seccomp`` reads it), or
    why there is none here (:attr:`reason`)."""

    program: bytes = b""
    reason: str = ""

    @property
    def available(self) -> bool:
        return bool(self.program)


def _refuse_listeners(rule: _Rule) -> None:
    """``seccomp(SECCOMP_SET_MODE_FILTER, flags with SECCOMP_FILTER_FLAG_NEW_LISTENER, ...)``: ``EPERM``."""
    mode = _ArgCmp(0, _CMP_EQ, SECCOMP_SET_MODE_FILTER, 0)
    flag = SECCOMP_FILTER_FLAG_NEW_LISTENER
    rule(_errno(errno.EPERM), "seccomp", mode, _ArgCmp(1, _CMP_MASKED_EQ, flag, flag))


@cache
def jail_filter(listeners: bool = False) -> Filter:
    """The jail's filter, compiled once per process (libseccomp missing: none, and why). ``listeners``:
    a seccomp listener may still be made (the episode's command server, whose own filter then refuses it)."""

    def rules(rule: _Rule) -> None:
        if not listeners:
            _refuse_listeners(rule)
        for call in REFUSED:
            rule(_errno(errno.EPERM), call)
        for call, arg, flag in REFUSED_WITH_FLAG:
            rule(_errno(errno.EPERM), call, _ArgCmp(arg, _CMP_MASKED_EQ, flag, flag))
        for call, arg, value in REFUSED_ARG:
            rule(_errno(errno.EPERM), call, _ArgCmp(arg, _CMP_MASKED_EQ, 0xFFFFFFFF, value))
        for call in NOT_IMPLEMENTED:
            rule(_errno(errno.ENOSYS), call)

    return _compile(rules, bad_arch=_KILL_PROCESS)


@cache
def directory_opens_filter() -> Filter:
    """The filter the episode's command server puts on itself (and so on every command it starts): an
    ``open`` or ``openat`` whose flags hold ``O_DIRECTORY`` goes to the server's listener
    (``SECCOMP_RET_USER_NOTIF``), which lets it run at once (:mod:`sandbox.commands._cmdserver`). That
    answer outranks the exec tracer's (``SECCOMP_RET_TRACE``): strace never stops on those opens, which the
    audit never reads (a folder is no file read, nor written), at a round trip to the server instead of two
    ptrace stops (docs/performance.md). Every other open is the tracer's as before, ``O_PATH`` ones too (rare):
    a file's ``O_PATH`` descriptor can be given a name (``linkat`` of ``/proc/self/fd/N``), and the trace must
    say which file it was (:mod:`sandbox.commands.reads`). Calls of another architecture are left to the
    jail's filter. It also refuses the commands a listener of their own, as :func:`jail_filter` does (the jail's
    own allowed the server's)."""
    flags = {"open": 1, "openat": 2}  # the argument that holds the flags

    def rules(rule: _Rule) -> None:
        _refuse_listeners(rule)
        for call, arg in flags.items():
            rule(_NOTIFY, call, _ArgCmp(arg, _CMP_MASKED_EQ, os.O_DIRECTORY, os.O_DIRECTORY))

    return _compile(rules, bad_arch=_ALLOW)


_Rule = Callable[..., None]
"""``rule(action, call, *argument comparisons)``: one rule of a filter being compiled."""


def _compile(rules: Callable[[_Rule], None], bad_arch: int) -> Filter:
    """A filter that allows every call but those ``rules`` adds, as raw BPF (libseccomp missing: none, and why)."""
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError:
        return Filter(reason="libseccomp is not installed")
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = (ctypes.c_uint32,)
    lib.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    lib.seccomp_rule_add_array.argtypes = (
        ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(_ArgCmp)
    )  # fmt: skip
    lib.seccomp_attr_set.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32)
    lib.seccomp_export_bpf.argtypes = (ctypes.c_void_p, ctypes.c_int)
    lib.seccomp_release.argtypes = (ctypes.c_void_p,)
    ctx = lib.seccomp_init(_ALLOW)
    if not ctx:
        return Filter(reason="libseccomp could not start a filter")
    try:
        lib.seccomp_attr_set(ctx, _ATTR_ACT_BADARCH, bad_arch)

        def rule(action: int, call: str, *cmps: _ArgCmp) -> None:
            nr = lib.seccomp_syscall_resolve_name(call.encode())
            if nr < 0:
                return  # not a call of this architecture
            array = (_ArgCmp * len(cmps))(*cmps) if cmps else None
            rc = lib.seccomp_rule_add_array(ctx, action, nr, len(cmps), array)
            if rc < 0:
                raise OSError(-rc, f"seccomp rule for {call}")

        rules(rule)
        read, write = os.pipe()
        try:
            rc = lib.seccomp_export_bpf(ctx, write)
            os.close(write)
            write = -1
            if rc < 0:
                return Filter(reason=f"libseccomp could not export the filter ({os.strerror(-rc)})")
            chunks = []
            while chunk := os.read(read, 65536):
                chunks.append(chunk)
        finally:
            os.close(read)
            if write >= 0:
                os.close(write)
        return Filter(program=b"".join(chunks))
    except OSError as exc:
        return Filter(reason=f"libseccomp refused a rule: {exc}")
    finally:
        lib.seccomp_release(ctx)


@cache
def seccomp_call() -> int:
    """The ``seccomp`` system call's number on this machine (-1: unknown), for the command server (which
    imports nothing of scopewatch) to load :func:`directory_opens_filter` with a listener."""
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError:
        return -1
    lib.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    return int(lib.seccomp_syscall_resolve_name(b"seccomp"))


def filter_pipe(listeners: bool = False) -> int | None:
    """A fresh pipe holding the filter, for one jailed process (pass it with ``pass_fds``, close it
    after the start); None where there is no filter here. ``listeners``: see :func:`jail_filter`."""
    found = jail_filter(listeners)
    if not found.available:
        return None
    read, write = os.pipe()
    os.write(write, found.program)
    os.close(write)
    return read


def docker_profile() -> str:
    """The same list as a Docker seccomp profile (JSON, for ``--security-opt seccomp=...``), except
    ``ptrace``: in a container the exec tracer runs inside, as the command's user, and needs it."""
    eperm = {"action": "SCMP_ACT_ERRNO", "errnoRet": errno.EPERM}
    rules: list[dict[str, object]] = [{"names": [c for c in REFUSED if c != "ptrace"], **eperm}]
    for call, arg, flag in REFUSED_WITH_FLAG:
        masked = {"index": arg, "value": flag, "valueTwo": flag, "op": "SCMP_CMP_MASKED_EQ"}
        rules.append({"names": [call], **eperm, "args": [masked]})
    for call, arg, value in REFUSED_ARG:
        rules.append({"names": [call], **eperm, "args": [{"index": arg, "value": value, "op": "SCMP_CMP_EQ"}]})
    listener = [{"index": 0, "value": SECCOMP_SET_MODE_FILTER, "op": "SCMP_CMP_EQ"},
                {"index": 1, "value": SECCOMP_FILTER_FLAG_NEW_LISTENER, "valueTwo": SECCOMP_FILTER_FLAG_NEW_LISTENER,
                 "op": "SCMP_CMP_MASKED_EQ"}]
    rules.append({"names": ["seccomp"], **eperm, "args": listener})
    rules.append({"names": list(NOT_IMPLEMENTED), "action": "SCMP_ACT_ERRNO", "errnoRet": errno.ENOSYS})
    return json.dumps({"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_64"], "syscalls": rules})


LOADER = (
    "import ctypes,os,sys\n"
    "fd=int(sys.argv[1]);p=b''\n"
    "while c:=os.read(fd,65536):p+=c\n"
    "os.close(fd)\n"
    "class F(ctypes.Structure):_fields_=(('len',ctypes.c_ushort),('filter',ctypes.c_char_p))\n"
    "libc=ctypes.CDLL(None,use_errno=True)\n"
    "prog=F(len(p)//8,p)\n"
    "if libc.prctl(38,1,0,0,0) or libc.prctl(22,2,ctypes.byref(prog),0,0):\n"
    " sys.exit('scopewatch: the seccomp filter could not be installed: '+os.strerror(ctypes.get_errno()))\n"
    "os.execvp(sys.argv[2],sys.argv[2:])\n"
)
"""The unshare jail's last step (``python -I -S -c LOADER FD ARGV...``): read the filter from ``FD``,
set ``no_new_privs`` and install it (``prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)``), then
exec ``ARGV``."""
