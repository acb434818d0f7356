"""The episode's jail of one sandbox (:class:`~sandbox.commands.episode.EpisodeJail`), kept for its commands:
started on the first command that wants it, or ahead of it (:meth:`JailKeeper.early`: a session's sandbox starts
it as it opens, so the ~80 ms of bubblewrap, the tracer and the command server's start overlap the episode's
first turn instead of delaying its first command), again when what it binds changed or a command ended it.
One start at a time: a command that comes while the early start runs waits for it and takes its jail.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from channel.tasks import cancel_and_wait, outcome_read
from sandbox.commands.episode import EpisodeJail
from sandbox.commands.tracer import Tracer
from sandbox.jail.isolation import Jail
from sandbox.jail.limits import PidsCgroup

Seccomp = Callable[[], "int | None"]
"""A fresh descriptor of the jail's seccomp filter (closed here once the jail has it), or None: no filter."""


class JailKeeper:
    """The one :class:`EpisodeJail` of a sandbox's commands, its files in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self.jail: EpisodeJail | None = None
        self._lock = asyncio.Lock()
        self._early: asyncio.Future[EpisodeJail | None] | None = None

    async def get(self, jail: Jail, tracer: Tracer, cgroup: PidsCgroup, seccomp: Seccomp) -> EpisodeJail | None:
        """The running jail for ``jail`` under ``tracer`` (started if there is none, or it binds otherwise, or
        it ended), or None when it does not start here (the per-command path from then on)."""
        async with self._lock:
            current = self.jail
            if current is not None and current.alive and current.jail == jail and current.tracer == tracer:
                return current
            if current is not None:
                current.close()
                await current.wait_ended()
                if current.refused:
                    return None
            self.jail = EpisodeJail(cgroup, tracer, self._folder)
            fd = seccomp()
            try:
                started = await self.jail.start(replace(jail, seccomp_fd=fd))
            finally:
                if fd is not None:
                    os.close(fd)
            return self.jail if started else None

    def early(self, jail: Jail, tracer: Tracer, cgroup: PidsCgroup, seccomp: Seccomp) -> None:
        """:meth:`get` now, in the background (once): its outcome is the first command's to see."""
        if self._early is None:
            self._early = asyncio.ensure_future(self.get(jail, tracer, cgroup, seccomp))
            self._early.add_done_callback(outcome_read)  # its failure: the first command starts the jail again

    @property
    def refusal(self) -> str:
        """Why the last start failed (:attr:`EpisodeJail.broken`), or "" when it did not."""
        return self.jail.broken if self.jail is not None and self.jail.refused else ""

    def close(self) -> None:
        """Stop the early start if it still runs, and end the jail."""
        if self._early is not None:
            self._early.cancel()
        if self.jail is not None:
            self.jail.close()

    async def wait_closed(self) -> None:
        """After :meth:`close`: the early start ended and the jail reaped."""
        await cancel_and_wait(self._early)
        if self.jail is not None:
            await self.jail.wait_ended()
