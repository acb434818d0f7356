"""A folder kept equal to a tree of entries (path -> bytes, as :mod:`sandbox.workspace.snapshot` has them) by
writing only what changed since the last tree: the warm test runner's workspace (:mod:`sandbox.testing.warm`).

Tests may write to their workspace, and nothing a run does may reach the next one, so every
:meth:`Mirror.sync` first checks that the folder still holds exactly what was written last: the same
paths (no file or folder added or removed), each file's bytes and mode as written, each symlink's
target. Anything else, and the folder is emptied and written again in full: what the next run sees
is the tree, as a fresh copy would be.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

from sandbox.workspace.diffs import LINK_MARK
from sandbox.workspace.entries import put_copy, put_entry, read_entry
from sandbox.workspace.files import read_regular, remove_tree, walk
from sandbox.workspace.spill import is_spilled, same, size_of


def _folders(paths: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for rel in paths:
        found.update(str(parent) for parent in PurePosixPath(rel).parents if str(parent) != ".")
    return found


class Mirror:
    """``root`` holding a tree; :meth:`sync` returns the paths it (re)wrote."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._tree: dict[str, bytes] = {}
        self._modes: dict[str, int] = {}
        self._dirs: set[str] = set()
        self._trusted = False
        self.full_writes = 0
        """How many times the folder was written in full (first use, or a run changed it)."""

    def sync(self, tree: Mapping[str, bytes]) -> list[str]:
        """Make the folder hold exactly ``tree``; the paths written (all of them after a reset)."""
        if not (self._trusted and self._intact()):
            self._reset()
        written: list[str] = []
        try:
            for rel in sorted(set(self._tree) - set(tree), reverse=True):
                put_entry(self.root / rel, None)
                self._modes.pop(rel, None)
            wanted = _folders(tree)
            for rel in sorted(self._dirs - wanted, key=len, reverse=True):
                remove_tree(self.root / rel)
            for rel, data in tree.items():
                if self._tree.get(rel) != data or rel not in self._modes:
                    put_copy(self.root / rel, data)
                    self._modes[rel] = os.lstat(self.root / rel).st_mode
                    written.append(rel)
        except OSError:
            self._trusted = False
            raise
        self._tree = dict(tree)
        self._dirs = wanted
        self._trusted = True
        return written

    def _reset(self) -> None:
        remove_tree(self.root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._tree, self._modes, self._dirs = {}, {}, set()
        self.full_writes += 1

    def _intact(self) -> bool:
        """The folder holds exactly what was last written (paths, bytes, modes, link targets)."""
        files: set[str] = set()
        dirs: set[str] = set()
        for dirpath, dirnames, filenames in walk(self.root):
            rel_dir = os.path.relpath(dirpath, self.root)
            prefix = "" if rel_dir == "." else rel_dir + "/"
            for name in dirnames:
                if os.path.islink(os.path.join(dirpath, name)):
                    files.add(prefix + name)
                else:
                    dirs.add(prefix + name)
            files.update(prefix + name for name in filenames)
        if files != set(self._tree) or dirs != self._dirs:
            return False
        for rel, data in self._tree.items():
            path = self.root / rel
            try:
                st = os.lstat(path)
            except OSError:
                return False
            if st.st_mode != self._modes.get(rel):
                return False
            if data.startswith(LINK_MARK) or not stat.S_ISREG(st.st_mode):
                if read_entry(path) != data:
                    return False
                continue
            if is_spilled(data):  # compared by size and hash, not read back (sandbox.workspace.spill)
                if st.st_size != size_of(data) or not same(read_regular(path), data):
                    return False
                continue
            if st.st_size != len(data) or read_regular(path) != data:
                return False
        return True
