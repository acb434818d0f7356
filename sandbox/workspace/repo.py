"""The workspace on disk: one episode's files in a temp git repository with one baseline commit.

The sandbox's private folder (``base``, under ``$SCOPEWATCH_SANDBOX_DIR`` or ``/var/tmp``: not under
``/tmp``, which commands get a private one of) holds ``workspace/`` (the repository, unless a root
was given), ``home/`` (HOME of shell commands), ``agent-tmp/`` (their ``/tmp``) and ``tmp/`` (the
engine's scratch: git's empty template, test snapshots); the shell adds ``shim/``, ``real/`` and
``audit/``, the watcher ``probe/``.

An *entry* is what the sandbox knows of a path: a file's bytes, a symlink as
:func:`~sandbox.workspace.diffs.link_entry`, or None when the path is absent. This module reads and writes
entries; it emits nothing and knows nothing of actors.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from sandbox.errors import PathEscape, SandboxError
from sandbox.jail.isolation import SYSTEM_PATH, minimal_env
from sandbox.workspace.diffs import LINK_MARK, link_entry, unified_diff
from sandbox.workspace.paths import NOISE_DIRS, is_noise, normalise, resolve_inside

StatKey = tuple[int, int, int, int, int]
"""What a cheap ``lstat`` says of an entry; a different key means its content must be read again."""


def stat_key(st: os.stat_result) -> StatKey:
    # ctime cannot be set from user space, so a rewrite that restores size and mtime still shows.
    return (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def as_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def read_entry(path: Path) -> bytes | None:
    """A file's content, a symlink as :func:`link_entry`, None when absent or not a file."""
    try:
        if path.is_symlink():
            return link_entry(os.readlink(path))
        if path.is_file():
            return path.read_bytes()
    except OSError:
        return None
    return None


def sandbox_parent() -> str | None:
    """Where sandboxes' private folders go: ``$SCOPEWATCH_SANDBOX_DIR``, else ``/var/tmp`` when it
    is a writable folder, else the system default."""
    configured = os.environ.get("SCOPEWATCH_SANDBOX_DIR")
    if configured:
        return configured
    return "/var/tmp" if os.path.isdir("/var/tmp") and os.access("/var/tmp", os.W_OK | os.X_OK) else None


def put_entry(path: Path, data: bytes | None) -> None:
    """Make ``path`` hold ``data`` (None: remove it); symlink entries become symlinks. A file that
    shares its inode with another name (a hard link) is replaced, never written through."""
    if path.is_symlink() or (data is None and path.exists()):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    if data is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir():
        shutil.rmtree(path)
    if data.startswith(LINK_MARK):
        os.symlink(data[len(LINK_MARK) :].decode("utf-8", "surrogateescape"), path)
        return
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and st.st_nlink > 1:
        fresh = path.with_name(f".{path.name}.scopewatch-new")
        fresh.write_bytes(data)
        os.chmod(fresh, stat.S_IMODE(st.st_mode))
        os.replace(fresh, path)
    else:
        path.write_bytes(data)


def scan(root: Path) -> dict[str, StatKey]:
    """Every workspace file and symlink (not noise) with its stat key."""
    found: dict[str, StatKey] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        rel_dir = base.relative_to(root).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        keep: list[str] = []
        for name in dirnames:
            if name in NOISE_DIRS:
                continue
            if (base / name).is_symlink():
                filenames.append(name)
            else:
                keep.append(name)
        dirnames[:] = keep
        for name in filenames:
            rel = prefix + name
            if is_noise(rel):
                continue
            try:
                st = os.lstat(base / name)
            except OSError:
                continue
            found[rel] = stat_key(st)
    return found


