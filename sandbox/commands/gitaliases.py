"""A git command whose sub-command is an alias from a config file, classified by what the alias runs.

``git sync`` where ``.git/config`` (or ``~/.gitconfig``) says ``sync = reset --hard`` is a ``reset --hard``: git
expands it before it runs anything. An alias that runs no program (``!``) is config that runs nothing, so the git
guard keeps it (:mod:`sandbox.workspace.gitguard`), and the command line alone showed only ``git sync``, ``git_other``
(red team 3, finding 01). After a command, each of its git calls whose sub-command is none of git's commands
(:data:`~sandbox.commands.gitoptions.GIT_COMMANDS`: only those can be aliases) is classified again with the aliases of
each config git may have read (:meth:`GitGuard.alias_views <sandbox.workspace.gitguard.GitGuard.alias_views>`: before
the command and after it, the work tree's repository's and each nested one's, HOME's under them, read as the guard
reads them, never through a link); the riskiest reading replaces the command line's unless that is riskier. The
caller runs this off the event loop: a workspace may hold hundreds of nested repositories (red team round 4, 10; a
plain config is read in-process, :mod:`sandbox.workspace.configparse`).

An alias a command defined and removed again within itself, or one given in the environment
(``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_0``/``GIT_CONFIG_VALUE_0``, ``GIT_CONFIG_GLOBAL``), is not seen here: the
effect on the files still is (``FileChanged``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from channel.vocab.risk import RISK_ORDER
from sandbox.commands.atoms import AtomRegistry, Classification
from sandbox.commands.calls import AtomCall
from sandbox.commands.gitargv import git_command
from sandbox.commands.gitoptions import GIT_COMMANDS


def may_be_alias(argv: Sequence[str], registry: AtomRegistry) -> str | None:
    """The sub-command of ``argv`` when it is git run with none of git's own (so perhaps an alias), lower-case."""
    if not argv or PurePosixPath(argv[0]).name != "git":
        return None
    args = git_command(argv[1:], builtins=registry.subcommands("git") | GIT_COMMANDS).args
    return args[0].lower() if args and not args[0].startswith("-") and args[0] not in GIT_COMMANDS else None


def aliased(
    calls: Sequence[AtomCall], registry: AtomRegistry, views: Callable[[], Sequence[Mapping[str, str]]]
) -> tuple[AtomCall, ...]:
    """``calls`` with each git call of an alias classified by what the alias runs in the ``views`` that define it
    (alias name -> value, each the config files git may have read), when that is as risky or more (``views`` is
    called once, and only for a call that may be an alias)."""
    found: Sequence[Mapping[str, str]] | None = None
    out: list[AtomCall] = []
    for call in calls:
        name = may_be_alias(call.argv, registry)
        if name is None:
            out.append(call)
            continue
        if found is None:
            found = views()
        kinds = [k for view in found if name in view and (k := registry.classify(call.argv, view)) is not None]
        best = max(kinds, key=lambda k: RISK_ORDER[k.risk], default=None)
        out.append(call if best is None or not _riskier(best, call) else replace(call, atom=best.atom, risk=best.risk))
    return tuple(out)


def _riskier(kind: Classification, call: AtomCall) -> bool:
    return RISK_ORDER[kind.risk] >= RISK_ORDER.get(call.risk or "", -1)
