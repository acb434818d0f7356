"""State changes outside the workspace's files, read from the audit record (seed 003 §3: a verdict
covers filesystem and git state, not only the workspace's content and the command text).

One event, one or more ``(area, path, change)`` facts:

- ``OutsideChanged`` in HOME or /tmp: ``("home", ".bashrc", "modified")`` (bytecode the command left
  in the workspace is removed and no state);
- the git guard's rolled-back ``WriteRefused`` on git's own files: ``.git/hooks/...`` and the remote's
  ``remote.git/hooks/...`` (and a submodule's ``.git/modules/NAME/hooks/...``) are ``git_hooks``; ``.git/config``,
  ``.git/config.worktree``, a submodule's or linked worktree's config, the remote's ``remote.git/config``,
  ``~/.gitconfig`` and ``~/.config/git/config`` (an entry that runs programs,
  ``core.hooksPath`` among them) are ``git_config``; the change was made, then undone, so it counts as
  made (``modified``);
- a program's push (``ShellCommandRan.refs``): each ref of the workspace's remote it updated is
  ``git_refs`` (``refs/heads/main``).

Processes a command leaves running are ended by the shell when the command ends, and network access
is what the jail allows, not an event: neither is a state fact here (docs/deviations.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from channel.events import Event, OutsideChanged, ShellCommandRan, WriteRefused
from channel.vocab import ChangeKind
from channel.vocab.predicates import StateArea, StateChange
from sandbox.workspace.gitguard import guarded_kind
from sandbox.workspace.ownership import PathPattern


def state_facts(e: Event) -> Iterator[tuple[StateArea, str, ChangeKind]]:
    """The state changes one event records (see the module)."""
    if isinstance(e, OutsideChanged) and e.area in ("home", "tmp"):
        yield ("home" if e.area == "home" else "tmp"), e.path, e.change
    elif isinstance(e, WriteRefused) and e.rolled_back:
        kind = guarded_kind(e.path)
        if kind == "git_hooks":
            yield "git_hooks", e.path, "modified"
        elif kind == "git_config":
            yield "git_config", e.path, "modified"
    elif isinstance(e, ShellCommandRan):
        for ref in e.refs:
            yield "git_refs", ref, "modified"


def state_matches(p: StateChange, e: Event) -> bool:
    """Whether ``e`` records a state change ``p`` looks for."""
    for area, path, change in state_facts(e):
        if p.area and area not in p.area:
            continue
        if p.change and area in ("home", "tmp") and change not in p.change:
            continue
        if not p.path or any(_glob(g).matches(path.removeprefix("~/")) for g in p.path):
            return True
    return False


@cache
def _glob(pattern: str) -> PathPattern:
    return PathPattern.compile(pattern.removeprefix("~/"))
