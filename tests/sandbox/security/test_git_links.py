"""The git guard runs as the engine's user (root on the host) and never follows a link an agent made: a guarded
folder (``.git``, ``.git/worktrees/NAME``, ``~/.config``) replaced by a symbolic link to a host folder is itself the
change undone (the link removed, what the guard kept of what was beneath put back), and nothing is read or written
through it. ``commondir`` files, which move a git folder's config and hooks out of the guard's sight, are guarded like
config. Deep trees an agent made in git folders crash nothing (a red team's findings 03, 04, 08, 20, 21)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from channel.events import WriteRefused
from tests.sandbox.security.conftest import Box

DEEP = "$(python3 -c \"print('/'.join(['a'] * 1100))\")"


def _host_repo(path: Path) -> Path:
    """A repository on the host, out of the jail's reach: a hook and a config of its own."""
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\necho host hook\n")
    subprocess.run(["git", "-C", str(path), "config", "core.pager", "less -R"], check=True)
    return path / ".git"


async def test_a_git_folder_linked_to_a_host_repository_is_removed_not_written_through(
    box: Box, tmp_path: Path
) -> None:
    host = _host_repo(tmp_path / "host")
    config, hook = (host / "config").read_bytes(), (host / "hooks" / "pre-commit").read_bytes()
    await box.sh("git config user.name agent")  # runs nothing: stays
    await box.sh(f"mv .git .git-away; ln -s {host} .git")
    assert (host / "config").read_bytes() == config and (host / "hooks" / "pre-commit").read_bytes() == hook
    root = box.sandbox.root
    assert not (root / ".git").is_symlink()
    assert ".git" in [e.path for e in box.of(WriteRefused)]
    assert "name = agent" in (root / ".git" / "config").read_text()  # what the guard kept is put back
    await box.sh(f"rm -rf .git; mkdir -p .git/worktrees; ln -s {host} .git/worktrees/w")
    assert (host / "config").read_bytes() == config and not (root / ".git/worktrees/w").is_symlink()
    assert ".git/worktrees/w" in [e.path for e in box.of(WriteRefused)]


async def test_a_config_folder_linked_to_a_host_folder_is_never_read_nor_written(box: Box, tmp_path: Path) -> None:
    secret = "[credential]\n\thelper = store --file /root/token-HOSTSECRET\n"
    (tmp_path / "cfg" / "git").mkdir(parents=True)
    (tmp_path / "cfg" / "git" / "config").write_text(secret)
    await box.sh(f"rm -rf ~/.config; ln -s {tmp_path / 'cfg'} ~/.config")
    assert (tmp_path / "cfg" / "git" / "config").read_text() == secret
    refused = box.of(WriteRefused)
    assert "~/.config" in [e.path for e in refused]
    assert not any("HOSTSECRET" in (e.diff or "") for e in refused)
    assert not (box.sandbox.home / ".config").is_symlink()


async def test_commondir_files_that_move_config_and_hooks_are_rolled_back(box: Box) -> None:
    remote = box.sandbox.root.parent / "remote.git"
    await box.sh(f"cp -a .git /tmp/g && mv /tmp/g .git/x && echo x > .git/commondir && echo s > {remote}/commondir")
    refused = {e.path for e in box.of(WriteRefused)}
    assert {".git/commondir", "remote.git/commondir"} <= refused, refused
    assert not (box.sandbox.root / ".git" / "commondir").exists() and not (remote / "commondir").exists()


async def test_benign_git_makes_no_refusal(box: Box) -> None:
    await box.sh(
        "git config user.name a && git config user.email a@example.com && git switch -qc work && "
        "echo 2 >> services/billing/invoice.py && git commit -qam two && git push -q origin work && "
        "git worktree add -q /tmp/wt main && git -C /tmp/wt status -s"
    )
    assert not box.of(WriteRefused)


async def test_deep_folders_in_git_folders_crash_nothing(box: Box) -> None:
    remote = box.sandbox.root.parent / "remote.git"
    await box.sh(f"echo x >> services/payments/notes.txt; mkdir -p .git/modules/{DEEP} {remote}/refs/{DEEP}")
    assert [e.path for e in box.of(WriteRefused)] == ["services/payments/notes.txt"]
    result = await box.sh("git status --short; echo ok")
    assert result.output.strip().endswith("ok")
