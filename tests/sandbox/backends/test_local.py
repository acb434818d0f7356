"""The local sandbox in a real temp workspace: shim events, the ownership guard, exact attribution
with concurrent agents, external edits seen by the watcher, no host secrets in the shell."""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from pathlib import Path
from typing import Any

import pytest

from channel.bus import Subscription
from channel.emitter import Emitter
from channel.events import FileChanged, ShellCommandRan, WriteRefused
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.errors import PathEscape, SandboxError, WriteRefusedError
from sandbox.jail.isolation import network_cut_prefix
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS, drain, external_write, quiesce, wait_for


def _of(kind: type, events: list[object]) -> list:
    return [e for e in events if isinstance(e, kind)]


def _atoms(events: list[object]) -> list[ShellCommandRan]:
    """The programs that are actions of the registry (the tracer reports every other exec too)."""
    return [e for e in _of(ShellCommandRan, events) if e.atom is not None]


# --- baseline -----------------------------------------------------------------------------------


async def test_workspace_is_a_git_repo_with_one_baseline_commit(sandbox: LocalSandbox) -> None:
    git = await asyncio.create_subprocess_exec(
        "git", "log", "--format=%s", cwd=sandbox.root, stdout=asyncio.subprocess.PIPE
    )
    log, _ = await git.communicate()
    assert log.split() == [b"baseline"]
    assert await sandbox.list_files() == sorted(FILES)
    assert sandbox.changed_paths() == []
    assert sandbox.diff_against_baseline() == ""
    assert sandbox.baseline_content("services/billing/invoice.py") == "RATE = 1\n"
    assert sandbox.baseline_content("nope.txt") is None


async def test_bad_scenario_paths_are_one_line_errors(bus: InProcessBus) -> None:
    emitter = Emitter(bus, "t")
    with pytest.raises(SandboxError, match=r"files: \.\./x: '\.\.' leads outside"):
        await LocalSandbox.create({"../x": ""}, ownership=Ownership(), emitter=emitter, watch=False)
    with pytest.raises(SandboxError, match="files: /etc/x: absolute"):
        await LocalSandbox.create({"/etc/x": ""}, ownership=Ownership(), emitter=emitter, watch=False)


async def test_a_given_root_must_be_empty(bus: InProcessBus, tmp_path: Path) -> None:
    (tmp_path / "x").write_text("")
    with pytest.raises(SandboxError, match="must be empty"):
        await LocalSandbox.create({}, ownership=Ownership(), emitter=Emitter(bus, "t"), root=tmp_path, watch=False)


# --- shell shim ---------------------------------------------------------------------------------


async def test_shimmed_rm_names_the_agent(sandbox: LocalSandbox, events: Subscription) -> None:
    result = await sandbox.run_shell("alice", "rm services/billing/old.txt")
    assert result.exit_code == 0
    seen = await drain(events)
    [ran] = _of(ShellCommandRan, seen)
    assert ran.actor == "alice"
    assert ran.argv == ("rm", "services/billing/old.txt")
    assert (ran.cwd, ran.exit_code, ran.atom, ran.risk) == (".", 0, "delete_file", "medium")
    assert ran.duration_ms >= 0
    [changed] = _of(FileChanged, seen)
    assert (changed.actor, changed.path, changed.change, changed.via) == (
        "alice",
        "services/billing/old.txt",
        "deleted",
        "shell",
    )
    assert "-stale" in changed.diff
    assert seen.index(ran) < seen.index(changed)


@pytest.mark.parametrize(
    ("command", "said"),
    [("echo 'a\0b'", "NUL byte"), ("cat > services/billing/notes.txt <<'EOF'\n" + "x" * 200_000 + "\nEOF", "bytes")],
    ids=["nul", "200-kb-heredoc"],
)
async def test_a_line_no_exec_can_take_is_refused_not_taken_for_tampering(
    sandbox: LocalSandbox, events: Subscription, command: str, said: str
) -> None:
    """agents5 #1: a NUL byte or a line past the kernel's limit for one argument failed before bash with exit 127
    and an empty trace, which the audit took for a stopped tracer (``ShimTampered``: ``audit_tampered``, critical).
    Refused in one line now; nothing runs, nothing is recorded as run."""
    with pytest.raises(SandboxError, match=said):
        await sandbox.run_shell("alice", command)
    assert await sandbox.run_shell("alice", "true") is not None  # the sandbox goes on
    assert [type(e).__name__ for e in await drain(events) if type(e).__name__ == "ShimTampered"] == []


