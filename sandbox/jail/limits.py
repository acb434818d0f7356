"""Per-command limits: how many processes a command may have at once (a cgroup's ``pids.max``,
where this process may create cgroups), how big a file it may write (``RLIMIT_FSIZE``), and how
much output it may print before it is killed (a runaway ``yes``); and per sandbox, how much its
HOME and ``/tmp`` may hold in all (:func:`cap_folder`: a tmpfs of :data:`AREA_MAX` bytes and
:data:`AREA_FILES` files mounted on each, where the engine is root; elsewhere only the per-file
limit holds, and :func:`cap_folder` says so), and how much the sandbox's private folder (the
workspace, its ``.git`` and ``origin``, the shim, the engine's scratch) may hold: a tmpfs of
:data:`SANDBOX_MAX` bytes mounted on it where the engine is root (:mod:`sandbox.workspace.repo`).
RAM, not disk: a loaded disk makes each file created cost a millisecond, and a sandbox's set-up
creates hundreds (its git baseline took 0.65-0.72 s on this project's ext4 under load, 0.12-0.17 s
in RAM)."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import resource
import signal
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

PIDS_MAX = 256
"""Processes one command may run at once (a fork bomb stops here)."""
MEMORY_MAX = 2 * 1024 * 1024 * 1024
"""Bytes of memory a sandbox's jail (its commands, an agent process, the tracer) may use at once; past it the
kernel kills one of its processes (a runaway allocation stops there, not at the machine's end)."""
FILE_SIZE_MAX = 256 * 1024 * 1024
"""Bytes one file written by a command may hold."""
OUTPUT_MAX = 8 * 1024 * 1024
"""Bytes of output after which a command is killed; head and tail are kept (:data:`KEEP`)."""
KEEP = 256 * 1024


AREA_MAX = 512 * 1024 * 1024
"""Bytes HOME, and ``/tmp``, may hold in all (each)."""
AREA_FILES = 200_000
"""Files and folders HOME, and ``/tmp``, may hold (each)."""
SANDBOX_MAX = 2 * 1024 * 1024 * 1024
"""Bytes a sandbox's private folder may hold in all (HOME and ``/tmp`` apart), where it is a tmpfs."""
SANDBOX_FILES = 1_000_000
"""Files and folders a sandbox's private folder may hold, where it is a tmpfs."""
ENGINE_RESERVE = 256 * 1024 * 1024
"""Bytes of the engine's own folder (a sandbox's ``tmp/``) that its copies of workspace contents leave free: the
exec trace (:data:`~sandbox.commands.volume.TRACE_MAX` a command) always has room (red team 5, 06)."""
ENGINE_MAX = SANDBOX_MAX + ENGINE_RESERVE
"""Bytes the engine's own folder may hold, where it is a tmpfs: a copy of every big workspace content, and the
reserve. A tmpfs of its own, apart from the agents': no command can fill it."""
ENGINE_FILES = 100_000
"""Files and folders the engine's own folder may hold, where it is a tmpfs."""
_MNT_DETACH = 2
_PR_SET_PDEATHSIG = 1


def cap_folder(path: Path, size: int = AREA_MAX, files: int = AREA_FILES, mode: int = 0o755) -> str:
    """Mount a tmpfs of ``size`` bytes and ``files`` inodes (``mode`` its root folder's) on the
    (empty) folder ``path``; returns "" when it is capped, else why not (the engine is not root, or
    the mount failed)."""
    if os.geteuid() != 0 or not os.uname().sysname == "Linux":
        return "the engine is not root: HOME and /tmp are limited per file only"
    libc = _libc()
    options = f"size={size},nr_inodes={files},mode={mode:04o}".encode()
    if libc.mount(b"scopewatch-area", os.fsencode(path), b"tmpfs", 0, options) != 0:
        return f"cannot mount a tmpfs on {path}: {os.strerror(ctypes.get_errno())}"
    return ""


def uncap_folder(path: Path) -> None:
    """Unmount what :func:`cap_folder` mounted on ``path`` (its files go with it)."""
    _libc().umount2(os.fsencode(path), _MNT_DETACH)


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def jail_setup(cpus: set[int] | None = None) -> Callable[[], None]:
    """What a jail's first process runs before its exec (``preexec_fn``; the one way both paths start a jail):

    - killed when the engine's thread that started it ends (``PR_SET_PDEATHSIG``), or at once if the engine is
      already gone: an engine killed while its episode's jail was starting left strace waiting for ever to open
      the trace's FIFO (the engine, its reader, gone), and ``unshare`` waiting for strace (``bwrap
      --die-with-parent`` and ``unshare --kill-child`` take the rest of the jail with it);
    - the limits (:func:`set_rlimits`), and on ``cpus`` when given (:mod:`sandbox.jail.cpus`).

    Its cgroup it enters after its exec (:meth:`PidsCgroup.entering`), not here."""
    parent, libc = os.getpid(), _libc()  # libc loaded here, not in the child

    def setup() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)
        set_rlimits()
        if cpus is not None:
            os.sched_setaffinity(0, cpus)

    return setup


