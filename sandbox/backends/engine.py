"""Reaching a Docker engine: a client whose engine answers (else one line saying how to start one),
and closing an exec's output stream without leaking its socket."""

from __future__ import annotations

import contextlib
import os
import socket
from typing import Any

from sandbox.errors import SandboxError


def close_stream(stream: Any) -> None:
    """Close an exec's output stream and the buffered reader over its socket: the SDK's own close
    shuts the socket but leaves the reader holding it, which leaks it (a ResourceWarning)."""
    stream.close()
    with contextlib.suppress(Exception):
        stream._response.raw._fp.fp.close()
    with contextlib.suppress(Exception):
        stream._response.close()


def _answers(path: str) -> bool:
    """Whether something listens on the unix socket ``path`` (checked with a socket we close:
    the docker SDK leaves its own open when the engine is not there)."""
    with contextlib.closing(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)) as probe:
        probe.settimeout(2)
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


DOCKER_API_VERSION = "1.41"
"""The Docker Engine API version spoken (Docker 20.10 and later answer it)."""


def engine_client() -> Any:
    """A docker client whose engine answers, else :class:`SandboxError` with one line."""
    import docker
    from docker.errors import DockerException

    where = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    client = None
    if where.startswith("unix://") and not _answers(where.removeprefix("unix://")):
        raise SandboxError(
            f"no Docker engine reachable at {where}: start one "
            '(eval "$(scripts/docker-sandbox start)") or use --sandbox local'
        )
    try:
        # A fixed API version: "auto" asks the engine in the constructor, and a failed ask leaves
        # the client's socket open with nobody to close it.
        client = docker.from_env(timeout=60, version=DOCKER_API_VERSION)
        client.ping()
    except (DockerException, OSError) as exc:
        if client is not None:
            client.close()
        raise SandboxError(
            f"no Docker engine reachable at {where} ({type(exc).__name__}): start one "
            '(eval "$(scripts/docker-sandbox start)") or use --sandbox local'
        ) from None
    return client
