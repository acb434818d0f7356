"""``.git`` owned like files: git's hooks and the git config that runs programs belong to no team.

A hook or a config entry that names a program is code that runs in *another* agent's git: a
requester's ``.git/hooks/post-commit`` or ``core.fsmonitor`` would run at the owner's next
``git commit`` / ``git status`` and change files as the owner. So every shell command's changes to

- ``.git/hooks/`` and the ``origin`` remote's ``hooks/`` (any file added, changed or removed; the folder
  replaced by a symlink: a remote's ``pre-receive`` runs in the git of whoever pushes next), and
- the entries that run programs (:data:`RUNS_PROGRAMS`: ``core.fsmonitor``, ``core.hooksPath``,
  ``core.sshCommand``, editors and pagers, diff/merge drivers, ``filter.*`` clean/smudge,
  credential helpers, ``alias.*`` that start with ``!``, includes, ``protocol.*.allow``, a remote URL of the
  form ``ext::COMMAND``: :mod:`sandbox.workspace.gitconfig`) of the workspace's ``.git/config`` and
  ``.git/config.worktree`` (read once ``extensions.worktreeConfig`` is on), the remote's ``config`` and
  the shared HOME's ``~/.gitconfig`` / ``~/.config/git/config``; and the same in the git folders of submodules
  and linked worktrees inside ``.git`` (``.git/modules/NAME``, ``.git/worktrees/NAME``), and in every
  repository nested in the work tree (``DIR/.git``, as the reconciler's last whole scan met it: its config,
  hooks, submodules and worktrees; ``*.sample`` hooks, which git never runs, left out). A nested repository
  added to the index is a submodule: the next ``git status`` of *any* agent runs git in it, with its config.
  A ``DIR/.git`` that is a gitfile or a link (its git folder elsewhere, out of the guard's sight) is removed;
- the ``commondir`` files of those git folders (git takes config and hooks from the folder one names), and
- the folders on the way (``.git``, ``~/.config``, ``.git/worktrees/NAME``, ...) replaced by a link or a file:
  the guard runs as the engine's user (root on the host) and never reads or writes through a link an agent made
  (:mod:`sandbox.workspace.gitplaces`); the link is removed and what the guard kept beneath it put back whole

are rolled back when the command ends, before any other agent's command can run them, and reported
as ``WriteRefused`` (``rolled_back``): a config file in which such an entry changed is put back
whole, as is one whose bytes changed and that is now a hard link (another name of its inode: a work-tree
file, ``ln -f services/payments/config.py .git/config``, red team 4 finding 14: it is that file's content,
not git's, and the git of every agent read it). Other config changes (``user.name``, a branch's upstream,
a push refspec) stay: they run nothing. The engine reads config with ``git config --file`` (a reader: it
runs nothing either), and only for a file whose bytes changed.

A hook that stays (one made by an actor no team guards: the engine, a reviewer, a person) has an author
(:attr:`GitGuard.authors`): what it writes when another agent's git runs it is its author's change.

A change the ownership guard rolled back on disk is undone in the history too (:meth:`GitGuard.unmake`):
when the command moved ``HEAD`` (a commit of the non-owned change), the commit is amended by the
engine to hold the rolled-back paths as they are on disk now, so the other agents' ``git checkout --
FILE`` or ``git diff HEAD`` never bring the change back as their own. That git reads none of the
repository's config (:mod:`sandbox.workspace.cleangit`): what an agent configured runs in agents' git only.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sandbox.workspace import beneath
from sandbox.workspace.cleangit import run_git
from sandbox.workspace.diffs import unified_diff
from sandbox.workspace.entries import put_entry
from sandbox.workspace.files import read_regular, walk
from sandbox.workspace.gitconfig import RUNS_PROGRAMS, aliases, programs
from sandbox.workspace.gitplaces import REMOTE, GuardedPlaces, Looks, Trusted, find, is_redirect, look, redirect
from sandbox.workspace.remote import read_ref
from sandbox.workspace.settled import EntryCache

_HOOKS = ".git/hooks"
"""The workspace's hooks, as displayed (and as :data:`sandbox.commands.hooks.HOOKS` names them)."""
_REMOTE = REMOTE
HOOK_FOLDERS = (_HOOKS, f"{_REMOTE}/hooks")
"""The guarded folders of hooks, as :class:`GitUndo` and ``WriteRefused`` name them."""
CONFIG_FILES = (
    ".git/config", ".git/config.worktree", ".git/commondir", "~/.gitconfig", "~/.config/git/config",
    f"{_REMOTE}/config", f"{_REMOTE}/commondir",
)
"""The guarded config files (and ``commondir``, which moves config and hooks elsewhere), as :class:`GitUndo` and
``WriteRefused`` name them."""
_GLOBAL, _XDG = "~/.gitconfig", "~/.config/git/config"
FOLDERS = (".git", ".git/hooks", "~/.config", "~/.config/git", f"{_REMOTE}/hooks")
"""Guarded folders on the way to the guarded files: one that is a link (or no folder) is removed, never followed."""
_NESTED = re.compile(
    r"^(?:(?P<dir>.+)/)?\.git(?:/(?P<hooks>hooks)(?:/.*)?|/modules/.+/(?P<modhooks>hooks)(?:/.*)?"
    r"|/modules/.+/(config|commondir)|/worktrees/[^/]+(/config\.worktree|/commondir)?|/modules"
    r"|/(?P<own>config|config\.worktree|commondir)|(?P<file>))$"
)
"""The git folders inside a ``.git`` of its submodules (``.git/modules/NAME``) and linked worktrees
(``.git/worktrees/NAME``), and a repository nested in the work tree (``DIR/.git``, its ``config`` and ``hooks``;
``DIR/.git`` itself when it is no folder): their config and hooks run in the git of whoever works in them next."""


