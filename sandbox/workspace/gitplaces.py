"""Where the git guard (:mod:`sandbox.workspace.gitguard`) looks, found without following a link an agent made.

Every guarded path has a display label (``.git/config``, ``~/.config/git/config``, ``remote.git/hooks/pre-receive``)
and lies under a trusted folder: the work tree, HOME or the ``origin`` remote (:meth:`Trusted.path`). The folders
between are the agent's: any of them may have been replaced by a symbolic link to a host folder (``.git`` to a host
repository, ``~/.config`` to root's). The engine, root on the host, reads and writes a guarded path only when no
folder on its way is a link (:func:`linked`), and a guarded folder that is a link, or no folder at all, is itself
the change to undo (:attr:`GuardedPlaces.folders`): the guard removes it, never follows it, and puts back what it kept
of what was beneath. Trees an agent made (``.git/modules``) are walked iteratively (:func:`files.walk
<sandbox.workspace.files.walk>`): any depth.

Besides config and hooks, the files that move them elsewhere are guarded as config: ``commondir`` (git takes the
config, hooks and refs of the folder it names) in ``.git``, ``remote.git`` and the git folders inside them (a
linked worktree's own ``commondir``, ``../..``, is what ``git worktree add`` writes: it stays).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.workspace.files import walk

REMOTE = "remote.git"
"""The ``origin`` remote, as displayed (its folder's name beside the workspace)."""
_PRUNED = ("objects", "refs", "logs", "hooks")
"""What the walk of ``.git/modules`` does not go into: a git folder's contents that hold no config."""
_PATHS_MAX = 4096
"""Labels whose paths :class:`Trusted` keeps (past it, it starts over)."""


Looks = dict[str, int]
"""The ``lstat`` modes (0: absent) of the entries met in one pass of the guard (a snapshot, the finding of its places):
a folder on the way to many guarded paths is looked at once a pass, not once a path. A pass is one synchronous
run of the engine's; the put-back of what changed looks afresh (it changes what it looks at)."""


def look(path: str, looks: Looks | None) -> int:
    """``path``'s ``lstat`` mode, 0 when absent (from ``looks`` when it was looked at in this pass already)."""
    if looks is not None:
        known = looks.get(path)
        if known is not None:
            return known
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        mode = 0
    if looks is not None:
        looks[path] = mode
    return mode


@dataclass(frozen=True)
class Trusted:
    """The folders the engine made, under which every guarded label lies."""

    root: Path
    home: Path
    remote: Path | None
    _paths: dict[str, Path] = field(default_factory=dict, compare=False, repr=False)
    """Label -> its path, made once (the same labels are looked up a few dozen times a command)."""

    def base(self, label: str, looks: Looks | None = None) -> Path | None:
        """The trusted folder of a label (None: the remote, when there is none or it is not a real folder)."""
        if label.startswith("~/"):
            return self.home
        if label == REMOTE or label.startswith(REMOTE + "/"):
            return self.remote.parent if self.remote is not None and _is_dir(self.remote, looks) else None
        return self.root

    def path(self, label: str) -> Path:
        known = self._paths.get(label)
        if known is not None:
            return known
        if label.startswith("~/"):
            path = self.home / label[2:]
        elif (label == REMOTE or label.startswith(REMOTE + "/")) and self.remote is not None:
            path = self.remote / label[len(REMOTE) + 1 :] if label != REMOTE else self.remote
        else:
            path = self.root / label
        if len(self._paths) >= _PATHS_MAX:
            self._paths.clear()
        self._paths[label] = path
        return path

    def safe(self, label: str, looks: Looks | None = None) -> Path | None:
        """The path of ``label`` when no folder on its way from its trusted folder is a link (else None)."""
        base = self.base(label, looks)
        path = self.path(label)
        return path if base is not None and linked(base, path, looks) is None else None


@dataclass
class GuardedPlaces:
    """The guarded folders of hooks, config files and folders that are links, by label, at one moment."""

    hooks: dict[str, Path] = field(default_factory=dict)
    configs: dict[str, Path] = field(default_factory=dict)
    folders: dict[str, Path] = field(default_factory=dict)
    """Guarded folders that are a link or no folder now: removed by the guard (see the module)."""


def _is_dir(path: Path | str, looks: Looks | None = None) -> bool:
    return stat.S_ISDIR(look(os.fspath(path), looks))


def _lexists(path: Path | str, looks: Looks | None) -> bool:
    return look(os.fspath(path), looks) != 0


def linked(base: Path, path: Path, looks: Looks | None = None) -> Path | None:
    """The first entry strictly between ``base`` and ``path`` that is there but is no real folder (a symbolic link,
    a file), else None (an absent one: nothing beneath it to follow)."""
    top, full = os.fspath(base), os.fspath(path)
    if not full.startswith(top + "/"):  # not beneath it (ValueError), or base itself: nothing between
        parts = path.relative_to(base).parts[:-1]
    else:
        parts = tuple(full[len(top) + 1 :].split("/")[:-1])
    here = top
    for part in parts:
        here = f"{here}/{part}"
        mode = look(here, looks)
        if not mode:
            return None
        if not stat.S_ISDIR(mode):
            return Path(here)
    return None


def is_redirect(label: str) -> bool:
    """A ``commondir`` file: it moves a git folder's config and hooks to the folder it names."""
    return label.endswith("/commondir")


def redirect(label: str, data: bytes | None) -> bytes | None:
    """What a ``commondir`` file redirects to, None for none (absent, or a linked worktree's ``../..``)."""
    if data is None:
        return None
    parts = label.split("/")
    if len(parts) >= 4 and parts[-4:-2] == [".git", "worktrees"] and data.strip() == b"../..":
        return None
    return data


def find(
    trusted: Trusted,
    fixed_hooks: Sequence[str],
    fixed_folders: Sequence[str],
    gits: Sequence[str],
    looks: Looks | None = None,
) -> GuardedPlaces:
    """The guarded places now: the ``fixed`` ones (hooks folders, folders that must be real) and those in the git
    folders of ``.git`` and of the repositories nested in the work tree (``gits``: absolute paths of ``DIR/.git``,
    as the reconciler's last whole scan met them). ``looks``: this pass's (see :data:`Looks`)."""
    places = GuardedPlaces()
    root = trusted.root
    for label in (*fixed_folders, *fixed_hooks):
        path = trusted.safe(label, looks)
        if path is not None and _lexists(path, looks) and not _is_dir(path, looks):
            places.folders[label] = path
    places.hooks.update((label, trusted.path(label)) for label in fixed_hooks)
    tops: list[tuple[str, Path]] = [(".git", root / ".git")]
    for found in gits:
        git = Path(found)
        label = git.relative_to(root).as_posix()
        if linked(root, git, looks) is not None:
            continue  # a folder on its way is a link now: the scan never went through it
        if not _is_dir(git, looks):
            places.configs[label] = git  # a gitfile or a link: its git folder elsewhere, out of sight
            continue
        tops.append((label, git))
        places.hooks[f"{label}/hooks"] = git / "hooks"
        for name in ("config", "config.worktree", "commondir"):
            places.configs[f"{label}/{name}"] = git / name
    for label, git in tops:
        if not _is_dir(git, looks) or linked(root, git, looks) is not None:
            continue
        _inside(root, label, git, places, looks)
    for label, path in list(places.hooks.items()):
        if label not in fixed_hooks and _lexists(path, looks) and not _is_dir(path, looks):
            places.folders[label] = path
    return places


def _inside(root: Path, label: str, git: Path, places: GuardedPlaces, looks: Looks | None) -> None:
    """The submodules' (``modules/...``) and linked worktrees' (``worktrees/NAME``) git folders of ``git``."""
    for sub in ("modules", "worktrees"):
        if _lexists(git / sub, looks) and not _is_dir(git / sub, looks):
            places.folders[f"{label}/{sub}"] = git / sub
    if _is_dir(git / "modules", looks):
        for dirpath, dirnames, others in walk(git / "modules"):
            here = Path(dirpath)
            for name in others:
                if os.path.islink(here / name):  # git makes no link there: a folder of a submodule's, moved away
                    places.folders[(here / name).relative_to(root).as_posix()] = here / name
            if "config" in others or "hooks" in dirnames or "hooks" in others:
                at = here.relative_to(root).as_posix()
                places.hooks[f"{at}/hooks"] = here / "hooks"
                places.configs[f"{at}/config"] = here / "config"
                places.configs[f"{at}/commondir"] = here / "commondir"
            dirnames[:] = [d for d in dirnames if d not in _PRUNED]
    if _is_dir(git / "worktrees", looks):
        try:
            entries = sorted(os.scandir(git / "worktrees"), key=lambda e: e.name)
        except OSError:
            entries = []
        for entry in entries:
            at = f"{label}/worktrees/{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                places.configs[f"{at}/config.worktree"] = Path(entry.path) / "config.worktree"
                places.configs[f"{at}/commondir"] = Path(entry.path) / "commondir"
            elif entry.is_symlink():
                places.folders[at] = Path(entry.path)
