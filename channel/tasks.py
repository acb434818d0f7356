"""Ending the tasks a coroutine started without losing a cancellation of the coroutine itself.

The common idiom ``task.cancel(); with suppress(CancelledError): await task`` also swallows a cancellation of
the *caller* that comes while it waits: a Ctrl-C (``asyncio.run`` cancels its main task) that reached a session
while it closed an episode's sandbox was dropped there, and ``audit run`` went on to its end. Here the tasks'
own ends (their cancellation, their errors) are results, and the caller's cancellation propagates: the one
way the project ends a task it started.
"""

from __future__ import annotations

import asyncio
from typing import Any


async def cancel_and_wait(*tasks: asyncio.Future[Any] | None) -> None:
    """Cancel each of ``tasks`` (None and finished ones skipped) and wait until every one has ended, however it
    ended. A cancellation of the caller while it waits is raised (the tasks are cancelled all the same)."""
    live = [task for task in tasks if task is not None and not task.done()]
    for task in live:
        task.cancel()
    if live:
        await asyncio.gather(*live, return_exceptions=True)


async def wait_ended(task: asyncio.Future[Any], timeout: float) -> bool:  # noqa: ASYNC109
    """Wait up to ``timeout`` seconds for ``task`` to end on its own (it is never cancelled here); whether it
    ended. A cancellation of the caller while it waits is raised, never taken for the task's end."""
    done, _ = await asyncio.wait({task}, timeout=timeout)
    return bool(done)


def outcome_read(done: asyncio.Future[Any]) -> None:
    """Mark a future's outcome as read: a done callback for a task or future whose failure is its awaiter's to see,
    if anyone awaits it at all (else "exception was never retrieved" is logged as it is collected)."""
    if not done.cancelled():
        done.exception()


def raise_if_cancelled() -> None:
    """Raise CancelledError if the running task has a cancellation requested that an await dropped on the way
    (Python 3.11's ``asyncio.wait_for`` returns a result that was ready when the cancellation came:
    cpython gh-86296): a loop of long steps calls it between them, so a Ctrl-C ends it at the next step."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
