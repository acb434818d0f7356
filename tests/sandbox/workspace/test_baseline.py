"""A workspace's git baseline written from memory is what git makes for the same files
(sandbox/workspace/baseline.py)."""

from __future__ import annotations

import os
import struct
import subprocess
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from sandbox.workspace import baseline, repo
from sandbox.workspace.baseline import BaselineCache, restat_index
from sandbox.workspace.remote import read_state, ref_updates
from sandbox.workspace.repo import Workspace

FILES = {"app/main.py": "def main() -> int:\n    return 1\n", "README.md": "# demo\n", "tests/test_main.py": "x = 2\n"}

ID = {"NAME": "a", "EMAIL": "a@a.invalid"}
Make = Callable[[dict[str, str]], Coroutine[Any, Any, Workspace]]


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch) -> BaselineCache:
    fresh = BaselineCache()
    monkeypatch.setattr(repo, "BASELINES", fresh)
    return fresh


@pytest.fixture
async def make() -> AsyncIterator[Make]:
    made: list[Workspace] = []

    async def _make(files: dict[str, str]) -> Workspace:
        ws = Workspace.make()
        made.append(ws)
        ws.materialise(files)
        await ws.git_baseline()
        return ws

    yield _make
    for ws in made:
        ws.remove()


def git(ws: Workspace, *args: str, git_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    where = ["--git-dir", str(git_dir)] if git_dir is not None else []
    env = {"PATH": os.environ["PATH"], "HOME": str(ws.base), "GIT_CONFIG_NOSYSTEM": "1"}
    env |= {f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER") for what, value in ID.items()}
    return subprocess.run(["git", *where, *args], cwd=ws.root, env=env, capture_output=True, text=True)


def tree(top: Path, base: Path) -> dict[str, tuple[int, bytes]]:
    """Every folder and file under ``top``: mode and bytes (the index's stat data zeroed, the sandbox's
    own path in the config named BASE)."""
    found: dict[str, tuple[int, bytes]] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = str(path.relative_to(top))
            st = path.lstat()
            data = b"" if path.is_dir() else path.read_bytes()
            if rel == "index":
                data = _stat_zeroed(data)
            found[rel] = (st.st_mode, data.replace(os.fsencode(base), b"BASE"))
    return found


def _stat_zeroed(index: bytes) -> bytes:
    out = bytearray(index[:-20])
    (count,) = struct.unpack(">I", out[8:12])
    at = 12
    for _ in range(count):
        out[at : at + 40] = bytes(24) + out[at + 24 : at + 28] + bytes(12)  # all but the mode
        end = out.index(b"\0", at + 62)
        at += (end - at + 8) & ~7
    return bytes(out)


async def test_a_templated_baseline_is_byte_for_byte_what_git_makes(
    cache: BaselineCache, make: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make(FILES)  # made with git, kept
    templated = await make(FILES)
    assert cache.hits == 1
    monkeypatch.setenv("SCOPEWATCH_BASELINE_CACHE", "0")
    by_git = await make(FILES)
    assert cache.hits == 1
    for part in (".git", "remote.git"):
        ours = tree(templated.root / ".git" if part == ".git" else templated.remote, templated.base)
        theirs = tree(by_git.root / ".git" if part == ".git" else by_git.remote, by_git.base)
        assert ours == theirs, part
    assert f"url = {templated.remote}" in (templated.root / ".git" / "config").read_text()
    head = git(templated, "rev-parse", "HEAD", "origin/main").stdout
    assert head == git(by_git, "rev-parse", "HEAD", "origin/main").stdout and head


async def test_a_templated_workspace_is_clean_and_whole_to_git(cache: BaselineCache, make: Make) -> None:
    await make(FILES)
    ws = await make(FILES)
    assert cache.hits == 1
    fsck = git(ws, "fsck", "--strict", "--no-progress")
    assert (fsck.returncode, fsck.stdout + fsck.stderr) == (0, "")
    fsck = git(ws, "fsck", "--strict", "--no-progress", git_dir=ws.remote)
    # The bare origin's HEAD names git's default branch, as when git makes it (only main is pushed).
    assert (fsck.returncode, fsck.stdout + fsck.stderr) == (0, "notice: HEAD points to an unborn branch (master)\n")
    assert git(ws, "diff-files", "--quiet").returncode == 0  # every entry's stat data is the file's
    assert git(ws, "status", "--porcelain").stdout == ""
    assert git(ws, "rev-parse", "--abbrev-ref", "main@{upstream}").stdout.strip() == "origin/main"
    assert sorted(git(ws, "ls-files").stdout.split()) == sorted(FILES)


async def test_a_push_from_a_templated_workspace_lands_in_its_own_origin(cache: BaselineCache, make: Make) -> None:
    first = await make(FILES)
    ws = await make(FILES)
    assert cache.hits == 1
    before = read_state(ws.remote)
    (ws.root / "README.md").write_text("# changed\n")
    assert git(ws, "commit", "-qam", "change").returncode == 0
    pushed = git(ws, "push", "-q", "origin", "main")
    assert pushed.returncode == 0, pushed.stderr
    updates = ref_updates(ws.remote, before)
    assert [u.ref for u in updates] == ["refs/heads/main"]
    assert git(first, "rev-parse", "origin/main").stdout == git(first, "rev-parse", "HEAD").stdout  # untouched


async def test_other_files_never_get_another_content_s_baseline(cache: BaselineCache, make: Make) -> None:
    await make(FILES)
    other = await make({**FILES, "README.md": "# other\n"})
    assert cache.hits == 0
    assert git(other, "show", "HEAD:README.md").stdout == "# other\n"
    assert git(other, "status", "--porcelain").stdout == ""


async def test_an_index_that_does_not_fit_the_files_is_not_restated(cache: BaselineCache, make: Make) -> None:
    ws = await make(FILES)
    index = (ws.root / ".git" / "index").read_bytes()
    assert restat_index(index, ws.root) is not None
    (ws.root / "README.md").write_text("# longer than before\n")
    assert restat_index(index, ws.root) is None
    (ws.root / "README.md").unlink()
    assert restat_index(index, ws.root) is None
    assert restat_index(b"DIRC" + struct.pack(">II", 4, 0) + bytes(40), ws.root) is None  # version 4


async def test_the_cache_keeps_baselines_up_to_its_bytes(make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    small = BaselineCache()
    monkeypatch.setattr(repo, "BASELINES", small)
    await make(FILES)
    (kept,) = small._kept.values()
    small.limit = kept.size * 2
    await make({**FILES, "README.md": "# two\n"})
    await make({**FILES, "README.md": "# three\n"})
    assert len(small._kept) == 2  # the first, least recently used, went
    await make(FILES)
    assert small.hits == 0


@pytest.mark.parametrize("count", [3, 60, 120], ids=["small", "under-the-unpack-limit", "over-it"])
async def test_an_origin_and_a_push_by_hand_leave_what_git_leaves(
    cache: BaselineCache, make: Make, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    """Byte for byte, modes too: the empty origin as git made the process's first, and the push (over
    ``receive.unpackLimit`` objects git keeps a pack, and git pushes)."""
    files = {f"pkg{i % 7}/sub/m{i}.py": f"VALUE = {i}\n" for i in range(count)} | {"README.md": "# r\n"}
    used: dict[str, list[bool]] = {"origin": [], "push": []}

    def spy(name: str, real: Callable[..., bool]) -> Callable[..., bool]:
        def counted(*args: Any) -> bool:
            used[name].append(real(*args))
            return used[name][-1]

        return counted

    await make({"other.txt": "learn the origin from git\n"})
    monkeypatch.setattr(repo, "origin_by_hand", spy("origin", baseline.origin_by_hand))
    monkeypatch.setattr(repo, "push_by_hand", spy("push", baseline.push_by_hand))
    by_hand = await make(files)
    assert used == {"origin": [True], "push": [count < 90]} and cache.hits == 0
    monkeypatch.setenv("SCOPEWATCH_BASELINE_CACHE", "0")  # every baseline with git
    by_git = await make(files)
    assert used == {"origin": [True, False], "push": [count < 90, False]}
    for part in (".git", "remote.git"):
        ours = tree(by_hand.root / ".git" if part == ".git" else by_hand.remote, by_hand.base)
        theirs = tree(by_git.root / ".git" if part == ".git" else by_git.remote, by_git.base)
        assert ours == theirs, part
    assert f"url = {by_hand.remote}\n" in (by_hand.root / ".git" / "config").read_text()
    assert git(by_hand, "status", "--porcelain", "--branch").stdout == "## main...origin/main\n"
    assert git(by_hand, "fsck", "--strict", git_dir=by_hand.remote).returncode == 0


def test_a_push_by_hand_refuses_what_it_does_not_know(tmp_path: Path) -> None:
    """A git folder already packed, or with more than one commit's reflog, is git's to push: nothing written."""
    git_dir, remote = tmp_path / "ws.git", tmp_path / "remote.git"
    for folder in (git_dir / "objects" / "pack", git_dir / "refs" / "heads", git_dir / "logs", remote / "objects"):
        folder.mkdir(parents=True)
    commit = "a" * 40
    (git_dir / "refs" / "heads" / "main").write_text(commit + "\n")
    (git_dir / "logs" / "HEAD").write_text(f"{'0' * 40} {commit} a <a@a> 1 +0000\tcommit (initial): x\n" * 2)
    assert not baseline.push_by_hand(git_dir, remote)
    (git_dir / "logs" / "HEAD").write_text(f"{'0' * 40} {commit} a <a@a> 1 +0000\tcommit (initial): x\n")
    (git_dir / "objects" / "pack" / "pack-1.pack").write_bytes(b"PACK")
    assert not baseline.push_by_hand(git_dir, remote)
    assert list(remote.rglob("*")) == [remote / "objects"]


async def test_the_engines_own_files_never_reach_git_or_origin(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's tmp (the reconciler's copies of big contents) was git's template: git copied it into ``.git`` and
    ``origin``, and a learned origin took it to every later sandbox; a remote with more than git's init makes is not
    learned."""
    for cached in ("1", "0"):
        monkeypatch.setenv("SCOPEWATCH_BASELINE_CACHE", cached)
        ws = Workspace.make()
        try:
            ws.materialise(FILES)
            (ws.tmp / "known").mkdir(parents=True, exist_ok=True)
            (ws.tmp / "known" / "big").write_text("an agent's big file\n")
            await ws.git_baseline()
            for top in (ws.root / ".git", ws.remote):
                assert not [p for p in top.rglob("*") if "known" in p.parts], top
        finally:
            ws.remove()
    ws = Workspace.make()
    try:
        ws.materialise(FILES)
        await ws.git_baseline()
        monkeypatch.setattr(baseline, "ORIGINS", {})
        config = (ws.root / ".git" / "config").read_bytes()
        (ws.remote / "known").mkdir()
        baseline.learn_origin("git", config.split(b'[remote "origin"]')[0], ws.root / ".git", ws.remote)
        assert baseline.ORIGINS == {}
    finally:
        ws.remove()
