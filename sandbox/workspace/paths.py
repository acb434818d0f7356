"""One path check for the whole sandbox: is this path inside the workspace, and what is its
normalised name. Also the one definition of which paths are noise (tool caches, ``.git``) that
neither the watcher nor the reconciler treat as workspace files."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from sandbox.errors import PathEscape

NOISE_DIRS = frozenset({".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
"""Folders that are not workspace content: git's own state and caches tools write as a side effect."""
NOISE_SUFFIXES = (".pyc", ".pyo")


def is_noise(rel: str) -> bool:
    """True for a workspace-relative posix path that is git state or a tool cache."""
    parts = rel.split("/")
    return any(part in NOISE_DIRS for part in parts) or rel.endswith(NOISE_SUFFIXES)


def normalise(path: str) -> str:
    """The lexical normal form of a workspace-relative path (``a/./b/../c`` -> ``a/c``); raises
    :class:`PathEscape` for empty, absolute, home-relative and ``..``-escaping paths, and for paths
    inside ``.git``. Does not touch the disk."""
    if not isinstance(path, str) or not path.strip() or "\0" in path:
        raise PathEscape(f"{path!r}: not a usable path", path=str(path))
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise PathEscape(f"{path!r}: not a usable path (not valid UTF-8)", path=path) from None
    if path.startswith(("/", "~")) or PurePosixPath(path).is_absolute():
        raise PathEscape(f"{path}: absolute paths are outside the workspace", path=path)
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise PathEscape(f"{path}: '..' leads outside the workspace", path=path)
            parts.pop()
        else:
            parts.append(part)
    if not parts:
        raise PathEscape(f"{path}: names the workspace root, not a file", path=path)
    if parts[0] == ".git":
        raise PathEscape(f"{path}: .git is not part of the workspace files", path=path)
    return "/".join(parts)


def resolve_inside(root: str | os.PathLike[str], path: str) -> str:
    """The normalised posix path of ``path`` relative to the workspace ``root``, with symlinks
    resolved, so that ownership is checked on the file that would really be touched.

    Raises :class:`PathEscape` for ``..`` escapes, absolute paths, paths into ``.git`` and symlinks
    pointing outside the workspace."""
    rel = normalise(path)
    root_real = os.path.realpath(root)
    real = os.path.realpath(os.path.join(root_real, rel))
    if real == root_real or not real.startswith(root_real + os.sep):
        raise PathEscape(f"{path}: a symlink leads outside the workspace", path=path)
    resolved = Path(real).relative_to(root_real).as_posix()
    if resolved.split("/")[0] == ".git":
        raise PathEscape(f"{path}: a symlink leads into .git", path=path)
    return resolved