def set_rlimits() -> None:
    """In the child before exec: no core files, files up to :data:`FILE_SIZE_MAX`."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_MAX, FILE_SIZE_MAX))


_ENTER = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ 2>/dev/null >"$1"; n=$((n - 1)); shift; done; exec "$@"'
"""The shell's part of :meth:`PidsCgroup.entering`: ``sh -c _ENTER sh N FILE... ARGV...``."""


class PidsCgroup:
    """A cgroup with ``pids.max`` for one sandbox's commands (v1 ``pids`` hierarchy or v2), or
    nothing where cgroups cannot be created here (:attr:`available` is False); and where the memory controller
    can be had (v1 ``memory`` hierarchy, or v2 with ``memory`` delegated), a limit of :data:`MEMORY_MAX` bytes on
    the same processes (:attr:`memory`)."""

    def __init__(self, limit: int = PIDS_MAX, memory: int = MEMORY_MAX) -> None:
        self.path: Path | None = None
        self.memory: Path | None = None
        """The cgroup holding the memory limit (the same as :attr:`path` on v2), None where there is none."""
        name = f"scopewatch-{os.getpid()}-{uuid.uuid4().hex[:12]}"  # the pid: see _sweep
        for root in (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup")):
            if not (root / "cgroup.procs").exists() or not os.access(root, os.W_OK):
                continue
            if root.name != "pids" and "pids" not in _read(root / "cgroup.subtree_control"):
                continue
            _sweep(root)
            try:
                (root / name).mkdir()
                (root / name / "pids.max").write_text(str(limit))
            except OSError:
                with contextlib.suppress(OSError):
                    (root / name).rmdir()
                continue
            self.path = root / name
            break
        if self.path is not None:
            self.memory = _memory_cgroup(self.path, name, memory)

    @property
    def available(self) -> bool:
        return self.path is not None

    def entering(self, argv: Sequence[str]) -> list[str]:
        """``argv`` run so that its process first enters this cgroup (``/bin/sh``), then execs it: nothing of
        ``argv`` runs outside. A move into a cgroup waits for an RCU grace period (``cgroup_threadgroup_rwsem``):
        5-17 ms when no process moved in the last ~50 ms, the case of every jail's start. Made in ``preexec_fn``,
        it held the engine's event loop all that time (``Popen`` waits for the child's exec); made by the child
        after its exec, the engine goes on meanwhile. A cgroup that refuses it is passed over."""
        files = [str(c / "cgroup.procs") for c in dict.fromkeys((self.path, self.memory)) if c is not None]
        if not files:
            return list(argv)
        return ["/bin/sh", "-c", _ENTER, "sh", str(len(files)), *files, *argv]

    def out_of_memory(self) -> int:
        """How many times the kernel killed one of its processes for the memory limit so far."""
        if self.memory is None:
            return 0
        for file in ("memory.events", "memory.oom_control"):  # v2, v1
            for line in _read(self.memory / file).splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill" and value.strip().isdigit():
                    return int(value)
        return 0

    def pids(self) -> list[int]:
        """The processes in the cgroup now."""
        if self.path is None:
            return []
        return [int(line) for line in _read(self.path / "cgroup.procs").split() if line.isdigit()]

    def close(self) -> bool:
        """Remove the cgroup; False while a process is still in it (it stays: call again once they have ended,
        else every sandbox closed with its jail still dying would leave an empty cgroup behind for good)."""
        if self.memory is not None and self.memory != self.path:
            with contextlib.suppress(FileNotFoundError):
                try:
                    self.memory.rmdir()
                except OSError:
                    return False
            self.memory = None
        if self.path is not None:
            try:
                self.path.rmdir()
            except FileNotFoundError:
                pass
            except OSError:
                return False
            self.path = None
        return True

    async def remove(self, within: float = 5.0) -> None:
        """:meth:`close` once what is left in the cgroup is killed and gone (``within`` seconds at most)."""
        deadline = time.monotonic() + within
        while not self.close() and time.monotonic() < deadline:
            for pid in self.pids():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.01)


