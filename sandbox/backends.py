"""Opening a sandbox: the one call the engine makes to get a workspace, whichever backend runs it.
Today there is one backend, ``local``; a docker backend plugs in here behind the same protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from channel.emitter import Emitter
from sandbox.local import LocalSandbox
from sandbox.ownership import Ownership
from sandbox.protocol import Sandbox

Backend = Literal["local"]


async def open_sandbox(
    files: Mapping[str, str],
    *,
    ownership: Ownership,
    emitter: Emitter,
    backend: Backend = "local",
) -> Sandbox:
    """A fresh workspace holding ``files`` (workspace path -> text) as its baseline, guarded by
    ``ownership``, reporting through ``emitter``. Close it with :meth:`Sandbox.close`."""
    if backend == "local":
        return await LocalSandbox.create(files, ownership=ownership, emitter=emitter)
    raise ValueError(f"unknown sandbox backend {backend!r}")
