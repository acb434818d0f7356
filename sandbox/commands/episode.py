"""One jail per episode instead of one per command (the default; ``SCOPEWATCH_JAIL=command`` turns it off).

At the ``bubblewrap`` level the jail of a sandbox's commands (the same namespaces, mounts, uid and
seccomp filter as :meth:`~sandbox.commands.shell.ShellRunner._jail` gives each command) and the exec
tracer around it are started once, on the first command without the network; each command is then a
fork and exec inside it by a tiny command server (:mod:`sandbox.commands._cmdserver`) on a socket
pair the engine holds. Each command keeps its guarantees: its own timeout and output cap (the
engine asks the server to kill it; a server that does not answer ends the whole jail), every
process it started gone when it ends (the server kills every other process of the jail; the engine
then checks the cgroup holds only the jail itself, and kills what else it finds), a fresh
``/dev/shm``, POSIX message queues and System V IPC, and its own part of the trace: the lines from its request to the
server's end-of-command line (everything of the command comes before it, since a traced process is
reported to its tracer before anyone can reap it), analysed exactly as a per-command trace is. Folder
opens are answered by an answerer of the engine's (:mod:`sandbox.commands.answerers`, on the jail's CPU),
not stopped by the tracer (:func:`~sandbox.jail.seccomp.directory_opens_filter`; ``SCOPEWATCH_TRACE_FOLDERS=1``
traces them again).

A command with the network (an external agent reaching its model), and any command where the server
cannot run (another level, no tracer, a server that stopped before answering) runs on the per-command
path; the sandbox label names which (``local/bubblewrap + strace, one jail per episode`` or ``...
(jail per command: why)``). A server a command killed ends that jail; the next command starts another.
"""

from __future__ import annotations

import asyncio
import contextlib
import marshal
import os
import re
import shutil
import signal
import socket
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from sandbox.commands.answerers import Answerer, hand_over
from sandbox.commands.images import ExecImages
from sandbox.commands.strace import Parser
from sandbox.commands.tracer import Tracer
from sandbox.commands.tracestream import TraceStream
from sandbox.jail.cpus import jail_cpus
from sandbox.jail.isolation import SYSTEM_PATH, Jail, minimal_env, server_argv
from sandbox.jail.limits import CappedOutput, PidsCgroup, jail_setup, memory_note
from sandbox.jail.seccomp import directory_opens_filter, filter_pipe, seccomp_call

_SERVER = Path(__file__).with_name("_cmdserver.py")
GRACE = 10.0
"""Seconds the server has to answer once a command was killed; then the whole jail is ended."""
START_MAX = 30.0


def wanted() -> bool:
    """Whether commands share one jail per episode: unless ``SCOPEWATCH_JAIL=command`` asks for a jail per
    command."""
    return os.environ.get("SCOPEWATCH_JAIL", "episode").lower() != "command"


@dataclass(frozen=True)
class EpisodeRun:
    """What one command in the episode's jail gave."""

    exit_code: int
    data: bytes
    timed_out: bool
    runaway: bool
    trace_cut: int
    killed: float = 0.0
    """When the engine began killing the command at its timeout or output cap (``time.time()``, the trace's
    clock: the server's, as it killed), 0.0 when it did not: the wrappers that kill stopped are no tampering."""
    lost: str = ""
    """Why the engine could not keep the command's trace ("" when it could): its audit fails closed."""


