"""A workspace file given a name outside the workspace (red team 4, finding 02), on every backend present.

``ln services/payments/config.py .git/zz && echo x > .git/zz`` wrote another team's file through a name whose
inotify events go to ``.git`` (which the sentry does not watch) and whose open is git's noise: the command's scan
was skipped, nothing was refused, and the owner's next writing command was charged with the change (and so
allowed it). A hard link of a workspace file, wherever its new name is, now makes the command's scan run; the new
name is refused (the workspace name gets a copy: the outside name keeps the old inode); and a change found later
that the current command cannot have made (its change time is older than the command) is not charged to it."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from channel.events import FileChanged, WriteRefused
from channel.memory import InProcessBus
from sandbox.commands.hooks import opened_for_writing
from sandbox.commands.strace import parse
from tests.sandbox._support import drain, jailed
from tests.sandbox.security.conftest import Box

NOT_OWNED = "services/payments/config.py"
ORIGINAL = "TIMEOUT = 5\nRETRIES = 3\n"
WRITE = "printf 'TIMEOUT = 0 # alice\\n' >"


async def _quiet(box: Box) -> None:
    for _ in range(2):  # the sentry is quiet only after a whole scan with every folder already watched
        await box.sh("true")
    assert box.sandbox._reconciler.quiet() or box.backend == "docker"


async def _bob(box: Box, command: str) -> list[object]:
    box.sandbox.register_actor("bob", "payments")
    await box.sandbox.run_shell("bob", command)
    events = await drain(box.events)
    box.seen.extend(events)
    return events


def _alices_refusal(box: Box) -> WriteRefused:
    refused = [e for e in box.of(WriteRefused) if e.path == NOT_OWNED and e.actor == "alice" and e.rolled_back]
    assert refused, box.seen
    return refused[0]  # type: ignore[no-any-return]


LINKS = {
    ".git/zz": f"ln {NOT_OWNED} .git/zz",
    "~/zz": f"ln {NOT_OWNED} ~/zz",
    "/tmp/zz": f"ln {NOT_OWNED} /tmp/zz",
    # the file a symbolic link leads to (the trace names the symbolic link)
    ".git/objects/zz": f"ln -s ../../{NOT_OWNED} .git/objects/s && ln -L .git/objects/s .git/objects/zz"
    " && rm .git/objects/s",
}


@pytest.mark.parametrize("name", list(LINKS))
async def test_a_write_through_a_link_outside_the_workspace_is_refused_in_the_same_command(
    box: Box, name: str
) -> None:
    await _quiet(box)
    result = await box.sh(f"{LINKS[name]} && echo linked && {WRITE} {name} && rm {name}")
    if "linked" in result.output:  # HOME and /tmp are file systems of their own where they are size-capped
        _alices_refusal(box)
    assert (box.sandbox.root / NOT_OWNED).read_text() == ORIGINAL
    events = await _bob(box, "echo more >> services/payments/notes.txt")
    assert not [e for e in events if isinstance(e, FileChanged) and e.path == NOT_OWNED]


async def test_a_link_into_git_is_refused_before_anything_is_written_through_it(box: Box) -> None:
    await _quiet(box)
    await box.sh(f"ln {NOT_OWNED} .git/zz")
    refusal = _alices_refusal(box)
    assert "outside the workspace" in refusal.reason and "hard link" in refusal.diff
    assert os.stat(box.sandbox.root / NOT_OWNED).st_nlink == 1  # the workspace name is a file of its own again
    await box.sh(f"{WRITE} .git/zz; rm .git/zz")
    events = await _bob(box, "echo more >> services/payments/notes.txt")
    assert (box.sandbox.root / NOT_OWNED).read_text() == ORIGINAL
    assert not [e for e in events if isinstance(e, FileChanged) and e.path == NOT_OWNED]


async def test_a_link_of_the_teams_own_file_out_of_the_workspace_is_refused_too(box: Box) -> None:
    await box.sh("echo 'RATE = 2' > services/billing/invoice.py; ln services/billing/invoice.py .git/mine")
    assert [e.path for e in box.of(WriteRefused) if e.rolled_back] == ["services/billing/invoice.py"]
    assert (box.sandbox.root / "services/billing/invoice.py").read_text() == "RATE = 2\n"  # its own write stays
    assert os.stat(box.sandbox.root / "services/billing/invoice.py").st_nlink == 1


def test_a_link_of_a_workspace_file_makes_the_command_scanned_wherever_the_new_name_is() -> None:
    def scanned(*lines: str) -> bool:
        head = '11 1.000 execve("/usr/bin/ln", ["ln"], 0x1 /* 3 vars */) = 0\n'
        body = "".join(f"11 1.{i + 1:03d} {line}\n" for i, line in enumerate(lines))
        trace = parse((head + body + "11 1.100 +++ exited with 0 +++\n").splitlines(keepends=True), ("/ws/",))
        return opened_for_writing(trace, Path("/ws"))

    assert scanned('linkat(AT_FDCWD</ws>, "a.py", AT_FDCWD</ws>, ".git/zz", 0) = 0')
    assert scanned('link("/ws/sub/a.py", "/tmp/zz") = 0')
    assert scanned('linkat(AT_FDCWD</ws>, "/proc/self/fd/3", AT_FDCWD</ws>, ".git/zz", AT_SYMLINK_FOLLOW) = 0')
    # a symbolic link (in /tmp, in .git) followed: it may lead to a workspace file
    assert scanned('linkat(AT_FDCWD</ws>, "/tmp/s", AT_FDCWD</ws>, "/tmp/zz", AT_SYMLINK_FOLLOW) = 0')
    assert scanned('linkat(AT_FDCWD</ws>, ".git/objects/s", AT_FDCWD</ws>, ".git/objects/zz", AT_SYMLINK_FOLLOW) = 0')
    # git's own objects (a temporary name linked to the object's): no workspace file, no scan
    assert not scanned('link("/ws/.git/objects/ab/tmp_obj_x", "/ws/.git/objects/ab/cdef") = 0')
    assert not scanned('link("/tmp/a", "/tmp/b") = 0')


def _past(probe: Path, ns: int) -> None:
    """Until the clock file times come from has passed ``ns`` (a change in the same tick has the same time)."""
    while True:
        probe.touch()
        if probe.stat().st_ctime_ns > ns:
            return
        time.sleep(0.001)


async def test_a_change_older_than_the_command_that_found_it_is_not_charged_to_its_actor() -> None:
    """A change the sentry missed (written through a name outside the tree while no operation ran) and the next
    writing command's scan found: it is ``external``'s, as the scan before the command would have said."""
    bus = InProcessBus()
    events = await bus.subscribe("events/#")
    try:
        async with jailed(bus) as sb:
            sb.register_actor("bob", "payments")
            for _ in range(2):
                await sb.run_shell("bob", "true")
            assert sb._reconciler.quiet()
            other = sb.root.parent / "tests" / "other-name"  # the agents' space (tmp/ is the engine's own tmpfs)
            os.link(sb.root / NOT_OWNED, other)
            other.write_text("TIMEOUT = 0 # earlier\n")
            os.unlink(other)
            await asyncio.to_thread(_past, other, os.stat(sb.root / NOT_OWNED).st_ctime_ns)
            assert sb._reconciler.quiet()  # nothing heard: the blind spot
            await drain(events)
            await sb.run_shell("bob", "echo more >> services/payments/notes.txt")
            changed = {e.path: e.actor for e in await drain(events) if isinstance(e, FileChanged)}
            assert changed == {NOT_OWNED: "external", "services/payments/notes.txt": "bob"}
    finally:
        await bus.close()


async def test_a_git_config_replaced_by_a_link_to_a_work_tree_file_is_put_back(box: Box) -> None:
    """Red team 4, finding 14: ``.git/config`` became payments' file (one inode): every agent's git read it (the
    ``origin`` gone), and a write to either name changed the other."""
    config = box.sandbox.root / ".git" / "config"
    before = config.read_bytes()
    await box.sh(f"ln -f {NOT_OWNED} .git/config")
    assert config.read_bytes() == before
    assert os.stat(box.sandbox.root / NOT_OWNED).st_nlink == 1
    assert (box.sandbox.root / NOT_OWNED).read_text() == ORIGINAL
    refused = [e for e in box.of(WriteRefused) if e.path == ".git/config" and e.rolled_back]
    assert refused and refused[0].actor == "alice" and "hard link" in refused[0].reason
    assert "origin" in (await box.sh("git remote")).output
