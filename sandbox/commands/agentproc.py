"""A long-lived agent process in the sandbox's jail: an ACP agent, whose standard input and output are
its protocol's pipes, and which lives for a whole episode (not one command).

It starts as an external agent's command does (:meth:`~sandbox.commands.shell.ShellRunner.run` with
``network=True``): the jail of the isolation level (bubblewrap: no host filesystem but the system
folders, the workspace, its HOME, the ``origin``, the Python that runs the tools and the agents
cache, all read-only but the sandbox's own), the network kept for its model, the jail's uid, the
seccomp filter, the commands' limits and the sandbox's minimal environment. The files its command line
names by absolute path (an agent script of one's own) are bound read-only at their place, and nothing
else of the host; one under ``/tmp`` (the jail's is the sandbox's own) gets its mount point made by the
engine before the jail starts (an empty file, :func:`mount_points`), so it is known as the engine's, not
reported as a file the agent added there (agents3 #6). It has a cgroup of its own (a command's end kills
what is left in the commands' cgroup: not this), and :meth:`AgentProcess.close` kills it with everything it started.

Under bubblewrap its standard output is a pipe handed to the jail as an extra descriptor, made its stdout
inside (:data:`STDOUT_FROM`), and its program is the real one, not the shim's wrapper over it (the engine starts
the agent: not a command the agent ran): bubblewrap's own processes keep their stdio for as long as the jail
lives but not the extra descriptors, and a wrapper waits for its program, so an agent that closes its stdout
while it lives on is seen at once (its end of the connection), instead of holding its turn until the turn's
bound (agents4 #12).

It is not under the exec tracer: what its own code does is seen by its effects, at the end of each
turn and before each command (:mod:`sandbox.backends.aftermath`): the workspace's changes, HOME's and
/tmp's, and the ``origin``'s refs."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from sandbox.commands.fresh import kill_all
from sandbox.commands.shell import ShellRunner
from sandbox.jail.isolation import SYSTEM_DIRS, jail_argv
from sandbox.jail.limits import PidsCgroup, jail_setup

STREAM_LIMIT = 2**24
"""Bytes of one line the agent may write on its standard output (a JSON-RPC message: a whole file)."""


STDOUT_FROM = 'exec 1>&{fd} {fd}>&-; exec -a "$0" "$@"'
"""The first step in the jail under bubblewrap (bash): the extra descriptor ``fd`` becomes the agent's stdout,
then the program runs (its argv[0] as given: a virtualenv's Python finds its folder by it)."""


class AgentProcess:
    """One jailed agent process: its pipes (``stdin``, ``stdout``, ``stderr``), :meth:`wait`, :meth:`close`."""

    def __init__(self, process: asyncio.subprocess.Process, cgroup: PidsCgroup, argv: Sequence[str], cwd: Path,
                 stdout: tuple[asyncio.StreamReader, asyncio.BaseTransport] | None = None) -> None:
        self.process, self._cgroup, self.argv, self.cwd = process, cgroup, tuple(argv), cwd
        assert process.stdin is not None and process.stderr is not None
        self._stdout_pipe = stdout[1] if stdout is not None else None
        out = stdout[0] if stdout is not None else process.stdout
        assert out is not None
        self.stdin, self.stdout, self.stderr = process.stdin, out, process.stderr

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    async def wait(self) -> int:
        return await self.process.wait()

    async def close(self, grace: float = 2.0) -> None:
        """Its standard input closed, ``grace`` seconds to end, then it and everything it started killed."""
        with contextlib.suppress(Exception):
            self.stdin.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), grace)
        kill_all(self.process.pid, self._cgroup)
        await self.process.wait()
        if self._stdout_pipe is not None:
            self._stdout_pipe.close()
        await self._cgroup.remove()


def named_files(argv: Sequence[str], bound: Sequence[str] = ()) -> tuple[str, ...]:
    """The files the command line names by absolute path outside the system folders and the folders
    ``bound`` already (bound read-only)."""
    found = []
    for word in argv:
        if os.path.isabs(word) and os.path.isfile(word):
            if not any(word == d or word.startswith(d + "/") for d in (*SYSTEM_DIRS, *bound)):
                found.append(word)
    return tuple(dict.fromkeys(found))


