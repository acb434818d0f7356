"""Red team 4, finding 03: a git alias defined where no command line shows it (``GIT_CONFIG_COUNT``/``KEY``/``VALUE``
in the environment, ``-c include.path=FILE``, ``GIT_CONFIG_GLOBAL``, an ``[include]``) is classified by what it ran:
git runs an alias's expansion as a git of its own, which the trace sees."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from sandbox.commands.atoms import default_registry
from sandbox.commands.calls import AtomCall
from sandbox.commands.gitaliases import aliased
from sandbox.commands.gitargv import runs_alias, typed_subcommand
from sandbox.commands.gitoptions import autocorrected
from sandbox.commands.identity import ProgramIndex
from sandbox.commands.strace import parse
from sandbox.commands.tracer import TraceContext, analyse

GIT = shutil.which("git") or "/usr/bin/git"


def _trace(parent: tuple[str, ...], child: tuple[str, ...]) -> list[str]:
    """``git PARENT`` (its own process) starting ``git CHILD``, as strace writes it."""

    def argv(args: tuple[str, ...]) -> str:
        return ", ".join(f'"{a}"' for a in ("git", *args))

    return [
        '11 1.000 execve("/usr/bin/bash", ["/usr/bin/bash", "-c", "x"], 0x1 /* 3 vars */) = 0\n',
        "11 1.001 clone(child_stack=NULL, flags=SIGCHLD) = 2 /* 12 in strace's PID NS */\n",
        f'12 1.002 execve("{GIT}", [{argv(parent)}], 0x1 /* 3 vars */) = 0\n',
        "12 1.003 clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 13 in strace's PID NS */\n",
        f'13 1.004 execve("{GIT}", [{argv(child)}], 0x1 /* 3 vars */) = 0\n',
        "13 1.005 +++ exited with 0 +++\n",
        "12 1.006 +++ exited with 0 +++\n",
        "11 1.007 +++ exited with 0 +++\n",
    ]


def _atoms(tmp_path: Path, parent: tuple[str, ...], child: tuple[str, ...]) -> list[str | None]:
    ctx = TraceContext(
        root_argv=("/usr/bin/bash", "-c", "x"), wrappers={}, home=tmp_path / "home", workspace=tmp_path / "ws",
        planted=frozenset(), registry=default_registry(), programs=ProgramIndex({"git": GIT}),
    )  # fmt: skip
    return [e.atom for e in analyse(parse(_trace(parent, child)), ctx, []).execs]


def test_the_git_an_alias_ran_is_classified_whatever_defined_the_alias(tmp_path: Path) -> None:
    # GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.sync GIT_CONFIG_VALUE_0='reset --hard' git sync: the environment is
    # not in the trace, git's run of the expansion is
    assert _atoms(tmp_path, ("sync",), ("reset", "--hard")) == ["git_other", "git_history_rewrite"]
    assert _atoms(tmp_path, ("-c", "include.path=/tmp/inc", "sync"), ("reset", "--hard"))[1] == "git_history_rewrite"
    # a git command's own gits are its inside (git stash runs `git reset --hard`): no second action
    assert _atoms(tmp_path, ("stash",), ("reset", "--hard", "-q")) == ["git_branch", None]
    assert _atoms(tmp_path, ("-C", "sub", "pull"), ("merge", "FETCH_HEAD"))[1] is None


def test_a_git_line_runs_an_alias_when_its_typed_sub_command_is_none_of_git_s() -> None:
    assert typed_subcommand(["-c", "alias.x=reset --hard", "--no-pager", "x", "y"]) == "x"
    assert typed_subcommand(["--version"]) == "version"
    assert typed_subcommand(["-C", "d"]) is None
    assert runs_alias(["git", "-c", "alias.x=status", "x"]) and runs_alias(["/usr/lib/git-core/git", "Reset"])
    assert not runs_alias(["git", "--git-dir", "x", "reset", "--hard"]) and not runs_alias(["git"])


def test_one_action_one_atom_when_the_alias_s_own_line_says_what_it_ran() -> None:
    reg = default_registry()
    # git -c alias.sync='reset --hard' sync: the line is the reset; its traced run of `git reset --hard` is that one
    calls = (
        AtomCall(("git", "-c", "alias.sync=reset --hard", "sync"), ".", 0, 1.0, "git_history_rewrite", "high", pid=5),
        AtomCall(("/usr/lib/git-core/git", "reset", "--hard"), ".", 0, 1.0, "git_history_rewrite", "high", "trace",
                 pid=6, parent_pid=5),
        AtomCall(("git", "stash"), ".", 0, 1.0, "git_branch", "low", pid=7),
        AtomCall(("git", "status"), ".", 0, 1.0, "git_read", "low", "trace", pid=8, parent_pid=7),
    )  # fmt: skip
    out = aliased(calls, reg, lambda: [])
    assert [c.atom for c in out] == ["git_history_rewrite", None, "git_branch", "git_read"]
    # the alias from the environment: the line says git_other, the run says what it was, and the line carries it
    env = (
        AtomCall(("git", "sync"), ".", 0, 1.0, "git_other", "low", pid=5),
        AtomCall(("/usr/lib/git-core/git", "reset", "--hard"), ".", 0, 1.0, "git_history_rewrite", "high", "trace",
                 pid=6, parent_pid=5),
    )  # fmt: skip
    assert [c.atom for c in aliased(env, reg, lambda: pytest.fail("traced: no config read"))] == [
        "git_history_rewrite", None
    ]  # fmt: skip
    # a git program of another name is no alias run (git-receive-pack's path is no sub-command)
    serving = (
        AtomCall(("git-receive-pack", "/r/remote.git"), ".", 0, 1.0, None, None, "trace", pid=5),
        AtomCall(("git", "unpack-objects", "-q"), ".", 0, 1.0, "git_other", "low", "trace", pid=6, parent_pid=5),
    )
    assert aliased(serving, reg, lambda: []) == serving


def test_a_traced_git_that_started_nothing_ran_no_alias_whatever_a_config_says() -> None:
    # red team 4, finding 12: alice's nested repository defines `st = push --force origin main`; bob's `git st` at
    # the top failed ("not a git command") and started nothing: no force push, and no config is read for it
    reg = default_registry()
    failed = AtomCall(("git", "st"), ".", 1, 1.0, "git_other", "low", pid=5)
    assert aliased((failed,), reg, lambda: pytest.fail("traced: no config read")) == (failed,)
    # untraced (no pid): the config files are all there is
    untraced = dataclasses.replace(failed, pid=0)
    assert [c.atom for c in aliased((untraced,), reg, lambda: [{"st": "push --force origin main"}])] == [
        "git_force_push"
    ]


def test_a_typo_help_autocorrect_may_run_is_classified_as_what_git_would_run() -> None:
    # GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=help.autocorrect GIT_CONFIG_VALUE_0=immediate git rset --hard: git runs
    # `reset --hard` in the same process (no git of its own to trace)
    assert [autocorrected(n) for n in ("rset", "chekout", "psuh", "rest", "st", "sync", "reset")] == [
        "reset", "checkout", "push", None, None, None, None  # "rest": restore and reset tie; "st" begins status
    ]  # fmt: skip
    reg = default_registry()
    typo = AtomCall(("git", "-C", ".", "rset", "--hard"), ".", 0, 1.0, "git_other", "low", pid=5)
    assert [c.atom for c in aliased((typo,), reg, lambda: [])] == ["git_history_rewrite"]
    # an alias (the git it ran is in the trace; untraced, a config defines it) is what it ran, not a typo
    ran = AtomCall(("/usr/lib/git-core/git", "status"), ".", 0, 1.0, "git_read", "low", "trace", pid=6, parent_pid=5)
    assert [c.atom for c in aliased((typo, ran), reg, lambda: [])] == ["git_read", None]
    untraced = dataclasses.replace(typo, pid=0)
    assert [c.atom for c in aliased((untraced,), reg, lambda: [{"rset": "status"}])] == ["git_read"]
    assert [c.atom for c in aliased((untraced,), reg, lambda: [{}])] == ["git_history_rewrite"]
