"""The work around a command runs on the loop when it was quick the last time, in a thread otherwise."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from sandbox.commands.offload import Offload, bigger


def _where() -> str:
    return threading.current_thread().name


async def test_quick_work_moves_onto_the_loop_and_slow_work_back_off_it() -> None:
    off = Offload(quick=0.05)
    loop_thread = _where()
    assert await off.run("walk", _where) != loop_thread  # the first time: how long it takes is not known
    assert off.on_loop("walk") and await off.run("walk", _where) == loop_thread
    assert await off.run("walk", _where, big=True) != loop_thread  # a big run: in a thread anyway

    def slow() -> str:
        time.sleep(0.06)
        return _where()

    assert await off.run("walk", slow) == loop_thread  # the last run was quick
    assert not off.on_loop("walk") and await off.run("walk", _where) != loop_thread
    assert off.on_loop("walk")  # that one was quick again
    assert not off.on_loop("other")


async def test_a_failing_run_is_timed_and_raises_where_it_is_awaited() -> None:
    off = Offload()

    def fail() -> None:
        raise ValueError("walk failed")

    for _ in range(2):
        try:
            await off.run("walk", fail)
        except ValueError as exc:
            assert str(exc) == "walk failed"
        else:
            raise AssertionError("the error was lost")
    assert off.on_loop("walk")


def test_bigger_reads_the_size_and_a_missing_file_is_not_big(tmp_path: Path) -> None:
    (tmp_path / "trace").write_bytes(b"x" * 10)
    assert bigger(tmp_path / "trace", 9) and not bigger(tmp_path / "trace", 10)
    assert not bigger(tmp_path / "none", 0)


def test_the_loop_is_not_needed_to_build_one() -> None:
    assert asyncio.run(Offload().run("k", lambda: 3)) == 3
