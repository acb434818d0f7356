"""Who made each file an agent's command may later run as a program, and so whose changes that
program makes (:mod:`sandbox.commands.hooks` reads what each program wrote from the trace).

A file in the workspace, HOME or ``/tmp`` that a command (or a tool write) left as it is now was made
by that command's actor; when another actor's command runs it (a script placed earlier on ``PATH``, a
``make`` target, a hook), what it changed is its author's. The git hooks' authors are the git guard's
(:attr:`~sandbox.workspace.gitguard.GitGuard.authors`): a hook is ``.git/hooks/NAME`` here, the rest
by the display paths the hooks reader gives (``bin/fmt``, ``~/bin/fmt``, ``/tmp/fmt``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sandbox.commands.hooks import HOOKS
from sandbox.workspace.outside import OutsideChange

_AREAS = {"home": "~/", "tmp": "/tmp/"}


class ProgramAuthors:
    """Program file (display path) -> the actor who made it as it is now."""

    def __init__(self) -> None:
        self._by_path: dict[str, str] = {}

    def note(self, actor: str, made: Iterable[tuple[str, bool]]) -> None:
        """``actor`` made each (path, still there) of ``made``: workspace paths, as settled."""
        for path, there in made:
            if there:
                self._by_path[path] = actor
            else:
                self._by_path.pop(path, None)

    def note_outside(self, actor: str, changes: Iterable[OutsideChange]) -> None:
        """``actor`` made the files of ``changes`` in HOME and ``/tmp``."""
        self.note(
            actor,
            ((_AREAS[c.area] + c.path, c.change != "deleted") for c in changes if c.area in _AREAS),
        )

    def of(self, program: str, hooks: Mapping[str, str]) -> str | None:
        """The author of ``program`` (a hook's from ``hooks``, the git guard's), or None: unknown."""
        if program.startswith(HOOKS):
            return hooks.get(program[len(HOOKS) :])
        return self._by_path.get(program)

    def by_programs(
        self, programs: Iterable[tuple[str, tuple[str, ...]]], runner: str, hooks: Mapping[str, str]
    ) -> dict[str, str]:
        """Workspace path -> the author of the program that wrote it, for the ``programs`` a command of
        ``runner`` ran (:attr:`~sandbox.commands.calls.CommandRun.hooks`) that another actor made. A path
        two programs wrote is the last one's (a script run by a hook: the script's author)."""
        found: dict[str, str] = {}
        for program, paths in programs:
            author = self.of(program, hooks)
            if author is not None and author != runner:
                found.update(dict.fromkeys(paths, author))
        return found
