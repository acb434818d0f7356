"""Ending started tasks never drops the caller's own cancellation (a Ctrl-C that reached ``audit run`` while it
closed an episode's sandbox was swallowed there, and the run went on to its end: CI on stop 46)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from channel.tasks import cancel_and_wait, raise_if_cancelled, wait_ended
from sandbox.workspace.watcher import Watcher


async def _forever() -> None:
    await asyncio.Event().wait()


async def _fails() -> None:
    raise ValueError("its own error")


async def _cancelled_while(waiting: asyncio.Task[None], started: asyncio.Event) -> None:
    await started.wait()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


def test_the_tasks_end_however_they_end_and_nothing_is_raised() -> None:
    async def main() -> None:
        forever, fails, done = asyncio.ensure_future(_forever()), asyncio.ensure_future(_fails()), None
        await asyncio.sleep(0)
        await cancel_and_wait(forever, fails, done)
        assert forever.cancelled() and isinstance(fails.exception(), ValueError)
        assert not await wait_ended(asyncio.ensure_future(_forever()), 0.01)

    asyncio.run(main())


@pytest.mark.parametrize("how", ["cancel_and_wait", "wait_ended"])
def test_a_cancellation_of_the_caller_while_it_waits_is_raised(how: str) -> None:
    async def main() -> None:
        started, release = asyncio.Event(), asyncio.Event()

        async def slow_to_end() -> None:  # ends normally once released, cancelled or not: the caller waits meanwhile
            try:
                await release.wait()
            except asyncio.CancelledError:
                await release.wait()

        child = asyncio.ensure_future(slow_to_end())

        async def caller() -> None:
            started.set()
            if how == "cancel_and_wait":
                await cancel_and_wait(child)
            else:
                await wait_ended(child, 60)

        waiting = asyncio.ensure_future(caller())
        await started.wait()
        waiting.cancel()
        await asyncio.sleep(0.01)
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await child

    asyncio.run(main())


def test_a_watcher_stopped_by_a_cancelled_caller_raises_the_cancellation(tmp_path: Path) -> None:
    async def main() -> None:
        watcher, started = Watcher(tmp_path, tmp_path / "probe", _nothing), asyncio.Event()
        watcher._task = asyncio.ensure_future(_forever())  # a watcher slow to stop: the caller waits

        async def close() -> None:
            started.set()
            await watcher.stop()

        await _cancelled_while(asyncio.ensure_future(close()), started)
        await cancel_and_wait(watcher._task)

    async def _nothing() -> None:
        return None

    asyncio.run(main())


def test_a_dropped_cancellation_is_raised_at_the_next_step() -> None:
    async def main() -> None:
        task = asyncio.current_task()
        assert task is not None
        raise_if_cancelled()  # none requested: nothing
        task.cancel()
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            pass  # dropped, as an await on the way may
        with pytest.raises(asyncio.CancelledError):
            raise_if_cancelled()

    asyncio.run(main())
