"""The README's commands, run as a newcomer would (issue 16): in a fresh HOME and a fresh shell, one
after another, in tmux (the install block opens the demo; it is quit with ``q``). No "command not
found", no warning, and each screen shows what it should. The README is the newcomer's page (issue 22):
its ``sh`` blocks are exactly these three (install and demo, the tests, first steps); reference lives in
docs/ (its links: tests/test_docs.py).

Slow (a fresh environment is installed, about a minute): it runs where tmux is installed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TMUX = shutil.which("tmux")

pytestmark = pytest.mark.skipif(TMUX is None, reason="needs tmux (scripts/test installs it)")


def _blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)


def _tmux(socket: str, *args: str) -> str:
    assert TMUX is not None
    done = subprocess.run([TMUX, "-L", socket, *args], capture_output=True, text=True)
    assert done.returncode == 0, f"tmux {' '.join(args[:2])}: {done.stderr.strip()}"
    return done.stdout


def _wait_for(socket: str, predicate: object, what: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = _tmux(socket, "capture-pane", "-p", "-t", "readme")
        if predicate(screen):  # type: ignore[operator]
            return screen
        time.sleep(0.5)
    raise AssertionError(f"never happened: {what}\n--- screen ---\n{screen}")


def _quit(socket: str, marker: str) -> None:
    """Quit the screen, wait for the shell, say how the command ended."""
    _tmux(socket, "send-keys", "-t", "readme", "q")
    _wait_for(socket, lambda s: "Workspace" not in s, "the screen to close", 60)
    _tmux(socket, "send-keys", "-t", "readme", f"echo {marker}=$?", "Enter")


@pytest.mark.timeout(900)  # installs the package in a fresh venv, then runs the demo and a session
def test_the_readme_commands_run_as_written_in_a_fresh_home(tmp_path: Path) -> None:
    blocks = _blocks()
    assert len(blocks) == 3, "README.md: a sh block this test does not run"
    install, tests, first_steps = blocks
    assert "scopewatch demo" in install and tests.strip() == "scripts/test"
    home, log = tmp_path / "home", tmp_path / "shell.log"
    home.mkdir()
    socket = f"readme-{os.getpid()}-{uuid.uuid4().hex[:8]}"  # a tmux server of its own, whoever else runs
    env_line = f"env -i HOME={home} PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 bash --norc"
    _tmux(socket, "new-session", "-d", "-s", "readme", "-x", "160", "-y", "48", "-c", str(ROOT), env_line)
    try:
        _tmux(socket, "pipe-pane", "-t", "readme", "-o", f"cat >> {log}")
        _tmux(socket, "send-keys", "-t", "readme", install.strip(), "Enter")
        _wait_for(socket, lambda s: "Workspace" in s and "Scoreboard" in s, "the demo's screen", 600)
        _quit(socket, "DEMO-EXIT")
        _wait_for(socket, lambda s: "DEMO-EXIT=0" in s, "the demo to quit with 0", 60)
        # The first steps write first.jsonl where they run: here in the fresh HOME, not in the checkout.
        _tmux(socket, "send-keys", "-t", "readme", "cd ~", "Enter")
        for step, line in enumerate(first_steps.strip().splitlines()):
            # A marker of its own per step: the previous step's, still on the screen until `clear` runs,
            # must not end this step's wait.
            marker = f"STEP{step}-EXIT"
            if line.startswith("scopewatch replay"):
                _tmux(socket, "send-keys", "-t", "readme", line, "Enter")
                _wait_for(socket, lambda s: "replay" in s and "Workspace" in s, "the replay's screen", 60)
                _quit(socket, marker)
            else:
                _tmux(socket, "send-keys", "-t", "readme", f"clear; {line}; echo {marker}=$?", "Enter")
            _wait_for(socket, lambda s, m=marker: re.search(rf"{m}=\d", s) is not None, line, 300)
            screen = _tmux(socket, "capture-pane", "-p", "-t", "readme")
            assert f"{marker}=0" in screen, f"{line}\n{screen}"
    finally:
        subprocess.run([TMUX, "-L", socket, "kill-server"], capture_output=True)
    output = log.read_text(encoding="utf-8", errors="replace")
    assert "command not found" not in output
    assert not re.search(r"\bwarning\b", output, flags=re.IGNORECASE), "a warning a newcomer must interpret"
    assert (home / "first.jsonl").exists()