def memory_note(cgroup: PidsCgroup, before: int) -> bytes:
    """The engine's line for a command's output when the kernel killed one of its processes for the memory limit
    since ``before`` (:meth:`PidsCgroup.out_of_memory` when it started), else nothing."""
    if cgroup.out_of_memory() <= before:
        return b""
    return f"\n[scopewatch] a process was killed: the sandbox's memory limit is {MEMORY_MAX // 2**20} MB\n".encode()


def _memory_cgroup(pids: Path, name: str, limit: int) -> Path | None:
    """The cgroup that limits the memory of the processes of cgroup ``pids`` (made beside it in v1's ``memory``
    hierarchy; ``pids`` itself on v2 when its parent delegates ``memory``), or None where there is none."""
    if pids.parent.name != "pids":  # v2: one cgroup for every controller
        if "memory" not in _read(pids.parent / "cgroup.subtree_control").split():
            return None
        target, file = pids, "memory.max"
    else:
        root = pids.parent.parent / "memory"
        if not (root / "cgroup.procs").exists() or not os.access(root, os.W_OK):
            return None
        _sweep(root)
        target, file = root / name, "memory.limit_in_bytes"
        with contextlib.suppress(OSError):
            target.mkdir()
    try:
        (target / file).write_text(str(limit))
    except OSError:
        if target != pids:
            with contextlib.suppress(OSError):
                target.rmdir()
        return None
    return target


_swept: set[Path] = set()


def _sweep(root: Path) -> None:
    """Once a process: remove the cgroups that processes now gone left under ``root`` (a run killed before it
    closed its sandboxes), named ``scopewatch-PID-...`` with a PID no process has, killing what is still in one
    first: a jail's process that outlived its engine (``unshare``'s child, killed as it started, before it had
    asked to die with its parent, then waited for ever). A name without a pid (before this) is left: whose it is
    cannot be told."""
    if root in _swept:
        return
    _swept.add(root)
    with contextlib.suppress(OSError), os.scandir(root) as entries:
        for entry in entries:
            parts = entry.name.split("-")
            if len(parts) != 3 or parts[0] != "scopewatch" or not parts[1].isdigit():
                continue
            try:
                os.kill(int(parts[1]), 0)
                continue  # its process lives (or another took its pid: left for later)
            except ProcessLookupError:
                pass
            except PermissionError:
                continue
            _empty(Path(entry.path))


def _empty(cgroup: Path, within: float = 1.0) -> None:
    """Every process in ``cgroup`` killed, then the cgroup removed (left to a later sweep past ``within``)."""
    deadline = time.monotonic() + within
    while True:
        try:
            os.rmdir(cgroup)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return
        for line in _read(cgroup / "cgroup.procs").split():
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(line), signal.SIGKILL)
        time.sleep(0.005)


def _read(path: Path) -> str:
    # os.open and os.read, not Path.read_text: the cgroup's files are read two or three times a command.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return ""
    data = b""
    try:
        while chunk := os.read(fd, 1 << 16):
            data += chunk
    except OSError:
        return ""
    finally:
        os.close(fd)
    return data.decode("utf-8", "replace")


class CappedOutput:
    """A command's output taken chunk by chunk, past :data:`OUTPUT_MAX` bytes only head and tail kept and
    ``on_runaway()`` called once (:func:`read_capped`'s keeping, for a reader callback of the loop's)."""

    def __init__(self, on_runaway: object) -> None:
        self._head = bytearray()
        self._tail = bytearray()
        self.total = 0
        self._fired = False
        self._on_runaway = on_runaway

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        head, tail = self._head, self._tail
        if len(head) < KEEP:
            take = KEEP - len(head)
            head.extend(chunk[:take])
            chunk = chunk[take:]
        if chunk:
            tail.extend(chunk)
            del tail[:-KEEP]
        if self.total > OUTPUT_MAX and not self._fired:
            self._fired = True
            if callable(self._on_runaway):
                self._on_runaway()

    def result(self) -> tuple[bytes, int]:
        """(kept bytes, total bytes)."""
        head, tail, total = self._head, self._tail, self.total
        if total <= 2 * KEEP:
            return bytes(head + tail), total
        return bytes(head) + f"\n[... {total - len(head) - len(tail)} bytes cut ...]\n".encode() + bytes(tail), total


async def read_capped(stream: asyncio.StreamReader, on_runaway: object) -> tuple[bytes, int]:
    """Everything ``stream`` gives, but past :data:`OUTPUT_MAX` bytes only head and tail are kept
    and ``on_runaway()`` is called once (:class:`CappedOutput`). Returns (kept bytes, total bytes)."""
    kept = CappedOutput(on_runaway)
    while chunk := await stream.read(65536):
        kept.feed(chunk)
    return kept.result()
