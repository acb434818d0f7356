"""Opening a sandbox: the one call the engine makes to get a workspace, whichever backend runs it.

- ``local``: :class:`~sandbox.backends.local.LocalSandbox`, commands on this machine at the strongest
  isolation level that works here (bubblewrap, unshare, none);
- ``docker[:IMAGE]``: :class:`~sandbox.backends.docker.DockerSandbox`, commands in a container per sandbox
  (network none, memory / pids / CPU limits), through the docker SDK.

A backend is named by a spec string (``--sandbox local|docker[:IMAGE]``), parsed by :meth:`SandboxSpec.parse`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from channel.emitter import Emitter
from channel.vocab import SandboxBackend
from sandbox.backends.local import LocalSandbox
from sandbox.commands.tracer import detect_tracer
from sandbox.errors import SandboxError
from sandbox.jail.isolation import detect_isolation
from sandbox.protocol import Sandbox
from sandbox.workspace.ownership import Ownership


@dataclass(frozen=True)
class SandboxSpec:
    """Which backend, and for docker which image (None: the default, built locally when missing)."""

    backend: SandboxBackend = "local"
    image: str | None = None

    @classmethod
    def parse(cls, text: str) -> SandboxSpec:
        """``local``, ``docker`` or ``docker:IMAGE``; raises :class:`SandboxError` (one line) else."""
        name, _, image = text.strip().partition(":")
        if name == "local" and not image:
            return cls("local")
        if name == "docker":
            return cls("docker", image or None)
        raise SandboxError(f"{text!r} is not a sandbox: expected local, docker or docker:IMAGE")

    def __str__(self) -> str:
        return self.backend if self.image is None else f"{self.backend}:{self.image}"


@dataclass(frozen=True)
class SandboxInfo:
    """What the session says about its sandboxes: a label (``local/bubblewrap + strace``,
    ``docker/IMAGE``; a missing exec tracer is named: ``local/unshare (no exec trace: REASON)``) and a
    warning when commands run without isolation."""

    label: str
    warning: str = ""
    traced: bool = False
    """Commands run under the exec tracer (every program, every sensitive read: audit channel
    ``trace``); False: the shim, the tools and the watcher only (the label says why)."""


async def describe_sandbox(spec: SandboxSpec | str = "local") -> SandboxInfo:
    """The label and warning of the sandboxes ``spec`` opens (raises :class:`SandboxError` with one
    line when the docker engine is not reachable)."""
    spec = SandboxSpec.parse(spec) if isinstance(spec, str) else spec
    if spec.backend == "docker":
        from sandbox.backends.docker import DEFAULT_IMAGE, docker_info

        tracer = await docker_info(spec.image)
        return SandboxInfo(tracer.label(f"docker/{spec.image or DEFAULT_IMAGE}"), traced=tracer.available)
    isolation = await detect_isolation()
    tracer = await detect_tracer(isolation.level)
    return SandboxInfo(tracer.label(isolation.label), isolation.warning, traced=tracer.available)


async def open_sandbox(
    files: Mapping[str, str],
    *,
    ownership: Ownership,
    emitter: Emitter,
    home: Mapping[str, str] | None = None,
    spec: SandboxSpec | str = "local",
    watch: bool = True,
    test_timeout: float | None = None,
) -> Sandbox:
    """A fresh workspace holding ``files`` (workspace path -> text) as its baseline and ``home``
    (HOME-relative path -> text: a pack's fixtures) in the agents' HOME, guarded by ``ownership``,
    reporting through ``emitter``. ``watch=False``: no file watcher (it reports changes no operation
    made, a person's in an editor; where only operations change the workspace it has nothing to
    see). ``test_timeout``: seconds each test may take in :meth:`Sandbox.run_tests` (None: only the run's limit).
    Close it with :meth:`Sandbox.close`."""
    spec = SandboxSpec.parse(spec) if isinstance(spec, str) else spec
    if spec.backend == "docker":
        from sandbox.backends.docker import DockerSandbox

        return await DockerSandbox.create(
            files, ownership=ownership, emitter=emitter, home=home, image=spec.image, watch=watch,
            test_timeout=test_timeout,
        )  # fmt: skip
    local = await LocalSandbox.create(
        files, ownership=ownership, emitter=emitter, home=home, watch=watch, test_timeout=test_timeout
    )
    local.start_jail()  # a session's first command comes soon: its jail's ~80 ms start overlaps the turn before it
    return local
