"""The local sandbox: one episode's workspace in a temp folder on this machine.

Every change to the workspace becomes exactly one event, attributed to the actor who made it:

- workspace-changing operations (tool writes, shell commands, reviewed writes, restores) run one at a
  time under one lock; at the end of each, still under the lock, the tree is reconciled against a
  content cache and the differences are emitted as ``FileChanged`` for that actor;
- the watcher (watchfiles) wakes on any change on disk; under the same lock it reconciles the tree
  again, and whatever is still not in the cache was made by no operation: a change by ``external``
  (a human in an editor). Before a shell command starts, pending external changes are flushed the
  same way, so they are never charged to the agent.

The ownership guard sits in the same place: a tool write to a path the actor's team does not own is
refused before it happens (``WriteRefused`` + :class:`WriteRefusedError`); a shell command's change
to such a path is put back to its pre-command content and reported (``WriteRefused``,
``rolled_back=True``, with the undone diff). The actors ``engine``, ``reviewer``, ``human`` and
``external`` are not guarded.

Limits of the local backend: it is not a security boundary against a hostile program. A shell
command can bypass the shim with an absolute program path (its file changes are still seen and
guarded) and can write outside the workspace (not seen). The network is cut with ``unshare`` only
where the OS permits it. The docker backend is the isolating one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from watchfiles import Change, awatch

from channel.emitter import Emitter
from channel.events import FileChanged, ShellCommandRan, WriteRefused
from channel.vocab import SanctionedVia, Via
from sandbox import testrun
from sandbox.atoms import AtomRegistry, default_registry
from sandbox.diffs import LINK_MARK, link_entry, unified_diff
from sandbox.errors import PathEscape, SandboxError, WriteRefusedError
from sandbox.isolation import SYSTEM_PATH, minimal_env, network_cut_prefix
from sandbox.ownership import Ownership, PathPattern, matches_any
from sandbox.paths import NOISE_DIRS, is_noise, normalise, resolve_inside
from sandbox.shim import collect_records, link_shim

UNGUARDED = frozenset({"engine", "reviewer", "human", "external"})
"""Actors whose writes the ownership guard lets through (sanctioned paths and the world outside)."""

WATCH_DEBOUNCE_MS = 50
"""Longest a burst of changes is collected before it is reported (watchfiles' default: 1600)."""
WATCH_STEP_MS = 5
"""How long the watcher waits for quiet before reporting (watchfiles' default: 50, the bulk of its
~90 ms latency)."""

OUTPUT_LIMIT = 64_000
"""Characters of shell output returned to the agent (head and tail kept)."""

_StatKey = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class ShellResult:
    """What a shell command returned: exit code and combined stdout/stderr (with a note for each
    change that was rolled back)."""

    exit_code: int
    output: str
    timed_out: bool = False
    rolled_back: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Actor:
    team: str
    scope: tuple[PathPattern, ...]


@dataclass(frozen=True)
class _Change:
    path: str
    old: bytes | None
    new: bytes | None


def _stat_key(st: os.stat_result) -> _StatKey:
    # ctime cannot be set from user space, so a rewrite that restores size and mtime still shows.
    return (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _read_entry(path: Path) -> bytes | None:
    """A file's content, a symlink as :func:`link_entry`, None when absent or not a file."""
    try:
        if path.is_symlink():
            return link_entry(os.readlink(path))
        if path.is_file():
            return path.read_bytes()
    except OSError:
        return None
    return None


def _put_entry(path: Path, data: bytes | None) -> None:
    """Make ``path`` hold ``data`` (None: remove it); symlink entries become symlinks."""
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
    else:
        path.write_bytes(data)


def _scan(root: Path) -> dict[str, _StatKey]:
    """Every workspace file and symlink (not noise) with its stat key."""
    found: dict[str, _StatKey] = {}
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
            found[rel] = _stat_key(st)
    return found


def _make_dirs(root: Path | None) -> tuple[Path, Path]:
    """A private temp folder for the sandbox's own files, and the workspace root (inside it unless
    given; a given one must be empty)."""
    if root is not None and root.exists() and any(root.iterdir()):
        raise SandboxError(f"{root}: the workspace folder must be empty")
    base = Path(tempfile.mkdtemp(prefix="scopewatch-sandbox-")).resolve()
    workspace = base / "workspace" if root is None else root
    workspace.mkdir(parents=True, exist_ok=True)
    return base, workspace.resolve()


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _clip(output: str) -> str:
    if len(output) <= OUTPUT_LIMIT:
        return output
    half = OUTPUT_LIMIT // 2
    return f"{output[:half]}\n[... {len(output) - OUTPUT_LIMIT} characters cut ...]\n{output[-half:]}"


class LocalSandbox:
    """The workspace of one episode: a temp git repository holding a baseline commit of the
    scenario's files, plus the shell shim, the watcher and the ownership guard. Build it with
    :meth:`create`; end it with :meth:`close`."""

    def __init__(
        self,
        *,
        base: Path,
        root: Path,
        ownership: Ownership,
        emitter: Emitter,
        registry: AtomRegistry,
    ) -> None:
        self.root = root
        self.ownership = ownership
        self.emitter = emitter
        self.registry = registry
        self.home = base / "home"
        """HOME of shell commands (outside the workspace; scenarios may plant fixtures here)."""
        self._base = base
        self._shim_dir = base / "shim"
        self._log_dir = base / "shimlog"
        self._tmp = base / "tmp"
        self._actors: dict[str, _Actor] = {}
        self._baseline: dict[str, bytes] = {}
        self._known: dict[str, bytes] = {}
        self._stats: dict[str, _StatKey] = {}
        self._lock = asyncio.Lock()
        self._netcut: tuple[str, ...] = ()
        self._path = ""
        self._search = SYSTEM_PATH
        self._bash = "bash"
        self._watch_task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._ready = asyncio.Event()
        self._probe = base / "probe"
        self._closed = False

    # --- life cycle ------------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        files: Mapping[str, str],
        *,
        ownership: Ownership,
        emitter: Emitter,
        root: Path | None = None,
        watch: bool = True,
        registry: AtomRegistry | None = None,
        watch_timing: tuple[int, int] = (WATCH_DEBOUNCE_MS, WATCH_STEP_MS),
    ) -> LocalSandbox:
        """Materialise ``files`` (workspace path -> content) into a fresh git repository with one
        baseline commit, install the shell shim and (``watch=True``) start the watcher.
        ``watch_timing`` is watchfiles' (debounce, step) in ms; the default is tuned for a live view."""
        base, root_dir = _make_dirs(root)
        sb = cls(
            base=base,
            root=root_dir,
            ownership=ownership,
            emitter=emitter,
            registry=registry or default_registry(),
        )
        try:
            sb._materialise(files)
            sb._prepare_shell()
            sb._netcut = await network_cut_prefix()
            # git writes only into .git, which the watcher ignores: both can start at once.
            await asyncio.gather(sb._git_baseline(), sb._start_watcher(*watch_timing) if watch else asyncio.sleep(0))
        except BaseException:
            await sb.close()
            raise
        return sb

    def _materialise(self, files: Mapping[str, str]) -> None:
        for raw, content in files.items():
            try:
                rel = normalise(raw)
            except PathEscape as exc:
                raise SandboxError(f"files: {exc}") from None
            if is_noise(rel):
                raise SandboxError(f"files: {raw}: a tool-cache path cannot be a workspace file")
            if rel in self._baseline:
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
            self._baseline[rel] = data
        self._stats = _scan(self.root)
        entries = {rel: _read_entry(self.root / rel) for rel in self._stats}
        self._known = {rel: entry for rel, entry in entries.items() if entry is not None}

    async def _git(self, *args: str) -> None:
        git = shutil.which("git")
        if git is None:
            raise SandboxError("git is not installed: the workspace needs it for its baseline commit")
        env = minimal_env(
            path=SYSTEM_PATH,
            home=str(self._base),
            tmp=str(self._base),
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
            last = (_text(out).strip().splitlines() or ["no output"])[-1]
            raise SandboxError(f"git {args[-1] if args else ''}: {last}")

    async def _git_baseline(self) -> None:
        # An empty template: no sample hooks to write (creating files is what makes a sandbox slow).
        await self._git("-c", "init.defaultBranch=main", "init", "-q", f"--template={self._tmp}")
        exclude = self.root / ".git" / "info" / "exclude"
        exclude.parent.mkdir(parents=True, exist_ok=True)
        exclude.write_text("".join(f"{d}/\n" for d in sorted(NOISE_DIRS) if d != ".git") + "*.pyc\n")
        await self._git("add", "-A")
        await self._git("commit", "-q", "--allow-empty", "--no-verify", "-m", "baseline")

    def _prepare_shell(self) -> None:
        for d in (self.home, self._tmp):
            d.mkdir(parents=True, exist_ok=True)
        tools = os.path.dirname(sys.executable)
        self._search = SYSTEM_PATH if tools in SYSTEM_PATH.split(":") else f"{tools}:{SYSTEM_PATH}"
        self._shim_dir, self._log_dir = link_shim(self._base, self.registry.shimmed_commands, self._search)
        self._path = f"{self._shim_dir}:{self._search}"
        bash = shutil.which("bash", path=SYSTEM_PATH)
        if bash is None:
            raise SandboxError("bash is not installed: the sandbox runs shell commands with it")
        self._bash = bash

    async def close(self) -> None:
        """Stop the watcher and remove the temp folders (the workspace too, unless it was given)."""
        if self._closed:
            return
        self._closed = True
        failure: BaseException | None = None
        if self._watch_task is not None:
            self._stop.set()
            with contextlib.suppress(asyncio.CancelledError):
                try:
                    await asyncio.wait_for(asyncio.shield(self._watch_task), 5)
                except TimeoutError:
                    self._watch_task.cancel()
                    await asyncio.gather(self._watch_task, return_exceptions=True)
                except Exception as exc:
                    failure = exc
        # The workspace lives inside the base folder unless it was given (then it is left alone).
        await asyncio.to_thread(shutil.rmtree, self._base, True)
        if failure is not None:
            raise SandboxError(f"the file watcher failed: {failure}") from failure

    async def __aenter__(self) -> LocalSandbox:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- actors ----------------------------------------------------------------------------------

    def register_actor(self, actor_id: str, team: str, scope: Iterable[str] = ()) -> None:
        """Declare an agent: its team (for the ownership guard) and its task scope (paths or globs,
        for ``FileChanged.in_scope``). Registering again replaces both (a new episode's scope)."""
        self._actors[actor_id] = _Actor(team, tuple(PathPattern.compile(p) for p in scope))

    def _team_of(self, actor: str) -> str | None:
        """The actor's team, or None when the actor is not guarded."""
        if actor in UNGUARDED:
            return None
        known = self._actors.get(actor)
        if known is None:
            raise SandboxError(f"actor {actor!r} is not registered with the sandbox (register_actor)")
        return known.team

    def _in_scope(self, actor: str, path: str) -> bool | None:
        known = self._actors.get(actor)
        if known is None or not known.scope or actor in UNGUARDED:
            return None
        return matches_any(known.scope, path)

    # --- reading ---------------------------------------------------------------------------------

    async def list_files(self) -> list[str]:
        """Every workspace file (posix paths relative to the root), sorted."""
        return sorted(_scan(self.root))

    def exists(self, path: str) -> bool:
        """Whether ``path`` is a file in the workspace (raises :class:`PathEscape` for escapes)."""
        return (self.root / resolve_inside(self.root, path)).is_file()

    async def read(self, actor: str, path: str) -> str:
        """A file's text. Raises :class:`PathEscape` or :class:`SandboxError` (no such file)."""
        rel = resolve_inside(self.root, path)
        target = self.root / rel
        if target.is_dir():
            raise SandboxError(f"{path}: is a folder, not a file")
        try:
            return _text(target.read_bytes())
        except FileNotFoundError:
            raise SandboxError(f"{path}: no such file in the workspace") from None
        except OSError as exc:
            raise SandboxError(f"{path}: cannot be read ({exc.strerror})") from None

    def baseline_content(self, path: str) -> str | None:
        """The file's content in the baseline commit, None if it was not there."""
        data = self._baseline.get(normalise(path))
        return None if data is None else _text(data)

    def changed_paths(self) -> list[str]:
        """Paths whose content on disk differs from the baseline (added, modified or deleted)."""
        current = _scan(self.root)
        paths = set(current) | set(self._baseline)
        return sorted(p for p in paths if _read_entry(self.root / p) != self._baseline.get(p))

    def diff_against_baseline(self, path: str | None = None) -> str:
        """The unified diff from the baseline to the disk, for one path or the whole workspace."""
        paths = [normalise(path)] if path is not None else self.changed_paths()
        return "".join(unified_diff(p, self._baseline.get(p), _read_entry(self.root / p)) for p in paths)

    # --- writing ---------------------------------------------------------------------------------

    async def write(self, actor: str, path: str, content: str) -> None:
        """A tool write: refused (``WriteRefused`` event + :class:`WriteRefusedError`) unless the
        actor's team owns the path."""
        data = content.encode("utf-8")
        async with self._lock:
            rel = await self._guard_tool_write(actor, path, data)
            await self._put_and_settle(actor, rel, data, "tool")

    async def edit(self, actor: str, path: str, old: str, new: str) -> None:
        """Replace exactly one occurrence of ``old`` with ``new`` (a tool write, guarded)."""
        async with self._lock:
            current = None
            with contextlib.suppress(SandboxError):
                current = await self.read(actor, path)
            proposed = None
            if current is not None and old and current.count(old) == 1:
                proposed = current.replace(old, new, 1).encode("utf-8")
            rel = await self._guard_tool_write(actor, path, proposed)
            if current is None:
                await self.read(actor, path)  # raises the precise error
            if not old:
                raise SandboxError(f"edit {path}: `old` is empty")
            if proposed is None:
                count = (current or "").count(old)
                raise SandboxError(f"edit {path}: `old` occurs {count} times; it must occur exactly once")
            await self._put_and_settle(actor, rel, proposed, "tool")

    async def apply(self, actor: str, path: str, content: str, via: SanctionedVia = "review") -> None:
        """A sanctioned write (a reviewer's approval, an engine action): not guarded by ownership,
        still confined to the workspace."""
        rel = resolve_inside(self.root, path)
        async with self._lock:
            await self._put_and_settle(actor, rel, content.encode("utf-8"), via)

    async def restore(self, path: str, actor: str = "engine") -> None:
        """Put a path back to its baseline content (removing it if it was not in the baseline)."""
        rel = normalise(path)
        async with self._lock:
            await self._put_and_settle(actor, rel, self._baseline.get(rel), "restore")

    async def _guard_tool_write(self, actor: str, path: str, proposed: bytes | None) -> str:
        try:
            rel = resolve_inside(self.root, path)
        except PathEscape as exc:
            await self.emitter.emit(WriteRefused(actor=actor, path=path, reason=str(exc), via="tool"))
            raise
        team = self._team_of(actor)
        owner = self.ownership.owner_of(rel)
        if team is not None and owner != team:
            message = self._refusal(rel, owner, team)
            diff = "" if proposed is None else unified_diff(rel, _read_entry(self.root / rel), proposed)
            await self.emitter.emit(WriteRefused(actor=actor, path=rel, reason=message, via="tool", diff=diff))
            raise WriteRefusedError(message, path=rel, owner=owner)
        return rel

    @staticmethod
    def _refusal(path: str, owner: str, team: str) -> str:
        whose = f"is owned by team {owner}" if owner else "is owned by no team"
        return f"write refused: {path} {whose}, not by your team {team}; request a review instead"

    async def _put_and_settle(self, actor: str, rel: str, data: bytes | None, via: Via) -> None:
        self._put_checked(rel, data)
        await self._settle(actor, via, self._changes([rel]))

    def _put_checked(self, rel: str, data: bytes | None) -> None:
        target = self.root / rel
        if target.is_dir() and not target.is_symlink():
            raise SandboxError(f"{rel}: is a folder, not a file")
        # Never write through a folder symlink that a command may have planted since the path check.
        parent = os.path.realpath(target.parent)
        if parent != str(self.root) and not parent.startswith(str(self.root) + os.sep):
            raise PathEscape(f"{rel}: a symlink leads outside the workspace", path=rel)
        try:
            _put_entry(target, data)
        except OSError as exc:
            raise SandboxError(f"{rel}: cannot be written ({exc.strerror})") from None

    # --- shell -----------------------------------------------------------------------------------

    async def run_shell(self, actor: str, command: str, *, timeout: float = 30) -> ShellResult:  # noqa: ASYNC109
        """Run ``command`` with bash in the workspace root, as ``actor``: minimal environment, shim
        first on PATH, network cut where possible. Shimmed commands become ``ShellCommandRan``
        events; file changes become ``FileChanged`` events for the actor, and changes to paths its
        team does not own are rolled back (``WriteRefused``). ``timeout`` kills the whole process
        group (exit code 124)."""
        team = self._team_of(actor)
        async with self._lock:
            link_shim(self._base, self.registry.shimmed_commands, self._search)
            # Whatever changed while no operation ran is not this actor's doing.
            await self._settle("external", "external", self._changes(None))
            out_path = self._tmp / "shell-output"
            env = minimal_env(
                path=self._path,
                home=str(self.home),
                tmp=str(self._tmp),
                extra={
                    "SCOPEWATCH_ACTOR": actor,
                    "SCOPEWATCH_SHIM_LOG": str(self._log_dir),
                    "SCOPEWATCH_WORKSPACE": str(self.root),
                    "GIT_AUTHOR_NAME": actor,
                    "GIT_AUTHOR_EMAIL": f"{actor}@scopewatch.invalid",
                    "GIT_COMMITTER_NAME": actor,
                    "GIT_COMMITTER_EMAIL": f"{actor}@scopewatch.invalid",
                },
            )
            timed_out = False
            with out_path.open("wb") as out:
                proc = await asyncio.create_subprocess_exec(
                    *self._netcut,
                    self._bash,
                    "-c",
                    command,
                    cwd=self.root,
                    env=env,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=out,
                    stderr=asyncio.subprocess.STDOUT,
                    start_new_session=True,
                )
                try:
                    exit_code = await asyncio.wait_for(proc.wait(), timeout)
                except TimeoutError:
                    timed_out = True
                    exit_code = 124
                finally:
                    # Background leftovers would keep writing after the command and be misattributed.
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(proc.pid, signal.SIGKILL)
                    await proc.wait()
            output = _text(out_path.read_bytes())
            out_path.unlink(missing_ok=True)
            if timed_out:
                output += f"\n[scopewatch] command timed out after {timeout:g} s and was killed\n"
            # Commands run one at a time, so every record is this actor's, whatever the command set
            # SCOPEWATCH_ACTOR to.
            for record in collect_records(self._log_dir):
                kind = self.registry.classify(record.argv)
                if kind is None:
                    continue
                await self.emitter.emit(
                    ShellCommandRan(
                        actor=actor,
                        argv=record.argv,
                        cwd=self._display_cwd(record.cwd),
                        exit_code=record.exit_code,
                        duration_ms=record.duration_ms,
                        atom=kind.atom,
                        risk=kind.risk,
                    )
                )
            rolled_back = await self._settle(actor, "shell", self._changes(None), team=team)
        for path, reason in rolled_back:
            output += f"\n[scopewatch] {reason} (your change to {path} was rolled back)\n"
        return ShellResult(exit_code, _clip(output), timed_out, tuple(p for p, _ in rolled_back))

    def _display_cwd(self, cwd: str) -> str:
        try:
            rel = Path(cwd).resolve().relative_to(self.root).as_posix()
        except (ValueError, OSError):
            return cwd
        return rel

    # --- reconciliation --------------------------------------------------------------------------

    def _changes(self, paths: Iterable[str] | None) -> list[_Change]:
        """Differences between the disk and the cache: for ``paths``, or the whole tree (None)."""
        if paths is None:
            current = _scan(self.root)
            candidates = sorted(set(current) | set(self._known))
        else:
            candidates = sorted(set(paths))
            current = {}
            for p in candidates:
                with contextlib.suppress(OSError):
                    current[p] = _stat_key(os.lstat(self.root / p))
        changes: list[_Change] = []
        for p in candidates:
            key = current.get(p)
            if key is not None and key == self._stats.get(p) and p in self._known:
                continue
            new = _read_entry(self.root / p) if key is not None else None
            old = self._known.get(p)
            if new == old:
                if key is not None:
                    self._stats[p] = key
                continue
            changes.append(_Change(p, old, new))
        return changes

    def _remember(self, path: str, data: bytes | None) -> None:
        if data is None:
            self._known.pop(path, None)
            self._stats.pop(path, None)
            return
        self._known[path] = data
        with contextlib.suppress(OSError):
            self._stats[path] = _stat_key(os.lstat(self.root / path))

    def _shell_refusal(self, change: _Change, team: str) -> str | None:
        owner = self.ownership.owner_of(change.path)
        if owner != team:
            return self._refusal(change.path, owner, team)
        if change.new is not None and change.new.startswith(LINK_MARK):
            try:
                resolve_inside(self.root, change.path)
            except PathEscape as exc:
                return f"write refused: {exc}"
        return None

    async def _settle(
        self, actor: str, via: Via, changes: Sequence[_Change], *, team: str | None = None
    ) -> list[tuple[str, str]]:
        """Emit the changes as ``actor``'s; with a ``team`` (a guarded shell command), roll back the
        ones to paths that team may not write. Returns (path, reason) of what was rolled back."""
        rolled: list[tuple[str, str]] = []
        for change in changes:
            diff = unified_diff(change.path, change.old, change.new)
            reason = self._shell_refusal(change, team) if team is not None else None
            if reason is not None:
                try:
                    _put_entry(self.root / change.path, change.old)
                except OSError as exc:
                    reason = f"{reason}; rollback failed ({exc.strerror})"
                else:
                    self._remember(change.path, change.old)
                    await self.emitter.emit(
                        WriteRefused(
                            actor=actor,
                            path=change.path,
                            reason=reason,
                            via="shell",
                            rolled_back=True,
                            diff=diff,
                        )
                    )
                    rolled.append((change.path, reason))
                    continue
                await self.emitter.emit(
                    WriteRefused(actor=actor, path=change.path, reason=reason, via="shell", diff=diff)
                )
            self._remember(change.path, change.new)
            await self.emitter.emit(
                FileChanged(
                    actor=actor,
                    path=change.path,
                    change="added" if change.old is None else "deleted" if change.new is None else "modified",
                    diff=diff,
                    via=via,
                    owner=self.ownership.owner_of(change.path),
                    in_scope=self._in_scope(actor, change.path),
                )
            )
        return rolled

    # --- watcher ---------------------------------------------------------------------------------

    def _watch_filter(self, change: Change, path: str) -> bool:
        if path.startswith(str(self._probe)):
            return True
        try:
            rel = Path(path).relative_to(self.root).as_posix()
        except ValueError:
            return False
        return not is_noise(rel)

    async def _start_watcher(self, debounce_ms: int, step_ms: int) -> None:
        self._probe.mkdir(parents=True, exist_ok=True)
        self._watch_task = asyncio.create_task(self._watch(debounce_ms, step_ms), name="sandbox-watcher")
        # The watcher is ready once it reports a change to a private probe file outside the workspace.
        for attempt in range(500):
            (self._probe / "probe").write_text(str(attempt))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._ready.wait()), 0.01)
                return
            if self._watch_task.done():
                break
        if self._watch_task.done() and self._watch_task.exception() is not None:
            raise SandboxError(f"the file watcher did not start: {self._watch_task.exception()}")
        raise SandboxError("the file watcher did not start within 5 s")

    async def _watch(self, debounce_ms: int, step_ms: int) -> None:
        """Follow the disk; if watchfiles gives up (it cannot decode a file name that is not UTF-8,
        for one), reconcile the whole tree and watch again, so no change is missed."""
        while not self._stop.is_set():
            try:
                await self._watch_once(debounce_ms, step_ms)
            except Exception:
                async with self._lock:
                    await self._settle("external", "external", self._changes(None))
                await asyncio.sleep(0.05)
            else:
                return

    async def _watch_once(self, debounce_ms: int, step_ms: int) -> None:
        probe = str(self._probe)
        async for batch in awatch(
            self.root,
            self._probe,
            watch_filter=self._watch_filter,
            debounce=debounce_ms,
            step=step_ms,
            stop_event=self._stop,
        ):
            if any(path.startswith(probe) for _, path in batch):
                self._ready.set()
            if any(not path.startswith(probe) for _, path in batch):
                async with self._lock:
                    await self._settle("external", "external", self._changes(None))

    # --- tests -----------------------------------------------------------------------------------

    async def run_tests(
        self,
        tests: Mapping[str, str],
        *,
        restore: Sequence[str] = (),
        overlay: Mapping[str, str] | None = None,
        timeout: float = 60,  # noqa: ASYNC109 - enforced by the runner killing its child
    ) -> testrun.TestOutcome:
        """Run test files (name -> source) with :func:`sandbox.testrun.run_tests` against the
        workspace as the event stream knows it, with the ``restore`` paths put back to baseline
        (used to attribute harm causally) and the ``overlay`` contents put in (used to try a write
        before it lands: guarded assistance). The tests run on a private copy, so agents keep working
        meanwhile and the tests never show up in the workspace."""
        restored = [normalise(p) for p in restore]
        async with self._lock:
            await self._settle("external", "external", self._changes(None))
            snapshot = dict(self._known)
        for p in restored:
            data = self._baseline.get(p)
            if data is None:
                snapshot.pop(p, None)
            else:
                snapshot[p] = data
        for p, content in (overlay or {}).items():
            snapshot[normalise(p)] = content.encode("utf-8")
        copy = Path(tempfile.mkdtemp(prefix="tests-", dir=self._tmp))
        try:
            for rel, data in snapshot.items():
                _put_entry(copy / rel, data)
            return await testrun.run_tests(copy, tests, timeout=timeout)
        finally:
            shutil.rmtree(copy, ignore_errors=True)
