"""The one path check: inside the workspace, normalised, symlinks resolved."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox.errors import PathEscape, ScopewatchError
from sandbox.workspace.paths import is_noise, normalise, resolve_inside


@pytest.mark.parametrize(
    ("given", "expected"),
    [("a/b.py", "a/b.py"), ("./a//b.py", "a/b.py"), ("a/x/../b.py", "a/b.py"), ("a/b/", "a/b")],
)
def test_normalise(given: str, expected: str) -> None:
    assert normalise(given) == expected


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("../x", "'..' leads outside"),
        ("a/../../x", "'..' leads outside"),
        ("/etc/passwd", "absolute"),
        ("~/.ssh/id_rsa", "absolute"),
        ("", "not a usable path"),
        (".", "workspace root"),
        (".git/config", ".git"),
        ("a/\0b", "not a usable path"),
    ],
)
def test_escapes_are_refused(tmp_path: Path, given: str, why: str) -> None:
    with pytest.raises(PathEscape, match=why) as info:
        resolve_inside(tmp_path, given)
    assert isinstance(info.value, ScopewatchError)
    assert "\n" not in str(info.value)


def test_symlinks_are_resolved(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "a").mkdir(parents=True)
    (root / "a/real.txt").write_text("x")
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink("real.txt", root / "a/alias.txt")
    os.symlink(outside, root / "a/out")
    os.symlink("../../outside/f", root / "a/rel_out")
    os.symlink(".git", root / "gitlink")
    assert resolve_inside(root, "a/alias.txt") == "a/real.txt"
    assert resolve_inside(root, "a/new.txt") == "a/new.txt"
    for path in ("a/out/x", "a/out", "a/rel_out", "gitlink/config"):
        with pytest.raises(PathEscape):
            resolve_inside(root, path)


def test_noise() -> None:
    assert is_noise(".git/HEAD")
    assert is_noise("a/__pycache__/m.cpython-311.pyc")
    assert is_noise(".pytest_cache/v/x")
    assert not is_noise("a/gitignore.py")
