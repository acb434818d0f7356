"""Helpers for the sandbox tests: a real sandbox on an in-process bus, and ways to read its events."""

from __future__ import annotations

import asyncio
import itertools
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from channel.bus import Subscription
from channel.emitter import Emitter
from channel.events import FileChanged
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.jail.isolation import Isolation, _works
from sandbox.workspace.ownership import Ownership

FILES = {
    "README.md": "# shop\n",
    "services/billing/invoice.py": "RATE = 1\n",
    "services/billing/old.txt": "stale\n",
    "services/payments/config.py": "TIMEOUT = 5\nRETRIES = 3\n",
    "services/payments/notes.txt": "keep me\n",
}
TEAMS = [("billing", ["services/billing/**"]), ("payments", ["services/payments/**", "*.md"])]

_probes = itertools.count()


@asynccontextmanager
async def jailed(bus: InProcessBus, *, traced: bool = True) -> AsyncIterator[LocalSandbox]:
    """A sandbox of :data:`FILES` at ``bubblewrap`` (the test is skipped where it does not work, or, with
    ``traced``, where commands are not traced), ``alice`` of billing registered; closed after."""
    if not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    sb = await LocalSandbox.create(
        FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "jailed"), isolation=Isolation("bubblewrap")
    )
    try:
        if traced and not sb.label.endswith("+ strace"):
            pytest.skip(f"no exec tracer here: {sb.label}")
        sb.register_actor("alice", "billing")
        yield sb
    finally:
        await sb.close()


async def drain(sub: Subscription) -> list[object]:
    """Every event already delivered to ``sub``."""
    out: list[object] = []
    while len(sub):  # type: ignore[arg-type]
        out.append(await sub.get())
    return out


async def wait_for(
    sub: Subscription,
    pred: Callable[[object], bool],
    timeout: float = 10,  # noqa: ASYNC109 - a generous bound, not a timing assertion
) -> tuple[Any, list[object]]:
    """The first event matching ``pred`` and everything that came before it."""
    seen: list[object] = []

    async def scan() -> object:
        while True:
            event = await sub.get()
            seen.append(event)
            if pred(event):
                return event

    return await asyncio.wait_for(scan(), timeout), seen


async def external_write(path: str, content: str) -> None:
    """Write a file from a separate process, as a human in an editor would."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write(sys.argv[2])", path, content
    )
    assert await proc.wait() == 0


async def quiesce(sb: LocalSandbox, sub: Subscription) -> list[object]:
    """Let the watcher catch up: make one external change and collect every event up to its
    ``FileChanged``. The watcher reconciles the whole tree per batch, so anything written before
    the probe has been processed once this returns. The probe event itself is dropped."""
    name = f"probe-{next(_probes)}.tmp"
    await external_write(str(sb.root / name), "probe\n")
    _, seen = await wait_for(sub, lambda e: isinstance(e, FileChanged) and e.path == name)
    return seen[:-1]


def counting_lstat(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path ``os.lstat`` is called with from now on (what a walk that should skip looked at)."""
    import os

    calls: list[str] = []
    real = os.lstat

    def lstat(path: str, *args: Any, **kwargs: Any) -> os.stat_result:
        calls.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", lstat)
    return calls