def mount_points(files: Sequence[str], tmp: Path) -> tuple[Path, ...]:
    """Make, in ``tmp`` (the jail's ``/tmp``), the mount point of each of ``files`` that is under ``/tmp``: its
    folders and an empty file, as the jail would make them once it starts (bubblewrap, or unshare's set-up script:
    after the engine took the sandbox's /tmp as known, so the agent's change). Returns the files made."""
    made = []
    for file in files:
        if not file.startswith("/tmp/"):
            continue
        point = tmp / os.path.relpath(file, "/tmp")
        if not point.resolve().is_relative_to(tmp.resolve()):
            continue  # a ``..`` or a link out of it: left to bubblewrap
        with contextlib.suppress(OSError):  # there already (kept as it is), or not to be made: bubblewrap's then
            point.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            os.close(os.open(point, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644))
            made.append(point)
    return tuple(made)


def _unwrapped(runner: ShellRunner, program: str) -> str | None:
    """Where the jail reaches ``program`` itself when it is the shim's wrapper (found first on PATH:
    ``python3``) or the wrapper is mounted over it (``/usr/bin/python3``); None when it is neither."""
    shim = runner.shim
    if shim is None:
        return None
    real: str | None = None
    if os.path.dirname(program) == str(shim.dir):
        program = real = shim.real.get(os.path.basename(program)) or program
    return dict(shim.expose).get(os.path.realpath(program), real)


async def start_agent_process(
    runner: ShellRunner, actor: str, argv: Sequence[str], env: Mapping[str, str] | None = None
) -> AgentProcess:
    """Start ``argv`` as ``actor`` in the jail (see the module docstring), in the workspace root, with
    the sandbox's minimal environment plus ``env`` (a ``PATH`` in it goes first)."""
    environ = runner.env(actor, env)
    program = argv[0] if "/" in argv[0] else shutil.which(argv[0], path=environ["PATH"])
    if program is None or not os.access(program, os.X_OK):  # said as the host's exec says it, not the jail's
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), argv[0])
    await runner._hand_over()
    seccomp_fd = runner._filter_fd()
    jail = runner._jail(True, seccomp_fd)
    named = named_files(argv, jail.extra_ro)
    jail = replace(jail, extra_ro=(*jail.extra_ro, *named))
    if runner.isolation.level in ("bubblewrap", "unshare") and jail.tmp is not None:
        mount_points(named, jail.tmp)
    cgroup = PidsCgroup()
    command = list(argv)
    read_end = write_end = None
    if runner.isolation.level == "bubblewrap":  # its stdout an extra descriptor (see the module docstring)
        read_end, write_end = os.pipe()
        bash = shutil.which("bash", path="/usr/bin:/bin") or "bash"
        # The real program, not the shim's wrapper mounted over it (a Python in the system folders): the wrapper
        # waits for its program to record it, and would keep the agent's stdout open as long as it lives.
        real = _unwrapped(runner, program) or argv[0]
        command = [bash, "-c", STDOUT_FROM.format(fd=write_end), argv[0], real, *argv[1:]]
    try:
        process = await asyncio.create_subprocess_exec(
            *cgroup.entering(jail_argv(runner.isolation.level, jail, command)),
            cwd=runner.workspace.root,
            env=environ,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE if write_end is None else asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
            preexec_fn=jail_setup(),
            pass_fds=tuple(fd for fd in (seccomp_fd, write_end) if fd is not None),
            limit=STREAM_LIMIT,
        )
    except BaseException:
        cgroup.close()
        if read_end is not None:
            os.close(read_end)
        raise
    finally:
        for fd in (seccomp_fd, write_end):
            if fd is not None:
                os.close(fd)
    stdout = None
    if read_end is not None:
        reader = asyncio.StreamReader(limit=STREAM_LIMIT)
        pipe, _ = await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(read_end, "rb", buffering=0))
        stdout = (reader, pipe)
    return AgentProcess(process, cgroup, argv, runner.workspace.root, stdout)
