"""The warm test runner: one interpreter started once (per process and network cut) that has
imported the test driver and forks a child per test run, instead of a fresh ``python -I`` per run.

Isolation is the fresh run's: the server is started exactly as a fresh run would be (``python -I
-B``, the same network cut, a minimal environment), imports nothing of scopewatch and no workspace
module, and each child is a fork of that clean state in its own process group, with HOME and TMPDIR
in the run's own scratch folder and its output in a file there (the tail names a crash, as before).
What a test does in its child (imports, monkey-patching, ``sys.exit``) dies with the child.

:func:`execute` has the contract of ``sandbox.testrun._execute`` (None when the driver exited
cleanly, else the ``last_line`` for the tests without a result); it returns ``False`` when no warm
server can be had here (no ``os.pidfd_open``, ``SCOPEWATCH_WARM_TESTS=0``, or the server would not
start), and the caller runs the fresh subprocess instead.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO

from sandbox.isolation import SYSTEM_PATH, minimal_env

_SERVER = Path(__file__).with_name("_warmserver.py")


def enabled() -> bool:
    """Warm runs are on unless ``SCOPEWATCH_WARM_TESTS=0`` (and need Linux's ``pidfd_open``)."""
    return os.environ.get("SCOPEWATCH_WARM_TESTS", "1") != "0" and hasattr(os, "pidfd_open")


class WarmServer:
    """The parent side of one warm server: requests written in order, replies read on a thread."""

    def __init__(self, prefix: tuple[str, ...]) -> None:
        self.home = tempfile.mkdtemp(prefix="scopewatch-warm-")
        self.proc = subprocess.Popen(
            (*prefix, sys.executable, "-I", "-B", str(_SERVER)),
            cwd=self.home,
            env=minimal_env(path=SYSTEM_PATH, home=self.home, tmp=self.home),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.alive = True
        self._lock = threading.Lock()
        self._pids: queue.Queue[int | None] = queue.Queue()
        self._exits: dict[int, int] = {}
        self._waiters: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Future[int | None]]] = {}
        assert self.proc.stdout is not None
        self._reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self._reader.start()

    def _read(self, stdout: IO[bytes]) -> None:
        for raw in stdout:
            parts = raw.decode("ascii", "replace").split()
            if len(parts) == 2 and parts[0] == "pid":
                self._pids.put(int(parts[1]))
            elif len(parts) == 3 and parts[0] == "exit":
                self._finish(int(parts[1]), int(parts[2]))
        with self._lock:
            self.alive = False
            waiters, self._waiters = self._waiters, {}
        self._pids.put(None)
        for loop, future in waiters.values():
            _resolve(loop, future, None)

    def _finish(self, pid: int, code: int) -> None:
        with self._lock:
            waiter = self._waiters.pop(pid, None)
            if waiter is None:
                self._exits[pid] = code
                return
        _resolve(*waiter, code)

    def start(self, spec: Path, folder: Path) -> tuple[int, asyncio.Future[int | None]] | None:
        """Ask for a child running ``spec`` in ``folder``; its pid and a future of its exit code."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int | None] = loop.create_future()
        assert self.proc.stdin is not None
        with self._lock:
            if not self.alive:
                return None
            try:
                self.proc.stdin.write(f"{spec}\t{folder}\n".encode())
                self.proc.stdin.flush()
            except OSError:
                return None
        try:
            pid = self._pids.get(timeout=10)  # answered right after the fork
        except queue.Empty:
            pid = None
        if pid is None:
            return None
        with self._lock:
            if pid in self._exits:
                future.set_result(self._exits.pop(pid))
            else:
                self._waiters[pid] = (loop, future)
        return pid, future

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._reader.join(timeout=5)
        import shutil

        shutil.rmtree(self.home, ignore_errors=True)


def _resolve(loop: asyncio.AbstractEventLoop, future: asyncio.Future[int | None], code: int | None) -> None:
    def settle() -> None:
        if not future.done():
            future.set_result(code)

    with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
        loop.call_soon_threadsafe(settle)


_servers: dict[tuple[str, ...], WarmServer] = {}
_servers_lock = threading.Lock()


def _server(prefix: tuple[str, ...]) -> WarmServer | None:
    with _servers_lock:
        server = _servers.get(prefix)
        if server is not None and server.alive:
            return server
        if server is not None:
            server.close()
        try:
            server = WarmServer(prefix)
        except OSError:
            return None
        _servers[prefix] = server
        return server


@atexit.register
def shutdown() -> None:
    """Stop every warm server (at exit; tests call it to start afresh)."""
    with _servers_lock:
        for server in _servers.values():
            server.close()
        _servers.clear()


async def execute(tmp: Path, timeout: float, netns: tuple[str, ...]) -> str | bool | None:  # noqa: ASYNC109
    """Run the driver on ``tmp/spec.bin`` in a warm child (see the module docstring)."""
    if not enabled():
        return False
    server = _server(netns)
    started = server.start(tmp / "spec.bin", tmp) if server is not None else None
    if started is None:
        return False
    pid, future = started
    try:
        code = await asyncio.wait_for(asyncio.shield(future), timeout)
    except TimeoutError:
        return f"TimeoutError: test run killed after {timeout:g} s"
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)  # the child's group: whatever its tests started
        if not future.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(future), 5)
    if code == 0:
        return None
    if code is None:
        return "test process crashed (the warm test server stopped)"
    try:
        tail = (tmp / "output.txt").read_bytes()[-4096:]
    except OSError:
        tail = b""
    lines = [line for line in tail.decode("utf-8", "replace").splitlines() if line.strip()]
    detail = f": {lines[-1].strip()}" if lines else ""
    return f"test process crashed (exit code {code}){detail}"
