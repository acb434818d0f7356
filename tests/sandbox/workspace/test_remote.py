"""The remote's refs and reflog steps, read by the engine (:mod:`sandbox.workspace.remote`): bounded work for any
reflog an agent wrote by hand, and any depth of ``refs`` (a red team's findings 14 and 08)."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import pytest

from sandbox.workspace import remote
from sandbox.workspace.files import remove_tree
from sandbox.workspace.remote import read_refs, read_state, ref_updates


def _repo(path: Path, commits: int) -> list[str]:
    """A bare-like repository at ``path`` with ``commits`` commits in a line on main; their ids, oldest first."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    ids = []
    for i in range(commits):
        subprocess.run(
            ["git", "-C", str(path), "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-q", "--allow-empty",
             "-m", str(i)], check=True,
        )
        ids.append(subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True,
                                  check=True).stdout.strip())
    return ids


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []
    real = remote.run_git  # type: ignore[attr-defined]

    def run_git(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(remote, "run_git", run_git)
    return calls


def test_a_flood_of_one_reflog_step_costs_one_merge_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c0, c1 = _repo(tmp_path / "r", 2)
    git = tmp_path / "r" / ".git"
    before = read_state(git)
    (git / "refs" / "heads" / "flood").write_text(c1 + "\n")
    (git / "logs" / "refs" / "heads" / "flood").write_text(f"{c0} {c1} a <a@a> 1700000000 +0000\tpush\n" * 3000)
    calls = _counting(monkeypatch)
    updates = ref_updates(git, before)
    assert [(u.ref, u.forced) for u in updates] == [("refs/heads/flood", False)]
    assert len(calls) == 1


def test_past_the_budget_a_step_counts_as_forced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _repo(tmp_path / "r", 6)
    git = tmp_path / "r" / ".git"
    before = read_state(git)
    (git / "refs" / "heads" / "f").write_text(ids[-1] + "\n")
    steps = "".join(f"{a} {b} a <a@a> 1700000000 +0000\tpush\n" for a, b in itertools.pairwise(ids))
    (git / "logs" / "refs" / "heads" / "f").write_text(steps)
    monkeypatch.setattr(remote, "CHECKS_MAX", 3)
    calls = _counting(monkeypatch)
    assert [u.forced for u in ref_updates(git, before)] == [True]  # five fast-forwards, three checked
    assert len(calls) == 3


def test_refs_of_any_depth_are_read(tmp_path: Path) -> None:
    (c0,) = _repo(tmp_path / "r", 1)
    git = tmp_path / "r" / ".git"
    deep = git / "refs" / "x" / "/".join(["a"] * 1100)
    subprocess.run(["mkdir", "-p", str(deep)], check=True)  # pathlib's and os's makedirs are recursive
    try:
        (deep / "tip").write_text(c0 + "\n")
        assert read_refs(git)[deep.relative_to(git).as_posix() + "/tip"] == c0
    finally:
        remove_tree(git / "refs" / "x")  # iteratively: pytest's clean-up of its folder is recursive
