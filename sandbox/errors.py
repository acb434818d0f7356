"""The sandbox's errors. Each message is one line an agent or a user can act on."""

from __future__ import annotations

from channel.errors import ScopewatchError
from channel.vocab.globs import OwnershipError as OwnershipError


class SandboxError(ScopewatchError):
    """A workspace operation that cannot be done (missing file, ambiguous edit, bad scenario path)."""


class WriteRefusedError(SandboxError):
    """A write the actor may not make. The message is what the agent is told: which path, which team
    owns it, and to request a review instead."""

    def __init__(self, message: str, *, path: str, owner: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.owner = owner


class PathEscape(WriteRefusedError):
    """A path that leads outside the workspace: ``..``, an absolute path, a symlink pointing out, or
    into ``.git``."""

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message, path=path)


class AtomRegistryError(ScopewatchError):
    """A bad atom registry file; the message names the file and the field."""
