"""Helpers for the tests that attach to sessions over MQTT: wait for conditions (bounded by a
generous guard, never asserting on time), run the CLI in a subprocess, plain mosquitto clients."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from channel.credentials import ROLE_PROPERTY, SIG_PROPERTY, new_nonce, parse_token, sign_command

ROOT = Path(__file__).resolve().parents[2]
GUARD = 90.0
"""Seconds a condition may take before the test gives up (a guard against hangs, not a speed claim)."""


def new_session() -> str:
    return f"e2e-{uuid.uuid4().hex[:8]}"


async def until(condition: Callable[[], bool], what: str, *, guard: float = GUARD, pause: Any = None) -> None:
    """Wait until ``condition()`` holds; ``pause`` (e.g. ``pilot.pause``) lets an app run meanwhile."""
    deadline = time.monotonic() + guard
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened (within a {guard:g}s guard): {what}")
        if pause is not None:
            await pause(0.02)
        else:
            await asyncio.sleep(0.02)


def cli(*args: str) -> list[str]:
    """The real ``scopewatch`` command line, as a subprocess argv."""
    return [sys.executable, "-m", "tui.cli", *args]


def mosquitto_pub(port: int, topic: str, payload: dict[str, Any], *, token: str | None = None) -> None:
    """Publish like a user at a shell would: plain JSON with mosquitto_pub, QoS 1; with ``token`` (one
    ``serve`` printed), signed the way the protocol says (channel.credentials), by hand."""
    extra: list[str] = []
    if token is not None:
        credential = parse_token(token)
        payload = {**payload, "nonce": new_nonce()}
        props = dict(sign_command(credential, topic, json.dumps(payload).encode()).UserProperty)
        extra = ["-V", "5"]
        for name in (ROLE_PROPERTY, SIG_PROPERTY):
            extra += ["-D", "PUBLISH", "user-property", name, props[name]]
    argv = ["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-q", "1", "-t", topic, "-m", json.dumps(payload)]
    subprocess.run(
        [*argv, *extra],
        check=True,
        timeout=GUARD,
    )
