"""The workspace scan (sandbox/workspace/repo.py ``scan``) and the bytecode sweep's search (``outside.py``): the
same paths, keys and order as a walk with the one rule, on a tree holding what agents make."""

from __future__ import annotations

import os
from pathlib import Path

from sandbox.workspace.files import walk
from sandbox.workspace.outside import _bytecode, is_bytecode
from sandbox.workspace.paths import NOISE_DIRS, is_noise
from sandbox.workspace.repo import scan, stat_key


def _by_walk(root: Path) -> dict[str, tuple[int, int, int, int, int]]:
    """The scan as it was written before (a walk, then is_noise on every path)."""
    found = {}
    top = os.fspath(root)
    for dirpath, dirnames, filenames in walk(top):
        prefix = "" if dirpath == top else dirpath[len(top) + 1 :].replace(os.sep, "/") + "/"
        dirnames[:] = [d for d in dirnames if d not in NOISE_DIRS]
        for name in filenames:
            if not is_noise(prefix + name):
                found[prefix + name] = stat_key(os.lstat(os.path.join(dirpath, name)))
    return found


def test_the_scan_is_the_walk_with_the_noise_rule(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    for rel in ("a.py", "src/b.py", "src/deep/c/d/e.txt", "x.pyc/inside.py", "src/__pycache__/m.pyc", "n.pyc"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    (root / ".git" / "objects").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: main\n")
    (root / "sub" / ".git").mkdir(parents=True)  # a nested repository's state: noise too
    (root / "sub" / "f.txt").write_text("f")
    (root / "gitfile").mkdir()
    (root / "gitfile" / ".git").write_text("gitdir: elsewhere\n")  # a file named .git: noise
    (root / "to-src").symlink_to("src")  # a folder symlink: an entry, never followed
    (root / "dangling").symlink_to("nowhere")
    os.mkfifo(root / "pipe")
    (root / os.fsdecode(b"caf\xe9.txt")).write_text("not UTF-8")
    (root / "empty").mkdir()
    got = scan(root)
    assert got == _by_walk(root) and list(got) == list(_by_walk(root))  # same keys, same order
    assert {"a.py", "x.pyc/inside.py", "to-src", "dangling", "pipe", "sub/f.txt"} <= set(got)
    assert not {p for p in got if ".git" in p.split("/") or p.endswith(".pyc") or p.startswith("to-src/")}


def _bytecode_by_walk(root: Path) -> list[str]:
    """The bytecode sweep's search as it was written before (a walk, then is_bytecode on every path)."""
    found: list[str] = []
    top = os.fspath(root)
    for dirpath, dirnames, filenames in walk(top):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        prefix = "" if dirpath == top else dirpath[len(top) + 1 :].replace(os.sep, "/") + "/"
        links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        found += [prefix + name for name in filenames + links if is_bytecode(prefix + name)]
    return sorted(found)


def test_the_bytecode_search_is_the_walk_with_the_bytecode_rule(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    names = (
        "a.py", "a.pyc", "b.pyo", "src/__pycache__/m.cpython-311.pyc", "src/__pycache__/notes.txt",
        "src/__pycache__/deeper/x", "x.pyc/inside.py", "x.pyc/inside.pyc", ".pytest_cache/v/cache/lastfailed",
        ".mypy_cache/3.11/m.data.json", "sub/.git/objects/ab.pyc", ".git/hooks/pre-commit.pyc", "deep/a/b/c/d.pyo",
        "__pycache__/top.pyc", "plain/__pycache__x.py", "plain/file__pycache__",
    )  # fmt: skip
    for rel in names:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    (root / "file-named").mkdir()
    (root / "file-named" / "__pycache__").write_text("a file, not a folder")
    (root / "link.pyc").symlink_to("src")  # a folder symlink: an entry, never followed
    (root / "src" / "__pycache__" / "dangling").symlink_to("nowhere")
    os.mkfifo(root / "src" / "__pycache__" / "pipe")
    found = _bytecode(root)
    assert found == _bytecode_by_walk(root)
    assert "src/__pycache__/deeper/x" in found and "file-named/__pycache__" in found and "link.pyc" in found
    assert not any(p.startswith(".git/") or "/.git/" in p for p in found)