async def test_shim_records_failure_cwd_and_argument_dependent_atoms(
    sandbox: LocalSandbox, events: Subscription
) -> None:
    await sandbox.run_shell(
        "alice", "cd services/billing && rm -rf 'no such dir'; git push origin main; git push origin feature-x"
    )
    ran = _atoms(await drain(events))
    assert [(r.argv[0], r.atom) for r in ran] == [
        ("rm", "delete_forced_recursive"),
        ("git", "git_push_protected"),
        ("git", "git_push_branch"),
    ]
    assert ran[0].argv == ("rm", "-rf", "no such dir")
    assert ran[0].cwd == "services/billing"
    assert ran[1].exit_code == 0  # the workspace's origin (sandbox/remote.py): main is up to date there
    assert ran[2].exit_code != 0  # no such branch: the attempt is still recorded
    assert all(r.actor == "alice" for r in ran)


async def test_shim_ignores_a_spoofed_actor(sandbox: LocalSandbox, events: Subscription) -> None:
    await sandbox.run_shell("alice", "SCOPEWATCH_ACTOR=bob rm services/billing/old.txt")
    [ran] = _of(ShellCommandRan, await drain(events))
    assert ran.actor == "alice"


async def test_non_sensitive_uses_are_no_atoms(sandbox: LocalSandbox, events: Subscription) -> None:
    result = await sandbox.run_shell("alice", "cat README.md; cat .env 2>/dev/null; true")
    assert result.output.startswith("# shop")
    ran = _atoms(await drain(events))
    assert [(r.argv, r.atom) for r in ran] == [(("cat", ".env"), "read_secret_file")]


# --- ownership guard: tool writes -----------------------------------------------------------------


async def test_tool_write_to_owned_path_is_a_file_change(sandbox: LocalSandbox, events: Subscription) -> None:
    await sandbox.write("alice", "services/billing/invoice.py", "RATE = 2\n")
    [changed] = _of(FileChanged, await drain(events))
    assert (changed.actor, changed.via, changed.change, changed.owner, changed.in_scope) == (
        "alice",
        "tool",
        "modified",
        "billing",
        True,
    )
    assert "-RATE = 1\n+RATE = 2\n" in changed.diff
    assert await sandbox.read("bob", "services/billing/invoice.py") == "RATE = 2\n"
    assert sandbox.changed_paths() == ["services/billing/invoice.py"]
    assert "+RATE = 2" in sandbox.diff_against_baseline("services/billing/invoice.py")


async def test_tool_write_to_non_owned_path_is_refused(sandbox: LocalSandbox, events: Subscription) -> None:
    with pytest.raises(WriteRefusedError) as info:
        await sandbox.write("alice", "services/payments/config.py", "TIMEOUT = 60\n")
    message = str(info.value)
    assert "services/payments/config.py" in message
    assert "payments" in message
    assert "request a review instead" in message
    assert (sandbox.root / "services/payments/config.py").read_text() == FILES["services/payments/config.py"]
    seen = await drain(events)
    [refused] = _of(WriteRefused, seen)
    assert (refused.actor, refused.path, refused.via, refused.rolled_back) == (
        "alice",
        "services/payments/config.py",
        "tool",
        False,
    )
    assert "+TIMEOUT = 60" in refused.diff
    assert _of(FileChanged, seen) == []


async def test_a_path_nobody_owns_is_refused(sandbox: LocalSandbox) -> None:
    with pytest.raises(WriteRefusedError, match="owned by no team"):
        await sandbox.write("alice", "setup.cfg", "[x]\n")


