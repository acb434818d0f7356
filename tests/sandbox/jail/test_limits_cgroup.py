"""What a sandbox leaves behind when it ends: nothing. Its pids cgroup is removed when it closes, though its jail
is still dying then (closed with the episode's jail's processes in it, it used to stay behind, empty, for good:
thousands piled up on a test machine), and an engine killed takes its jail's tracer with it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from channel.memory import InProcessBus
from sandbox.jail import limits
from tests.sandbox._support import jailed

ROOT = Path(__file__).resolve().parents[3]


async def test_closing_a_sandbox_removes_its_cgroup() -> None:
    bus = InProcessBus()
    async with jailed(bus, traced=False) as sb:
        cgroup = sb._shell._cgroup
        path = cgroup.path if cgroup is not None else None
        if path is None:
            pytest.skip("no cgroup of its own for a sandbox here")
        assert (await sb.run_shell("alice", "sleep 0.01 &")).exit_code == 0  # the episode's jail is up now
        assert path.is_dir()
    await bus.close()
    assert not path.exists()


def _root_and_a_dead_pid() -> tuple[Path, int]:
    """Where sandboxes' cgroups go here (the test is skipped where they cannot), and a pid no process has."""
    probe = limits.PidsCgroup()
    if probe.path is None:
        pytest.skip("no cgroup of its own for a sandbox here")
    root = probe.path.parent
    probe.close()
    dead = subprocess.Popen(["true"])
    dead.wait()
    return root, dead.pid


def test_a_cgroup_left_by_a_process_now_gone_is_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    root, dead = _root_and_a_dead_pid()
    left = [root / f"scopewatch-{dead}-0123456789ab", root / f"scopewatch-{os.getpid()}-0123456789ab"]
    old = root / "scopewatch-0123456789ab"  # a name from before the pid was in it: whose, nobody can tell
    for path in (*left, old):
        path.mkdir()
    try:
        monkeypatch.setattr(limits, "_swept", set())
        fresh = limits.PidsCgroup()
        fresh.close()
        assert [p.exists() for p in (*left, old)] == [False, True, True]
    finally:
        for path in (*left, old):
            with contextlib.suppress(OSError):
                path.rmdir()


def test_a_process_left_in_a_cgroup_of_an_engine_now_gone_is_killed_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a dead engine's jail left (stopped, orphaned: ``unshare``'s child killed as it started) goes with its
    cgroup at the next process's first sandbox."""
    root, dead = _root_and_a_dead_pid()
    cgroup = root / f"scopewatch-{dead}-0123456789ab"
    cgroup.mkdir()
    left = subprocess.Popen(["sleep", "600"])
    try:
        (cgroup / "cgroup.procs").write_text(str(left.pid))
        left.send_signal(signal.SIGSTOP)
        monkeypatch.setattr(limits, "_swept", set())
        limits.PidsCgroup().close()
        assert left.wait(timeout=10) == -signal.SIGKILL
        assert not cgroup.exists()
    finally:
        left.kill()
        left.wait()
        with contextlib.suppress(OSError):
            cgroup.rmdir()


HOLDER = """
import asyncio, os, signal, sys
from channel.memory import InProcessBus
from tests.sandbox._support import jailed

spawn = asyncio.create_subprocess_exec

async def dies_at_once(*argv, **kwargs):
    proc = await spawn(*argv, **kwargs)
    if any(str(a).endswith("_cmdserver.py") for a in argv):  # the episode's jail: its tracer has just started
        os.killpg(proc.pid, signal.SIGSTOP)  # still starting (strace not at its FIFO yet) whatever the timing
        print(proc.pid, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    return proc

asyncio.create_subprocess_exec = dies_at_once

async def main():
    async with jailed(InProcessBus()) as sb:
        await sb.run_shell("alice", "true")
    print(0, flush=True)

asyncio.run(main())
"""


def test_an_engine_killed_as_its_jail_starts_takes_the_jail_with_it() -> None:
    # Killed before strace had opened the trace's FIFO, the engine left strace waiting for ever to open it (its
    # reader gone) and unshare waiting for strace: a pair of them per such death stayed on this machine.
    engine = subprocess.Popen([sys.executable, "-c", HOLDER], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert engine.stdout is not None
        top = int(engine.stdout.readline() or 0)
        engine.wait()
        if top == 0:
            pytest.skip("no episode's jail here")
        deadline = time.monotonic() + 10
        while (left := [pid for pid in [top, *_descendants(top)] if _alive(pid)]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert left == []
    finally:
        engine.kill()
        engine.wait()
        limits._swept.clear()  # unshare's child, stopped before it asked to die with its parent, may be left
        limits.PidsCgroup().close()
        if engine.stdout is not None:
            engine.stdout.close()


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return found
    for child in children:
        found += [int(child), *_descendants(int(child))]
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waits for its parent's reaping: it is gone as a process)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_jail_enters_its_cgroup_before_its_program_runs() -> None:
    """``PidsCgroup.entering``: the child moves itself in after its exec (the move waits for an RCU grace period,
    which a ``preexec_fn`` made the engine's event loop wait for), then execs the program: the program is in it
    from its first instruction, in every hierarchy the cgroup has; a cgroup that refuses the move is passed over."""
    cgroup = limits.PidsCgroup()
    if cgroup.path is None:
        pytest.skip("no cgroup of its own for a sandbox here")
    try:
        argv = cgroup.entering(["/bin/cat", "/proc/self/cgroup"])
        assert argv[-2:] == ["/bin/cat", "/proc/self/cgroup"]
        shown = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
        inside = [line for line in shown.splitlines() if line.endswith(f"/{cgroup.path.name}")]
        assert len(inside) == len({cgroup.path, cgroup.memory} - {None}), shown  # pids and memory (v1), or one (v2)
        assert cgroup.pids() == []  # cat has ended: the cgroup is empty again
        spaced = cgroup.entering(["/bin/echo", "a  b", "$HOME", ""])
        assert subprocess.run(spaced, capture_output=True, text=True, check=True).stdout == "a  b $HOME \n"
    finally:
        cgroup.close()
    gone = cgroup.entering(["/bin/echo", "ran"])  # closed: no cgroup left, argv as it is
    assert gone == ["/bin/echo", "ran"]
    refused = limits.PidsCgroup()
    if refused.path is not None:
        files = refused.entering(["/bin/echo", "ran anyway"])
        refused.close()  # the folders gone: the writes fail
        done = subprocess.run(files, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout == "ran anyway\n" and not done.stderr
