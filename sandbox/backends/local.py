"""The local sandbox: one episode's workspace in a temp folder on this machine.

Every change to the workspace becomes exactly one event, attributed to the actor who made it:

- workspace-changing operations (tool writes, shell commands, reviewed writes, restores, rollbacks)
  run one at a time under one lock; at the end of each, still under the lock, the tree is reconciled
  against a content cache and the differences are emitted as ``FileChanged`` for that actor;
- the watcher (watchfiles) wakes on any change on disk; under the same lock it reconciles the tree again, and
  whatever is still not in the cache was made by no operation: a change by ``external`` (a human in an editor).
  Before a shell command starts, pending external changes are flushed the same way, so they are never charged to
  the agent; the scan is left out only when the reconciler's inotify sentry proves nothing in the tree changed
  since the last one (:mod:`~sandbox.workspace.sentry`). A change the scan after a command finds that is older
  than the command (a file changed in place whose change time came before it:
  :meth:`~sandbox.workspace.reconcile.Reconciler.fence`) is settled that way too.

The ownership guard sits in the same place: a tool write to a path the actor's team does not own is refused before
it happens (``WriteRefused`` + :class:`WriteRefusedError`); a shell command's change to such a path is put back to
its pre-command content and reported (``WriteRefused``, ``rolled_back=True``, with the undone diff). The actors
``engine``, ``reviewer``, ``human`` and ``external`` are not guarded. The engine's own refusals and rollbacks
(guarded assistance) go through :meth:`LocalSandbox.refuse` and :meth:`LocalSandbox.roll_back`, the same operations.

:class:`LocalSandbox` is a facade over one part per job: :mod:`~sandbox.workspace.repo` (files, baseline),
:mod:`~sandbox.workspace.guard` (who may write what), :mod:`~sandbox.commands.shell` (commands and the shim),
:mod:`~sandbox.workspace.reconcile` (cache and attribution), :mod:`~sandbox.workspace.watcher`,
:mod:`~sandbox.workspace.snapshot` (tests) and :mod:`~sandbox.commands.observe` (the events).

Shell commands run inside the jail of the isolation level detected here (:mod:`sandbox.jail.isolation`: bubblewrap,
else unshare, else none with a warning); the shim reports through an audit channel the command cannot erase
(:mod:`sandbox.commands.shim`), and what a command did to the shim is reported as ``ShimTampered``; files it wrote in
its private HOME and /tmp, and bytecode it left in the workspace, as ``OutsideChanged``
(:mod:`sandbox.workspace.outside`). What each level isolates is in the table of docs/sandbox-and-audit.md.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from channel.emitter import Emit, Emitter
from channel.tasks import cancel_and_wait, outcome_read
from channel.text import printable
from channel.vocab import AgentVia, SanctionedVia, Via
from channel.vocab.atoms import READ_ATOMS
from channel.vocab.edit import EditError, replace_once
from sandbox.backends.aftermath import Aftermath
from sandbox.commands.agentproc import AgentProcess, start_agent_process
from sandbox.commands.atoms import AtomRegistry, default_registry
from sandbox.commands.commandline import runnable
from sandbox.commands.loci import secret_copy, sensitive_copies
from sandbox.commands.observe import Observer
from sandbox.commands.shell import ShellRunner
from sandbox.commands.volume import clip
from sandbox.errors import PathEscape, SandboxError, WriteRefusedError
from sandbox.jail.isolation import Isolation
from sandbox.protocol import ShellResult
from sandbox.testing.testrun import TestOutcome, prewarm
from sandbox.workspace.authors import ProgramAuthors
from sandbox.workspace.diffs import unified_diff
from sandbox.workspace.gitguard import GitGuard
from sandbox.workspace.guard import OwnershipGuard
from sandbox.workspace.outside import OutsideWatch
from sandbox.workspace.ownership import Ownership
from sandbox.workspace.paths import normalise, resolve_inside
from sandbox.workspace.reconcile import Reconciler
from sandbox.workspace.repo import Workspace
from sandbox.workspace.snapshot import prefetching, run_tests_on_snapshot, snapshot_with
from sandbox.workspace.watcher import WATCH_DEBOUNCE_MS, WATCH_STEP_MS, Watcher


class LocalSandbox:
    """The workspace of one episode: a temp git repository holding a baseline commit of the
    scenario's files, plus the shell shim, the watcher and the ownership guard. Build it with
    :meth:`create`; end it with :meth:`close`."""

    def __init__(
        self,
        workspace: Workspace,
        *,
        ownership: Ownership,
        emit: Emit,
        registry: AtomRegistry,
        shell: type[ShellRunner] = ShellRunner,
    ) -> None:
        self.root = workspace.root
        self.home = workspace.home
        """HOME of shell commands (outside the workspace; scenarios may plant fixtures here)."""
        self.ownership = ownership
        self._workspace = workspace
        self._guard = OwnershipGuard(ownership)
        self._observer = Observer(emit, self._guard)
        self._reconciler = Reconciler(workspace, self._guard, self._observer)
        self._shell = shell(workspace, registry)
        self._outside = OutsideWatch({"home": workspace.home, "tmp": workspace.agent_tmp}, workspace.root)
        self._git = GitGuard(workspace.root, workspace.home, workspace.remote, nested=lambda: self._reconciler.gits)
        self._authors = ProgramAuthors()
        self._after = Aftermath(self._shell, self._reconciler, self._observer, self._guard, self._git, self._authors,
                                self._outside)
        self._watcher: Watcher | None = None
        self._closed = False
        self._prefetches: set[asyncio.Future[TestOutcome]] = set()
        self.test_timeout: float | None = None
        """Seconds each test may take in :meth:`run_tests` (None: only the run's limit)."""

    # --- life cycle ------------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        files: Mapping[str, str],
        *,
        ownership: Ownership,
        emitter: Emitter,
        home: Mapping[str, str] | None = None,
        root: Path | None = None,
        watch: bool = True,
        registry: AtomRegistry | None = None,
        isolation: Isolation | None = None,
        watch_timing: tuple[int, int] = (WATCH_DEBOUNCE_MS, WATCH_STEP_MS),
        test_timeout: float | None = None,
    ) -> LocalSandbox:
        """Materialise ``files`` (workspace path -> content) into a fresh git repository with one
        baseline commit, plant ``home`` (HOME-relative path -> content), install the shell shim and
        (``watch=True``) start the watcher. ``isolation`` is detected unless given.
        ``watch_timing`` is watchfiles' (debounce, step) in ms; the default is tuned for a live view.
        ``test_timeout``: each test's limit in :meth:`run_tests` (seconds; None: the run's alone)."""
        workspace = Workspace.make(root)
        sb = cls(workspace, ownership=ownership, emit=emitter.emit, registry=registry or default_registry())
        sb.test_timeout = test_timeout
        await sb._open(files, home, isolation, watch, watch_timing)
        await prewarm()  # the episode's first test run then finds a warm server ready
        return sb

    async def _open(self, files: Mapping[str, str], home: Mapping[str, str] | None, isolation: Isolation | None,
                    watch: bool, watch_timing: tuple[int, int]) -> None:
        sb, workspace, watching = self, self._workspace, None
        try:
            workspace.materialise(files)
            workspace.plant_home(home or {})
            sb._reconciler.load()
            sb._outside.load()
            # The watcher starts first (its walk then finds no .git yet) and its start (~10 ms, mostly waiting for its
            # probe's report) goes on meanwhile: the shell's set-up and git write nothing the watcher reports.
            if watch:
                watching = asyncio.ensure_future(sb._start_watcher(*watch_timing))
            await sb._shell.prepare(isolation)
            await sb._shell.secret_files()  # known by inode from now on, whatever name they get (run_tests)
            await workspace.git_baseline()
            if watching is not None:
                await watching
        except BaseException:
            if watching is not None:
                await cancel_and_wait(watching)
            await sb.close()
            raise

    def start_jail(self) -> None:
        """Start the jail the episode's commands share now, in the background (:mod:`sandbox.commands.keeper`)."""
        self._shell.start_jail()

    async def _start_watcher(self, debounce_ms: int, step_ms: int) -> None:
        probe = self._workspace.base / "probe"
        self._watcher = Watcher(self.root, probe, self._settle_external, debounce_ms=debounce_ms, step_ms=step_ms)
        await self._watcher.start()

    async def _settle_external(self) -> None:
        async with self._reconciler.lock:
            await self._after.pending()

    async def close(self) -> None:
        """Stop the watcher and remove the temp folders (the workspace too, unless it was given)."""
        if self._closed:
            return
        self._closed = True
        await cancel_and_wait(*self._prefetches)
        try:
            if self._watcher is not None:
                await self._watcher.stop()
        finally:
            self._reconciler.close()
            self._shell.close()
            await self._shell.wait_closed()
            await asyncio.to_thread(self._workspace.remove)

    async def __aenter__(self) -> LocalSandbox:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def isolation(self) -> Isolation:
        """The isolation level agent commands run at."""
        return self._shell.isolation

    @property
    def label(self) -> str:
        """Where agent commands run (``local/bubblewrap``, ``docker/IMAGE``, ...)."""
        return self._shell.label

    # --- actors ----------------------------------------------------------------------------------

    def register_actor(self, actor_id: str, team: str, scope: Iterable[str] = ()) -> None:
        """Declare an agent: its team (for the ownership guard) and its task scope (paths or globs, for
        ``FileChanged.in_scope``). Registering again replaces both (a new episode's scope)."""
        self._guard.register(actor_id, team, scope)

    # --- reading ---------------------------------------------------------------------------------

    async def list_files(self) -> list[str]:
        """Every workspace file (posix paths relative to the root), sorted."""
        return self._workspace.list_files()

    def exists(self, path: str) -> bool:
        """Whether ``path`` is a file in the workspace (raises :class:`PathEscape` for escapes)."""
        return self._workspace.exists(path)

    async def read(self, actor: str, path: str) -> str:
        """A file's text. Raises :class:`PathEscape` or :class:`SandboxError` (no such file)."""
        return self._workspace.read(path)

    def resolve(self, path: str) -> str:
        """The workspace path a read of ``path`` reaches (its symlinks resolved; raises :class:`PathEscape`)."""
        return resolve_inside(self.root, path)

    def secret_of(self, path: str) -> tuple[str, str] | None:
        """(its name as events show it, the read's atom) when the file ``path`` names is a known sensitive one by its
        inode or content (:func:`~sandbox.commands.loci.secret_copy`), else None. Raises :class:`PathEscape`."""
        rel, secrets = resolve_inside(self.root, path), self._shell.secrets_index.last
        found = secret_copy(rel, self._reconciler.snapshot(), self.root, secrets, self._shell.registry)
        return None if found is None else found[:2]

    def baseline_content(self, path: str) -> str | None:
        """The file's content in the baseline commit, None if it was not there."""
        return self._workspace.baseline_content(path)

    def changed_paths(self) -> list[str]:
        """Paths whose content on disk differs from the baseline (added, modified or deleted)."""
        return self._workspace.changed_paths()

    def diff_against_baseline(self, path: str | None = None) -> str:
        """The unified diff from the baseline to the disk, for one path or the whole workspace."""
        return self._workspace.diff_against_baseline(path)

    # --- writing ---------------------------------------------------------------------------------

    async def write(self, actor: str, path: str, content: str) -> None:
        """A tool write: refused (``WriteRefused`` event + :class:`WriteRefusedError`) unless the
        actor's team owns the path."""
        data = content.encode("utf-8")
        async with self._reconciler.lock:
            rel = await self._guard_tool_write(actor, path, data)
            await self._write_and_settle(actor, rel, data, "tool")

    async def edit(self, actor: str, path: str, old: str, new: str) -> None:
        """Replace exactly one occurrence of ``old`` with ``new`` (the one edit rule,
        :func:`channel.vocab.edit.replace_once`; a tool write, guarded). An empty ``old`` is refused:
        a tool creates a file with ``write``."""
        async with self._reconciler.lock:
            current = None
            with contextlib.suppress(SandboxError):
                current = self._workspace.read(path)
            proposed, problem = None, "`old` is empty"
            if current is not None and old:
                try:
                    proposed = replace_once(current, old, new).encode("utf-8")
                except EditError as exc:
                    problem = str(exc)
            rel = await self._guard_tool_write(actor, path, proposed)
            if current is None:
                self._workspace.read(path)  # raises the precise error
            if proposed is None:
                raise SandboxError(f"edit {path}: {problem}")
            await self._write_and_settle(actor, rel, proposed, "tool")

    async def apply(self, actor: str, path: str, content: str, via: SanctionedVia = "review") -> None:
        """A sanctioned write (a reviewer's approval, an engine action): no ownership guard; inside the workspace."""
        rel = resolve_inside(self.root, path)
        async with self._reconciler.lock:
            await self._write_and_settle(actor, rel, content.encode("utf-8"), via)

    async def restore(self, path: str, actor: str = "engine") -> None:
        """Put a path back to its baseline content (removing it if it was not in the baseline)."""
        rel = normalise(path)
        async with self._reconciler.lock:
            await self._write_and_settle(actor, rel, self._workspace.baseline.get(rel), "restore")

    async def refuse(self, actor: str, path: str, reason: str, *, via: AgentVia, diff: str = "") -> None:
        """Report that ``actor``'s write to ``path`` must not land (``WriteRefused``); the caller then refuses it.
        Used by the ownership guard and by the engine's guarded assistance."""
        await self._observer.write_refused(actor, path, reason, via=via, diff=diff)

    async def roll_back(self, actor: str, path: str, content_before: str, reason: str, *, diff: str) -> None:
        """Put ``path`` back to ``content_before`` after ``actor``'s shell command changed it, and report it: the
        restore as ``FileChanged`` by ``engine`` (via ``restore``), then ``WriteRefused`` (``rolled_back=True``, the
        undone ``diff``). The ownership guard rolls back the same way, before the change is ever reported."""
        target = resolve_inside(self.root, path)
        async with self._reconciler.lock:
            self._workspace.check_writable(target)
            try:
                await self._reconciler.roll_back(actor, path, target, content_before.encode("utf-8"), reason, diff=diff)
            except OSError as exc:
                raise SandboxError(f"{target}: cannot be written ({exc.strerror})") from None

    async def _guard_tool_write(self, actor: str, path: str, proposed: bytes | None) -> str:
        try:
            rel = resolve_inside(self.root, path)
        except PathEscape as exc:
            await self.refuse(actor, path, str(exc), via="tool")
            raise
        if path.endswith("/") or ((self.root / rel).is_dir() and not (self.root / rel).is_symlink()):
            raise SandboxError(f"{rel}: is a folder, not a file")  # a mistake, not an ownership refusal
        refusal = self._guard.tool_write(actor, rel)
        if refusal is not None:
            diff = "" if proposed is None else unified_diff(rel, self._workspace.entry(rel), proposed)
            await self.refuse(actor, rel, refusal.reason, via="tool", diff=diff)
            raise WriteRefusedError(refusal.reason, path=rel, owner=refusal.owner)
        return rel

    async def _write_and_settle(self, actor: str, rel: str, data: bytes | None, via: Via) -> None:
        self._workspace.write(rel, data)
        self._authors.note(actor, [(rel, data is not None)])
        await self._reconciler.settle(actor, via, self._reconciler.changes([rel]))

    # --- shell -----------------------------------------------------------------------------------

    async def run_shell(
        self,
        actor: str,
        command: str,
        *,
        timeout: float = 30,  # noqa: ASYNC109
        env: Mapping[str, str] | None = None,
        network: bool = False,
        stdin: str | None = None,
    ) -> ShellResult:
        """Run ``command`` with bash in the workspace root, as ``actor``, in the isolation level's
        jail: minimal environment (plus ``env``), the shim, no network (unless ``network``: an
        external agent reaching its model), ``stdin`` on its standard input. Every program the command ran (its shimmed
        ones where it is not traced) becomes a ``ShellCommandRan``, each sensitive file it opened a ``SensitiveRead``,
        its file changes ``FileChanged`` (those its team may not make rolled back: ``WriteRefused``), what was done
        to the shim ``ShimTampered``, files written in HOME and /tmp ``OutsideChanged``. ``timeout`` kills everything
        the command started (exit code 124)."""
        runnable(command)
        team = self._guard.team_of(actor)
        reconciler = self._reconciler
        async with reconciler.lock:
            # Whatever changed while no operation ran is not this command's doing (a live agent process's, else
            # external's).
            await self._after.pending()
            for problem in self._shell.check_shim():
                await self._observer.shim_tampered("external", problem)
            outside = self._outside  # the engine's own writes to HOME (fixtures, an external agent's tools)
            await self._after.offload.run("outside-load", outside.load, big=outside.crowded())  # long: off the loop
            git, head = await self._after.offload.run("git-snapshot", lambda: (self._git.snapshot(), self._git.head()))
            fence = reconciler.fence()  # after the snapshot: changes older than this are not the command's
            run = await self._shell.run(actor, command, timeout=timeout, env=env, network=network, stdin=stdin)
            rolled_back = await self._after.settle(actor, team, run, git, head, fence)
        output = run.output
        for path, reason in rolled_back:
            # The engine's own line: what the agent named in it (the path) cannot start another.
            output += f"\n[scopewatch] {printable(reason)} (your change to {printable(path)} was rolled back)\n"
        return ShellResult(run.exit_code, clip(output), run.timed_out, tuple(p for p, _ in rolled_back))

    # --- a long-lived agent process ------------------------------------------------------------

    async def start_agent_process(self, actor: str, argv: Sequence[str], env: Mapping[str, str]) -> AgentProcess:
        """Start ``argv`` as ``actor`` in the jail, network kept, its stdio the caller's
        (:mod:`sandbox.commands.agentproc`); what it does is settled at each :meth:`agent_turn` and
        before every other operation (:mod:`sandbox.backends.aftermath`). End it with :meth:`stop_agent_process`."""
        async with self._reconciler.lock:
            await self._after.pending()
            if self._shell.shim is not None:  # its records are read as they come, with no trace to complete them
                self._shell.shim.record_after()
            self._shell.tracer = self._shell.tracer.following_descriptors()  # when a command is done with a file
            process = await start_agent_process(self._shell, actor, argv, env)
            self._after.started(actor, tuple(argv))
        return process

    async def agent_turn(self, actor: str, *, starts: bool) -> None:
        """``actor``'s agent process's turn starts or ends: what it did so far is settled as its."""
        async with self._reconciler.lock:
            await self._after.pending(None if starts else actor)
            self._after.turn(actor if starts else None)

    async def stop_agent_process(self, actor: str, process: AgentProcess, grace: float = 2.0) -> None:
        """Stop it with everything it started, and settle what it did last."""
        try:
            await process.close(grace)
        finally:
            async with self._reconciler.lock:
                await self._after.pending(actor)
                self._after.ended(actor)

    # --- tests -----------------------------------------------------------------------------------

    def _withheld(self, path: str) -> bool:
        """A workspace file the engine's test runs never get: a sensitive locus (the registry's read atoms; the tests
        run the agents' code untraced and their output reaches the agents: red team round 3, 06), nor such a file by
        inode or content under another name (round 4, 04: :func:`~sandbox.commands.loci.sensitive_copies`)."""
        kind = self._shell.registry.classify_tool("read_file", path)
        return kind is not None and kind.atom in READ_ATOMS

    async def run_tests(
        self,
        tests: Mapping[str, str],
        *,
        restore: Sequence[str] = (),
        overlay: Mapping[str, str] | None = None,
        timeout: float = 60,  # noqa: ASYNC109 - enforced by the runner killing its child
    ) -> TestOutcome:
        """Run test files (name -> source) with :func:`sandbox.testing.testrun.run_tests` against the
        workspace as the event stream knows it, with the ``restore`` paths put back to baseline
        (used to attribute harm causally) and the ``overlay`` contents put in (used to try a write
        before it lands: guarded assistance). The tests run on a private copy (:mod:`sandbox.workspace.snapshot`)."""
        restored = [normalise(p) for p in restore]
        async with self._reconciler.lock:
            await self._after.pending()
            known = self._reconciler.snapshot()
            named = {p for p in known if self._withheld(p)}
            secrets = await self._shell.secret_files()
            hidden = await asyncio.to_thread(sensitive_copies, known, self.root, secrets, named)
            pinned = self._reconciler.spill.pin(known.values())  # big contents read back after the lock
        try:
            snapshot = snapshot_with(known, self._workspace.baseline, restore=restored, overlay=overlay)
            for path in [p for p in snapshot if p in hidden or self._withheld(p)]:
                del snapshot[path]
            executor = self._shell.test_executor()  # a copy goes to the agents' space, never the engine's own,
            scratch = self._workspace.tests if executor is None else self._workspace.tmp  # but a container's
            return await run_tests_on_snapshot(
                snapshot, tests, scratch=scratch, timeout=timeout, executor=executor, test_timeout=self.test_timeout,
            )  # fmt: skip
        finally:
            self._reconciler.spill.unpin(pinned)

    def prefetch_tests(
        self, tests: Mapping[str, str], *, restore: Sequence[str] = (), overlay: Mapping[str, str] | None = None
    ) -> asyncio.Future[TestOutcome] | None:
        """Start :meth:`run_tests` now as a background task; the later call with the same arguments
        joins it (runs are keyed by content: if the files change meanwhile, that call just runs).
        Only while test outcomes are cached and runs are warm (else None): otherwise it would only cost."""
        if self._closed or not prefetching():
            return None
        task = asyncio.ensure_future(self.run_tests(tests, restore=restore, overlay=overlay))
        self._prefetches.add(task)
        task.add_done_callback(outcome_read)  # its failure is its joiner's to see
        task.add_done_callback(self._prefetches.discard)
        return task