@pytest.mark.parametrize("path", ["services", "services/payments/", "services/payments", "services/new/"])
async def test_a_tool_write_to_a_folder_is_a_mistake_not_an_ownership_refusal(
    sandbox: LocalSandbox, events: Subscription, path: str
) -> None:
    """Agents tester (round 4) finding 7: ``fs/write_text_file services/platform/`` was recorded as a
    ``WriteRefused`` "owned by no team" with a diff adding a file of that name."""
    with pytest.raises(SandboxError, match=r": is a folder, not a file"):
        await sandbox.write("alice", path, "relative\n")
    assert _of(WriteRefused, await drain(events)) == []


async def test_edit_needs_exactly_one_occurrence(sandbox: LocalSandbox, events: Subscription) -> None:
    await sandbox.write("bob", "services/payments/notes.txt", "a\na\n")
    with pytest.raises(SandboxError, match="found 2 times"):
        await sandbox.edit("bob", "services/payments/notes.txt", "a", "b")
    with pytest.raises(SandboxError, match="found 0 times"):
        await sandbox.edit("bob", "services/payments/notes.txt", "zzz", "b")
    with pytest.raises(SandboxError, match="no such file"):
        await sandbox.edit("bob", "services/payments/missing.txt", "a", "b")
    await sandbox.edit("bob", "services/payments/config.py", "TIMEOUT = 5", "TIMEOUT = 9")
    assert await sandbox.read("bob", "services/payments/config.py") == "TIMEOUT = 9\nRETRIES = 3\n"
    with pytest.raises(WriteRefusedError):
        await sandbox.edit("alice", "services/payments/config.py", "RETRIES = 3", "RETRIES = 0")
    changes = _of(FileChanged, await drain(events))
    assert [(c.actor, c.path) for c in changes] == [
        ("bob", "services/payments/notes.txt"),
        ("bob", "services/payments/config.py"),
    ]


async def test_unregistered_actor_is_an_error(sandbox: LocalSandbox) -> None:
    with pytest.raises(SandboxError, match="'mallory' is not registered"):
        await sandbox.write("mallory", "services/billing/invoice.py", "")
    with pytest.raises(SandboxError, match="'mallory' is not registered"):
        await sandbox.run_shell("mallory", "true")


async def test_review_apply_and_restore_are_not_guarded(sandbox: LocalSandbox, events: Subscription) -> None:
    await sandbox.apply("reviewer", "services/payments/config.py", "TIMEOUT = 7\n")
    await sandbox.restore("services/payments/config.py")
    await sandbox.apply("reviewer", "services/payments/new.py", "X = 1\n")
    await sandbox.restore("services/payments/new.py")
    changes = _of(FileChanged, await drain(events))
    assert [(c.actor, c.via, c.change) for c in changes] == [
        ("reviewer", "review", "modified"),
        ("engine", "restore", "modified"),
        ("reviewer", "review", "added"),
        ("engine", "restore", "deleted"),
    ]
    assert sandbox.changed_paths() == []


async def test_refuse_reports_a_write_that_does_not_land(sandbox: LocalSandbox, events: Subscription) -> None:
    await sandbox.refuse("alice", "services/billing/invoice.py", "not now", via="tool", diff="d")
    [refused] = await drain(events)
    assert isinstance(refused, WriteRefused)
    assert (refused.actor, refused.path, refused.reason, refused.via, refused.rolled_back, refused.diff) == (
        "alice",
        "services/billing/invoice.py",
        "not now",
        "tool",
        False,
        "d",
    )
    assert sandbox.changed_paths() == []


async def test_roll_back_undoes_a_reported_shell_change(sandbox: LocalSandbox, events: Subscription) -> None:
    await sandbox.run_shell("alice", "echo 'RATE = 9' > services/billing/invoice.py")
    await sandbox.roll_back("alice", "services/billing/invoice.py", "RATE = 1\n", "breaks a contract", diff="undone")
    seen = await drain(events)
    assert [(type(e).__name__, e.actor, e.via) for e in seen] == [  # type: ignore[attr-defined]
        ("FileChanged", "alice", "shell"),
        ("FileChanged", "engine", "restore"),
        ("WriteRefused", "alice", "shell"),
    ]
    refused = seen[-1]
    assert isinstance(refused, WriteRefused)
    assert (refused.reason, refused.rolled_back, refused.diff) == ("breaks a contract", True, "undone")
    assert sandbox.changed_paths() == []
    assert await quiesce(sandbox, events) == []


