"""All agents' commands run as one uid, so one agent's ``chmod`` of a folder locked every other agent out of it: of
the workspace itself (every later command of every agent failed before it started, and was reported as *their*
tracer stopped), of another team's folder, of HOME. Before each command the owner's bits come back."""

from __future__ import annotations

import pytest

from channel.events import ShimTampered
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
