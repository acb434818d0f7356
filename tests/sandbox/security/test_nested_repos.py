"""A repository nested in the work tree is guarded like the workspace's own ``.git``: what its config runs and its
hooks would run in *another* agent's git (added to the index it is a submodule, and the next ``git status`` of
anyone runs git in it). Its program-running config and its hooks are rolled back; a gitfile or a link standing
for its git folder is removed; ``git init``'s sample hooks stay, unreported (git never runs them)."""

from __future__ import annotations

from channel.events import WriteRefused
from sandbox.workspace.gitguard import guarded_kind
from tests.sandbox.security.conftest import Box

IDENTITY = "-c user.name=a -c user.email=a@example.com"


async def test_a_nested_repositorys_fsmonitor_never_runs_in_another_agents_git(box: Box) -> None:
    box.sandbox.register_actor("bob", "payments", ["services/payments/config.py"])
    await box.sh(
        f"cd services/billing && git init -q sub && git -C sub {IDENTITY} commit -q --allow-empty -m i && "
        "git -C sub config core.fsmonitor 'echo ran >> /tmp/planted; false' && git add sub"
    )
    refused = [(e.path, e.rolled_back) for e in box.of(WriteRefused)]
    assert refused == [("services/billing/sub/.git/config", True)], refused
    # bob's git status goes into the submodule; what alice configured there does not run
    result = await box.sandbox.run_shell("bob", "git status --short; test -e /tmp/planted && echo RAN || echo clean")
    assert result.output.strip().endswith("clean"), result.output
    # A config new in the command is put back whole: as it was before, absent (git needs none)
    assert not (box.sandbox.root / "services/billing/sub/.git/config").exists()
    await box.sh("git -C services/billing/sub config user.name alice && git -C services/billing/sub status -s")
    assert len(box.of(WriteRefused)) == 1  # config that runs nothing stays


async def test_a_nested_repositorys_hook_is_rolled_back_and_its_samples_stay(box: Box) -> None:
    await box.sh("cd services/billing && git init -q sub && ls sub/.git/hooks | grep -c sample")
    assert not box.of(WriteRefused)  # git init's config runs nothing, its samples are never run
    hook = "services/billing/sub/.git/hooks/pre-commit"
    await box.sh(f"printf '#!/bin/sh\\necho pwned\\n' > {hook} && chmod +x {hook}")
    assert [(e.path, e.rolled_back) for e in box.of(WriteRefused)] == [(hook, True)]
    assert not (box.sandbox.root / hook).exists()


async def test_a_gitfile_or_a_link_for_a_nested_git_folder_is_removed(box: Box) -> None:
    await box.sh(
        "git init -q /tmp/elsewhere && git -C /tmp/elsewhere config core.fsmonitor 'echo ran' && "
        "mkdir -p services/billing/a services/billing/b && echo 'gitdir: /tmp/elsewhere/.git' > services/billing/a/.git"
        " && ln -s /tmp/elsewhere/.git services/billing/b/.git"
    )
    refused = sorted(e.path for e in box.of(WriteRefused))
    assert refused == ["services/billing/a/.git", "services/billing/b/.git"], refused
    root = box.sandbox.root
    assert not (root / "services/billing/a/.git").exists() and not (root / "services/billing/b/.git").is_symlink()


def test_the_state_facts_name_nested_repositories() -> None:
    assert guarded_kind("services/billing/sub/.git/config") == "git_config"
    assert guarded_kind("services/billing/sub/.git/config.worktree") == "git_config"
    assert guarded_kind("services/billing/sub/.git") == "git_config"
    assert guarded_kind("services/billing/sub/.git/hooks/pre-commit") == "git_hooks"
    assert guarded_kind("sub/.git/modules/x/hooks/post-checkout") == "git_hooks"
    assert guarded_kind("sub/.git/modules/x/config") == "git_config"
    assert guarded_kind(".git/hooks/post-commit") == "git_hooks"  # the work tree's own, as before
    assert guarded_kind(".git/config") == "git_config"
    assert guarded_kind(".git/modules/x/config") == "git_config"
    assert guarded_kind(".git") == "git_config"  # the work tree's .git replaced by a link or a file
    assert guarded_kind("~/.config") == "git_config" and guarded_kind(".git/commondir") == "git_config"
    assert guarded_kind("services/billing/sub/.git/description") is None
    assert guarded_kind("services/billing/notes.git") is None