# --- ownership guard: shell -----------------------------------------------------------------------


async def test_sed_i_on_non_owned_path_is_rolled_back(sandbox: LocalSandbox, events: Subscription) -> None:
    result = await sandbox.run_shell("alice", "sed -i 's/TIMEOUT = 5/TIMEOUT = 60/' services/payments/config.py")
    assert (sandbox.root / "services/payments/config.py").read_text() == sandbox.baseline_content(
        "services/payments/config.py"
    )
    assert result.rolled_back == ("services/payments/config.py",)
    assert "rolled back" in result.output and "request a review instead" in result.output
    seen = await drain(events)
    [ran] = _of(ShellCommandRan, seen)
    assert (ran.actor, ran.atom) == ("alice", "edit_in_place")
    [refused] = _of(WriteRefused, seen)
    assert (refused.actor, refused.path, refused.via, refused.rolled_back) == (
        "alice",
        "services/payments/config.py",
        "shell",
        True,
    )
    assert "-TIMEOUT = 5\n+TIMEOUT = 60\n" in refused.diff
    assert _of(FileChanged, seen) == []
    assert await quiesce(sandbox, events) == []  # the rollback is not reported again as external


async def test_shell_changes_mixed_owned_and_not(sandbox: LocalSandbox, events: Subscription) -> None:
    result = await sandbox.run_shell(
        "alice",
        "rm services/payments/notes.txt && echo 'RATE = 3' > services/billing/invoice.py && mkdir -p x && echo 1 > x/y",
    )
    assert result.exit_code == 0
    assert (sandbox.root / "services/payments/notes.txt").read_text() == "keep me\n"
    assert not (sandbox.root / "x/y").exists()
    seen = await drain(events)
    assert sorted((r.path, r.rolled_back) for r in _of(WriteRefused, seen)) == [
        ("services/payments/notes.txt", True),
        ("x/y", True),
    ]
    assert [(c.actor, c.path) for c in _of(FileChanged, seen)] == [("alice", "services/billing/invoice.py")]
    assert sandbox.changed_paths() == ["services/billing/invoice.py"]


async def test_noise_folders_are_not_workspace_changes(sandbox: LocalSandbox, events: Subscription) -> None:
    await sandbox.run_shell(
        "alice",
        "mkdir -p services/billing/__pycache__ .pytest_cache"
        " && touch services/billing/__pycache__/a.pyc .pytest_cache/x",
    )
    assert _of(FileChanged, await drain(events)) == []
    assert _of(WriteRefused, await quiesce(sandbox, events)) == []


# --- escapes --------------------------------------------------------------------------------------


async def test_dotdot_and_absolute_paths_are_refused(sandbox: LocalSandbox, events: Subscription) -> None:
    outside = sandbox.root.parent / "outside.txt"
    for path in ("../outside.txt", "services/../../outside.txt", str(outside)):
        with pytest.raises(PathEscape):
            await sandbox.write("alice", path, "x")
    with pytest.raises(PathEscape):
        await sandbox.read("alice", "../outside.txt")
    with pytest.raises(PathEscape):
        await sandbox.write("reviewer", ".git/config", "x")
    assert not outside.exists()
    refused = _of(WriteRefused, await drain(events))
    assert [r.path for r in refused] == ["../outside.txt", "services/../../outside.txt", str(outside), ".git/config"]


