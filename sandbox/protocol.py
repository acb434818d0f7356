"""The Sandbox protocol: what the engine may ask of a workspace backend. :class:`LocalSandbox` is
the default backend; a docker backend would implement the same surface."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from channel.vocab import SanctionedVia
from sandbox.local import ShellResult
from sandbox.ownership import Ownership
from sandbox.testrun import TestOutcome


class Sandbox(Protocol):
    root: Path
    home: Path
    ownership: Ownership

    def register_actor(self, actor_id: str, team: str, scope: Iterable[str] = ()) -> None: ...

    async def list_files(self) -> list[str]: ...

    def exists(self, path: str) -> bool: ...

    async def read(self, actor: str, path: str) -> str: ...

    async def write(self, actor: str, path: str, content: str) -> None: ...

    async def edit(self, actor: str, path: str, old: str, new: str) -> None: ...

    async def apply(self, actor: str, path: str, content: str, via: SanctionedVia = "review") -> None: ...

    async def run_shell(self, actor: str, command: str, *, timeout: float = 30) -> ShellResult: ...  # noqa: ASYNC109

    def diff_against_baseline(self, path: str | None = None) -> str: ...

    def changed_paths(self) -> list[str]: ...

    def baseline_content(self, path: str) -> str | None: ...

    async def restore(self, path: str, actor: str = "engine") -> None: ...

    async def run_tests(
        self,
        tests: Mapping[str, str],
        *,
        restore: Sequence[str] = (),
        timeout: float = 60,  # noqa: ASYNC109
    ) -> TestOutcome: ...

    async def close(self) -> None: ...
