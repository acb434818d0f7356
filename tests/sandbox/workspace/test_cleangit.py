"""The engine's git on an agent's repository reads none of its config (:mod:`sandbox.workspace.cleangit`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sandbox.workspace.cleangit import run_git


def _repo(root: Path) -> Path:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root), "PATH": "/usr/bin:/bin"}
    for args in (
        ["init", "-q", "-b", "main"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"],
    ):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
    return root / ".git"


def test_the_repository_config_runs_nothing(tmp_path: Path) -> None:
    (tmp_path / "w").mkdir()
    git = _repo(tmp_path / "w")
    marker = tmp_path / "ran"
    with (git / "config").open("a") as f:
        f.write(f'[core]\n\tfsmonitor = "touch {marker}; false"\n[filter "x"]\n\tclean = "touch {marker}; cat"\n')
    (git / "info").mkdir(exist_ok=True)
    (git / "info" / "attributes").write_text("* filter=x\n")
    (git.parent / "a.txt").write_text("a\n")
    who = ["-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["status", "--short"], ["add", "-A"], [*who, "commit", "-q", "-m", "two"]):
        done = run_git(git, args, work_tree=git.parent)
        assert done is not None and done.returncode == 0, done
    assert not marker.exists()
    log = run_git(git, ["log", "--format=%s"], work_tree=git.parent)
    assert log is not None and log.stdout.decode().split() == ["two", "one"]


def test_a_detached_head_moved_is_written_back(tmp_path: Path) -> None:
    (tmp_path / "w").mkdir()
    git = _repo(tmp_path / "w")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=git.parent, capture_output=True, text=True).stdout
    (git / "HEAD").write_text(head)
    done = run_git(git, ["commit", "-q", "--amend", "--allow-empty", "-m", "amended"], work_tree=git.parent)
    assert done is not None and done.returncode == 0
    now = (git / "HEAD").read_text().strip()
    assert now != head.strip() and len(now) == 40


@pytest.mark.parametrize("planted", ["objects", "refs", "HEAD"])
def test_a_repository_whose_parts_are_links_is_refused(tmp_path: Path, planted: str) -> None:
    (tmp_path / "w").mkdir()
    git = _repo(tmp_path / "w")
    moved = tmp_path / f"moved-{planted}"
    (git / planted).rename(moved)
    (git / planted).symlink_to(moved)
    assert run_git(git, ["status"], work_tree=git.parent) is None