class Workspace:
    """The workspace folder and its baseline. Build it with :meth:`make`, fill it with
    :meth:`materialise` and :meth:`git_baseline`, remove it with :meth:`remove`."""

    def __init__(self, base: Path, root: Path) -> None:
        self.base = base
        self.root = root
        self.home = base / "home"
        self.tmp = base / "tmp"
        self.agent_tmp = base / "agent-tmp"
        self.baseline: dict[str, bytes] = {}
        """Workspace path -> content in the baseline commit."""
        self.planted: set[str] = set()
        """HOME-relative paths of the scenario's fixtures (its bait: reading one is a sensitive read)."""

    @classmethod
    def make(cls, root: Path | None = None) -> Workspace:
        """A private temp folder for the sandbox's own files, and the workspace root (inside it
        unless given; a given one must be empty)."""
        if root is not None and root.exists() and any(root.iterdir()):
            raise SandboxError(f"{root}: the workspace folder must be empty")
        base = Path(tempfile.mkdtemp(prefix="scopewatch-sandbox-", dir=sandbox_parent())).resolve()
        workspace = base / "workspace" if root is None else root
        workspace.mkdir(parents=True, exist_ok=True)
        made = cls(base, workspace.resolve())
        for d in (made.home, made.tmp, made.agent_tmp):
            d.mkdir(parents=True, exist_ok=True)
        return made

    def remove(self) -> None:
        """Remove the private folder (the workspace too, unless it was given: then it is left alone)."""
        shutil.rmtree(self.base, True)

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
        """Make the workspace a git repository with one commit, ``baseline``."""
        # An empty template: no sample hooks to write (creating files is what makes a sandbox slow).
        await self._git("-c", "init.defaultBranch=main", "init", "-q", f"--template={self.tmp}")
        exclude = self.root / ".git" / "info" / "exclude"
        exclude.parent.mkdir(parents=True, exist_ok=True)
        exclude.write_text("".join(f"{d}/\n" for d in sorted(NOISE_DIRS) if d != ".git") + "*.pyc\n")
        await self._git("add", "-A")
        await self._git("commit", "-q", "--allow-empty", "--no-verify", "-m", "baseline")

    async def _git(self, *args: str) -> None:
        git = shutil.which("git")
        if git is None:
            raise SandboxError("git is not installed: the workspace needs it for its baseline commit")
        env = minimal_env(
            path=SYSTEM_PATH,
            home=str(self.base),
            tmp=str(self.base),
            extra={
                "GIT_AUTHOR_NAME": "scopewatch",
                "GIT_AUTHOR_EMAIL": "scopewatch@scopewatch.invalid",
                "GIT_COMMITTER_NAME": "scopewatch",
                "GIT_COMMITTER_EMAIL": "scopewatch@scopewatch.invalid",
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

    def scan(self) -> dict[str, StatKey]:
        return scan(self.root)

    def entry(self, rel: str) -> bytes | None:
        return read_entry(self.root / rel)

    def put(self, rel: str, data: bytes | None) -> None:
        """Make ``rel`` hold ``data`` as it is (a folder in the way is replaced); raises OSError."""
        put_entry(self.root / rel, data)

    def check_writable(self, rel: str) -> None:
        """Raise unless a write to ``rel`` lands on a file inside the workspace: not on a folder, and
        never through a folder symlink that a command may have planted since the path check."""
        target = self.root / rel
        if target.is_dir() and not target.is_symlink():
            raise SandboxError(f"{rel}: is a folder, not a file")
        parent = os.path.realpath(target.parent)
        if parent != str(self.root) and not parent.startswith(str(self.root) + os.sep):
            raise PathEscape(f"{rel}: a symlink leads outside the workspace", path=rel)

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
        return (self.root / resolve_inside(self.root, path)).is_file()

    def read(self, path: str) -> str:
        """A file's text. Raises :class:`PathEscape` or :class:`SandboxError` (no such file)."""
        rel = resolve_inside(self.root, path)
        target = self.root / rel
        if target.is_dir():
            raise SandboxError(f"{path}: is a folder, not a file")
        try:
            return as_text(target.read_bytes())
        except FileNotFoundError:
            raise SandboxError(f"{path}: no such file in the workspace") from None
        except OSError as exc:
            raise SandboxError(f"{path}: cannot be read ({exc.strerror})") from None

    def baseline_content(self, path: str) -> str | None:
        data = self.baseline.get(normalise(path))
        return None if data is None else as_text(data)

    def changed_paths(self) -> list[str]:
        paths = set(self.scan()) | set(self.baseline)
        return sorted(p for p in paths if self.entry(p) != self.baseline.get(p))

    def diff_against_baseline(self, path: str | None = None) -> str:
        paths = [normalise(path)] if path is not None else self.changed_paths()
        return "".join(unified_diff(p, self.baseline.get(p), self.entry(p)) for p in paths)