def guarded_kind(path: str) -> str | None:
    """``git_hooks`` or ``git_config`` for a path the guard names (a ``WriteRefused`` it made), else None."""
    if any(path == f or path.startswith(f + "/") for f in HOOK_FOLDERS):
        return "git_hooks"
    if path in CONFIG_FILES or path in FOLDERS:
        return "git_config"
    nested = _NESTED.match(path)
    if nested is None or (nested.group("dir") is None and (nested.group("hooks") or nested.group("own") or
                                                           nested.group("file") is not None)):
        return None  # the work tree's own .git/hooks and configs are named above
    return "git_hooks" if nested.group("hooks") or nested.group("modhooks") else "git_config"


__all__ = [
    "CONFIG_FILES", "HOOK_FOLDERS", "LINKED", "REASON", "RUNS_PROGRAMS", "GitGuard", "GitState", "GitUndo",
    "guarded_kind",
]  # fmt: skip

REASON = "git hooks and git config that runs programs belong to no team: it would run in another agent's git"
LINKED = "a git config file is git's, not a hard link to another file: every agent's git reads it"


@dataclass(frozen=True)
class GitState:
    """What the guard keeps of one moment: each hook's entry, each guarded config file's bytes."""

    hooks: dict[str, bytes | None]
    configs: dict[str, bytes | None]


@dataclass(frozen=True)
class GitUndo:
    """One change put back: its display path, the undone diff, and why."""

    path: str
    diff: str
    reason: str = REASON


