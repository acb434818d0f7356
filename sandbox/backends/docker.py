"""The docker backend: the local sandbox's workspace, guard, reconciler, watcher and audit, with
agent commands and tests run in a container per sandbox through the docker SDK.

The container (image ``scopewatch-sandbox:bookworm-trace`` unless another is named; built by ``scripts/docker-sandbox
image``) has no network, a read-only root, no capabilities, ``no-new-privileges``, the jail's seccomp list
(:func:`~sandbox.jail.seccomp.docker_profile`), memory / pids / CPU limits; agent commands run as the sandbox's uid
(:mod:`sandbox.jail.jailuser`). It sees the workspace and HOME read-write at their host paths (events carry the local
backend's paths), the workspace's ``origin`` too (pushes are known by their effect there, as locally), a private
``/tmp``, and the shim and its audit channel read-only; the shim's wrappers are mounted over
the image's real programs (copies kept in ``/opt/scopewatch/real``, listed in the ``scopewatch.real`` label), so
``/usr/bin/git`` and ``/bin/rm`` are recorded too. Each command runs with ``docker exec``, then every process it started
is killed (``kill -9 -1``). Where the image has strace and ptrace works in the container, each command runs under it
(:mod:`sandbox.commands.tracer`): the trace comes out on the exec's stderr, read by the engine only (the command's
stderr goes to its stdout). The image's strace is execute-only (not dumpable): the traced programs cannot open its
``/proc/PID/fd`` to write into the trace; killing it shows (``ShimTampered``). Containers (label ``scopewatch.sandbox``,
the engine's pid) are removed on close, at exit, and at the next start once the process that made them is gone.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import shlex
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from channel.emitter import Emitter
from sandbox.backends.engine import close_stream, engine_client
from sandbox.backends.local import LocalSandbox
from sandbox.commands.atoms import AtomRegistry, default_registry
from sandbox.commands.calls import CommandRun
from sandbox.commands.identity import ProgramIndex
from sandbox.commands.images import ExecImages
from sandbox.commands.pushes import by_effect
from sandbox.commands.shell import ShellRunner
from sandbox.commands.shim import Shim
from sandbox.commands.tracer import Tracer
from sandbox.commands.tracestream import TraceTail
from sandbox.errors import SandboxError
from sandbox.jail.isolation import Isolation
from sandbox.jail.jailuser import jail_uid
from sandbox.jail.limits import KEEP, OUTPUT_MAX
from sandbox.jail.seccomp import docker_profile
from sandbox.testing.testrun import TestExecutor
from sandbox.workspace.ownership import Ownership
from sandbox.workspace.remote import read_state, ref_updates
from sandbox.workspace.repo import Workspace, as_text
from sandbox.workspace.watcher import WATCH_DEBOUNCE_MS, WATCH_STEP_MS

DEFAULT_IMAGE = "scopewatch-sandbox:bookworm-trace"
LABEL = "scopewatch.sandbox"
CONTAINER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
MEMORY = "1g"
PIDS = 256
CPUS = 1.0
_DRIVER_DIR = Path(__file__).resolve().parent.parent / "testing"  # the test driver, mounted read-only

_live: set[str] = set()
_live_lock = threading.Lock()


def _image_labels(client: Any, image: str) -> dict[str, str]:
    from docker.errors import ImageNotFound

    try:
        found = client.images.get(image)
    except ImageNotFound:
        hint = " (build it: scripts/docker-sandbox image)" if image == DEFAULT_IMAGE else ""
        raise SandboxError(f"docker image {image} is not there{hint}") from None
    return dict(found.labels or {})


def _image_real(client: Any, image: str) -> dict[str, str]:
    """The image's ``scopewatch.real`` label: command -> the program the shim covers."""
    label = _image_labels(client, image).get("scopewatch.real", "")
    try:
        real = json.loads(label) if label else {}
    except ValueError:
        real = {}
    return {str(k): str(v) for k, v in real.items()} if isinstance(real, dict) else {}


def reap(client: Any) -> int:
    """Remove the labelled containers whose engine process is gone; returns how many."""
    removed = 0
    for container in client.containers.list(all=True, filters={"label": LABEL}):
        pid = int((container.labels or {}).get(LABEL + ".pid", "0") or 0)
        alive = pid > 0 and _alive(pid)
        if not alive or (pid == os.getpid() and container.id not in _live):
            with contextlib.suppress(Exception):
                container.remove(force=True)
                removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@atexit.register
def _remove_live() -> None:
    if not _live:
        return
    with contextlib.suppress(Exception):
        client = engine_client()
        for cid in list(_live):
            with contextlib.suppress(Exception):
                client.containers.get(cid).remove(force=True)


