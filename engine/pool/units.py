"""Units of work in parallel: on local worker processes (``--jobs N``) or as Ray tasks (``--executor
ray[://ADDRESS]``). The one pool of every batch: a headless run's trajectories (engine/runs/batch.py),
a suite's packs (``scenarios validate``), the audit gates' candidate batches and the audit runs'
sessions (``audit validate|run``).

A unit is a module-level function and its arguments (picklable). It runs in a fresh process (spawned,
not forked: no event loop, thread, warm test server or open sandbox of the driver leaks into it) or
as a Ray task on any node, builds its own workspaces there, and returns a picklable result.
:func:`run_units` hands the results back in the order of the units, whatever order they finish in, so
a caller that combines them in that order gets what ``--jobs 1`` gets: which units there are never
depends on ``jobs``, only where and when they run. With one job (or one unit) on the local executor
the units run one after another in this process.

Stopping: a local worker runs in a process group of its own (with everything it starts), and stops
itself when the driver is gone. SIGTERM or SIGINT to the driver interrupts the batch: the driver asks
each worker's group to stop (SIGTERM), kills what is left after :data:`GRACE_S`, and re-raises
(SIGTERM as :class:`Terminated`), so no process of the run outlives it.

Progress: a unit calls :func:`~engine.pool.progress.report` (an episode ended, a task validated);
the driver's ``on_report`` sees each item as it happens from local workers (a queue), and a Ray
task's items when it returns.
"""

from __future__ import annotations

import concurrent.futures
import concurrent.futures.process
import contextlib
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from channel.errors import ScopewatchError
from engine.pool.progress import reporting_to, set_sink

R = TypeVar("R")

OnReport = Callable[[Any], None]
"""Sees, in the driver, each item a unit passed to :func:`~engine.pool.progress.report`."""

OnResult = Callable[[int, Any], None]
"""Sees, in the driver, each unit's result with its index, in the order of the units."""

EXECUTORS = "local, ray or ray://HOST:PORT"


def valid_executor(text: str) -> bool:
    """Whether ``text`` names an executor: ``local``, ``ray`` or ``ray://ADDRESS``."""
    return text in ("local", "ray") or (text.startswith("ray://") and len(text) > len("ray://"))


def run_units(
    fn: Callable[..., R],
    units: Sequence[tuple[Any, ...]],
    *,
    jobs: int,
    executor: str = "local",
    on_report: OnReport | None = None,
    on_result: OnResult | None = None,
) -> list[R]:
    """``fn(*args)`` for every ``args`` in ``units``, at most ``jobs`` at once on ``executor``;
    the results in the order of ``units`` (``on_result`` sees each as soon as the ones before it are
    in). The first unit to fail stops the batch: its exception is raised here."""
    delivery = _InOrder(len(units), on_result)
    if executor != "local":
        from engine.pool.ray_tasks import run_on_ray

        return run_on_ray(fn, units, executor, jobs, on_report, delivery.put)
    if min(jobs, len(units)) <= 1:
        return _in_process(fn, units, on_report, delivery.put)
    return _local(fn, units, jobs, on_report, delivery.put)


class _InOrder:
    """Results as they arrive, handed on in unit order."""

    def __init__(self, count: int, on_result: OnResult | None) -> None:
        self.results: dict[int, Any] = {}
        self.next = 0
        self.count = count
        self.on_result = on_result

    def put(self, index: int, result: Any) -> None:
        self.results[index] = result
        while self.next in self.results and self.next < self.count:
            if self.on_result is not None:
                self.on_result(self.next, self.results[self.next])
            self.next += 1


def _in_process(
    fn: Callable[..., R], units: Sequence[tuple[Any, ...]], on_report: OnReport | None, done: OnResult
) -> list[R]:
    with reporting_to(on_report):
        results: list[R] = []
        for index, args in enumerate(units):
            results.append(fn(*args))
            done(index, results[-1])
        return results


_INTERRUPTED = False
"""In a worker: a unit was interrupted (Ctrl-C reaches the workers too), so a unit already queued to
this worker stops at once instead of running to its end while the driver waits."""


GRACE_S = 3.0
"""How long stopped workers get to clean up (close their sandboxes, run their ``atexit``: well under a second
here, idle or loaded) before they are killed: short enough that a whole run stops within 5 s (issue 31) even
when a worker's clean-up hangs or its stop never reached its code (an exception a signal handler raises inside
a finaliser is dropped by Python; a worker on a loaded machine took the whole 5 s it had been given)."""


class WorkerDied(ScopewatchError):
    """A local worker process ended abruptly (killed: the OOM killer, a SIGKILL), so the batch cannot go
    on: the units delivered before it (``delivered``) are all the batch has. One line, never the pool's
    ``BrokenProcessPool`` traceback."""

    def __init__(self, delivered: int, total: int) -> None:
        self.delivered, self.total = delivered, total
        super().__init__(
            f"a worker process died (killed by a signal: out of memory?); the batch stopped, {delivered} of {total} "
            "units finished"
        )


class Terminated(KeyboardInterrupt):
    """The driver got SIGTERM: raised where Ctrl-C would be, so the same clean-up runs."""