class GitGuard:
    """Guards the hooks and the program-running config of one workspace (``root``) and its ``home``."""

    def __init__(
        self, root: Path, home: Path, remote: Path | None = None, nested: Callable[[], Sequence[str]] = tuple
    ) -> None:
        self.hooks = root / ".git" / "hooks"
        self._nested_gits = nested
        """The ``.git`` entries nested in the work tree (absolute paths), as the last whole scan met them."""
        self._trusted = Trusted(root, home, remote)
        self.hook_dirs = [_HOOKS] if remote is None else list(HOOK_FOLDERS)
        """The fixed folders of hooks guarded: the workspace's, and the ``origin`` remote's (its ``pre-receive``
        runs in the git of whoever pushes next)."""
        self.configs = [c for c in CONFIG_FILES if remote is not None or not c.startswith(_REMOTE)]
        self._folders = [f for f in FOLDERS if remote is not None or not f.startswith(_REMOTE)]
        self.authors: dict[str, str] = {}
        """Hook (its path under ``.git/hooks``) -> the actor whose command or write made it as it is."""
        self._reads = EntryCache()
        """The hooks and configs, read again only when changed (:mod:`sandbox.workspace.settled`)."""

    def note_authors(self, before: GitState, actor: str) -> None:
        """``actor`` made every workspace hook that changed since ``before`` (kept: a guarded command's are undone)."""
        now = self.snapshot()
        for key in set(before.hooks) | set(now.hooks):
            if not key.startswith(_HOOKS + "/") or before.hooks.get(key) == now.hooks.get(key):
                continue
            rel = key[len(_HOOKS) + 1 :]
            if now.hooks.get(key) is None:
                self.authors.pop(rel, None)
            else:
                self.authors[rel] = actor

    def head(self) -> str:
        """The commit ``HEAD`` names now ("" when none), read from the files."""
        git = self.hooks.parent
        if self._trusted.safe(".git/HEAD") is None:
            return ""  # .git is a link: never read through
        data = read_regular(git / "HEAD")
        text = "" if data is None else data.decode("utf-8", "replace").strip()
        if not text.startswith("ref: "):
            return text
        return read_ref(git, text[len("ref: ") :])

    def unmake(self, head_before: str, paths: list[str], uid: int | None = None) -> bool:
        """Amend the commit the command made so that ``paths`` (workspace-relative, already put back on
        disk) are in ``HEAD`` as on disk; False when ``HEAD`` did not move or git refused. The engine's git
        reads none of the repository's config or hooks, and runs as ``uid`` (the jail's) when given
        (:mod:`sandbox.workspace.cleangit`)."""
        if not paths or self.head() in ("", head_before):
            return False
        git_dir = self.hooks.parent
        for args in (
            ["add", "-A", "--", *paths],
            ["commit", "-q", "--amend", "--no-verify", "--allow-empty", "-C", "HEAD"],
        ):
            done = run_git(git_dir, args, work_tree=git_dir.parent, uid=uid)
            if done is None or done.returncode != 0:
                return False
        return True

    def _places(self, looks: Looks | None = None) -> GuardedPlaces:
        """Every guarded place now (:mod:`sandbox.workspace.gitplaces`)."""
        places = find(self._trusted, self.hook_dirs, self._folders, self._nested_gits(), looks)
        places.configs.update((label, self._trusted.path(label)) for label in self.configs)
        return places

    def _read(self, label: str, looks: Looks | None = None) -> bytes | None:
        """A guarded entry's bytes; None when absent or when a folder on its way is a link (never read through)."""
        path = self._trusted.safe(label, looks)
        return None if path is None else self._reads.read(path)

    def snapshot(self, places: GuardedPlaces | None = None, looks: Looks | None = None) -> GitState:
        # One pass: each folder on the way to the guarded paths looked at once (gitplaces.Looks).
        looks = {} if looks is None else looks
        places = places or self._places(looks)
        hooks: dict[str, bytes | None] = {}
        for label in places.hooks:
            folder = self._trusted.safe(label, looks)
            if label in places.folders or folder is None or not stat.S_ISDIR(look(os.fspath(folder), looks)):
                continue  # (a link to a folder is no folder here: never followed)
            samples = label not in self.hook_dirs and not label.startswith(".git/")  # a nested repository's
            top = os.fspath(folder)
            for dirpath, _, others in walk(top):
                rel = dirpath[len(top) + 1 :] + "/" if dirpath != top else ""
                for name in others:
                    if samples and name.endswith(".sample"):
                        continue  # what git init puts there; git never runs it
                    key = f"{label}/{rel}{name}"
                    hooks[key] = self._read(key, looks) or b""
        configs = {label: self._read(label, looks) for label in places.configs}
        return GitState(hooks, configs)

    def alias_views(self, before: GitState) -> list[dict[str, str]]:
        """The aliases (name -> value) git may have read in a command that started at ``before``: for the config files
        as they were then and as they are now, one view per repository (the work tree's ``.git/config`` and
        ``config.worktree``, each nested or submodule one's config), HOME's (``~/.config/git/config``, then
        ``~/.gitconfig``) under it as in git, and HOME's alone (git run outside a repository)."""
        views: list[dict[str, str]] = []
        for configs in (before.configs, self.snapshot().configs):
            home = {**aliases(configs.get(_XDG)), **aliases(configs.get(_GLOBAL))}
            views.append(home)
            repos: dict[str, dict[str, str]] = {}
            for label, data in sorted(configs.items()):
                if label.startswith(("~/", _REMOTE)) or not label.endswith(("/config", "/config.worktree")):
                    continue
                repo = label.rsplit("/", 1)[0]
                repos[repo] = {**repos.get(repo, home), **aliases(data)}
            views.extend(repos.values())
        return views

    def undo(self, before: GitState) -> list[GitUndo]:
        """Put back what changed since ``before`` (see the module), and say what it was."""
        undone: list[GitUndo] = []
        looks: Looks = {}
        places = self._places(looks)
        removed: set[str] = set()
        for _ in range(16):  # links first: what was beneath them is read and put back only once they are gone
            folders = sorted(places.folders.items())
            links = [(lb, p) for lb, p in folders if lb not in removed and self._trusted.safe(lb, looks)]
            if not links:
                break
            for label, link in links:
                _remove(self._trusted, label, link)  # a link or a file: removed, never followed
                removed.add(label)
                undone.append(GitUndo(label, ""))
            looks = {}  # what was removed is looked at afresh
            places = self._places(looks)
        cut = tuple(u.path + "/" for u in undone)
        now = self.snapshot(places, looks)
        # The put-back looks afresh at each path (no pass's looks): what it puts back changes the folders on the way.
        for key in sorted(set(before.hooks) | set(now.hooks)):
            old, new = before.hooks.get(key), now.hooks.get(key)
            if old == new:
                continue
            path: Path | None = self._trusted.safe(key)
            base = self._trusted.base(key)
            if path is not None and base is not None:
                put_entry(path, old, root=base)
                if old is not None and not path.is_symlink():
                    beneath.chmod(base, path.relative_to(base).as_posix(), 0o755)
                undone.append(GitUndo(key, unified_diff(key, old, new)))
        for label in sorted(set(before.configs) | set(now.configs)):
            old, new = before.configs.get(label), now.configs.get(label)
            if old == new:
                continue
            path, base = self._trusted.safe(label), self._trusted.base(label)
            linked = path is not None and _linked(path)
            if path is not None and base is not None and (label.startswith(cut) or _changed(label, old, new) or linked):
                put_entry(path, old, root=base)
                undone.append(GitUndo(label, unified_diff(label, old, new), LINKED if linked else REASON))
        return undone


def _linked(path: Path) -> bool:
    """Whether ``path`` is a file with another name (a hard link)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_nlink > 1


def _changed(label: str, old: bytes | None, new: bytes | None) -> bool:
    """Whether a guarded file's change is one to undo: what a ``commondir`` redirects to, a nested ``DIR/.git``
    that is no folder (any change), a config's program-running entries."""
    if is_redirect(label):
        return redirect(label, old) != redirect(label, new)
    if label == ".git" or label.endswith("/.git"):
        return True
    return programs(old) != programs(new)


def _remove(trusted: Trusted, label: str, path: Path) -> None:
    """Remove ``label``'s entry beneath its trusted folder, no symlink on the way followed."""
    base = trusted.base(label)
    if base is not None:
        beneath.remove(base, path.relative_to(base).as_posix())