async def docker_info(image: str | None) -> Tracer:
    """Whether sandboxes on ``image`` are traced (its label names strace); raises
    :class:`SandboxError` when no engine answers or the image is missing."""
    name = image or DEFAULT_IMAGE

    def check() -> bool:
        client = engine_client()
        try:
            return _image_labels(client, name).get("scopewatch.tracer") == "strace"
        finally:
            client.close()

    traced = await asyncio.to_thread(check)
    return Tracer("strace" if traced else "", "the image has no strace")


class DockerShellRunner(ShellRunner):
    """Runs commands and tests in the sandbox's container."""

    image = DEFAULT_IMAGE

    def __init__(self, workspace: Workspace, registry: AtomRegistry, isolation: Isolation | None = None) -> None:
        super().__init__(workspace, registry, Isolation("none"))
        self._client: Any = None
        self._container: Any = None
        self._tests: Any = None
        self._images: ExecImages | None = None
        """Execs by descriptor, read while their processes run (fed the trace by :meth:`_exec`)."""

    @property
    def label(self) -> str:
        return self.tracer.label(f"docker/{self.image}")

    async def prepare(self, isolation: Isolation | None = None) -> None:
        await asyncio.to_thread(self._start)

    def _start(self) -> None:
        ws = self.workspace
        self._client = client = engine_client()
        reap(client)
        real = _image_real(client, self.image)
        self.shim = shim = Shim(ws.base, self.registry.shimmed_commands, CONTAINER_PATH, covering=True, container=real)
        shim.install()
        self._path = f"{shim.dir}:{CONTAINER_PATH}"
        self.uid = jail_uid() or os.getuid()  # git_uid stays None: the engine's git runs as the engine here, whose
        # folder on the host the jail's uid cannot reach (the container reaches it through its mounts)
        ws.remote.mkdir(exist_ok=True)  # mounted before the baseline is pushed into it
        volumes: dict[str, dict[str, str]] = {
            str(ws.root): {"bind": str(ws.root), "mode": "rw"},
            str(ws.home): {"bind": str(ws.home), "mode": "rw"},
            str(ws.agent_tmp): {"bind": "/tmp", "mode": "rw"},
            str(ws.tmp): {"bind": str(ws.tmp), "mode": "rw"},
            str(ws.remote): {"bind": str(ws.remote), "mode": "rw"},  # the workspace's origin, at its host path
            str(shim.dir): {"bind": str(shim.dir), "mode": "ro"},
            str(shim.audit_dir): {"bind": str(shim.audit_dir), "mode": "ro"},
            str(_DRIVER_DIR): {"bind": str(_DRIVER_DIR), "mode": "ro"},
        }
        for wrapper, program in shim.cover:
            volumes[str(wrapper)] = {"bind": program, "mode": "ro"}
        # Two containers with the same view: agent commands in one (everything left in it is killed
        # after each command), tests in the other (they run while agents work).
        self._container = self._run_container(client, volumes)
        self._tests = self._run_container(client, volumes)
        self.tracer = self._probe_tracer()

    def _probe_tracer(self) -> Tracer:
        """strace in the commands container, where the image has it and ptrace works there."""
        code = 127
        for seccomp in (True, False):
            tracer = Tracer(strace="/usr/bin/strace", seccomp=seccomp)
            argv = [*tracer.argv(Path("/dev/null")), "/bin/true"]
            code, _, _ = self._exec(argv, self.workspace.root, {"PATH": CONTAINER_PATH}, 20)
            if code == 0:
                return tracer
        why = "the image has no strace" if code in (126, 127) else "ptrace is not permitted in the container"
        return Tracer(reason=why)

    def _run_container(self, client: Any, volumes: dict[str, dict[str, str]]) -> Any:
        ws = self.workspace
        container = client.containers.run(
            self.image,
            # PID 1: a bash that reaps every orphan and outlives `kill -9 -1` (PID 1 is never killed
            # from inside its namespace), so the container survives the kill after each command.
            ["/bin/bash", "-c", "while :; do sleep 3600 & wait; done"],
            detach=True,
            network_mode="none",
            read_only=True,
            cap_drop=["ALL"],
            security_opt=["no-new-privileges", f"seccomp={docker_profile()}"],
            mem_limit=MEMORY,
            pids_limit=PIDS,
            nano_cpus=int(CPUS * 1e9),
            volumes=volumes,
            working_dir=str(ws.root),
            labels={LABEL: ws.base.name, LABEL + ".pid": str(os.getpid())},
        )
        with _live_lock:
            _live.add(container.id)
        return container

    def close(self) -> None:
        try:
            for container in (self._container, self._tests):
                if container is not None:
                    with contextlib.suppress(Exception):
                        container.remove(force=True)
                    with _live_lock:
                        _live.discard(container.id)
            self._container = self._tests = None
            if self._client is not None:
                self._client.close()
                self._client = None
        finally:
            super().close()

    def _exec(
        self,
        argv: Sequence[str],
        cwd: Path,
        env: Mapping[str, str],
        timeout: float,
        tests: bool = False,
        trace: Path | None = None,
    ) -> tuple[int, bytes, float]:
        """Run ``argv`` in the commands container (``tests``: the tests one), blocking (call it in a
        thread): exit code, output (head and tail past the cap), when it was killed (timeout or runaway
        output; ``time.time()`` as the engine began the kill, 0.0: it was not). After a command everything
        left in its container is killed; a test run is killed alone (at its timeout). ``trace``: the exec's
        stderr goes there (the tracer's output)."""
        api = self._client.api
        container = self._tests if tests else self._container
        user = "" if tests or self.uid is None else f"{self.uid}:{self.uid}"  # agent commands: the jail's uid
        exec_id = api.exec_create(container.id, list(argv), environment=dict(env), workdir=str(cwd), user=user)["Id"]
        stream = api.exec_start(exec_id, stream=True, demux=trace is not None)
        sink = trace.open("wb") if trace is not None else None
        root = TraceTail()
        killed = threading.Event()
        killed_at = [0.0]  # when the engine began killing it at its limits: a wrapper stopped then is not tampered

        def kill() -> None:
            if not tests:
                self._kill_all()
                return
            # The test driver alone (its pid on this host: the engine runs here).
            with contextlib.suppress(Exception):
                pid = int(api.exec_inspect(exec_id).get("Pid") or 0)
                if pid > 0:
                    os.kill(pid, signal.SIGKILL)

        def on_timeout() -> None:
            killed_at[0] = time.time()
            killed.set()
            kill()

        timer = threading.Timer(timeout, on_timeout)
        timer.start()
        head, tail, total = bytearray(), bytearray(), 0
        try:
            for item in stream:
                chunk = item
                if sink is not None:
                    chunk, err = item
                    sink.write(err or b"")
                    if err and self._images is not None:
                        self._images.feed(err)
                    if err and root.code is None and root.feed(err):
                        self._kill_all()  # strace waits for what the command left running: end it
                    chunk = chunk or b""
                total += len(chunk)
                if len(head) < KEEP:
                    take = KEEP - len(head)
                    head.extend(chunk[:take])
                    chunk = chunk[take:]
                tail.extend(chunk)
                del tail[:-KEEP]
                if total > OUTPUT_MAX and not killed.is_set():
                    killed_at[0] = time.time()
                    killed.set()
                    kill()
        finally:
            timer.cancel()
            close_stream(stream)
            if sink is not None:
                sink.close()
        if not tests:
            self._kill_all()
        code = api.exec_inspect(exec_id).get("ExitCode") if root.code is None or killed.is_set() else root.code
        data = bytes(head + tail) if total <= 2 * KEEP else bytes(head) + b"\n[... cut ...]\n" + bytes(tail)
        return (code if isinstance(code, int) else 137), data, killed_at[0] if killed.is_set() else 0.0

    def _kill_all(self) -> None:
        """Kill every process in the container but its init, as the jail's uid (its root has no ``CAP_KILL``)."""
        with contextlib.suppress(Exception):
            api = self._client.api
            kill, user = ["/bin/sh", "-c", "kill -9 -1"], f"{self.uid}:{self.uid}"
            kid = api.exec_create(self._container.id, kill, stdout=False, stderr=False, user=user)["Id"]
            # Detached: attached, its stream can wait on the command's unread one.
            api.exec_start(kid, detach=True)
            # Waited for (up to 10 s: docker is slow under load), else it would kill the next command's programs.
            delay, end = 0.005, time.monotonic() + 10
            while api.exec_inspect(kid).get("Running") and time.monotonic() < end:
                time.sleep(delay := min(delay * 2, 0.1))

    async def run(
        self,
        actor: str,
        command: str,
        *,
        timeout: float,  # noqa: ASYNC109
        env: Mapping[str, str] | None = None,
        network: bool = False,
        stdin: str | None = None,
    ) -> CommandRun:
        if network:
            raise SandboxError(
                "the docker backend gives commands no network, and this one needs it (an external agent "
                "reaching its model): use --sandbox local"
            )
        if stdin:
            given = self.workspace.tmp / "shell-input"
            given.write_text(stdin, encoding="utf-8")
            command = f"({command}) < {shlex.quote(str(given))}"
        shim = self.shim
        assert shim is not None and shim.channel is not None
        channel = shim.channel
        self.commands += 1
        traced = self.tracer.available
        # Traced: the command's stderr to its stdout, the exec's stderr is the trace's alone.
        root = ("/bin/bash", "-c", f"exec 2>&1\n{command}" if traced else command)
        trace = self.workspace.base / "trace"  # not mounted in the container
        argv = [*self.tracer.argv(Path("/dev/stderr")), *root] if traced else list(root)
        secrets = await self.secret_files(root) if traced else None  # HOME, workspace: their host paths there
        await self._hand_over()
        remote = read_state(self.workspace.remote)
        index = self._programs() if traced else None
        self._images = images = ExecImages(index) if index is not None else None
        loop = asyncio.get_running_loop()
        loop.add_reader(channel.fd, channel.pump)
        try:
            code, data, killed = await asyncio.to_thread(
                self._exec, argv, self.workspace.root, self.env(actor, env), timeout, False, trace if traced else None
            )
        finally:
            self._images = None
            loop.remove_reader(channel.fd)
        output = as_text(data)
        if killed:
            code = 124
            output += f"\n[scopewatch] command killed (over {timeout:g} s or {OUTPUT_MAX // 2**20} MB of output)\n"
        records, junk = channel.records()
        tampered = tuple(junk + shim.check())
        pushed = await asyncio.to_thread(ref_updates, self.workspace.remote, remote, self.git_uid)
        if not traced:
            calls = by_effect(self._atom_calls(records), pushed, self.registry, root)
            return CommandRun(code, output, bool(killed), calls, tampered, command=self.commands)
        found = images.found if images is not None else None
        calls, reads, forged, hooks, opened, footprint = await asyncio.to_thread(
            self._traced, trace, root, records, killed=killed or None, root_first=True, secrets=secrets, images=found
        )
        calls = by_effect(calls, pushed, self.registry, root)
        return CommandRun(code, output, bool(killed), calls, tampered, reads, self.commands, forged, hooks, opened,
                          footprint)

    def _programs(self) -> ProgramIndex | None:
        """The image's programs by identity and content, read from the engine through the commands
        container's ``/proc/PID/root`` (its own mounts: the wrappers over ``/usr/bin/git``, its ``/tmp``);
        None where the engine does not run on the container's host (the files are not reachable)."""
        shim = self.shim
        if self._index is None and shim is not None and shim.container is not None and self._container is not None:
            with contextlib.suppress(Exception):
                self._container.reload()
                pid = int(self._container.attrs["State"]["Pid"])
                root = f"/proc/{pid}/root"
                if pid > 0 and os.path.isdir(f"{root}/opt/scopewatch/real"):
                    programs = {name: f"/opt/scopewatch/real/{name}" for name in shim.container}
                    self._index = ProgramIndex(programs, wrappers=shim.texts, root=root)
        return self._index

    def test_executor(self) -> TestExecutor | None:
        async def execute(argv: Sequence[str], cwd: Path, timeout: float) -> tuple[int | None, str]:  # noqa: ASYNC109
            env = {"PATH": CONTAINER_PATH, "HOME": str(cwd / "home"), "TMPDIR": str(cwd / "home"), "LANG": "C.UTF-8"}
            code, data, killed = await asyncio.to_thread(self._exec, argv, cwd, env, timeout, True)
            return (None if killed else code), as_text(data[-4096:])

        return execute


class DockerSandbox(LocalSandbox):
    """A :class:`~sandbox.backends.local.LocalSandbox` whose commands and tests run in a container."""

    @classmethod
    async def create(  # type: ignore[override]
        cls,
        files: Mapping[str, str],
        *,
        ownership: Ownership,
        emitter: Emitter,
        home: Mapping[str, str] | None = None,
        image: str | None = None,
        registry: AtomRegistry | None = None,
        watch: bool = True,
        test_timeout: float | None = None,
    ) -> DockerSandbox:
        """Like :meth:`LocalSandbox.create`, on ``image`` (default :data:`DEFAULT_IMAGE`)."""
        workspace = Workspace.make()
        sb = cls(
            workspace,
            ownership=ownership,
            emit=emitter.emit,
            registry=registry or default_registry(),
            shell=DockerShellRunner,
        )
        assert isinstance(sb._shell, DockerShellRunner)
        sb._shell.image = image or DEFAULT_IMAGE
        sb.test_timeout = test_timeout
        await sb._open(files, home, None, watch, (WATCH_DEBOUNCE_MS, WATCH_STEP_MS))
        return sb
