"""All agents' commands run as one uid, so one agent's ``chmod`` of a folder locked every other agent out of it: of
the workspace itself (every later command of every agent failed before it started, and was reported as *their*
tracer stopped), of another team's folder, of HOME. Before each command the owner's bits come back.

A folder's mode is a change like a file's (red team 6, 04): ``chmod 000`` of another team's folder was neither
reported nor undone, and the next hand-over left it 0700, not its 0755."""

from __future__ import annotations

import os
import stat

import pytest

from channel.events import FileChanged, ShimTampered, WriteRefused
from tests.sandbox.security.conftest import Box


@pytest.mark.parametrize(
    "where", ['"$SCOPEWATCH_WORKSPACE"', "services/payments", "services", "~", "/tmp"], ids=str.strip
)
async def test_a_folder_locked_by_one_agent_opens_again_for_the_next_command(box: Box, where: str) -> None:
    box.sandbox.register_actor("bob", "payments", ["services/payments/**"])
    await box.sh(f"chmod 000 {where}")
    result = await box.sandbox.run_shell(
        "bob", "cat services/payments/config.py && echo '# bob' >> services/payments/notes.txt && ls ~ /tmp >/dev/null"
    )
    assert result.exit_code == 0, result.output
    assert "TIMEOUT" in result.output
    assert not box.of(ShimTampered)


async def test_a_stale_git_lock_does_not_block_the_next_command(box: Box) -> None:
    box.sandbox.register_actor("bob", "payments", ["services/payments/**"])
    await box.sh("touch .git/index.lock .git/HEAD.lock")
    result = await box.sandbox.run_shell(
        "bob", "echo x >> services/payments/notes.txt && git commit -qam bob && echo ok"
    )
    assert result.output.strip().endswith("ok"), result.output


@pytest.mark.parametrize("where", ["services/payments", "services"])
async def test_another_team_s_folder_mode_change_is_refused_and_put_back(box: Box, where: str) -> None:
    folder = box.sandbox.root / where
    before = stat.S_IMODE(os.lstat(folder).st_mode)
    result = await box.sh(f"chmod 0777 services/billing; chmod 000 {where}")
    assert stat.S_IMODE(os.lstat(folder).st_mode) == before
    assert result.rolled_back == (where,)
    refused = [e for e in box.of(WriteRefused) if e.path == where]
    assert len(refused) == 1 and refused[0].rolled_back and refused[0].actor == "alice"
    assert f"old mode 040{before:03o}\nnew mode 040000" in refused[0].diff
    own = [e for e in box.of(FileChanged) if e.path == "services/billing"]  # her team's own folder: a change
    assert len(own) == 1 and own[0].actor == "alice" and "new mode 040777" in own[0].diff
    await box.sh("true")  # the hand-over before it changes no mode the cache knows: nothing more to report
    assert len([e for e in box.of(FileChanged) if e.path == "services/billing"]) == 1
    assert stat.S_IMODE(os.lstat(folder).st_mode) == before