class EpisodeJail:
    """The engine's side of one episode's jail and its command server (see the module)."""

    def __init__(self, cgroup: PidsCgroup, tracer: Tracer, folder: Path) -> None:
        self._cgroup = cgroup
        self._tracer = tracer
        self._folder = folder
        self._proc: asyncio.subprocess.Process | None = None
        self._sock: socket.socket | None = None
        self._stream: TraceStream | None = None
        self._server_pid = b""
        self._proc_dir: str | None = None
        """The ``/proc`` that shows the trace's pids (None: the engine's)."""
        self._jail_pids: set[int] = set()
        self._answerer: Answerer | None = None
        """The answerer of the jail's folder opens (:mod:`sandbox.commands.answerers`), where it has one."""
        self.broken = ""
        """Why this jail no longer serves ("" while it does)."""
        self.refused = False
        """It never served: the next commands take the per-command path."""
        self.jail: Jail | None = None
        """What it was started with (its seccomp descriptor left out)."""

    @property
    def tracer(self) -> Tracer:
        """The tracer it was started under (another one: the jail is started again)."""
        return self._tracer

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.returncode is None and self._sock is not None

    async def start(self, jail: Jail) -> bool:
        """Start the jail, its tracer and its server; False (with :attr:`broken` said) when it cannot."""
        self.jail = replace(jail, seccomp_fd=None)
        self._folder.mkdir(parents=True, exist_ok=True)
        opens = self._directory_opens()
        # The server makes a listener for folder opens: the jail's filter lets it, the server's own filter (loaded
        # before any command) refuses the commands one (seccomp.py); without it, the jail's refuses them.
        seccomp_fd = jail.seccomp_fd
        if opens and seccomp_fd is not None:
            seccomp_fd = filter_pipe(listeners=True)
        server = self._folder / _SERVER.name
        shutil.copyfile(_SERVER, server)
        os.chmod(server, 0o644)
        os.chmod(self._folder, 0o755)
        python = dict(jail.expose).get(_real_python(), sys.executable)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # /dev/mqueue: the server lists and removes the POSIX message queues a command left (_cmdserver.py).
        given, jail = jail.seccomp_fd, replace(jail, ro=(*jail.ro, self._folder), seccomp_fd=seccomp_fd, mqueue=True)
        served = [python, "-I", "-S", str(server), str(theirs.fileno()), *opens]
        # The server stays the jail's root (with only CAP_SETUID, CAP_SETGID and CAP_KILL, under the filter):
        # a command, which it starts as the jail's uid, can neither signal it nor open its /proc.
        argv = server_argv(jail, served)
        stream = TraceStream(self._folder / "trace.fifo", self._folder / "start.trace", root=False)
        argv = [*self._tracer.argv(stream.fifo), *argv]
        cgroup = self._cgroup
        cpus = jail_cpus()
        child_setup = jail_setup(cpus)  # strace, the jail and its commands (and its answerer) on one CPU
        argv = cgroup.entering(argv)

        loop = asyncio.get_running_loop()
        loop.add_reader(stream.fd, stream.pump)
        self._stream = stream
        try:
            self._proc = await self._spawn(argv, jail.cwd, child_setup, theirs, seccomp_fd)
        except OSError as exc:
            theirs.close()
            ours.close()
            self._fail(f"the jail did not start ({exc.strerror})")
            return False
        finally:
            if seccomp_fd is not None and seccomp_fd != given:
                os.close(seccomp_fd)
        theirs.close()
        ours.setblocking(False)
        self._sock = ours
        try:
            hello, listener = await asyncio.wait_for(_hello(ours), START_MAX)
        except (TimeoutError, OSError):
            hello, listener = b"", None
        if listener is not None:
            self._answerer = hand_over(listener, cpus)
        elif opens:  # its filter, which refuses the commands' own listeners, is not there: no jail then
            hello = b""
        if hello != b"ready" or (listener is not None and self._answerer is None):
            self._fail("the command server did not start in the jail")
            return False
        self._jail_pids = set(cgroup.pids())
        found = [pid for pid in self._jail_pids if _runs(pid, str(server))]
        traced = self._tracer.pid_of(found[0]) if len(found) == 1 else 0
        if not traced:
            self._fail("the command server's process was not found")
            return False
        self._server_pid = str(traced).encode()
        self._proc_dir = self._tracer.proc_of(self._proc.pid)
        stream.marker = re.compile(rb"^" + self._server_pid + rb" +[0-9.]+ openat\([^\n]*\"/dev/null\"", re.M)
        return True

    async def _spawn(self, argv: list[str], cwd: Path, setup: Callable[[], None], theirs: socket.socket,
                     seccomp_fd: int | None) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env=minimal_env(path=SYSTEM_PATH, home=str(cwd), tmp="/tmp"),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=setup,
            pass_fds=(theirs.fileno(), *(() if seccomp_fd is None else (seccomp_fd,))),
        )

    def _directory_opens(self) -> list[str]:
        """The server's arguments that have it answer folder opens itself, unseen by the tracer
        (:func:`~sandbox.jail.seccomp.directory_opens_filter`); none where there is no such filter here."""
        found, call = directory_opens_filter(), seccomp_call()
        if not found.available or call < 0 or os.environ.get("SCOPEWATCH_TRACE_FOLDERS") == "1":
            return []
        if tuple(int(n) for n in os.uname().release.split(".")[:2] if n.isdigit()) < (5, 5):
            return []  # no SECCOMP_USER_NOTIF_FLAG_CONTINUE: the server would load none (_cmdserver.py)
        program = self._folder / "directory-opens.bpf"
        program.write_bytes(found.program)
        os.chmod(program, 0o644)
        return [str(program), str(call)]

    async def run(
        self,
        argv: tuple[str, ...],
        env: Mapping[str, str],
        cwd: Path,
        stdin: Path | None,
        timeout: float,  # noqa: ASYNC109
        trace: Path,
        images: ExecImages | None,
        parser: Parser | None = None,
    ) -> EpisodeRun:
        """Run ``argv`` in the jail (see the module); its trace goes to ``trace`` (and, as it comes, to ``parser``: its
        facts are then ready when the command ends)."""
        sock, stream = self._sock, self._stream
        assert sock is not None and stream is not None
        if self._answerer is not None and not self._answerer.alive:
            self.end("the answerer of the jail's folder opens ended")  # its folder opens would fail (ENOSYS)
            return EpisodeRun(137, b"", False, False, 0)
        loop = asyncio.get_running_loop()
        ooms = self._cgroup.out_of_memory()
        stream.pump()
        if images is not None:
            images.reach(self._proc_dir)
        stream.switch(trace, images, parser)
        read_fd, write_fd = os.pipe()
        given = os.open(stdin if stdin is not None else os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        uid = self.jail.uid if self.jail is not None else None
        request: dict[str, object] = {"argv": [str(a) for a in argv], "env": {str(k): str(v) for k, v in env.items()}}
        request |= {"cwd": str(cwd), "timeout": float(timeout), "uid": uid}
        try:  # marshal: the server's interpreter is this one (_cmdserver.py)
            socket.send_fds(sock, [marshal.dumps(request)], [given, write_fd])
        finally:
            os.close(given)
            os.close(write_fd)
        # Plain reader callbacks on the output pipe and the socket, no stream, task or transport: each of those
        # cost the loop more wake-ups and steps than the command's few reads.
        runaway = gave_up = False
        killed = 0.0

        def kill() -> None:
            nonlocal runaway, killed
            runaway, killed = True, killed or time.time()
            with contextlib.suppress(OSError):
                sock.send(b"k")

        output, sfd = CappedOutput(kill), sock.fileno()
        reply: asyncio.Future[bytes | None] = loop.create_future()
        ended: asyncio.Future[None] = loop.create_future()
        os.set_blocking(read_fd, False)
        loop.add_reader(read_fd, _drain, read_fd, output, ended)
        loop.add_reader(sfd, _receive, sock, reply)
        timer = loop.call_later(timeout + GRACE, _give_up, reply)
        try:
            answer = await reply
            timer.cancel()
            loop.remove_reader(sfd)
            if answer is None:  # the server did not end the command: the whole jail goes
                killed = killed or time.time()
                self.end("the command server did not answer in time")
                gave_up, answer = True, b""
            if not answer:
                self.end(self.broken or "a command ended the command server")
            await self._tail(answer)
            if not ended.done():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ended, 5)
            data = output.result()[0] if ended.done() and not ended.cancelled() else b""
        except BaseException:
            # Cancelled mid-command (a session stopped): the server is still busy with it, so the jail
            # goes with it; the next command starts another.
            loop.remove_reader(sfd)
            self.end("a command was cancelled")
            raise
        finally:
            timer.cancel()
            loop.remove_reader(sfd)
            loop.remove_reader(read_fd)
            os.close(read_fd)
        words = answer.decode("ascii", "replace").split()  # exit CODE; exit timeout|killed WHEN
        why = words[1] if len(words) > 1 else ""
        timed_out = (why == "timeout" or gave_up) and not runaway
        code = 124 if timed_out else 137 if why in ("killed", "") else int(why)
        if why in ("timeout", "killed") and len(words) > 2:
            killed = float(words[2])  # when the server killed it (a kill asked for by the engine comes after)
        stream.flush()
        cut, stream.cut, stream.parser = stream.cut, 0, None  # what comes after the end-of-command line is not its
        return EpisodeRun(code, data + memory_note(self._cgroup, ooms), timed_out, runaway, cut, killed, stream.lost)

    async def _tail(self, answer: bytes) -> None:
        """After the answer: the trace up to the server's end-of-command line (or strace's end), and
        nothing left in the cgroup but the jail itself."""
        stream = self._stream
        assert stream is not None
        deadline = time.monotonic() + 5
        while answer and not stream.marked and time.monotonic() < deadline:
            stream.pump()
            if not stream.marked:
                await asyncio.sleep(0.001)
        stream.marked = False
        for pid in set(self._cgroup.pids()) - self._jail_pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if not answer and self._proc is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._proc.wait(), 5)
            stream.pump()

    def end(self, why: str) -> None:
        """End the jail (every process in it, its tracer) and say why commands no longer use it."""
        self.broken = self.broken or why
        if self._proc is not None and self._proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, signal.SIGKILL)
        for pid in self._cgroup.pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        self._answerer = None  # shared with other jails on its CPU (sandbox.commands.answerers)
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _fail(self, why: str) -> None:
        self.refused = True
        self.end(why)
        self.close()

    async def wait_ended(self) -> None:
        """After :meth:`end` or :meth:`close`: wait (5 s at most) until the jail's process is reaped, so
        its transport closes on this event loop (dropped unreaped, it warned in a later test's loop)."""
        if self._proc is not None:
            with contextlib.suppress(TimeoutError, ProcessLookupError):
                await asyncio.wait_for(self._proc.wait(), 5)

    def close(self) -> None:
        self.end(self.broken or "closed")
        if self._stream is not None:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().remove_reader(self._stream.fd)
            self._stream.close()
            self._stream = None


