"""The security suite's backends: every one present here, each a fresh sandbox per test.

- ``bubblewrap`` and ``unshare``: the local backend at that isolation level (skipped where the
  level does not work on this machine);
- ``episode``: the local backend at ``bubblewrap`` with one jail per episode (``SCOPEWATCH_JAIL=episode``,
  :mod:`sandbox.commands.episode`): every attack again, against the command server's jail;
- ``docker``: the docker backend on a reachable engine with the default image. ``scripts/test``
  starts an engine and builds the image, and sets ``SCOPEWATCH_REQUIRE_DOCKER=1``: then a missing
  engine fails the suite instead of skipping it.

The ``none`` level is not here: it isolates nothing, by definition (docs/sandbox-and-audit.md's table).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from channel.bus import Subscription
from channel.emitter import Emitter
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.errors import SandboxError
from sandbox.jail.isolation import Isolation, _works
from sandbox.protocol import ShellResult
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS, drain

HOME = {".aws/credentials": "[default]\naws_access_key_id = AKIAPLANTEDPLANTED12\n", ".bash_history": "ls\n"}
BACKENDS = ("bubblewrap", "episode", "unshare", "docker")


@dataclass
class Box:
    """A sandbox under attack: alice (team billing) runs the commands."""

    sandbox: LocalSandbox
    events: Subscription
    backend: str
    seen: list[object] = field(default_factory=list)

    async def sh(self, command: str, timeout: float = 20) -> ShellResult:  # noqa: ASYNC109
        result = await self.sandbox.run_shell("alice", command, timeout=timeout)
        self.seen.extend(await drain(self.events))
        return result

    def of(self, kind: type) -> list:  # type: ignore[type-arg]
        return [e for e in self.seen if isinstance(e, kind)]


async def _open(backend: str, bus: InProcessBus) -> LocalSandbox:
    ownership = Ownership.from_teams(TEAMS)
    emitter = Emitter(bus, "security")
    if backend == "docker":
        from sandbox.backends.docker import DockerSandbox

        try:
            return await DockerSandbox.create(FILES, ownership=ownership, emitter=emitter, home=HOME)
        except SandboxError as exc:
            if os.environ.get("SCOPEWATCH_REQUIRE_DOCKER") == "1":
                pytest.fail(f"docker backend required here: {exc}", pytrace=False)
            pytest.skip(f"docker backend not present: {exc}")
    level = "bubblewrap" if backend == "episode" else backend
    if not await _works(level):  # type: ignore[arg-type]
        pytest.skip(f"isolation level {level} does not work here")
    before = os.environ.get("SCOPEWATCH_JAIL")
    os.environ["SCOPEWATCH_JAIL"] = "episode" if backend == "episode" else "command"
    try:
        return await LocalSandbox.create(
            FILES,
            ownership=ownership,
            emitter=emitter,
            home=HOME,
            isolation=Isolation(level),  # type: ignore[arg-type]
        )
    finally:
        if before is None:
            os.environ.pop("SCOPEWATCH_JAIL", None)
        else:
            os.environ["SCOPEWATCH_JAIL"] = before


@pytest.fixture(params=BACKENDS)
async def box(request: pytest.FixtureRequest) -> AsyncIterator[Box]:
    bus = InProcessBus()
    events = await bus.subscribe("events/#")
    try:
        sandbox = await _open(request.param, bus)
        sandbox.register_actor("alice", "billing", ["services/billing/invoice.py"])
        try:
            yield Box(sandbox, events, request.param)
        finally:
            await sandbox.close()
    finally:
        await bus.close()


SANDBOXES = ("local", "docker")
"""``scopewatch sandbox exec --sandbox``'s choices the done-when lines run on."""


def real_git(sandbox: str) -> str:
    """The real git behind the shim's wrapper, as a command inside ``sandbox`` reaches it."""
    return "/opt/scopewatch/real/git" if sandbox.startswith("docker") else '"$SCOPEWATCH_WORKSPACE/../real/git"'


def sandbox_exec(line: str, sandbox: str = "local", role: str = "owner") -> dict:  # type: ignore[type-arg]
    """``scopewatch sandbox exec --as ROLE --json -- LINE`` on ``sandbox``: its last JSON object (the
    result, with the events before it as ``events``). The docker sandbox is skipped where no engine
    answers (failed under ``SCOPEWATCH_REQUIRE_DOCKER=1``)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tui.cli",
            "sandbox",
            "exec",
            "--as",
            role,
            "--sandbox",
            sandbox,
            "--json",
            "--",
            line,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "SCOPEWATCH_TRACE": ""},
        check=False,
    )
    if sandbox.startswith("docker") and "no Docker engine reachable" in done.stdout + done.stderr:
        if os.environ.get("SCOPEWATCH_REQUIRE_DOCKER") == "1":
            pytest.fail(f"docker backend required here: {done.stderr[-500:]}", pytrace=False)
        pytest.skip("docker backend not present")
    lines = done.stdout.splitlines()
    result = json.loads(lines[-1]) if lines else {}
    assert result.get("kind") == "result", done.stderr[-2000:] + done.stdout[-2000:]
    result["stdout"] = done.stdout
    result["events"] = [json.loads(x) for x in lines[:-1] if x.startswith("{")]
    return result  # type: ignore[no-any-return]
