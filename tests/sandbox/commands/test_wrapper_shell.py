"""The shim wrappers' shell (:func:`sandbox.jail.sysfiles.quick_sh`): mksh's ``lksh`` where it does what a wrapper
needs, ``bash -p`` otherwise. A command's events are the same with either (issue 29: the audit's price cut, its
facts kept), and an lksh wrapper opens nothing but its script and the audit channel."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from channel.events import ShellCommandRan
from channel.memory import InProcessBus
from sandbox.commands import shim as shim_module
from sandbox.jail.sysfiles import quick_sh
from tests.sandbox._support import drain, jailed

SEARCH = "/usr/bin:/bin"
LKSH = shutil.which("lksh", path=SEARCH)
LKSH_REAL = os.path.realpath(LKSH) if LKSH else ""
needs_lksh = pytest.mark.skipif(LKSH is None, reason="no lksh here (scripts/test installs Debian's mksh)")

COMMANDS = (
    "git status --short",
    "git nosuch 2>/dev/null; echo $?",
    "cat services/billing/old.txt && rm services/billing/old.txt",
    "cd services && git -C .. log --oneline | wc -l",
    "printf 'echo HIJACK\\n' > /tmp/e; mkdir -p /tmp/f; printf '#!/bin/sh\\necho HIJACK\\n' > /tmp/f/printf; "
    "printf 'printf() { echo HIJACK; }\\n' > /tmp/f/builtin; chmod +x /tmp/f/printf; "
    "ENV=/tmp/e BASH_ENV=/tmp/e IFS=x SHELLOPTS=xtrace PATH=/tmp/f:$PATH FPATH=/tmp/f git --version > /dev/null",
    "cat ~/.ssh/id_rsa 2>/dev/null; git --version",
)
"""Shimmed programs with and without arguments, a failing one, a removal, a pipe, a hostile environment, a
sensitive read."""


@needs_lksh
def test_an_lksh_that_does_what_the_wrappers_need_is_used() -> None:
    quick_sh.cache_clear()
    try:
        assert quick_sh(SEARCH) == LKSH
    finally:
        quick_sh.cache_clear()


def test_an_lksh_without_exec_a_or_a_clock_is_not(tmp_path: Path) -> None:
    """An ``lksh`` that is dash (no ``exec -a``, no ``$EPOCHREALTIME``, no ``builtin``), or none at all: bash it is."""
    fake = tmp_path / "lksh"
    fake.write_text('#!/bin/sh\nexec /bin/dash "$@"\n')
    fake.chmod(0o755)
    (tmp_path / "true").symlink_to(shutil.which("true", path=SEARCH) or "/bin/true")
    quick_sh.cache_clear()
    try:
        assert quick_sh(str(tmp_path)) is None
        assert quick_sh(str(tmp_path / "nowhere")) is None
    finally:
        quick_sh.cache_clear()


VARYING = {"session", "seq", "ts", "duration_ms", "pid", "parent_pid"}
"""What differs from run to run (the sandbox's own folder is written ``BASE``)."""


async def _events(monkeypatch: pytest.MonkeyPatch, *, quick: bool) -> tuple[list[object], str, str]:
    """Every event of :data:`COMMANDS` (times, pids and the sandbox's own paths left out), the git wrapper's
    text, and the last command's trace."""
    if not quick:
        monkeypatch.setattr(shim_module, "quick_sh", lambda path: None)
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
    # A pipe's programs start together: which of them the audit lists first is the scheduler's, not the shell's.
    return [kept[0], *sorted(kept[1:], key=repr)], wrapper, trace


@needs_lksh
async def test_the_events_are_the_same_with_either_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_sh.cache_clear()
    with_lksh, wrapper, trace = await _events(monkeypatch, quick=True)
    with_bash, bash_wrapper, _ = await _events(monkeypatch, quick=False)
    assert wrapper.splitlines()[0] == f"#!{LKSH_REAL}", wrapper.splitlines()[0]
    assert bash_wrapper.split()[:2][1] == "-p" and bash_wrapper.split()[0].endswith("bash")
    assert any(isinstance(e, tuple) and e[0] == "ShellCommandRan" for e in with_lksh)
    assert with_lksh == with_bash
    assert not any("HIJACK" in out or "+ " in out for _, out in with_lksh[0]), with_lksh[0]  # type: ignore[attr-defined]
    # The last command's git wrapper: its script and the channel are all it opened before the real git.
    lines = trace.splitlines()
    start = next(i for i, x in enumerate(lines) if "execve(" in x and "/shim/git" in x)
    end = next(i for i, x in enumerate(lines) if i > start and "execve(" in x)
    opened = [x.split('"')[1] for x in lines[start:end] if " openat(" in x or " open(" in x]
    assert [os.path.basename(p) for p in opened] == ["git", "records"], opened


def test_the_comparison_leaves_the_audits_facts_in() -> None:
    """What the comparison above leaves out is only what differs from run to run, never a fact of the audit."""
    facts = set(ShellCommandRan.model_fields) - VARYING
    assert {"argv", "cwd", "exit_code", "atom", "risk", "source", "command", "program", "actor"} <= facts
