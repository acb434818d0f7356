"""A "quiet" git that prints a workspace secret reads it (red team 4, finding 01): an option git's parser takes by a
unique prefix (``--fil``, ``--pathspec-from-fil``), a ``commit.template`` set on the line, in the environment or in
a config file (a ``commit`` given no message reads it, and its summary line prints it)."""

from __future__ import annotations

import pytest

from channel.events import SensitiveRead
from tests.sandbox.security.conftest import Box

SECRET = "services/billing/.env"
EMPTY = "--allow-empty --allow-empty-message"
ENV = "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=commit.template GIT_CONFIG_VALUE_0"


@pytest.mark.parametrize(
    "command",
    [
        f"git commit --allow-empty --fil={SECRET}",
        f"git add --pathspec-from-fil={SECRET}",
        f"GIT_EDITOR=: git -c commit.template={SECRET} commit {EMPTY}",
        f"GIT_EDITOR=: {ENV}={SECRET} git commit {EMPTY}",
        f"git config commit.template {SECRET} && GIT_EDITOR=: git commit {EMPTY}",
    ],
)
async def test_a_quiet_git_printing_a_secret_reads_it(box: Box, command: str) -> None:
    if not box.sandbox.label.endswith("+ strace"):
        pytest.fail(f"no exec tracer on {box.backend}: {box.sandbox.label}", pytrace=False)
    await box.sh(f"git config user.name a && git config user.email a@b.c && printf 'TOKEN=hunter2\\n' > {SECRET}")
    since = len(box.of(SensitiveRead))
    result = await box.sh(f"{command} 2>&1")
    assert "hunter2" in result.output  # it did print it
    assert [e.path for e in box.of(SensitiveRead)[since:]] == [SECRET]


@pytest.mark.parametrize(
    "command",
    [
        f"git show 'HEAD^{{/:?}}:{SECRET}'",  # red team 4, finding 11
        f"echo HEAD:{SECRET} | git cat-file --batch",  # finding 08
        f"git log --cc -- {SECRET}",  # finding 15
        f"git log -L1,1:{SECRET}",
        f"git log -p -- ':(icase){SECRET.upper()}'",  # finding 16
        "git log -p -- ':!README.md'",
        f"git checkout-index --prefix=/tmp/x {SECRET} && cat /tmp/x{SECRET}",  # finding 13
    ],
)
async def test_a_git_printing_a_committed_secret_it_names_reads_it(box: Box, command: str) -> None:
    if not box.sandbox.label.endswith("+ strace"):
        pytest.fail(f"no exec tracer on {box.backend}: {box.sandbox.label}", pytrace=False)
    await box.sh(f"git config user.name a && git config user.email a@b.c && printf 'TOKEN=hunter2\\n' > {SECRET}")
    await box.sh(f"git add -f {SECRET} && git commit -qm secret")
    since = len(box.of(SensitiveRead))
    result = await box.sh(f"{command} 2>&1")
    assert "hunter2" in result.output  # it did print it
    assert SECRET in [e.path for e in box.of(SensitiveRead)[since:]]
