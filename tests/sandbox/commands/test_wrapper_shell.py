"""The shim wrappers' shell (:func:`sandbox.jail.sysfiles.busybox_sh`): busybox's ``sh`` where one does what a
wrapper needs, ``bash -p`` otherwise. A command's events are the same with either (issue 29: the audit's price
cut, its facts kept), and a busybox wrapper opens nothing but its script and the audit channel."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from channel.events import ShellCommandRan
from channel.memory import InProcessBus
from sandbox.commands import shim as shim_module
from sandbox.jail.sysfiles import busybox_sh
from tests.sandbox._support import drain, jailed

SEARCH = "/usr/bin:/bin"
BUSYBOX = shutil.which("busybox", path=SEARCH)
needs_busybox = pytest.mark.skipif(BUSYBOX is None, reason="no busybox here (scripts/test installs busybox-static)")

COMMANDS = (
    "git status --short",
    "git nosuch 2>/dev/null; echo $?",
    "cat services/billing/old.txt && rm services/billing/old.txt",
    "cd services && git -C .. log --oneline | wc -l",
    "printf 'echo HIJACK\\n' > /tmp/e; ENV=/tmp/e BASH_ENV=/tmp/e IFS=x SHELLOPTS=xtrace git --version > /dev/null",
    "cat ~/.ssh/id_rsa 2>/dev/null; git --version",
)
"""Shimmed programs with and without arguments, a failing one, a removal, a pipe, a hostile environment, a
sensitive read."""


@needs_busybox
def test_a_busybox_that_does_what_the_wrappers_need_is_used() -> None:
    busybox_sh.cache_clear()
    try:
        assert busybox_sh(SEARCH) == BUSYBOX
    finally:
        busybox_sh.cache_clear()


def test_a_busybox_without_exec_a_or_a_clock_is_not(tmp_path: Path) -> None:
    """A ``busybox`` whose ``sh`` is dash (no ``exec -a``, no ``$EPOCHREALTIME``), or none at all: bash it is."""
    fake = tmp_path / "busybox"
    fake.write_text('#!/bin/sh\nshift\nexec /bin/dash "$@"\n')
    fake.chmod(0o755)
    (tmp_path / "true").symlink_to(shutil.which("true", path=SEARCH) or "/bin/true")
    busybox_sh.cache_clear()
    try:
        assert busybox_sh(str(tmp_path)) is None
        assert busybox_sh(str(tmp_path / "nowhere")) is None
    finally:
        busybox_sh.cache_clear()


VARYING = {"session", "seq", "ts", "duration_ms", "pid", "parent_pid"}
"""What differs from run to run (the sandbox's own folder is written ``BASE``)."""


async def _events(monkeypatch: pytest.MonkeyPatch, *, busybox: bool) -> tuple[list[object], str, str]:
    """Every event of :data:`COMMANDS` (times, pids and the sandbox's own paths left out), the git wrapper's
    text, and the last command's trace."""
    if not busybox:
        monkeypatch.setattr(shim_module, "busybox_sh", lambda path: None)
    bus = InProcessBus()
    sub = await bus.subscribe()
    outputs = []
    async with jailed(bus) as sb:
        (Path(sb.home) / ".ssh").mkdir(exist_ok=True)
        (Path(sb.home) / ".ssh" / "id_rsa").write_text("KEY\n")
        base = str(sb._shell.workspace.root.parent)
        for command in COMMANDS:
            result = await sb.run_shell("alice", command)
            outputs.append((result.exit_code, result.output))
        wrapper = (sb._shell.workspace.root.parent / "shim" / "git").read_text()
        trace = (sb._shell.workspace.tmp / "trace").read_text()
        events = await drain(sub)
    await bus.close()
    kept: list[object] = [outputs]
    for event in events:
        fields = event.model_dump(exclude=VARYING)  # type: ignore[attr-defined]
        kept.append((type(event).__name__, repr(fields).replace(base, "BASE")))
    return kept, wrapper, trace


@needs_busybox
async def test_the_events_are_the_same_with_either_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    busybox_sh.cache_clear()
    with_busybox, wrapper, trace = await _events(monkeypatch, busybox=True)
    with_bash, bash_wrapper, _ = await _events(monkeypatch, busybox=False)
    assert wrapper.startswith("#!") and wrapper.split()[0].endswith("/real/busybox"), wrapper.splitlines()[0]
    assert bash_wrapper.split()[:2][1] == "-p" and bash_wrapper.split()[0].endswith("bash")
    assert any(isinstance(e, tuple) and e[0] == "ShellCommandRan" for e in with_busybox)
    assert with_busybox == with_bash
    assert not any("HIJACK" in out or "+ " in out for _, out in with_busybox[0]), with_busybox[0]  # type: ignore[attr-defined]
    # The last command's git wrapper: its script and the channel are all it opened before the real git.
    lines = trace.splitlines()
    start = next(i for i, x in enumerate(lines) if "execve(" in x and "/shim/git" in x)
    end = next(i for i, x in enumerate(lines) if i > start and "execve(" in x)
    opened = [x.split('"')[1] for x in lines[start:end] if " openat(" in x]
    assert [os.path.basename(p) for p in opened] == ["git", "records"], opened


def test_the_comparison_leaves_the_audits_facts_in() -> None:
    """What the comparison above leaves out is only what differs from run to run, never a fact of the audit."""
    facts = set(ShellCommandRan.model_fields) - VARYING
    assert {"argv", "cwd", "exit_code", "atom", "risk", "source", "command", "program", "actor"} <= facts
