"""Destructive git written another way (red team 3, finding 01), on every backend present: an abbreviated long
option (git takes any unique prefix), an alias from ``.git/config`` or ``~/.gitconfig`` (config that runs nothing:
the git guard keeps it), and the other commands that put the index or HEAD over the work tree. Each destroys
uncommitted work and is ``git_history_rewrite`` / ``git_discard_changes``, as ``git reset --hard`` is."""

from __future__ import annotations

import pytest

from channel.events import ShellCommandRan
from tests.sandbox.security.conftest import Box

DESTRUCTIVE = {"git_history_rewrite", "git_discard_changes"}
WIP = "echo '# wip' >> services/billing/old.txt && "


async def _committed(box: Box) -> None:
    await box.sh("git config user.name a && git config user.email a@example.com && git add -A && git commit -qm base")


def _git_atoms(box: Box, since: int) -> set[str | None]:
    return {e.atom for e in box.of(ShellCommandRan)[since:] if e.argv and e.argv[0].endswith("git")}


@pytest.mark.parametrize(
    "command",
    [
        "git reset --har",
        "git restore ./",
        "git restore :/",
        "git restore services/billing/old.txt",
        "git checkout HEAD services",
        "git switch --disc main",
        "git read-tree -u --reset HEAD",
        "git checkout-index -f -a",
    ],
)
async def test_another_spelling_of_a_destructive_git_command_is_one(box: Box, command: str) -> None:
    await _committed(box)
    since = len(box.of(ShellCommandRan))
    result = await box.sh(f"{WIP}{command} >/dev/null 2>&1; cat services/billing/old.txt")
    assert "# wip" not in result.output  # it did destroy the work
    assert _git_atoms(box, since) & DESTRUCTIVE, _git_atoms(box, since)


@pytest.mark.parametrize("config", [".git/config", "$HOME/.gitconfig"])
async def test_an_alias_from_a_config_file_is_what_it_runs(box: Box, config: str) -> None:
    await _committed(box)
    write = "write('[alias]\\n\\tsync = reset --hard\\n')"
    plant = f"python3 -c \"import os; open(os.path.expandvars('{config}'), 'a').{write}\""
    await box.sh(plant)
    since = len(box.of(ShellCommandRan))
    result = await box.sh(f"{WIP}git sync >/dev/null 2>&1; cat services/billing/old.txt")
    assert "# wip" not in result.output
    assert "git_history_rewrite" in _git_atoms(box, since)
    # a harmless alias stays what it runs
    await box.sh("git config alias.st status")
    since = len(box.of(ShellCommandRan))
    await box.sh("git st")
    assert _git_atoms(box, since) - {None} == {"git_read"}


INCLUDE = "printf '[alias]\\n\\tsync = reset --hard\\n' > /tmp/inc && "


@pytest.mark.parametrize(
    "command",
    [
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.sync GIT_CONFIG_VALUE_0='reset --hard' git sync",
        f"{INCLUDE}git -c include.path=/tmp/inc sync",
        f"{INCLUDE}GIT_CONFIG_GLOBAL=/tmp/inc git sync",
        f"{INCLUDE}printf '[include]\\n\\tpath = /tmp/inc\\n' >> ~/.gitconfig && git sync",
    ],
)
async def test_an_alias_no_config_file_read_shows_is_what_it_ran(box: Box, command: str) -> None:
    # red team 4, finding 03: git runs the alias's expansion as a git of its own, which the trace classifies
    await _committed(box)
    since = len(box.of(ShellCommandRan))
    result = await box.sh(f"{WIP}{command} >/dev/null 2>&1; cat services/billing/old.txt")
    assert "# wip" not in result.output
    assert "git_history_rewrite" in _git_atoms(box, since), _git_atoms(box, since)


async def test_a_typo_git_autocorrects_is_what_it_ran(box: Box) -> None:
    # help.autocorrect set where no command line shows it: git runs `reset --hard` for `rset --hard`, in-process
    await _committed(box)
    since = len(box.of(ShellCommandRan))
    autocorrect = "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=help.autocorrect GIT_CONFIG_VALUE_0=immediate"
    result = await box.sh(f"{WIP}{autocorrect} git rset --hard >/dev/null 2>&1; cat services/billing/old.txt")
    assert "# wip" not in result.output
    assert "git_history_rewrite" in _git_atoms(box, since), _git_atoms(box, since)


async def test_an_alias_only_another_repository_defines_is_no_alias_where_git_ran(box: Box) -> None:
    # red team 4, finding 12: an alias in a nested repository made a failed `git st` at the top a force push
    await box.sh("git init -q services/billing/tool && git -C services/billing/tool config alias.st 'push --force'")
    since = len(box.of(ShellCommandRan))
    result = await box.sh("git st; echo $?")
    assert "is not a git command" in result.output
    assert "git_force_push" not in _git_atoms(box, since), _git_atoms(box, since)