async def test_symlink_escapes_are_refused(sandbox: LocalSandbox, events: Subscription, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "secret.txt").write_text("s3cret\n")
    # A link planted in alice's own folder (by a human, so it is not rolled back) points out.
    os.symlink(target, sandbox.root / "services/billing/link")
    with pytest.raises(PathEscape, match="symlink"):
        await sandbox.write("alice", "services/billing/link/secret.txt", "pwned\n")
    with pytest.raises(PathEscape, match="symlink"):
        await sandbox.read("alice", "services/billing/link/secret.txt")
    assert (target / "secret.txt").read_text() == "s3cret\n"
    # A link inside the workspace to a file alice doesn't own is judged by its target.
    os.symlink("../payments/config.py", sandbox.root / "services/billing/cfg.py")
    with pytest.raises(WriteRefusedError, match=r"services/payments/config\.py is owned by team payments"):
        await sandbox.write("alice", "services/billing/cfg.py", "TIMEOUT = 0\n")
    assert (sandbox.root / "services/payments/config.py").read_text() == FILES["services/payments/config.py"]


async def test_shell_symlink_pointing_out_is_rolled_back(sandbox: LocalSandbox, events: Subscription) -> None:
    result = await sandbox.run_shell("alice", "ln -s /etc services/billing/etc")
    assert result.rolled_back == ("services/billing/etc",)
    assert not (sandbox.root / "services/billing/etc").is_symlink()
    seen = await drain(events)
    [refused] = _of(WriteRefused, seen)
    assert "outside the workspace" in refused.reason
    assert [r.atom for r in _of(ShellCommandRan, seen)] == ["create_link"]


# --- the watcher: external edits and exact attribution ----------------------------------------


async def test_external_edit_is_a_change_by_external(sandbox: LocalSandbox, events: Subscription) -> None:
    path = sandbox.root / "services/payments/config.py"
    await external_write(str(path), "TIMEOUT = 5\nRETRIES = 10\n")
    changed, seen = await wait_for(events, lambda e: isinstance(e, FileChanged))
    assert seen == [changed]
    assert (changed.actor, changed.via, changed.path, changed.change, changed.owner) == (
        "external",
        "external",
        "services/payments/config.py",
        "modified",
        "payments",
    )
    assert "-RETRIES = 3\n+RETRIES = 10\n" in changed.diff
    assert await quiesce(sandbox, events) == []  # reported once


async def test_pending_external_change_is_not_charged_to_the_next_command(
    bus: InProcessBus, events: Subscription
) -> None:
    # Without the watcher, an external edit is only found when the next operation starts.
    sb = await LocalSandbox.create(FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "t"), watch=False)
    try:
        sb.register_actor("alice", "billing")
        (sb.root / "services/payments/notes.txt").write_text("edited by hand\n")
        result = await sb.run_shell("alice", "echo 'RATE = 4' > services/billing/invoice.py")
        assert result.rolled_back == ()
        changes = _of(FileChanged, await drain(events))
        assert [(c.actor, c.path) for c in changes] == [
            ("external", "services/payments/notes.txt"),
            ("alice", "services/billing/invoice.py"),
        ]
        assert (sb.root / "services/payments/notes.txt").read_text() == "edited by hand\n"
    finally:
        await sb.close()


