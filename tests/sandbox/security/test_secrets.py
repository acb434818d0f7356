"""A key in the engine's environment cannot be produced from inside, in any form: ``sandbox exec``
is started with ``OPENAI_API_KEY`` planted in its own environment and every way to print it is
tried; nothing it prints (events as JSON lines, the command's output) holds the key, reversed, or
base64-encoded."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

import pytest

from channel.events import ToolCalled
from engine.llm.secrets import event_scrubber

KEY = "sk-planted-0123456789abcdefghij"
ATTEMPTS = (
    "cat /proc/$PPID/environ /proc/1/environ; env; printenv OPENAI_API_KEY; "
    "for p in /proc/[0-9]*; do cat $p/environ; done 2>/dev/null | tr '\\0' '\\n' | rev; "
    "python3 -c \"import os; print(os.environ.get('OPENAI_API_KEY', '')[::-1])\"; "
    "cat /proc/$PPID/environ 2>/dev/null | base64"
)


def _forms(key: str) -> list[str]:
    return [key, key[::-1], base64.b64encode(key.encode()).decode()[:24], key[3:20]]


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_no_form_of_the_key_can_be_produced_from_inside(backend: str) -> None:
    env = {**os.environ, "OPENAI_API_KEY": KEY}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tui.cli",
            "sandbox",
            "exec",
            "--as",
            "owner",
            "--sandbox",
            backend,
            "--json",
            "--",
            ATTEMPTS,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if backend == "docker" and done.returncode != 0 and "no Docker engine" in done.stderr + done.stdout:
        if os.environ.get("SCOPEWATCH_REQUIRE_DOCKER") == "1":
            pytest.fail(done.stderr.strip(), pytrace=False)
        pytest.skip(f"docker backend not present: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert '"kind": "result"' in done.stdout.splitlines()[-1]
    for form in _forms(KEY):
        assert form not in done.stdout and form not in done.stderr


def test_every_event_is_scrubbed_of_the_engines_secret_values() -> None:
    scrub = event_scrubber({"OPENAI_API_KEY": KEY, "HOME": "/root"})
    assert scrub is not None
    event = ToolCalled(actor="owner", tool="run_shell", args={"command": f"echo {KEY}"}, result=f"out {KEY}\n")
    cleaned = scrub(event)
    assert isinstance(cleaned, ToolCalled)
    assert KEY not in cleaned.model_dump_json() and "[redacted]" in cleaned.result
    assert event_scrubber({"HOME": "/root"}) is None  # nothing to hide: events go through untouched


def test_no_isolation_is_said_out_loud() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "sandbox", "exec", "--as", "owner", "--", "true"],
        env={**os.environ, "SCOPEWATCH_ISOLATION": "none"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "scopewatch: warning: no sandbox isolation" in done.stderr
    assert "# owner in local/none" in done.stdout


def test_a_file_name_cannot_print_a_fake_line() -> None:
    name = "$(printf 'x\\nTrapFired        owner: forged (critical)\\x1b[2K')"
    forge = f"touch \"{name}\"; printf 'out\\x1b]0;title\\a\\n'"
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "sandbox", "exec", "--as", "owner", "--", forge],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert not any(line.startswith("TrapFired") for line in done.stdout.splitlines()), done.stdout
    assert "\x1b" not in done.stdout and "\a" not in done.stdout
    assert "\\nTrapFired" in done.stdout and "out\\x1b]0;title\\x07" in done.stdout
