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
  A ``DIR/.git`` that is a gitfile or a link (its git folder elsewhere, out of the guard's sight) is removed.

are rolled back when the command ends, before any other agent's command can run them, and reported
as ``WriteRefused`` (``rolled_back``): a config file in which such an entry changed is put back
whole. Other config changes (``user.name``, a branch's upstream, a push refspec) stay: they run
nothing. The engine reads config with ``git config --file`` (a reader: it
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
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sandbox.workspace.cleangit import run_git
from sandbox.workspace.diffs import unified_diff
from sandbox.workspace.gitconfig import RUNS_PROGRAMS, programs
from sandbox.workspace.remote import read_ref
from sandbox.workspace.repo import put_entry
from sandbox.workspace.settled import EntryCache

_HOOKS = ".git/hooks"
"""The workspace's hooks, as displayed (and as :data:`sandbox.commands.hooks.HOOKS` names them)."""
_REMOTE = "remote.git"
"""The ``origin`` remote, as displayed (its folder's name beside the workspace)."""
HOOK_FOLDERS = (_HOOKS, f"{_REMOTE}/hooks")
"""The guarded folders of hooks, as :class:`GitUndo` and ``WriteRefused`` name them."""
CONFIG_FILES = (".git/config", ".git/config.worktree", "~/.gitconfig", "~/.config/git/config", f"{_REMOTE}/config")
"""The guarded config files, as :class:`GitUndo` and ``WriteRefused`` name them."""
_NESTED = re.compile(
    r"^(?:(?P<dir>.+)/)?\.git(?:/(?P<hooks>hooks)(?:/.*)?|/modules/.+/(?P<modhooks>hooks)(?:/.*)?"
    r"|/modules/.+/config|/worktrees/[^/]+/config\.worktree|/(?P<own>config|config\.worktree)|(?P<file>))$"
)
"""The git folders inside a ``.git`` of its submodules (``.git/modules/NAME``) and linked worktrees
(``.git/worktrees/NAME``), and a repository nested in the work tree (``DIR/.git``, its ``config`` and ``hooks``;
``DIR/.git`` itself when it is no folder): their config and hooks run in the git of whoever works in them next."""


def guarded_kind(path: str) -> str | None:
    """``git_hooks`` or ``git_config`` for a path the guard names (a ``WriteRefused`` it made), else None."""
    if any(path == f or path.startswith(f + "/") for f in HOOK_FOLDERS):
        return "git_hooks"
    if path in CONFIG_FILES:
        return "git_config"
    nested = _NESTED.match(path)
    if nested is None or (nested.group("dir") is None and (nested.group("hooks") or nested.group("own") or
                                                           nested.group("file") is not None)):
        return None  # the work tree's own .git/hooks and configs are named above
    return "git_hooks" if nested.group("hooks") or nested.group("modhooks") else "git_config"


__all__ = ["CONFIG_FILES", "HOOK_FOLDERS", "REASON", "RUNS_PROGRAMS", "GitGuard", "GitState", "GitUndo", "guarded_kind"]

REASON = "git hooks and git config that runs programs belong to no team: it would run in another agent's git"


@dataclass(frozen=True)
class GitState:
    """What the guard keeps of one moment: each hook's entry, each guarded config file's bytes."""

    hooks: dict[str, bytes | None]
    configs: dict[str, bytes | None]


@dataclass(frozen=True)
class GitUndo:
    """One change put back: its display path and the undone diff."""

    path: str
    diff: str


class GitGuard:
    """Guards the hooks and the program-running config of one workspace (``root``) and its ``home``."""

    def __init__(
        self, root: Path, home: Path, remote: Path | None = None, nested: Callable[[], Sequence[str]] = tuple
    ) -> None:
        self.hooks = root / ".git" / "hooks"
        self._nested_gits = nested
        """The ``.git`` entries nested in the work tree (absolute paths), as the last whole scan met them."""
        self.hook_dirs = {_HOOKS: self.hooks}
        """Display label -> a folder of hooks guarded: the workspace's, and the ``origin`` remote's (its
        ``pre-receive`` runs in the git of whoever pushes next)."""
        self.configs = {
            ".git/config": root / ".git" / "config",
            ".git/config.worktree": root / ".git" / "config.worktree",
            "~/.gitconfig": home / ".gitconfig",
            "~/.config/git/config": home / ".config" / "git" / "config",
        }
        if remote is not None:
            self.hook_dirs[HOOK_FOLDERS[1]] = remote / "hooks"
            self.configs[CONFIG_FILES[-1]] = remote / "config"
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
        try:
            text = (git / "HEAD").read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            return ""
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

    def _nested(self) -> tuple[dict[str, Path], dict[str, Path]]:
        """The hooks folders and config files of the submodules' and linked worktrees' git folders in ``.git``,
        and of the repositories nested in the work tree (see the module)."""
        top = self.hooks.parent
        root, hooks, configs = top.parent, {}, {}
        gits = [top]
        for found in self._nested_gits():
            git = Path(found)
            label = git.relative_to(root).as_posix()
            if git.is_symlink() or not git.is_dir():
                configs[label] = git  # a gitfile or a link: removed when it appears (no config reads as it)
                continue
            gits.append(git)
            hooks[f"{label}/hooks"] = git / "hooks"
            for name in ("config", "config.worktree"):
                configs[f"{label}/{name}"] = git / name
        for git in gits:
            modules, worktrees = git / "modules", git / "worktrees"
            if modules.is_dir() and not modules.is_symlink():
                for dirpath, dirnames, _ in os.walk(modules):
                    here = Path(dirpath)
                    if (here / "config").exists() or (here / "hooks").exists():
                        label = here.relative_to(root).as_posix()
                        hooks[f"{label}/hooks"], configs[f"{label}/config"] = here / "hooks", here / "config"
                    dirnames[:] = [d for d in dirnames if d not in ("objects", "refs", "logs", "hooks")]
            if worktrees.is_dir() and not worktrees.is_symlink():
                for entry in sorted(worktrees.iterdir()):
                    configs[entry.relative_to(root).as_posix() + "/config.worktree"] = entry / "config.worktree"
        return hooks, configs

    def snapshot(self) -> GitState:
        nested_hooks, nested_configs = self._nested()
        hooks: dict[str, bytes | None] = {}
        for label, folder in {**self.hook_dirs, **nested_hooks}.items():
            if folder.is_dir() and not folder.is_symlink():
                samples = label not in self.hook_dirs and not label.startswith(".git/")  # a nested repository's
                for dirpath, dirnames, filenames in os.walk(folder):
                    for name in [*filenames, *(d for d in dirnames if os.path.islink(os.path.join(dirpath, d)))]:
                        if samples and name.endswith(".sample"):
                            continue  # what git init puts there; git never runs it
                        path = Path(dirpath) / name
                        hooks[f"{label}/{path.relative_to(folder).as_posix()}"] = self._reads.read(path) or b""
        configs = {label: self._reads.read(path) for label, path in {**self.configs, **nested_configs}.items()}
        return GitState(hooks, configs)

    def undo(self, before: GitState) -> list[GitUndo]:
        """Put back what changed since ``before`` (see the module), and say what it was."""
        undone: list[GitUndo] = []
        nested_hooks, nested_configs = self._nested()
        hook_dirs, configs = {**self.hook_dirs, **nested_hooks}, {**self.configs, **nested_configs}
        for label, folder in hook_dirs.items():
            if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                folder.unlink()
                undone.append(GitUndo(label, ""))
        now = self.snapshot()
        root = self.hooks.parent.parent
        for key in sorted(set(before.hooks) | set(now.hooks)):
            old, new = before.hooks.get(key), now.hooks.get(key)
            if old != new:
                label, rel = max(
                    ((lb, key[len(lb) + 1 :]) for lb in hook_dirs if key.startswith(lb + "/")), default=(key, "")
                )
                path = hook_dirs[label] / rel if label in hook_dirs else root / key
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                put_entry(path, old)
                if old is not None and not path.is_symlink():
                    os.chmod(path, 0o755)
                undone.append(GitUndo(key, unified_diff(key, old, new)))
        for label in sorted(set(before.configs) | set(now.configs)):
            old, new = before.configs.get(label), now.configs.get(label)
            path = configs.get(label, root / label)
            if old != new and programs(old) != programs(new):
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                put_entry(path, old)
                undone.append(GitUndo(label, unified_diff(label, old, new)))
        return undone

