"""The per-command path: one shell command in a jail of its own, under an exec tracer of its own
(``strace ... bwrap ... bash -c CMD``), started as a fresh process; what
:meth:`~sandbox.commands.shell.ShellRunner.run` does where the episode's jail
(:mod:`sandbox.commands.episode`) is off or cannot serve.

The command's timeout and output cap kill it; when it returns, everything it started is killed:
its PID namespace ends with it (bubblewrap, unshare), and every process left in its cgroup or process
group is killed (all levels).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from sandbox.commands.episode import EpisodeRun
from sandbox.commands.tracestream import TraceStream
from sandbox.jail.limits import PidsCgroup, jail_setup, memory_note, read_capped


async def run_fresh(
    argv: list[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    given: Path | None,
    timeout: float,  # noqa: ASYNC109
    cgroup: PidsCgroup,
    stream: TraceStream | None,
    seccomp_fd: int | None,
    unjailed: bool,
    proc_of: Callable[[int], str | None],
) -> tuple[EpisodeRun, int | None]:
    """Run ``argv`` (the jail and tracer prefixes included) with ``given`` on its standard input;
    also the root's exit code as the trace shows it (None: not seen, or not traced). ``proc_of``: the
    ``/proc`` showing the trace's pids for a tracer started as a pid (``Tracer.proc_of``)."""

    child_setup = jail_setup()
    ooms = cgroup.out_of_memory()

    loop = asyncio.get_running_loop()
    if stream is not None:
        loop.add_reader(stream.fd, stream.pump)
    timed_out = runaway = False
    killed = 0.0  # when the engine began killing it at its timeout or output cap (time.time(): the trace's clock)
    source = given if given is not None else Path(os.devnull)
    try:
        with source.open("rb") as given_file:
            proc = await asyncio.create_subprocess_exec(
                *cgroup.entering(argv),
                cwd=cwd,
                env=dict(env),
                stdin=given_file,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=child_setup,
                pass_fds=() if seccomp_fd is None else (seccomp_fd,),
            )
        assert proc.stdout is not None
        if stream is not None and stream.images is not None:
            stream.images.reach(proc_of(proc.pid))
        if stream is not None and unjailed:
            # No PID namespace ends what the command left running, and strace waits for it.
            stream.on_root_exit = lambda: kill_all(proc.pid, cgroup)

        def kill() -> None:
            nonlocal runaway, killed
            runaway, killed = True, killed or time.time()
            kill_all(proc.pid, cgroup)

        reader = asyncio.ensure_future(read_capped(proc.stdout, kill))
        try:
            exit_code = await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            timed_out, killed = True, killed or time.time()
            exit_code = 124
        finally:
            # Leftovers (daemons) would keep writing after the command and be misattributed.
            kill_all(proc.pid, cgroup)
            await proc.wait()
            try:
                data, _ = await asyncio.wait_for(asyncio.shield(reader), 5)
            except TimeoutError:
                reader.cancel()
                data = b""
    finally:
        if stream is not None:
            loop.remove_reader(stream.fd)
            stream.close()
    cut = stream.cut if stream is not None else 0
    tail = stream.tail.code if stream is not None else None
    lost = stream.lost if stream is not None else ""
    return EpisodeRun(exit_code, data + memory_note(cgroup, ooms), timed_out, runaway, cut, killed, lost), tail


def kill_all(pid: int, cgroup: PidsCgroup) -> None:
    """SIGKILL the command's process group and every process left in its cgroup."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    for _ in range(20):
        left = cgroup.pids()
        if not left:
            return
        for other in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(other, signal.SIGKILL)
        time.sleep(0.002)