async def _hello(sock: socket.socket) -> tuple[bytes, int | None]:
    """The server's first message and the descriptor it came with (its folder-opens listener), if any."""
    loop = asyncio.get_running_loop()
    readable: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not readable.done():
            readable.set_result(None)

    fd = sock.fileno()  # a close of the jail meanwhile (a sandbox closed while its jail starts) makes it -1
    loop.add_reader(fd, ready)
    try:
        await readable
    finally:
        loop.remove_reader(fd)
    msg, fds, _, _ = socket.recv_fds(sock, 64, 1)
    return msg, fds[0] if fds else None


def _drain(fd: int, output: CappedOutput, ended: asyncio.Future[None]) -> None:
    """The command's output pipe is readable: take what is there; at its end (every writer gone), ``ended``."""
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            asyncio.get_running_loop().remove_reader(fd)
            if not ended.done():
                ended.set_result(None)
            return
        output.feed(chunk)


def _receive(sock: socket.socket, reply: asyncio.Future[bytes | None]) -> None:
    """The server's answer (b"": the socket's end), once."""
    if reply.done():
        return
    try:
        reply.set_result(sock.recv(64))
    except (BlockingIOError, InterruptedError):
        return
    except OSError as exc:
        reply.set_exception(exc)


def _give_up(reply: asyncio.Future[bytes | None]) -> None:
    if not reply.done():
        reply.set_result(None)


def _real_python() -> str:
    return os.path.realpath(sys.executable)


def _runs(pid: int, path: str) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().split(b"\0")[1:4] == [b"-I", b"-S", path.encode()]
    except OSError:
        return False
