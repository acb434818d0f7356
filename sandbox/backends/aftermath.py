"""What an agent's run left, made events: after each shell command, and for a long-lived agent process
(an ACP agent, :mod:`sandbox.commands.agentproc`) at the end of each of its turns and before anything
else runs (a command, tests, the watcher's scan).

After a command (:meth:`Aftermath.settle`, the lock held): its programs (``ShellCommandRan``), its sensitive reads,
what it did to the shim, its files in HOME and /tmp (``OutsideChanged``), its workspace changes (``FileChanged``,
or rolled back and ``WriteRefused`` where its team may not write, as what it did to ``.git``). The workspace is
scanned whatever the inotify sentry says unless the command's whole trace shows no open of a workspace file for
writing (:attr:`~sandbox.commands.calls.CommandRun.write_opens`: an untraced command, an agent process's turn, are
always scanned).

A live agent process is not traced: what it did since the last look (:meth:`Aftermath.pending`) is read from
the shim's records and its effects, and settled the same way, as one "command" of its actor's: the shimmed
programs it ran (``git``, ``curl``, ``rm``...: ``ShellCommandRan`` of source ``shim``, the records its own
wrappers wrote, not checked against a trace), the ``origin``'s refs that changed (a push, a force push: given
to its ``git push`` record, else one ``ShellCommandRan`` of source ``watcher``, with the atom of what changed,
:func:`~sandbox.commands.pushes.by_effect`), HOME's and /tmp's files, the workspace's and ``.git``'s changes.
While such a process lives, a change no operation made is its actor's (the one whose turn it is, else the one
process alive), not ``external``'s; with none alive, it is ``external``'s as ever.

While another actor's such process lives, a command is charged only with what its own process tree did (red team 5,
findings 03 and 04: alice's live process rewrote payments' file during bob's ``sleep 3``, and bob, payments' owner,
was its author; a record it wrote into the audit channel was bob's ``ShimTampered``). A change of file content the
command's trace shows none of its processes wrote, created, renamed, linked or removed
(:attr:`~sandbox.commands.calls.Footprint.written`), or changed after the last moment one of them could still write
it (a descriptor on it closed, its process ended: :mod:`sandbox.commands.lastwrite`, by the file's change time; red
team 6, 02: alice's live process appended to payments' file after bob's command had, and it was kept as bob's), or
removed by none of them, and a record no wrapper of it wrote while none of its
processes wrote to the channel beyond its wrappers (:attr:`~sandbox.commands.calls.Footprint.strays`), are settled
as what happened meanwhile: the live process's (:attr:`owner`), else ``external``'s. A command the trace does not
cover whole (untraced, a tracer stopped, a write it cannot name) keeps every change, as before; so do a change of
mode or times alone and a symlink made (``chmod``, ``utime``, ``symlink`` are not traced)."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass

from sandbox.commands.calls import CommandRun, Footprint
from sandbox.commands.gitaliases import aliased, may_be_alias
from sandbox.commands.gitargv import runs_alias
from sandbox.commands.lastwrite import last_write
from sandbox.commands.observe import Observer
from sandbox.commands.offload import Offload
from sandbox.commands.pushes import by_effect
from sandbox.commands.shell import ShellRunner
from sandbox.commands.volume import CALLS_MAX, cap_calls
from sandbox.workspace.authors import ProgramAuthors
from sandbox.workspace.diffs import LINK_MARK
from sandbox.workspace.files import SPECIAL_MARK
from sandbox.workspace.gitguard import GitGuard, GitState
from sandbox.workspace.guard import OwnershipGuard
from sandbox.workspace.outside import OutsideWatch
from sandbox.workspace.reconcile import Change, Reconciler
from sandbox.workspace.remote import RemoteState, read_state, ref_updates


@dataclass
class _Live:
    argv: tuple[str, ...]
    processes: int = 1


class Aftermath:
    """The settling of one sandbox's runs (see the module docstring); the sandbox's lock is held by the caller."""

    def __init__(self, shell: ShellRunner, reconciler: Reconciler, observer: Observer, guard: OwnershipGuard,
                 git: GitGuard, authors: ProgramAuthors, outside: OutsideWatch) -> None:
        self.shell, self.reconciler, self.observer, self.guard = shell, reconciler, observer, guard
        self.git, self.authors, self.outside = git, authors, outside
        self._live: dict[str, _Live] = {}
        self._turn: str | None = None
        self._since: tuple[RemoteState, GitState, str] | None = None
        """The ``origin``'s refs, ``.git`` and HEAD at the last look, while an agent process lives."""
        self.offload = Offload()
        """The git guard's work around a command: off the loop when it was long (many nested repositories)."""

    # --- live agent processes ------------------------------------------------------------------

    def started(self, actor: str, argv: tuple[str, ...]) -> None:
        """``actor``'s agent process started (its engine-written HOME files are known: not its changes)."""
        live = self._live.get(actor)
        if live is not None:
            live.processes += 1
        else:
            self._live[actor] = _Live(argv)
        self.outside.load()
        self._look()

    def ended(self, actor: str) -> None:
        live = self._live.get(actor)
        if live is not None:
            live.processes -= 1
            if live.processes <= 0:
                del self._live[actor]
        if self._turn == actor:
            self._turn = None
        if not self._live:
            self._since = None
            channel = self.shell.shim.channel if self.shell.shim is not None else None
            if channel is not None:
                asyncio.get_running_loop().remove_reader(channel.fd)

    def turn(self, actor: str | None) -> None:
        """``actor``'s turn starts (None: it ended): what happens meanwhile is its."""
        self._turn = actor

    @property
    def owner(self) -> str | None:
        """Whose a change no operation made is: the live agent process's (see the module docstring)."""
        if self._turn is not None and self._turn in self._live:
            return self._turn
        return next(iter(self._live)) if len(self._live) == 1 else None

    def _other(self, actor: str) -> str | None:
        """A live agent process's actor other than ``actor``, if one lives (what it does is not ``actor``'s)."""
        return next((other for other in self._live if other != actor), None)

    def _look(self) -> None:
        self._since = (read_state(self.shell.workspace.remote), self.git.snapshot(), self.git.head())
        channel = self.shell.shim.channel if self.shell.shim is not None else None
        if channel is not None:  # its shimmed programs' records, read as they come (a full pipe would block them)
            asyncio.get_running_loop().add_reader(channel.fd, channel.pump)

    async def pending(self, actor: str | None = None) -> list[tuple[str, str]]:
        """Settle what happened since the last look as the live process's (``actor``'s, or :attr:`owner`'s);
        with no live process, as ``external``'s. Returns what was rolled back."""
        owner = actor or self.owner
        if owner is None or owner not in self._live or self._since is None:
            await self.reconciler.settle_external()
            return []
        remote, git, head = self._since
        shim = self.shell.shim
        records, junk = shim.channel.records() if shim is not None and shim.channel is not None else ([], [])
        # The remote as it is now ends this window and starts the next, read after the records (a push's record
        # is written after the remote changed): a push the process makes while this window is settled is the
        # next one's (read again at the end, as it was, it fell in neither: seen by its record alone, no refs).
        now = read_state(self.shell.workspace.remote)
        pushed = await asyncio.to_thread(ref_updates, self.shell.workspace.remote, remote, self.shell.git_uid, now)
        calls = by_effect(self.shell._atom_calls(records), pushed, self.shell.registry, self._live[owner].argv)
        if calls:
            self.shell.commands += 1
        run = CommandRun(0, "", False, calls, tuple(junk), command=self.shell.commands)
        for problem in self.shell.check_shim():
            await self.observer.shim_tampered(owner, problem)
        rolled_back = await self.settle(owner, self.guard.team_of(owner), run, git, head)
        if self._since is not None:
            self._since = (now, *self._since[1:])
        return rolled_back

    async def _earlier(self, changes: list[Change]) -> None:
        """Settle ``changes``, made before the command that found them, as :meth:`pending` would have."""
        owner = self.owner
        if owner is None or owner not in self._live:
            await self.reconciler.settle("external", "external", changes)
            return
        rolled = await self.reconciler.settle(owner, "shell", changes, team=self.guard.team_of(owner))
        undone = {p for p, _ in rolled}
        self.authors.note(owner, [(c.path, c.new is not None) for c in changes if c.path not in undone])

    # --- after a command -----------------------------------------------------------------------

    async def settle(self, actor: str, team: str | None, run: CommandRun, git: GitState,
                     head: str, fence: int | None = None) -> list[tuple[str, str]]:
        """Report what ``run`` did as ``actor``'s (``git`` and ``head``: ``.git`` and HEAD before it),
        rolling back what ``team`` may not change. Returns (path, reason) of what was rolled back.

        ``fence`` (:meth:`~sandbox.workspace.reconcile.Reconciler.fence`, taken before the command): a change of an
        entry in place whose change time is earlier was made before the command, so it is not the actor's: it is
        settled as one no operation made (:meth:`pending`'s: the live agent process's, else ``external``'s), as the
        scan before the command would have, had the sentry not been quiet (red team 4, finding 02: the owner was
        charged with, and so allowed, another team's write through a hard link in ``.git``)."""
        observer, reconciler = self.observer, self.reconciler
        if not self._live:  # every process of the command is gone: a lock left is stale (an agent process's may not be)
            self.shell.workspace.clear_stale_locks()
        # A git alias from a config file is what it runs (sandbox.commands.gitaliases): read off the loop (every nested
        # repository's config, before and after).
        registry, found = self.shell.registry, tuple(run.calls)
        # runs_alias too: a -c alias (git -c alias.p='push --force' p) is expanded by may_be_alias, but its child git
        # must still give up its atom to it (one action, one atom: test_identity's force push counted twice).
        if any(may_be_alias(call.argv, registry) or runs_alias(call.argv) for call in found if call.argv):
            found = await asyncio.to_thread(aliased, found, registry, lambda: self.git.alias_views(git))
        calls, cut = cap_calls(found)
        for call in calls:
            await observer.command_ran(actor, call, run.command)
        if cut:
            why = f"{cut} programs past the cap of {CALLS_MAX} per command not reported one by one (atoms all were)"
            await observer.shim_tampered(actor, why, source="trace")
        for read in run.reads:
            await observer.sensitive_read(actor, read, run.command)
        for problem in run.tampered:
            await observer.shim_tampered(actor, problem)
        for problem in run.forged:
            await observer.shim_tampered(actor, problem, source="trace")
        other = self._other(actor)
        writer = actor if other is None else (self.owner or "external")  # of records no process of the command wrote
        for problem in run.footprint.strays:
            await observer.shim_tampered(writer, problem, source="trace")
        refuse = ""
        if run.audit_lost:  # fails closed: what it ran and read is not known, so none of its changes stays
            why = f"the engine could not keep the command's exec trace ({run.audit_lost})"
            refuse = f"write refused: {why}; the command's changes are rolled back"
            await observer.shim_tampered(actor, f"{why}: what it ran and read is not known", source="trace")
        outside = await self.offload.run("outside", self.outside.changes, big=self.outside.crowded())
        if outside:
            await observer.outside_changed(actor, outside)
        changes, rolled_back = await reconciler.look(scan=run.write_opens), []
        written = run.footprint.written
        if other is not None and written is not None:  # another's live process wrote meanwhile: by the trace
            theirs = [c for c in changes if _content(c) and not self._own(c, run.footprint)]
            if theirs:
                changes = [c for c in changes if c not in theirs]
                await self._earlier(theirs)
        if fence is not None:
            earlier = [c for c in changes if c.ctime is not None and c.ctime < fence]
            if earlier:
                changes = [c for c in changes if c.ctime is None or c.ctime >= fence]
                await self._earlier(earlier)  # what it rolls back is not this command's to be told
        # After the scan: it names the repositories nested in the work tree, this command's too.
        guarded = team is not None or bool(refuse)
        undone = await self.offload.run("git-undo", lambda: self.git.undo(git)) if guarded else []
        if not guarded:
            self.git.note_authors(git, actor)
        # A hook's or another agent's program's changes are its author's; guarded by the runner's team
        # when no team guards the author (what a command does cannot exceed what its runner may).
        # None if it changed a hook. Authorship narrows, never widens: what another agent's program changed
        # that the runner's team may not is the runner's, refused (the runner chose the environment and the
        # arguments: BASH_ENV=mine bash HIS_FILE ran the runner's code as "his program").
        by_hook = {} if undone or refuse else self.authors.by_programs(run.hooks, actor, self.git.authors)
        if team is not None:
            by_hook = {
                path: author for path, author in by_hook.items()
                if self.guard.team_of(author) is None or self.guard.ownership.owner_of(path) == team
            }  # fmt: skip
        for author in sorted(set(by_hook.values())):
            theirs = [c for c in changes if by_hook.get(c.path) == author]
            guard = self.guard.team_of(author) or team
            rolled_back += await reconciler.settle(author, "shell", theirs, team=guard)
        rest = [c for c in changes if c.path not in by_hook]
        rolled_back += await reconciler.settle(actor, "shell", rest, team=team, refuse=refuse)
        reconciler.settled()
        undone_paths = {p for p, _ in rolled_back}
        for c in changes:
            if c.path not in undone_paths and c.old_mtime is None and not c.folder:  # a time, a folder: no author
                self.authors.note(by_hook.get(c.path, actor), [(c.path, c.new is not None)])
        self.authors.note_outside(actor, outside)
        if rolled_back:  # the non-owned change out of the commit the command made of it, too
            await asyncio.to_thread(self.git.unmake, head, [p for p, _ in rolled_back], self.shell.git_uid)
        for change in undone:
            await observer.write_refused(actor, change.path, change.reason, via="shell", rolled_back=True,
                                         diff=change.diff)
            rolled_back.append((change.path, change.reason))
        if self._live:
            self._look()
        return rolled_back


    def _own(self, change: Change, footprint: Footprint) -> bool:
        """Whether the command's trace shows it made ``change``: it wrote the path (or a folder on its way) and the
        file was not changed after the last moment it could write it (:mod:`sandbox.commands.lastwrite`), or it
        removed the path a change removed."""
        if footprint.written is None or not _touched(change.path, footprint.written):
            return False
        if change.new is None:
            return _touched(change.path, footprint.gone)
        try:
            ctime = os.lstat(self.shell.workspace.root / change.path).st_ctime_ns
        except OSError:  # gone since the scan: as before, the command's
            return True
        # strace's times are microseconds, cut: its time of a call is at most 1 us before the call.
        return ctime <= (last_write(change.path, footprint.ends) + 1e-6) * 1e9


def _content(change: Change) -> bool:
    """A file's content made, changed or removed (what only a write, a rename, a link or a removal does: all traced)."""
    return change.old_mode is None and change.old_mtime is None and change.links_out is None and not any(
        entry is not None and entry.startswith((LINK_MARK, SPECIAL_MARK)) for entry in (change.old, change.new)
    )


def _touched(path: str, written: frozenset[str]) -> bool:
    """Whether the command wrote ``path`` or a folder on its way (a folder renamed or removed whole)."""
    parts = path.split("/")
    return any("/".join(parts[:n]) in written for n in range(1, len(parts) + 1))