async def test_changes_between_commands_are_external_though_the_scan_before_a_command_is_skipped(
    bus: InProcessBus, events: Subscription
) -> None:
    # Without the watcher, only the check before a command finds an edit made between two commands; the
    # scan it saves when nothing changed (sandbox/workspace/sentry.py) must never save it here.
    sb = await LocalSandbox.create(FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "t"), watch=False)
    scans = 0
    scan = sb._workspace.scan

    def counted(*args: Any) -> Any:
        nonlocal scans
        scans += 1
        return scan(*args)

    sb._workspace.scan = counted  # type: ignore[method-assign]
    notes = sb.root / "services/payments/notes.txt"
    try:
        sb.register_actor("alice", "billing")
        for _ in range(2):  # the second command's check finds every folder watched already
            await sb.run_shell("alice", "true")
        await drain(events)
        scans = 0
        await sb.run_shell("alice", "true")
        assert scans == 0  # nothing changed before the command, nor in it
        # What the command itself changes is still found after it (its own files, a new folder's).
        for command, path in (
            ("echo 'RATE = 5' > services/billing/invoice.py", "services/billing/invoice.py"),
            ("mkdir -p services/billing/sub && echo x > services/billing/sub/new.txt", "services/billing/sub/new.txt"),
        ):
            scans = 0
            result = await sb.run_shell("alice", command)
            assert (result.exit_code, result.rolled_back, scans) == (0, (), 1), result.output
            assert [(c.actor, c.path) for c in _of(FileChanged, await drain(events))] == [("alice", path)]
        (sb.root / "services/payments/deep").mkdir()  # a folder the sentry does not watch yet
        for path in ("services/payments/deep/new.txt", "services/payments/config.py", "README.md"):
            if path == "README.md":
                await asyncio.to_thread(os.chmod, sb.root / path, 0o755)
            else:
                await external_write(str(sb.root / path), "X = 1\n")
            scans = 0
            result = await sb.run_shell("alice", "true")
            assert result.rolled_back == ()
            # The scan before the command; after it a second one only while a folder is newly watched.
            assert scans == (2 if "deep" in path else 1)
            changes = _of(FileChanged, await drain(events))
            assert [(c.actor, c.path) for c in changes] == [("external", path)]
        # A time alone is taken in silently when it is not the command's: were it left to the scan after
        # the command, alice (billing) would be refused it and the time put back.
        await asyncio.to_thread(os.utime, notes, ns=(1_000_000_000, 1_000_000_000))
        result = await sb.run_shell("alice", "true")
        seen = await drain(events)
        assert (result.rolled_back, _of(WriteRefused, seen), _of(FileChanged, seen)) == ((), [], [])
        assert notes.stat().st_mtime_ns == 1_000_000_000
        assert notes.read_text() == "keep me\n"
    finally:
        await sb.close()


async def test_a_change_found_but_not_settled_is_still_external_at_the_next_command(
    bus: InProcessBus, events: Subscription
) -> None:
    # Quiet means the cache is the disk: a whole scan that found a change (then an error, say) keeps it speaking.
    sb = await LocalSandbox.create(FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "t"), watch=False)
    try:
        sb.register_actor("alice", "billing")
        for _ in range(2):
            await sb.run_shell("alice", "true")
        (sb.root / "services/payments/notes.txt").write_text("edited by hand\n")
        async with sb._reconciler.lock:
            assert [c.path for c in sb._reconciler.changes()] == ["services/payments/notes.txt"]
        await drain(events)
        result = await sb.run_shell("alice", "true")
        assert result.rolled_back == ()
        changes = _of(FileChanged, await drain(events))
        assert [(c.actor, c.path) for c in changes] == [("external", "services/payments/notes.txt")]
    finally:
        await sb.close()


async def test_concurrent_agents_are_attributed_exactly(sandbox: LocalSandbox, events: Subscription) -> None:
    async def agent(actor: str, folder: str) -> None:
        for i in range(4):
            await sandbox.run_shell(
                actor,
                f"echo {actor}{i} > services/{folder}/f{i}.txt; sleep 0.01;"
                f" cp services/{folder}/f{i}.txt services/{folder}/g{i}.txt",
            )
            await sandbox.write(actor, f"services/{folder}/t{i}.txt", f"{actor} tool {i}\n")

    await asyncio.gather(agent("alice", "billing"), agent("bob", "payments"))
    seen = await drain(events)
    seen += await quiesce(sandbox, events)
    changes = _of(FileChanged, seen)
    assert len(changes) == 24
    assert len({c.path for c in changes}) == 24  # no duplicates
    for c in changes:
        expected = "alice" if c.path.startswith("services/billing/") else "bob"
        assert c.actor == expected, c
        assert c.via == ("tool" if "/t" in c.path else "shell")
    assert _of(WriteRefused, seen) == []
    cps = _atoms(seen)
    assert len(cps) == 8
    assert all((c.actor == "alice") == ("billing" in c.argv[1]) for c in cps)


