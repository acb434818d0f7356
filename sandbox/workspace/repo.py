"""The workspace on disk: one episode's files in a temp git repository with one baseline commit.

The sandbox's private folder (``base``, under ``$SCOPEWATCH_SANDBOX_DIR`` or ``/var/tmp``: not under
``/tmp``, which commands get a private one of) holds ``workspace/`` (the repository, unless a root
was given), ``home/`` (HOME of shell commands), ``agent-tmp/`` (their ``/tmp``), ``tests/`` (a test run's copy of
the workspace, when it needs one) and ``tmp/`` (the engine's own files: the exec trace, a command's standard input,
the reconciler's copies of big contents); ``git-template/`` is git's empty template; the shell adds ``shim/``,
``real/`` and ``audit/``, the watcher ``probe/``; ``remote.git`` is the workspace's ``origin``
(:mod:`sandbox.workspace.remote`). Where the engine is root, ``base`` is a tmpfs of
:data:`~sandbox.jail.limits.SANDBOX_MAX` bytes of its own, so its hundreds of files are made in RAM,
not on a disk other work loads (``SCOPEWATCH_SANDBOX_TMPFS=0`` keeps it on disk); ``tmp/`` is then a tmpfs of
:data:`~sandbox.jail.limits.ENGINE_MAX` bytes of its own, apart from the agents' space: a command that fills its
space cannot leave the engine without room for its audit (red team 5, 06: the trace could not be written, and the
command went unaudited).

An *entry* is what the sandbox knows of a path: a file's bytes, a symlink as
:func:`~sandbox.workspace.diffs.link_entry`, or None when the path is absent. This module reads and writes
entries; it emits nothing and knows nothing of actors.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.errors import PathEscape, SandboxError
from sandbox.jail.isolation import SYSTEM_PATH, minimal_env
from sandbox.jail.limits import ENGINE_FILES, ENGINE_MAX, SANDBOX_FILES, SANDBOX_MAX, cap_folder, uncap_folder
from sandbox.workspace import beneath
from sandbox.workspace.baseline import BASELINES, capture, content_key, learn_origin, origin_by_hand, push_by_hand
from sandbox.workspace.diffs import LINK_MARK, unified_diff
from sandbox.workspace.entries import put_entry, read_beneath
from sandbox.workspace.files import (
    SPECIAL_MARK,
    describe,
    remove_tree,
)
from sandbox.workspace.paths import NOISE_DIRS, NOISE_SUFFIXES, is_noise, normalise, resolve_inside
from sandbox.workspace.stale import owner_prefix, sweep_once

BASELINE_DATE = "2026-01-01T00:00:00Z"
"""The baseline commit's author and committer date (and its reflog entries'): the same files make
the same commit id in every run, as in engine/branch/gitserver.py."""

StatKey = tuple[int, int, int, int, int]
"""What a cheap ``lstat`` says of an entry; a different key means its content must be read again."""


def stat_key(st: os.stat_result) -> StatKey:
    # ctime cannot be set from user space, so a rewrite that restores size and mtime still shows.
    return (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def as_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def sandbox_parent() -> str | None:
    """Where sandboxes' private folders go: ``$SCOPEWATCH_SANDBOX_DIR``, else ``/var/tmp`` when it
    is a writable folder, else the system default."""
    configured = os.environ.get("SCOPEWATCH_SANDBOX_DIR")
    if configured:
        return configured
    return "/var/tmp" if os.path.isdir("/var/tmp") and os.access("/var/tmp", os.W_OK | os.X_OK) else None


@dataclass
class Scanned:
    """What a :func:`scan` went through besides its entries (for :class:`~sandbox.workspace.sentry.Sentry`)."""

    folders: list[str] = field(default_factory=list)
    """Every folder it read, the root first (absolute paths)."""
    linked: bool = False
    """A file it met has another name (a hard link)."""
    links: dict[str, int] = field(default_factory=dict)
    """Each such file: its path and how many names it has (``st_nlink``)."""
    gits: list[str] = field(default_factory=list)
    """Every ``.git`` below the root's (a nested repository's folder, a gitfile, a link; absolute paths): their
    config and hooks are :class:`~sandbox.workspace.gitguard.GitGuard`'s."""
    modes: dict[str, int] = field(default_factory=dict)
    """Every folder below the root it met (workspace-relative) and its mode (permission bits): a folder's ``chmod``
    is a change (red team 6, 04)."""


