"""The watcher: wakes on any change on disk in the workspace (watchfiles) and calls back, so the
sandbox reconciles the tree and reports what no operation made as a change by ``external`` (a human
in an editor). Its only job is to notice; it reads no file and emits nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path

from watchfiles import Change, awatch

from channel.tasks import cancel_and_wait, wait_ended
from sandbox.errors import SandboxError
from sandbox.workspace.paths import is_noise

WATCH_DEBOUNCE_MS = 50
"""Longest a burst of changes is collected before it is reported (watchfiles' default: 1600)."""
WATCH_STEP_MS = 5
"""How long the watcher waits for quiet before reporting (watchfiles' default: 50, the bulk of its
~90 ms latency)."""
PROBE_EVERY_S = 0.05
"""How often :meth:`Watcher.start` writes its probe again until the watcher reports it (at least four steps)."""


class Watcher:
    """Follows ``root`` and calls ``on_change`` after each burst of changes to it (noise left out)."""

    def __init__(
        self,
        root: Path,
        probe: Path,
        on_change: Callable[[], Awaitable[None]],
        *,
        debounce_ms: int = WATCH_DEBOUNCE_MS,
        step_ms: int = WATCH_STEP_MS,
    ) -> None:
        self.root = root
        self._probe = probe
        """A private folder outside the workspace: a change there shows the watcher is running."""
        self._probe_text, self._root_text, self._inside = str(probe), str(root), f"{root}/"
        self._on_change = on_change
        self._timing = (debounce_ms, step_ms)
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._ready = asyncio.Event()

    async def start(self) -> None:
        """Start watching; returns once the watcher has seen a change (raises SandboxError if it
        does not start within 5 s)."""
        self._probe.mkdir(parents=True, exist_ok=True)
        self._task = asyncio.create_task(self._watch(), name="sandbox-watcher")
        # The task's first step makes its watches (watchfiles' RustNotify, made before its first wait in a thread): a
        # probe written before that step is never seen.
        await asyncio.sleep(0)
        # The watcher is ready once it reports a change to a private probe file outside the workspace. watchfiles
        # reports a change after two quiet steps: a probe written again sooner (it was every 10 ms) made it wait anew.
        every = max(PROBE_EVERY_S, 4 * self._timing[1] / 1000)
        for attempt in range(int(5 / every)):
            (self._probe / "probe").write_text(str(attempt))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._ready.wait()), every)
                return
            if self._task.done():
                break
        if self._task.done() and self._task.exception() is not None:
            raise SandboxError(f"the file watcher did not start: {self._task.exception()}")
        raise SandboxError("the file watcher did not start within 5 s")

    async def stop(self) -> None:
        """Stop watching (within 5 s, else cancelled); raises SandboxError if the watcher had failed."""
        if self._task is None:
            return
        self._stop.set()
        if not await wait_ended(self._task, 5):
            await cancel_and_wait(self._task)
            return
        failure = None if self._task.cancelled() else self._task.exception()
        if failure is not None:
            raise SandboxError(f"the file watcher failed: {failure}") from failure

    def _filter(self, change: Change, path: str) -> bool:
        """Whether a change watchfiles saw is the probe's or the workspace's (not noise). Plain strings, no
        ``pathlib``: it runs for every change the kernel reports, git's own in ``.git`` included."""
        if path.startswith(self._probe_text):
            return True
        if not path.startswith(self._inside):
            return path == self._root_text
        return not is_noise(path[len(self._inside) :])

    async def _watch(self) -> None:
        """Follow the disk; if watchfiles gives up (it cannot decode a file name that is not UTF-8,
        for one), reconcile the whole tree and watch again, so no change is missed."""
        while not self._stop.is_set():
            try:
                await self._watch_once()
            except Exception:
                await self._on_change()
                await asyncio.sleep(0.05)
            else:
                return

    async def _watch_once(self) -> None:
        probe = str(self._probe)
        debounce_ms, step_ms = self._timing
        async for batch in awatch(
            self.root,
            self._probe,
            watch_filter=self._filter,
            debounce=debounce_ms,
            step=step_ms,
            stop_event=self._stop,
        ):
            if any(path.startswith(probe) for _, path in batch):
                self._ready.set()
            if any(not path.startswith(probe) for _, path in batch):
                await self._on_change()