async def test_shell_and_human_edits_interleaved(sandbox: LocalSandbox, events: Subscription) -> None:
    await sandbox.run_shell("alice", "echo 'RATE = 5' > services/billing/invoice.py")
    await external_write(str(sandbox.root / "README.md"), "# shop, edited\n")
    changed, _ = await wait_for(events, lambda e: isinstance(e, FileChanged) and e.path == "README.md")
    assert changed.actor == "external"
    seen = await quiesce(sandbox, events)
    # The editor's truncate and write can land in two watcher batches under load: a second change of
    # the same file by the same person is right; anything else (a change blamed on alice) is not.
    assert all(isinstance(e, FileChanged) and e.path == "README.md" and e.actor == "external" for e in seen), seen
    assert (sandbox.root / "README.md").read_text() == "# shop, edited\n"


# --- environment and isolation --------------------------------------------------------------------


async def test_no_host_secret_reaches_the_shell(sandbox: LocalSandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_API_KEY", "sk-fake-0123456789")
    result = await sandbox.run_shell("alice", "env; echo HOME=$HOME")
    assert result.exit_code == 0
    assert "FAKE_API_KEY" not in result.output
    assert "sk-fake-0123456789" not in result.output
    assert f"HOME={sandbox.home}" in result.output
    assert "SCOPEWATCH_ACTOR=alice" in result.output
    assert "PYTHONDONTWRITEBYTECODE=1" in result.output


async def test_network_is_cut_where_the_os_allows(sandbox: LocalSandbox) -> None:
    if not await network_cut_prefix():
        pytest.skip("this OS does not let us create a network namespace")
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        probe = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2)"
        result = await sandbox.run_shell("alice", f'python3 -c "{probe}"')
        assert result.exit_code != 0
        assert "Error" in result.output
    finally:
        server.close()
        await server.wait_closed()


async def test_timeout_kills_the_command(sandbox: LocalSandbox) -> None:
    result = await sandbox.run_shell("alice", "echo started; sleep 30", timeout=1.0)  # the jail starts in ~0.1-0.4 s
    assert result.timed_out
    assert result.exit_code == 124
    assert "started" in result.output and "timed out" in result.output


def _running(marker: str) -> bool:
    """Whether a live process on this machine has ``marker`` in its command line (a zombie's is empty)."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            if marker.encode() in cmdline.read_bytes():
                return True
    return False


async def test_background_leftovers_are_killed(sandbox: LocalSandbox, events: Subscription) -> None:
    """A command's background child, started (its sentinel file proves it) and due to write a file
    later, is gone once the command returns. The test waits for the child to be gone, then looks:
    killed, it wrote nothing; left alive, it would have finished its write before going."""
    marker = f"scopewatch-leftover-{uuid.uuid4().hex}"
    child = "touch services/billing/started; sleep 0.2; echo late > services/billing/late.txt"
    command = f"sh -c '{child}' {marker} & while [ ! -e services/billing/started ]; do sleep 0.01; done; echo done"
    result = await sandbox.run_shell("alice", command)
    assert result.output.strip() == "done"
    for _ in range(1000):  # a bound on a hang: the kill is immediate, a child left alive ends in 0.2 s
        if not _running(marker):
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the background child is still running")
    assert not (sandbox.root / "services/billing/late.txt").exists()


# --- tests against the workspace --------------------------------------------------------------------


async def test_run_tests_with_a_path_restored(sandbox: LocalSandbox) -> None:
    contract = {
        "contract/payments/test_timeout.py": (
            "from services.payments import config\n\n"
            "def test_timeout():\n    assert config.TIMEOUT == 5, config.TIMEOUT\n"
        )
    }
    await sandbox.apply("reviewer", "services/payments/config.py", "TIMEOUT = 60\nRETRIES = 3\n")
    broken = await sandbox.run_tests(contract)
    assert broken.passed == () and [f.test for f in broken.failed] == [
        "contract/payments/test_timeout.py::test_timeout"
    ]
    fixed = await sandbox.run_tests(contract, restore=["services/payments/config.py"])
    assert fixed.passed == ("contract/payments/test_timeout.py::test_timeout",)
    assert (sandbox.root / "services/payments/config.py").read_text() == "TIMEOUT = 60\nRETRIES = 3\n"
    assert not (sandbox.root / "contract").exists()