def scan(root: Path, tree: Scanned | None = None) -> dict[str, StatKey]:
    """Every workspace file and symlink (not noise) with its stat key, in the order of
    :func:`~sandbox.workspace.files.walk` (a folder's own entries, then its subfolders, depth first),
    never into a symlink or a noise folder; ``tree`` is told the folders it read and whether a file
    had another name."""
    # One scandir per folder and the entry's own lstat, plain strings: this runs twice per shell
    # command over the whole workspace.
    found: dict[str, StatKey] = {}
    stack = [(os.fspath(root), "")]
    while stack:
        top, prefix = stack.pop()
        subfolders: list[tuple[str, str]] = []
        try:
            entries = os.scandir(top)
        except OSError:
            continue
        if tree is not None:
            tree.folders.append(top)
        with entries:
            for entry in entries:
                name = entry.name
                if name in NOISE_DIRS:
                    if name == ".git" and prefix and tree is not None:
                        tree.gits.append(entry.path)
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        subfolders.append((entry.path, f"{prefix}{name}/"))
                        if tree is not None:  # one lstat a folder, as a file's
                            tree.modes[prefix + name] = stat.S_IMODE(entry.stat(follow_symlinks=False).st_mode)
                        continue
                    if name.endswith(NOISE_SUFFIXES):
                        continue
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                found[prefix + name] = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
                if st.st_nlink > 1 and tree is not None:
                    tree.linked = True
                    tree.links[prefix + name] = st.st_nlink
        stack.extend(reversed(subfolders))
    return found


STALE_LOCKS = ("index.lock", "HEAD.lock", "config.lock", "packed-refs.lock", "shallow.lock")
"""git's lock files at the top of a git folder (:meth:`Workspace.clear_stale_locks`)."""


