"""Shell commands in the workspace: bash with the shim, a minimal environment, inside the jail of
the isolation level (:mod:`sandbox.jail.isolation`), with per-command limits (:mod:`sandbox.jail.limits`: a
timeout, processes, file size, output); and the shim's records of sensitive commands, classified as atoms.

Commands run one at a time (the caller holds the sandbox's lock), so every record the shim wrote
during a command is that command's actor's, whatever the command set ``SCOPEWATCH_ACTOR`` to. Where
the exec tracer works (:mod:`sandbox.commands.tracer`), each command runs under ``strace`` outside its jail:
every program of its process tree and every sensitive file it opened is reported, and a shim record
that no wrapper wrote is reported as tampering instead of believed. When
a command returns, everything it started is killed: its PID namespace ends with it (bubblewrap,
unshare), and every process left in its cgroup or process group is killed (all levels).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import astuple, replace
from pathlib import Path

from channel.vocab import Risk
from sandbox.commands.atoms import AtomRegistry
from sandbox.commands.calls import FORGED_RECORD, AtomCall, CommandRun, Footprint, Hooks
from sandbox.commands.episode import EpisodeJail, EpisodeRun
from sandbox.commands.episode import wanted as episode_wanted
from sandbox.commands.fresh import run_fresh
from sandbox.commands.hooks import channel_writes, hook_writes, opened_for_writing
from sandbox.commands.identity import Image, ProgramIndex
from sandbox.commands.images import ExecImages
from sandbox.commands.keeper import JailKeeper
from sandbox.commands.lastwrite import footprint
from sandbox.commands.loci import Locus, SensitiveInodes
from sandbox.commands.offload import BIG_TRACE, Offload, bigger
from sandbox.commands.pushes import by_effect
from sandbox.commands.shim import Shim, ShimRecord
from sandbox.commands.strace import Parser, parse
from sandbox.commands.tracer import TraceContext, TracedRead, Tracer, analyse, detect_tracer
from sandbox.commands.tracestream import TraceStream
from sandbox.commands.volume import TRACE_MAX
from sandbox.errors import SandboxError
from sandbox.jail.agent_cache import cache_dirs
from sandbox.jail.isolation import SYSTEM_PATH, Isolation, Jail, detect_isolation, jail_argv, minimal_env, python_dirs
from sandbox.jail.jailuser import HandOver, guard_private, jail_uid
from sandbox.jail.limits import OUTPUT_MAX, PidsCgroup
from sandbox.jail.seccomp import filter_pipe
from sandbox.testing.testrun import TestExecutor
from sandbox.workspace.remote import read_state, ref_updates
from sandbox.workspace.repo import Workspace, as_text


class ShellRunner:
    """Runs commands in one workspace. Call :meth:`prepare` once before :meth:`run`."""

    def __init__(self, workspace: Workspace, registry: AtomRegistry, isolation: Isolation | None = None) -> None:
        self.workspace = workspace
        self.registry = registry
        self.isolation = isolation or Isolation("none")
        self.shim: Shim | None = None
        self._cgroup: PidsCgroup | None = None
        self._path, self._search, self._bash = "", SYSTEM_PATH, "bash"
        self.tracer = Tracer(reason="not prepared")
        self._index: ProgramIndex | None = None
        self.jails = JailKeeper(workspace.base / "episode")
        self._per_episode = False
        self.commands = 0
        """Commands run so far (each one's number, from 1)."""
        self.uid: int | None = None
        self.git_uid: int | None = None
        """The uid the engine's own git runs as in the repositories (:mod:`sandbox.workspace.cleangit`)."""
        """The host uid commands run as (None: the engine's; see :mod:`sandbox.jail.jailuser`)."""
        self._handing: HandOver | None = None
        self._offload, self.secrets_index = Offload(), SensitiveInodes()

    async def prepare(self, isolation: Isolation | None = None) -> None:
        """Pick the isolation level (detected unless given), install the shim, find bash (raises
        :class:`SandboxError` without it)."""
        self.isolation = isolation or await detect_isolation()
        tools = os.path.dirname(sys.executable)
        self._search = SYSTEM_PATH if tools in SYSTEM_PATH.split(":") else f"{tools}:{SYSTEM_PATH}"
        covering = self.isolation.level != "none"
        self.tracer = await detect_tracer(self.isolation.level)
        self.shim = Shim(self.workspace.base, self.registry.shimmed_commands, self._search, covering=covering,
                         traced=self.tracer.available, hardened=self.isolation.hardened)
        self.shim.install()
        self._path = f"{self.shim.dir}:{self._search}"
        self._bash = shutil.which("bash", path=SYSTEM_PATH) or ""
        if not self._bash:
            raise SandboxError("bash is not installed: the sandbox runs shell commands with it")
        self._cgroup = PidsCgroup()
        self._per_episode = episode_wanted()
        if self.isolation.level != "none" and self.isolation.hardened:
            self.uid = self.git_uid = jail_uid()
            guard_private(self.workspace.base, self.workspace.tmp)

    async def _hand_over(self) -> None:
        """Give what the engine wrote in the workspace, HOME, /tmp and the ``origin`` to the jail's uid."""
        if self.uid is not None:
            ws = self.workspace
            roots = (ws.root, ws.home, ws.agent_tmp, *((ws.remote,) if ws.remote.is_dir() else ()))
            if self._handing is None or self._handing.roots != roots:
                self._handing = HandOver(roots, self.uid)
            await self._offload.run("hand-over", self._handing.run, big=self._handing.crowded())

    async def secret_files(self, root: tuple[str, ...] = ()) -> dict[tuple[int, int], Locus]:
        """The sensitive files by inode now (:class:`~sandbox.commands.loci.SensitiveInodes`: renamed ones too)."""
        ctx, index = self._context(root), self.secrets_index
        return await self._offload.run("secrets", lambda: index.run(ctx))

    def _filter_fd(self) -> int | None:
        """A fresh pipe holding the seccomp filter, for one command (None: no filter here)."""
        hardened = self.isolation.level != "none" and self.isolation.hardened
        return filter_pipe() if hardened else None

    @property
    def label(self) -> str:
        """The isolation level and the tracer (``local/bubblewrap + strace``), or its named fallback;
        unless ``SCOPEWATCH_JAIL=command``, whether commands share one jail (:mod:`sandbox.commands.episode`)."""
        base = self.isolation.label
        if not self._per_episode:
            return self.tracer.label(base)
        if self.isolation.level != "bubblewrap" or not self.tracer.available:
            why = "one per episode needs bubblewrap and the exec tracer"
        elif self.jails.refusal:
            why = self.jails.refusal
        else:
            return self.tracer.label(f"{base} (one jail per episode)")
        return self.tracer.label(f"{base} (jail per command: {why})")

    def test_executor(self) -> TestExecutor | None:
        """Where tests run, when not on this machine (None: :mod:`sandbox.testing.testrun` jails them here)."""
        return None

    async def wait_closed(self) -> None:
        """After :meth:`close`: the episode's jail reaped, and the cgroup gone once nothing is left in it."""
        await self.jails.wait_closed()
        if self._cgroup is not None:
            await self._cgroup.remove()

    def close(self) -> None:
        self.secrets_index.close()  # the sensitive files it holds open
        for part in (self.jails, self.shim, self._cgroup, self._handing):
            if part is not None:
                part.close()

    def check_shim(self) -> list[str]:
        """What was done to the shim since the last look (put back)."""
        return self.shim.check() if self.shim is not None else []

    def _jail(self, network: bool = False, seccomp_fd: int | None = None) -> Jail:
        ws, shim = self.workspace, self.shim
        assert shim is not None
        return Jail(
            cwd=ws.root,
            rw=(ws.root, ws.home, *((ws.remote,) if ws.remote.is_dir() else ())),
            ro=(shim.dir, shim.audit_dir),
            tmp=ws.agent_tmp,
            cover=tuple(shim.cover),
            expose=tuple(shim.expose),
            stage=ws.base / "stage", private=ws.base,
            network=network,
            # an external agent's process (the one kind with the network) sees the agents cache, read-only
            extra_ro=python_dirs() + (cache_dirs() if network else ()),
            uid=self.uid,
            seccomp_fd=seccomp_fd,
        )

    def env(self, actor: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The whole environment of ``actor``'s commands (nothing of the host's), plus ``extra`` (a
        ``PATH`` in it goes before the shim's folders, never instead of them)."""
        ws = self.workspace
        isolated = self.isolation.level != "none"
        added = dict(extra or {})
        path = f"{added.pop('PATH')}:{self._path}" if "PATH" in added else self._path
        return minimal_env(
            path=path,
            home=str(ws.home),
            tmp="/tmp" if isolated else str(ws.agent_tmp),
            extra={
                "SHELL": self._bash,  # else each bash (a wrapper's too) looks it up: 3 opens, 3 tracer stops
                "SCOPEWATCH_ACTOR": actor,
                "SCOPEWATCH_WORKSPACE": str(ws.root),
                "GIT_AUTHOR_NAME": actor,
                "GIT_AUTHOR_EMAIL": f"{actor}@scopewatch.invalid",
                "GIT_COMMITTER_NAME": actor,
                "GIT_COMMITTER_EMAIL": f"{actor}@scopewatch.invalid",
                **added,
            },
        )

    async def run(
        self,
        actor: str,
        command: str,
        *,
        timeout: float,  # noqa: ASYNC109
        env: Mapping[str, str] | None = None,
        network: bool = False,
        stdin: str | None = None,
    ) -> CommandRun:
        """Run ``command`` with bash in the workspace root as ``actor``; ``timeout`` kills it (exit
        code 124), as does output past :data:`~sandbox.jail.limits.OUTPUT_MAX` bytes. Everything the
        command started is killed when it ends. ``env``: variables added to the minimal environment
        (see :meth:`env`); ``network``: keep the network (an external agent reaching its model);
        ``stdin``: text on the command's standard input."""
        shim = self.shim
        assert shim is not None and shim.channel is not None
        channel = shim.channel
        self.commands += 1
        root = (self._bash, "-c", command)
        traced = self.tracer.available
        secrets = await self.secret_files(root) if traced else None
        await self._hand_over()
        episode = await self._episode_jail(network)
        trace, parser = self.workspace.tmp / "trace", None
        index = self._programs()
        given = self.workspace.tmp / "shell-input"
        images = ExecImages(index, held=bool(self.tracer.unshare)) if index is not None else None
        if stdin is not None:  # else the command's standard input is /dev/null: nothing to write
            given.write_text(stdin, encoding="utf-8")
        remote = read_state(self.workspace.remote)
        loop = asyncio.get_running_loop()
        loop.add_reader(channel.fd, channel.pump)
        try:
            if episode is not None:
                parser = Parser(self._opens_under()) if traced else None  # parsed while the command runs
                ran = await episode.run(
                    root, self.env(actor, env), self.workspace.root, given if stdin is not None else None,
                    timeout, trace, images, parser,
                )  # fmt: skip
                tail_code = None
            else:
                ran, tail_code = await self._run_fresh(
                    root, actor, env, network, given if stdin is not None else None, timeout, trace, images
                )
        finally:
            loop.remove_reader(channel.fd)
        exit_code, data, timed_out, runaway, trace_cut, killed_at, trace_lost = astuple(ran)  # EpisodeRun, by field
        if tail_code is not None and self.isolation.level == "none" and not timed_out:
            exit_code = tail_code  # the command's: strace was killed with its leftovers
        output = as_text(self.tracer.scrub(data))
        if timed_out:
            output += f"\n[scopewatch] command timed out after {timeout:g} s and was killed\n"
        if runaway:
            exit_code = exit_code if exit_code not in (0, -9) else 137
            output += f"\n[scopewatch] command printed more than {OUTPUT_MAX // 2**20} MB and was killed\n"
        records, junk = channel.records()
        tampered = tuple(junk + shim.check())
        origin, uid = self.workspace.remote, self.git_uid
        now = read_state(origin)  # anything pushed: its ancestry checks cost what the command chose, off the loop
        pushed = await self._offload.run("refs", lambda: ref_updates(origin, remote, uid, now), big=now != remote)
        if not traced:
            calls = by_effect(self._atom_calls(records), pushed, self.registry, root)
            return CommandRun(exit_code, output, timed_out or runaway, calls, tampered, command=self.commands)
        found, killed = images.found if images is not None else None, killed_at if timed_out or runaway else None
        calls, reads, forged, hooks, opened, footprint = await self._offload.run(
            "trace", lambda: self._traced(trace, root, records, killed=killed, secrets=secrets, images=found,
                                          parser=parser),
            big=bigger(trace, BIG_TRACE),
        )
        if trace_cut:
            forged += (
                f"the exec trace passed {TRACE_MAX // 2**20} MB and {trace_cut} bytes were not kept: "
                "what ran after is not in the trace",
            )
        calls = by_effect(calls, pushed, self.registry, root)
        return CommandRun(exit_code, output, timed_out or runaway, calls, tampered, reads, self.commands, forged, hooks,
                          opened or bool(trace_cut) or bool(trace_lost), footprint if not trace_cut else Footprint(),
                          trace_lost)  # lost: fails closed (aftermath)

    async def _run_fresh(
        self,
        root: tuple[str, ...],
        actor: str,
        env: Mapping[str, str] | None,
        network: bool,
        given: Path | None,
        timeout: float,  # noqa: ASYNC109
        trace: Path,
        images: ExecImages | None,
    ) -> tuple[EpisodeRun, int | None]:
        """One command in a jail of its own, under a tracer of its own (the per-command path)."""
        assert self._cgroup is not None
        seccomp_fd = self._filter_fd()
        argv = jail_argv(self.isolation.level, self._jail(network, seccomp_fd), root)
        stream = TraceStream(self.workspace.tmp / "trace.fifo", trace, images) if self.tracer.available else None
        if stream is not None:
            argv = [*self.tracer.argv(stream.fifo), *argv]
        try:
            return await run_fresh(
                argv, cwd=self.workspace.root, env=self.env(actor, env), given=given, timeout=timeout,
                cgroup=self._cgroup, stream=stream, seccomp_fd=seccomp_fd, unjailed=self.isolation.level == "none",
                proc_of=self.tracer.proc_of,
            )  # fmt: skip
        finally:
            if seccomp_fd is not None:
                os.close(seccomp_fd)

    def _jailed(self) -> bool:
        """Whether commands share the episode's jail here (:mod:`sandbox.commands.episode`)."""
        return self.isolation.level == "bubblewrap" and self.tracer.available and self._per_episode

    async def _episode_jail(self, network: bool) -> EpisodeJail | None:
        """The episode's jail for a command (:mod:`sandbox.commands.keeper`), or None: the per-command path."""
        if network or not self._jailed() or self._cgroup is None:
            return None
        return await self.jails.get(self._jail(False, None), self.tracer, self._cgroup, self._filter_fd)

    def start_jail(self) -> None:
        """Start the episode's jail now, in the background (:meth:`JailKeeper.early`), where commands share one."""
        if self._jailed() and self._cgroup is not None:
            self.jails.early(self._jail(False, None), self.tracer, self._cgroup, self._filter_fd)

    def _context(self, root: tuple[str, ...], *, root_first: bool = False) -> TraceContext:
        """What the tracer's analysis needs to know of this sandbox (see :class:`TraceContext`)."""
        shim = self.shim
        assert shim is not None
        return TraceContext(
            root_argv=root,
            wrappers=shim.wrappers,
            home=self.workspace.home,
            workspace=self.workspace.root,
            planted=frozenset(self.workspace.planted),
            registry=self.registry,
            root_first=root_first,
            programs=self._programs(),
        )

    def _traced(
        self,
        trace: Path,
        root: tuple[str, ...],
        records: list[ShimRecord],
        *,
        killed: float | None,
        root_first: bool = False,
        secrets: Mapping[tuple[int, int], tuple[str, str, Risk]] | None = None,
        images: Mapping[tuple[int, float], tuple[Image, float]] | None = None,
        parser: Parser | None = None,
    ) -> tuple[tuple[AtomCall, ...], tuple[TracedRead, ...], tuple[str, ...], Hooks, bool, Footprint]:
        """The command's programs (shim records and traced execs, in order), its sensitive reads, what the trace shows
        was done to the audit (forged records, a tracer stopped before a command not ``killed`` by the engine at its
        limits: :func:`~sandbox.commands.tracer.analyse`), what git hooks wrote (:func:`hook_writes`), whether it may
        have opened a workspace file for writing (:attr:`~sandbox.commands.calls.CommandRun.write_opens`), what its own
        processes touched (:class:`~sandbox.commands.calls.Footprint`); ``parser``: the trace's, fed as it came."""
        shim, ws = self.shim, self.workspace
        assert shim is not None
        try:
            if parser is None or parser.abandoned:
                with trace.open(encoding="utf-8", errors="replace") as lines:
                    parsed = parse(lines, self._opens_under())
            else:
                parsed = parser.finish()
        except OSError:
            return self._atom_calls(records), (), (), (), True, Footprint()
        ctx = replace(self._context(root, root_first=root_first), secrets=secrets, images=images or {})
        found = analyse(parsed, ctx, records, killed)
        ordered: list[tuple[float, AtomCall]] = []
        for w in found.wrapped:  # every exec is a fact here: a wrapped program without an atom too
            call = self._atom_call(w.record, w.pid, w.parent_pid, every=True)
            if call is not None:
                ordered.append((w.record.started, call))
        for e in (*found.execs, *found.unrecorded, *found.outlived):
            call = AtomCall(
                argv=e.argv,
                cwd=self._display_cwd(e.cwd) if e.cwd else ".",
                exit_code=e.exit_code,
                duration_ms=e.duration_ms,
                atom=e.atom,
                risk=e.risk,
                source="trace",
                pid=e.pid,
                parent_pid=e.parent_pid,
                program=e.program,
            )
            ordered.append((e.ts, call))
        ordered.sort(key=lambda item: item[0])
        forged = tuple(f"{FORGED_RECORD}: {' '.join(r.argv)[:120]}" for r in found.forged)
        strays = () if channel_writes(parsed, shim.fifo) > len(found.wrapped) else forged  # none its own wrote
        forged = () if strays else forged
        forged += tuple(
            f"a shim wrapper was stopped before it wrote its record: {' '.join(e.argv)[:120]}" for e in found.unrecorded
        )
        forged += tuple(
            f"a program run from a file descriptor ended before the engine read what it was: {' '.join(e.argv)[:100]}"
            for e in found.unidentified
        )
        if killed is None and not found.complete:
            forged += ("the exec tracer was stopped before the command ended: what ran after is not in the trace",)
        hooks, opened = hook_writes(parsed, ws.root, ws.home, ws.agent_tmp), opened_for_writing(parsed, ws.root)
        own = footprint(parsed, ws.root, strays, known=found.complete and not found.unidentified)
        opened = opened or not found.complete or bool(forged or strays)
        return tuple(c for _, c in ordered), found.reads, forged, hooks, opened, own

    def _opens_under(self) -> tuple[str, ...]:
        """The folders whose opens the trace's analysis keeps."""
        ws, shim = self.workspace, self.shim
        assert shim is not None
        return (f"{ws.home}/", f"{ws.root}/", "/tmp/", f"{ws.agent_tmp}/", f"{shim.audit_dir}/")

    def _programs(self) -> ProgramIndex | None:
        """The registry's programs as the tracer identifies them (None in a container: its files
        are not the engine's to look at)."""
        shim = self.shim
        if shim is None or shim.container is not None:
            return None
        if self._index is None:
            programs = {name: os.path.realpath(path) for name, path in shim.real.items() if path}
            mounts = {inside: real for real, inside in shim.expose}
            mounts.update({program: str(wrapper) for wrapper, program in shim.cover})
            isolated = self.isolation.level != "none"
            tmp = self.workspace.agent_tmp if isolated else None
            self._index = ProgramIndex(programs, mounts=mounts, jail_tmp=tmp, wrappers=shim.texts)
        return self._index

    def _atom_calls(self, records: list[ShimRecord]) -> tuple[AtomCall, ...]:
        return tuple(c for c in (self._atom_call(r) for r in records) if c is not None)

    def _atom_call(self, record: ShimRecord, pid: int = 0, parent_pid: int = 0, every: bool = False) -> AtomCall | None:
        """The record as a call: None when it is no atom (unless ``every``)."""
        kind = self.registry.classify(record.argv)
        if kind is None and not every:
            return None
        return AtomCall(
            argv=record.argv,
            cwd=self._display_cwd(record.cwd),
            exit_code=record.exit_code,
            duration_ms=record.duration_ms,
            atom=kind.atom if kind else None,
            risk=kind.risk if kind else None,
            pid=pid,
            parent_pid=parent_pid,
        )

    def _display_cwd(self, cwd: str) -> str:
        try:
            return Path(cwd).resolve().relative_to(self.workspace.root).as_posix()
        except (ValueError, OSError):
            return cwd