def _raise_terminated(_signum: int, _frame: object) -> None:
    raise Terminated


def _worker_init(notify: Any, driver: int) -> None:
    os.setsid()  # its own group: the driver stops the worker and all it started with one signal
    signal.signal(signal.SIGTERM, _raise_terminated)  # unwind the unit: sandboxes close
    # Blocked while it started (:func:`_sigint_deferred`): a Ctrl-C that came meanwhile is dropped (the driver stops
    # the workers with SIGTERM), then Ctrl-C is what it always is.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.default_int_handler)
    set_sink(notify.put)
    _die_with(driver)
    threading.Thread(target=_orphan_watch, args=(driver,), daemon=True, name="scopewatch-orphan-watch").start()


def _orphan_watch(driver: int) -> None:
    """In a worker: once the driver is gone (killed), take the worker's group down with it."""
    while os.getppid() == driver:
        time.sleep(0.5)
    os.killpg(os.getpgrp(), signal.SIGKILL)


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` in the driver while the batch runs (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[None]:
    """SIGINT blocked in the driver while the workers are spawned (as the units are submitted, each waiting for its
    worker's interpreter to start): a Ctrl-C meanwhile comes when this ends, and each worker starts with it blocked
    too (a blocked signal stays blocked across an exec) until :func:`_worker_init`. A terminal's Ctrl-C reaches the
    driver's whole group, and a worker still importing its modules printed a traceback (newcomer5 08)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _stop_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Stop every worker's process group: SIGTERM, then SIGKILL what is left after :data:`GRACE_S`."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for process in processes:
            with contextlib.suppress(ProcessLookupError, PermissionError, TypeError):
                if os.getpgid(process.pid) == process.pid:  # its group: the worker and all it started
                    os.killpg(process.pid, sig)
                else:  # still starting: no group of its own yet
                    os.kill(process.pid, sig)
        deadline = time.monotonic() + GRACE_S
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        if all(not process.is_alive() for process in processes) and sig == signal.SIGTERM:
            break
    pool.shutdown(wait=False, cancel_futures=True)


def _die_with(parent: int) -> None:
    """A worker dies with the process that started it (Linux ``PR_SET_PDEATHSIG``): a driver killed
    with SIGKILL leaves no worker finishing its unit behind it (and writing to a results store that a
    restarted run is writing to too)."""
    if sys.platform != "linux":
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the driver died before the line above
        os._exit(1)


def _call(fn: Callable[..., R], args: tuple[Any, ...]) -> R:
    global _INTERRUPTED
    if _INTERRUPTED:
        raise KeyboardInterrupt
    try:
        return fn(*args)
    except Terminated:
        _exit_stopped()
        raise
    except KeyboardInterrupt:
        _INTERRUPTED = True
        raise


def _exit_stopped() -> None:
    """In a worker the driver stopped (SIGTERM), once its unit has unwound: end the process with its clean-up
    (``atexit``: the helper folders it made), never back to the pool's queue to wait for the SIGKILL that skips it
    (newcomer5 07: interrupted runs left their folders in /tmp and /dev/shm)."""
    import atexit

    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # it is ending: a second stop must not cut its clean-up short
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()
    os._exit(128 + signal.SIGTERM)


def _local(
    fn: Callable[..., R], units: Sequence[tuple[Any, ...]], jobs: int, on_report: OnReport | None, done: OnResult
) -> list[R]:
    """The units on ``jobs`` fresh worker processes; reports forwarded as they arrive."""
    context = multiprocessing.get_context("spawn")
    notify = context.Queue()
    delivered = 0

    def deliver(index: int, result: Any) -> None:
        nonlocal delivered
        done(index, result)
        delivered += 1

    try:
        with (
            _sigterm_interrupts(),
            concurrent.futures.ProcessPoolExecutor(
                max_workers=min(jobs, len(units)),
                mp_context=context,
                initializer=_worker_init,
                initargs=(notify, os.getpid()),
            ) as pool,
        ):
            futures: list[concurrent.futures.Future[R]] = []
            try:
                with _sigint_deferred():  # a Ctrl-C meanwhile is raised as it ends: the workers are stopped below
                    futures += [pool.submit(_call, fn, args) for args in units]
                index = {future: i for i, future in enumerate(futures)}
                pending: set[concurrent.futures.Future[R]] = set(futures)
                while pending:
                    finished, pending = concurrent.futures.wait(pending, timeout=0.1)
                    _drain(notify, on_report)
                    for future in sorted(finished, key=index.__getitem__):
                        error = future.exception()
                        if isinstance(error, concurrent.futures.process.BrokenProcessPool):
                            raise WorkerDied(delivered, len(units)) from None
                        if error is not None:
                            raise error
                        deliver(index[future], future.result())
            except BaseException:
                for future in futures:
                    future.cancel()
                _stop_workers(pool)
                raise
            results = [future.result() for future in futures]
        _drain(notify, on_report)
        return results
    finally:
        notify.close()
        notify.join_thread()


def _drain(notify: Any, on_report: OnReport | None) -> None:
    while True:
        try:
            item = notify.get_nowait()
        except queue.Empty:
            return
        if on_report is not None:
            on_report(item)
