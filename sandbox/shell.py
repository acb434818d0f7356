"""Shell commands in the workspace: bash with the shim first on PATH, a minimal environment, the
network cut where the OS permits it, a timeout that kills the whole process group; and the shim's
records of sensitive commands, classified as atoms.

Commands run one at a time (the caller holds the sandbox's lock), so every record the shim wrote
during a command is that command's actor's, whatever the command set ``SCOPEWATCH_ACTOR`` to.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from channel.vocab import Risk
from sandbox.atoms import AtomRegistry
from sandbox.errors import SandboxError
from sandbox.isolation import SYSTEM_PATH, minimal_env, network_cut_prefix
from sandbox.shim import collect_records, link_shim
from sandbox.workspace import Workspace, as_text

OUTPUT_LIMIT = 64_000
"""Characters of shell output returned to the agent (head and tail kept)."""


@dataclass(frozen=True)
class AtomCall:
    """A sensitive command the shim recorded, classified as an atom."""

    argv: tuple[str, ...]
    cwd: str
    """Relative to the workspace root when inside it, else as recorded."""
    exit_code: int
    duration_ms: float
    atom: str
    risk: Risk


@dataclass(frozen=True)
class CommandRun:
    """What one command did: exit code, output, whether it timed out, its atom calls in order."""

    exit_code: int
    output: str
    timed_out: bool
    calls: tuple[AtomCall, ...]


def clip(output: str) -> str:
    """``output`` cut to :data:`OUTPUT_LIMIT` characters, keeping head and tail."""
    if len(output) <= OUTPUT_LIMIT:
        return output
    half = OUTPUT_LIMIT // 2
    return f"{output[:half]}\n[... {len(output) - OUTPUT_LIMIT} characters cut ...]\n{output[-half:]}"


class ShellRunner:
    """Runs commands in one workspace. Call :meth:`prepare` once before :meth:`run`."""

    def __init__(self, workspace: Workspace, registry: AtomRegistry) -> None:
        self.workspace = workspace
        self.registry = registry
        self.netcut: tuple[str, ...] = ()
        """The argv prefix that cuts the network (empty where the OS does not permit it)."""
        self._log_dir = workspace.base / "shimlog"
        self._path = ""
        self._search = SYSTEM_PATH
        self._bash = "bash"

    def prepare(self) -> None:
        """Link the shim and find bash (raises :class:`SandboxError` without it)."""
        tools = os.path.dirname(sys.executable)
        self._search = SYSTEM_PATH if tools in SYSTEM_PATH.split(":") else f"{tools}:{SYSTEM_PATH}"
        shim_dir, self._log_dir = link_shim(self.workspace.base, self.registry.shimmed_commands, self._search)
        self._path = f"{shim_dir}:{self._search}"
        bash = shutil.which("bash", path=SYSTEM_PATH)
        if bash is None:
            raise SandboxError("bash is not installed: the sandbox runs shell commands with it")
        self._bash = bash

    async def cut_network(self) -> None:
        """Probe (once per process) how to run commands without network."""
        self.netcut = await network_cut_prefix()

    def relink_shim(self) -> None:
        """Put the shim back in place if a command removed it."""
        link_shim(self.workspace.base, self.registry.shimmed_commands, self._search)

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
        """Run ``command`` with bash in the workspace root as ``actor``; ``timeout`` kills the whole
        process group (exit code 124). Background leftovers are killed when the command ends.
        ``env``: variables added to the minimal environment (a ``PATH`` given goes before the shim's
        folders, never instead of them); ``network``: keep the network (an external agent reaching
        its model); ``stdin``: text on the command's standard input."""
        ws = self.workspace
        out_path = ws.tmp / "shell-output"
        extra = dict(env or {})
        path = f"{extra.pop('PATH')}:{self._path}" if "PATH" in extra else self._path
        in_path = ws.tmp / "shell-input"
        in_path.write_text(stdin or "", encoding="utf-8")
        environment = minimal_env(
            path=path,
            home=str(ws.home),
            tmp=str(ws.tmp),
            extra={
                "SCOPEWATCH_ACTOR": actor,
                "SCOPEWATCH_SHIM_LOG": str(self._log_dir),
                "SCOPEWATCH_WORKSPACE": str(ws.root),
                "GIT_AUTHOR_NAME": actor,
                "GIT_AUTHOR_EMAIL": f"{actor}@scopewatch.invalid",
                "GIT_COMMITTER_NAME": actor,
                "GIT_COMMITTER_EMAIL": f"{actor}@scopewatch.invalid",
                **extra,
            },
        )
        timed_out = False
        with out_path.open("wb") as out, in_path.open("rb") as given:
            proc = await asyncio.create_subprocess_exec(
                *(() if network else self.netcut),
                self._bash,
                "-c",
                command,
                cwd=ws.root,
                env=environment,
                stdin=given if stdin is not None else asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,
            )
            try:
                exit_code = await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                timed_out = True
                exit_code = 124
            finally:
                # Background leftovers would keep writing after the command and be misattributed.
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
        output = as_text(out_path.read_bytes())
        out_path.unlink(missing_ok=True)
        in_path.unlink(missing_ok=True)
        if timed_out:
            output += f"\n[scopewatch] command timed out after {timeout:g} s and was killed\n"
        return CommandRun(exit_code, output, timed_out, self._atom_calls())

    def _atom_calls(self) -> tuple[AtomCall, ...]:
        calls: list[AtomCall] = []
        for record in collect_records(self._log_dir):
            kind = self.registry.classify(record.argv)
            if kind is None:
                continue
            calls.append(
                AtomCall(
                    argv=record.argv,
                    cwd=self._display_cwd(record.cwd),
                    exit_code=record.exit_code,
                    duration_ms=record.duration_ms,
                    atom=kind.atom,
                    risk=kind.risk,
                )
            )
        return tuple(calls)

    def _display_cwd(self, cwd: str) -> str:
        try:
            return Path(cwd).resolve().relative_to(self.workspace.root).as_posix()
        except (ValueError, OSError):
            return cwd