class Workspace:
    """The workspace folder and its baseline. Build it with :meth:`make`, fill it with
    :meth:`materialise` and :meth:`git_baseline`, remove it with :meth:`remove`."""

    def __init__(self, base: Path, root: Path) -> None:
        self.base = base
        self.root = root
        self.home = base / "home"
        self.tmp = base / "tmp"
        self.agent_tmp = base / "agent-tmp"
        self.remote = base / "remote.git"
        """The workspace's ``origin``: a bare repository holding the baseline (commands may push to it)."""
        self.baseline: dict[str, bytes] = {}
        """Workspace path -> content in the baseline commit."""
        self.capped: list[Path] = []
        """HOME and /tmp, each a tmpfs of :data:`~sandbox.jail.limits.AREA_MAX` bytes."""
        self.uncapped = ""
        """Why HOME and /tmp are not size-capped here ("" when they are)."""
        self.planted: set[str] = set()
        """HOME-relative paths of the scenario's fixtures (its bait: reading one is a sensitive read)."""
        self.in_ram = False
        """Whether ``base`` is a tmpfs of its own (see the module docstring)."""
        self.own_tmp = False
        """Whether ``tmp`` (the engine's own files) is a tmpfs of its own, apart from the agents' (see the module)."""
        self.tests = base / "tests"
        """Where a test run's copy of the workspace goes when it needs one (in the agents' space: a copy of it)."""

    @classmethod
    def make(cls, root: Path | None = None) -> Workspace:
        """A private temp folder for the sandbox's own files, and the workspace root (inside it
        unless given; a given one must be empty)."""
        if root is not None and root.exists() and any(root.iterdir()):
            raise SandboxError(f"{root}: the workspace folder must be empty")
        parent = sandbox_parent()
        sweep_once(parent)
        base = Path(tempfile.mkdtemp(prefix=owner_prefix(), dir=parent)).resolve()
        in_ram = os.environ.get("SCOPEWATCH_SANDBOX_TMPFS") != "0" and not cap_folder(
            base, size=SANDBOX_MAX, files=SANDBOX_FILES, mode=0o700
        )
        workspace = base / "workspace" if root is None else root
        workspace.mkdir(parents=True, exist_ok=True)
        made = cls(base, workspace.resolve())
        made.in_ram = in_ram
        for d in (made.home, made.tmp, made.agent_tmp, made.tests):
            d.mkdir(parents=True, exist_ok=True)
        # The engine's own files (the exec trace, its copies of big contents) on a tmpfs no command writes to.
        made.own_tmp = in_ram and not cap_folder(made.tmp, size=ENGINE_MAX, files=ENGINE_FILES, mode=0o700)
        for area in (made.home, made.agent_tmp):
            why = cap_folder(area)
            if why:
                made.uncapped = why
            else:
                made.capped.append(area)
        return made

    def remove(self) -> None:
        """Remove the private folder (the workspace too, unless it was given: then it is left alone)."""
        for area in self.capped:
            uncap_folder(area)
        self.capped.clear()
        if self.own_tmp:
            uncap_folder(self.tmp)
            self.own_tmp = False
        if self.in_ram:
            uncap_folder(self.base)  # its files go with it
            self.in_ram = False
        remove_tree(self.base)

    def clear_stale_locks(self) -> None:
        """Remove git's lock files of the workspace's ``.git`` and of the ``origin``, once a command has ended: every
        process of it is gone then, so a lock left is stale (a command killed at its timeout mid-commit, or one
        agent's ``touch .git/index.lock``), and it would fail every other agent's git until someone removed it."""
        for top, git in ((self.root, ".git"), (self.remote.parent, self.remote.name)):
            try:
                fd = beneath.open_folder(top, (git,))  # beneath: a .git swapped for a link fails the walk
            except OSError:
                continue
            try:
                for name in STALE_LOCKS:
                    with contextlib.suppress(OSError):
                        if stat.S_ISREG(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):  # never a link
                            os.unlink(name, dir_fd=fd)
            finally:
                os.close(fd)

    # --- the baseline ----------------------------------------------------------------------------

    def plant_home(self, files: Mapping[str, str]) -> None:
        """Write fixture files (HOME-relative path -> text) into the agents' HOME."""
        for raw, content in files.items():
            try:
                rel = normalise(raw)
            except PathEscape as exc:
                raise SandboxError(f"home: {exc}") from None
            target = self.home / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
            self.planted.add(rel)

    def materialise(self, files: Mapping[str, str]) -> None:
        """Write ``files`` (workspace path -> text) and keep them as the baseline."""
        for raw, content in files.items():
            try:
                rel = normalise(raw)
            except PathEscape as exc:
                raise SandboxError(f"files: {exc}") from None
            if is_noise(rel):
                raise SandboxError(f"files: {raw}: a tool-cache path cannot be a workspace file")
            if rel in self.baseline:
                raise SandboxError(f"files: {raw}: given twice")
            if not isinstance(content, str):
                raise SandboxError(f"files: {raw}: content must be text")
            data = content.encode("utf-8")
            target = self.root / rel
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            except OSError as exc:
                raise SandboxError(f"files: {raw}: cannot be written ({exc.strerror})") from None
            self.baseline[rel] = data

    async def git_baseline(self) -> None:
        """Make the workspace a git repository with one commit, ``baseline``, on ``main``, and its
        ``origin`` (:attr:`remote`, a bare repository) holding it, ``main`` tracking ``origin/main``.
        Made with git once per content, written from memory for the next workspace with the same
        files (:mod:`sandbox.workspace.baseline`)."""
        key = content_key(self.baseline, self._git_program())
        template = BASELINES.get(key)
        if template is not None and template.write(self.base, self.root, self.remote):
            return
        # An empty template: no sample hooks to write (creating files is what makes a sandbox slow). Its own folder, not
        # the engine's tmp, whose files (the reconciler's spill of big contents) git would copy into .git and origin.
        empty = self.base / "git-template"
        empty.mkdir(exist_ok=True)
        await self._git("-c", "init.defaultBranch=main", "init", "-q", f"--template={empty}")
        exclude = self.root / ".git" / "info" / "exclude"
        exclude.parent.mkdir(parents=True, exist_ok=True)
        exclude.write_text("".join(f"{d}/\n" for d in sorted(NOISE_DIRS) if d != ".git") + "*.pyc\n")
        await self._git("add", "-A")
        await self._git("commit", "-q", "--allow-empty", "--no-verify", "-m", "baseline")
        git, config = self._git_program(), (self.root / ".git" / "config").read_bytes()
        if not origin_by_hand(git, self.root / ".git", self.remote):
            await self._git("init", "-q", "--bare", f"--template={empty}", str(self.remote))
            await self._git("--git-dir", str(self.remote), "config", "core.logAllRefUpdates", "always")
            await self._git("remote", "add", "origin", str(self.remote))
            learn_origin(git, config, self.root / ".git", self.remote)
        if not push_by_hand(self.root / ".git", self.remote):
            await self._git("push", "-q", "--no-verify", "-u", "origin", "main")
        if BASELINES.enabled:
            captured = capture(self.base, self.root, self.remote)
            if captured is not None:
                BASELINES.put(key, captured)

    def _git_program(self) -> str:
        git = shutil.which("git")
        if git is None:
            raise SandboxError("git is not installed: the workspace needs it for its baseline commit")
        return git

    async def _git(self, *args: str) -> None:
        git = self._git_program()
        env = minimal_env(
            path=SYSTEM_PATH,
            home=str(self.base),
            tmp=str(self.base),
            extra={
                "GIT_AUTHOR_NAME": "scopewatch",
                "GIT_AUTHOR_EMAIL": "scopewatch@scopewatch.invalid",
                "GIT_COMMITTER_NAME": "scopewatch",
                "GIT_COMMITTER_EMAIL": "scopewatch@scopewatch.invalid",
                "GIT_AUTHOR_DATE": BASELINE_DATE,
                "GIT_COMMITTER_DATE": BASELINE_DATE,
            },
        )
        proc = await asyncio.create_subprocess_exec(
            git,
            *args,
            cwd=self.root,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await proc.communicate()
        if proc.returncode != 0:
            last = (as_text(out).strip().splitlines() or ["no output"])[-1]
            raise SandboxError(f"git {args[-1] if args else ''}: {last}")

    # --- entries ---------------------------------------------------------------------------------

    def scan(self, tree: Scanned | None = None) -> dict[str, StatKey]:
        return scan(self.root, tree)

    def entry(self, rel: str) -> bytes | None:
        """What ``rel`` holds, reached beneath the root without following a symlink (None when one is on the way)."""
        return read_beneath(self.root, rel)

    def put(self, rel: str, data: bytes | None) -> None:
        """Make ``rel`` hold ``data`` as it is (a folder in the way is replaced), never through a symlink on the
        way (:mod:`sandbox.workspace.beneath`); raises OSError."""
        put_entry(self.root / rel, data, root=self.root)

    def check_writable(self, rel: str) -> None:
        """Raise unless a write to ``rel`` lands on a file inside the workspace: not on a folder, and
        never through a folder symlink that a command may have planted since the path check."""
        try:
            st = beneath.lstat(self.root, rel)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise PathEscape(f"{rel}: a symlink leads outside the workspace", path=rel) from None
            return  # made on the way, or refused by the write itself (beneath: never through a symlink)
        if stat.S_ISDIR(st.st_mode):
            raise SandboxError(f"{rel}: is a folder, not a file")

    def write(self, rel: str, data: bytes | None) -> None:
        """A checked :meth:`put`: :meth:`check_writable`, and an OSError becomes a SandboxError."""
        self.check_writable(rel)
        try:
            self.put(rel, data)
        except OSError as exc:
            raise SandboxError(f"{rel}: cannot be written ({exc.strerror})") from None

    # --- reading ---------------------------------------------------------------------------------

    def list_files(self) -> list[str]:
        return sorted(self.scan())

    def exists(self, path: str) -> bool:
        try:
            return stat.S_ISREG(beneath.lstat(self.root, resolve_inside(self.root, path)).st_mode)
        except OSError:
            return False

    def read(self, path: str) -> str:
        """A file's text. Raises :class:`PathEscape` or :class:`SandboxError` (no such file). The path's symlinks
        are resolved inside the workspace (:func:`resolve_inside`); the file is then read beneath the root with
        none followed, so a folder swapped for a link meanwhile fails the read, never leads out."""
        rel = resolve_inside(self.root, path)
        try:
            st = beneath.lstat(self.root, rel)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise PathEscape(f"{path}: a symlink leads outside the workspace", path=path) from None
            raise SandboxError(f"{path}: no such file in the workspace") from None
        if stat.S_ISDIR(st.st_mode):
            raise SandboxError(f"{path}: is a folder, not a file")
        data = read_beneath(self.root, rel)
        if data is not None and data.startswith(LINK_MARK):
            raise PathEscape(f"{path}: became a symlink while it was read", path=path)
        if data is None or data.startswith(SPECIAL_MARK):
            what = describe(data) if data is not None else "unreadable"
            raise SandboxError(f"{path}: cannot be read ({what})")
        return as_text(data) if describe(data) is None else f"[{describe(data)}]"

    def baseline_content(self, path: str) -> str | None:
        data = self.baseline.get(normalise(path))
        return None if data is None else as_text(data)

    def changed_paths(self) -> list[str]:
        paths = set(self.scan()) | set(self.baseline)
        return sorted(p for p in paths if self.entry(p) != self.baseline.get(p))

    def diff_against_baseline(self, path: str | None = None) -> str:
        paths = [normalise(path)] if path is not None else self.changed_paths()
        return "".join(unified_diff(p, self.baseline.get(p), self.entry(p)) for p in paths)
