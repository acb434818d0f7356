"""The warm test runner: interpreters started once that have imported the test driver and fork a
child per test run (:mod:`sandbox.testing._warmserver`), instead of a fresh ``python -I`` per run.

A server is started exactly as a fresh run would be: inside the same bubblewrap jail at the
``bubblewrap`` level (``--jailed``: between runs it kills every process left in the jail and empties
its private folders), with the same filter and, where the engine is root, a uid of its own that each run's
child drops to before any test code runs (``--uid``: the server stays the jail's root with ``CAP_SETUID``,
``CAP_SETGID`` and ``CAP_KILL`` only, as the episode's command server; the run's folder and the mirror are
handed over to that uid before each run), under the same network cut at ``none``; ``python -I -B``, a minimal
environment. It serves one run at a time; a pool keeps idle servers by kind, so concurrent runs
each get their own. Each server owns a folder (its ``area``, the only host folder its jail may
write): the run's spec, test files and HOME go in a fresh sub-folder, removed after, and the tree
under test in ``ws``, a :class:`~sandbox.workspace.mirror.Mirror` rewritten only where it changed (and in full
whenever a run changed it). After each run everything else in the area is removed.

The ``unshare`` level has no warm server (its jail gives the server no private ``/tmp`` to empty):
runs there are fresh processes. ``SCOPEWATCH_WARM_TESTS=0`` turns warm runs off.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

from channel.vocab import IsolationLevel
from sandbox.jail.isolation import SYSTEM_PATH, Jail, minimal_env, server_argv
from sandbox.jail.jailuser import HandOver, hand_over, jail_uid
from sandbox.jail.seccomp import filter_pipe
from sandbox.workspace.mirror import Mirror
from sandbox.workspace.stale import owned_tempdir

_SERVER = Path(__file__).with_name("_warmserver.py")
IDLE_MAX = 4
"""Idle servers kept per kind."""
GRACE = 15.0
"""Seconds past a run's timeout before the parent gives up on its server (it kills runs itself)."""


def enabled() -> bool:
    """Warm runs are on unless ``SCOPEWATCH_WARM_TESTS=0`` (and need Linux's ``pidfd_open``)."""
    return os.environ.get("SCOPEWATCH_WARM_TESTS", "1") != "0" and hasattr(os, "pidfd_open")


Kind = tuple[str, ...]
"""The isolation level, then the network-cut prefix (``none`` only)."""


