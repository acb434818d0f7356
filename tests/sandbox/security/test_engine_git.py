"""The engine's own git runs nothing an agent configured, and git config or hooks that would run in another
agent's git are rolled back (a red team's findings: the engine's ``merge-base`` and amend, run as root on the
host, read the repositories' config). Each marker is a host path (pytest's ``tmp_path``) that a command in the
jail cannot reach: a program that made one ran outside the jail."""

from __future__ import annotations

from pathlib import Path

from channel.events import ShellCommandRan, WriteRefused
from tests.sandbox.security.conftest import Box

FAKE_STEP = f"{'1' * 40} {'2' * 40} x <x@x> 1700000000 +0000\tpush"


def _write(path: str, text: str) -> str:
    """A shell line that writes ``text`` to ``path`` (through python: no quoting of the text)."""
    return f"python3 - <<'PY'\nopen({path!r}, 'w').write({text!r})\nPY\n"


async def test_a_promisor_remote_put_in_the_origin_config_runs_nothing_on_the_host(box: Box, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    remote = box.sandbox.root.parent / "remote.git"
    config = (remote / "config").read_text().replace("repositoryformatversion = 0", "repositoryformatversion = 1")
    config += (
        '[extensions]\n\tpartialClone = evil\n[remote "evil"]\n\turl = /nonexistent\n\tpromisor = true\n'
        f"\tuploadpack = \"sh -c 'touch {marker}' #\"\n"
    )
    # a made-up step in main's reflog: the engine asks git whether it was a fast-forward
    await box.sh(_write(f"{remote}/config", config) + f"echo '{FAKE_STEP}' >> {remote}/logs/refs/heads/main")
    assert not marker.exists()
    assert f"{remote.name}/config" in [e.path for e in box.of(WriteRefused)]
    assert "uploadpack" not in (remote / "config").read_text()
    assert "git_force_push" in [e.atom for e in box.of(ShellCommandRan)]


async def test_the_engine_amend_after_a_rollback_runs_no_filter_of_the_repository(box: Box, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    git = box.sandbox.root / ".git"
    (git / "info").mkdir(exist_ok=True)
    (git / "info" / "attributes").write_text("* filter=x\n")
    (git / "config.worktree").write_text(f'[filter "x"]\n\tclean = "sh -c \'touch {marker}; cat\'"\n')
    with (git / "config").open("a") as f:
        f.write("[extensions]\n\tworktreeConfig = true\n")
    await box.sh("echo bad >> services/payments/notes.txt; echo ok >> services/billing/invoice.py; git commit -qam x")
    assert [e.path for e in box.of(WriteRefused)] == ["services/payments/notes.txt"]
    assert not marker.exists()
    shown = await box.sh("git show --stat --format=%s HEAD")
    assert "services/billing/invoice.py" in shown.output and "notes.txt" not in shown.output


async def test_program_running_config_in_config_worktree_is_rolled_back(box: Box) -> None:
    fsmonitor = '[core]\n\tfsmonitor = "echo planted >> services/payments/config.py; false"\n'
    await box.sh("git config extensions.worktreeConfig true && " + _write(".git/config.worktree", fsmonitor))
    assert ".git/config.worktree" in [e.path for e in box.of(WriteRefused)]
    assert not (box.sandbox.root / ".git" / "config.worktree").exists()


async def test_a_hook_put_in_the_origin_remote_is_rolled_back(box: Box) -> None:
    remote = box.sandbox.root.parent / "remote.git"
    await box.sh(f"mkdir -p {remote}/hooks && " + _write(f"{remote}/hooks/pre-receive", "#!/bin/sh\ntrue\n"))
    assert f"{remote.name}/hooks/pre-receive" in [e.path for e in box.of(WriteRefused)]
    assert not (remote / "hooks" / "pre-receive").exists()


async def test_config_and_hooks_of_a_submodule_or_worktree_git_folder_are_rolled_back(box: Box) -> None:
    """A submodule's git folder (``.git/modules/NAME``) and a linked worktree's (``.git/worktrees/NAME``) run their
    config and hooks in the git of whoever works there next."""
    fsmonitor = '[core]\n\tfsmonitor = "echo planted >> services/payments/config.py; false"\n'
    plain = "[core]\n\tbare = false\n"
    await box.sh(
        "mkdir -p .git/modules/sub/hooks .git/modules/plain .git/worktrees/w && "
        + _write(".git/modules/sub/config", fsmonitor)
        + _write(".git/modules/sub/hooks/post-checkout", "#!/bin/sh\ntrue\n")
        + _write(".git/modules/plain/config", plain)
        + _write(".git/worktrees/w/config.worktree", fsmonitor)
    )
    refused = {e.path for e in box.of(WriteRefused)}
    planted = {".git/modules/sub/config", ".git/modules/sub/hooks/post-checkout", ".git/worktrees/w/config.worktree"}
    assert planted <= refused
    git = box.sandbox.root / ".git"
    assert not (git / "modules/sub/config").exists() and not (git / "modules/sub/hooks/post-checkout").exists()
    assert not (git / "worktrees/w/config.worktree").exists()
    assert (git / "modules/plain/config").read_text() == plain  # config that runs nothing stays
    assert ".git/modules/plain/config" not in refused


def test_the_state_facts_name_nested_git_folders() -> None:
    from sandbox.workspace.gitguard import guarded_kind

    assert guarded_kind(".git/modules/a/b/hooks/pre-commit") == "git_hooks"
    assert guarded_kind(".git/modules/a/config") == "git_config"
    assert guarded_kind(".git/worktrees/w/config.worktree") == "git_config"
    assert guarded_kind("remote.git/hooks/pre-receive") == "git_hooks"
    assert guarded_kind(".git/modules/a/HEAD") is None and guarded_kind("services/x.py") is None


async def test_an_ext_remote_and_protocol_allow_are_rolled_back(box: Box) -> None:
    box.sandbox.register_actor("bob", "payments", ["services/payments/config.py"])
    await box.sh("git config protocol.ext.allow always && git config remote.origin.url 'ext::sh -c touch% /tmp/x'")
    await box.sh("git config url.'ext::sh -c touch% /tmp/planted '.insteadOf /")  # alone: a rewrite
    assert [(e.path, e.rolled_back) for e in box.of(WriteRefused)] == [(".git/config", True)] * 2
    config = (box.sandbox.root / ".git" / "config").read_text()
    assert "ext::" not in config and "protocol" not in config
    result = await box.sandbox.run_shell("bob", "git fetch -q 2>&1; test -e /tmp/x && echo RAN || echo clean")
    assert result.output.strip().endswith("clean"), result.output


def test_urls_that_run_programs() -> None:
    from sandbox.workspace.gitconfig import runs_program

    assert runs_program("protocol.ext.allow", "always") and runs_program("protocol.allow", "always")
    assert runs_program("remote.origin.url", "ext::sh -c id") and runs_program("remote.o.pushurl", "evil::x")
    assert runs_program("url.ext::sh -c id .insteadof", "https://")  # https:// URLs become ext:: ones
    assert not runs_program("url.https://x.insteadof", "ext::") and not runs_program("url.git@h:.insteadof", "x")
    assert runs_program("submodule.a.update", "!sh x") and not runs_program("submodule.a.update", "rebase")
    for benign in ("https://example.com/r.git", "git@example.com:r.git", "/srv/r.git", "file:///srv/r.git"):
        assert not runs_program("remote.origin.url", benign)