class WarmServer:
    """The parent side of one server: a request written, its reply read on a thread."""

    def __init__(self, kind: Kind, scratch: str | None) -> None:
        self.kind = kind
        self.area = Path(owned_tempdir("scopewatch-warm-", scratch))
        self.mirror = Mirror(self.area / "ws")
        self.answered = False
        self.killed = False
        self._runs = 0
        argv = [sys.executable, "-I", "-B", str(_SERVER)]
        seccomp = None
        self.uid: int | None = None
        """The jail's uid each run's child drops to (None: the engine is not root, or no jail)."""
        self._handover: HandOver | None = None
        if kind[0] == "bubblewrap":
            # The jail's seccomp filter and a uid of its own: the server stays the jail's root (CAP_SETUID,
            # CAP_SETGID, CAP_KILL only) and each run's child drops to the uid before any test code runs.
            seccomp = filter_pipe()
            self.uid = jail_uid()
            if self.uid is not None:
                os.chmod(self.area, 0o711)  # runs reach their folder and the mirror by path
                self._handover = HandOver((self.mirror.root,), self.uid)
                argv += ["--uid", str(self.uid)]
            jail = Jail(cwd=self.area, rw=(self.area,), ro=(_SERVER.parent,), mqueue=True, seccomp_fd=seccomp,
                        uid=self.uid)
            argv = server_argv(jail, [*argv, "--jailed"])
        else:
            argv = [*kind[1:], *argv]
        try:
            self.proc = subprocess.Popen(
                argv,
                cwd=self.area,
                env=minimal_env(path=SYSTEM_PATH, home=str(self.area), tmp=str(self.area)),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=() if seccomp is None else (seccomp,),
            )
        except OSError:
            shutil.rmtree(self.area, ignore_errors=True)
            raise
        finally:
            if seccomp is not None:
                os.close(seccomp)
        self.alive = True
        self._lock = threading.Lock()
        self._waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[str | None]] | None = None
        assert self.proc.stdout is not None
        self._reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self._reader.start()

    def _read(self, stdout: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):  # the pipe closed under us: the server is gone
            for raw in stdout:
                with self._lock:
                    waiter, self._waiter = self._waiter, None
                    self.answered = True
                if waiter is not None:
                    _resolve(*waiter, raw.decode("ascii", "replace").strip())
        with self._lock:
            self.alive = False
            waiter, self._waiter = self._waiter, None
        if waiter is not None:
            _resolve(*waiter, None)

    def hand_over(self, folder: Path) -> None:
        """Give a run's folder and the mirror (what changed in it since) to the jail's uid (none: nothing)."""
        if self.uid is not None and self._handover is not None:
            hand_over((folder,), self.uid)
            self._handover.run()

    def run_folder(self) -> Path:
        """A fresh folder in the area for one run's spec, tests and HOME."""
        self._runs += 1
        folder = self.area / f"run-{self._runs}"
        folder.mkdir()
        return folder

    async def run(self, spec: Path, folder: Path, timeout: float) -> str | None:  # noqa: ASYNC109
        """The server's reply for the run of ``spec`` in ``folder`` (``exit <code>``, ``exit
        timeout``), None when the server stopped. A cancelled caller kills the server."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()
        assert self.proc.stdin is not None
        with self._lock:
            if not self.alive:
                return None
            self._waiter = (loop, future)
            try:
                self.proc.stdin.write(f"{spec}\t{folder}\n".encode())
                self.proc.stdin.flush()
            except OSError:
                self._waiter = None
                return None
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout + GRACE)
        except TimeoutError:
            self.kill()
            return "exit timeout"
        except asyncio.CancelledError:
            self.kill()  # still busy with the run: never handed out again
            raise

    def tidy(self) -> None:
        """Remove everything in the area but the mirror (run folders, whatever a run put there)."""
        for entry in os.scandir(self.area):
            if entry.name == "ws" and entry.is_dir(follow_symlinks=False):
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)

    def kill(self) -> None:
        self.alive = False
        self.killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            self.proc.wait()
        # The reader ends at the pipe's end, now that the server is gone; closing the pipe under a
        # read in progress would break that read.
        self._reader.join(timeout=5)
        if self.proc.stdout is not None and not self._reader.is_alive():
            self.proc.stdout.close()
        shutil.rmtree(self.area, ignore_errors=True)


def _resolve(loop: asyncio.AbstractEventLoop, future: asyncio.Future[str | None], reply: str | None) -> None:
    def settle() -> None:
        if not future.done():
            future.set_result(reply)

    with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
        loop.call_soon_threadsafe(settle)


_idle: dict[Kind, list[WarmServer]] = {}
_leased: set[WarmServer] = set()
_broken: set[Kind] = set()
_pool_lock = threading.Lock()


def take(level: IsolationLevel, netns: tuple[str, ...], scratch: str | None) -> WarmServer | None:
    """An idle server of this kind, or a new one; None when warm runs are off or impossible here
    (the ``unshare`` level; a kind whose server stopped before ever answering)."""
    if not enabled() or level == "unshare":
        return None
    kind: Kind = (level, *(netns if level == "none" else ()))
    with _pool_lock:
        if kind in _broken:
            return None
        idle = _idle.setdefault(kind, [])
        while idle:
            server = idle.pop()
            if server.alive:
                _leased.add(server)
                return server
            server.close()
    try:
        server = WarmServer(kind, scratch)
    except OSError:
        return None
    with _pool_lock:
        _leased.add(server)
    return server


READY = 2
"""Idle servers :func:`prestart` keeps of a kind: a check and its prefetch run side by side."""


def prestart(level: IsolationLevel, netns: tuple[str, ...], scratch: str | None) -> None:
    """Start servers of this kind now until :data:`READY` are idle, so runs do not wait for one."""
    kind: Kind = (level, *(netns if level == "none" else ()))
    with _pool_lock:
        missing = READY - sum(s.alive for s in _idle.get(kind, ()))
    started = [server for _ in range(missing) if (server := take(level, netns, scratch)) is not None]
    for server in started:
        give_back(server)


def give_back(server: WarmServer) -> None:
    """Return a server after a run (kept when alive and the pool has room, else closed)."""
    with _pool_lock:
        _leased.discard(server)
        if not server.alive and not server.answered and not server.killed:
            _broken.add(server.kind)  # it stopped by itself before serving a run: it will not here
        idle = _idle.setdefault(server.kind, [])
        keep = server.alive and len(idle) < IDLE_MAX
        if keep:
            idle.append(server)
    if not keep:
        server.close()


def problem_of(reply: str | None, folder: Path, timeout: float) -> str | None:
    """None for a clean exit, else the ``last_line`` of the tests that have no result."""
    if reply == "exit 0":
        return None
    if reply == "exit timeout":
        return f"TimeoutError: test run killed after {timeout:g} s"
    if reply is None or not reply.startswith("exit "):
        return "test process crashed (the warm test server stopped)"
    try:
        tail = (folder / "output.txt").read_bytes()[-4096:]
    except OSError:
        tail = b""
    lines = [line for line in tail.decode("utf-8", "replace").splitlines() if line.strip()]
    detail = f": {lines[-1].strip()}" if lines else ""
    return f"test process crashed (exit code {reply[5:]}){detail}"


async def execute(tmp: Path, timeout: float, netns: tuple[str, ...]) -> str | bool | None:  # noqa: ASYNC109
    """Run the driver on ``tmp/spec.bin`` (a folder of its own, unjailed) in a warm child: the
    contract of ``sandbox.testing.testrun._execute``, or False when no warm server can be had here."""
    server = take("none", netns, None)
    if server is None:
        return False
    try:
        reply = await server.run(tmp / "spec.bin", tmp, timeout)
    finally:
        give_back(server)
    if reply is None:  # the server stopped (a test may kill it): the run goes to a fresh process
        return False
    return problem_of(reply, tmp, timeout)


@atexit.register
def shutdown() -> None:
    """Stop every idle warm server (at exit; tests call it to start afresh)."""
    with _pool_lock:
        servers = [s for idle in _idle.values() for s in idle]
        _idle.clear()
        _broken.clear()
    for server in servers:
        server.close()


def servers() -> list[WarmServer]:
    """The idle servers (for tests)."""
    with _pool_lock:
        return [s for idle in _idle.values() for s in idle]
