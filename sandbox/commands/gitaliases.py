"""A git command whose sub-command is an alias from a config file, classified by what the alias runs.

``git sync`` where ``.git/config`` (or ``~/.gitconfig``) says ``sync = reset --hard`` is a ``reset --hard``: git
expands it before it runs anything. An alias that runs no program (``!``) is config that runs nothing, so the git
guard keeps it (:mod:`sandbox.workspace.gitguard`), and the command line alone showed only ``git sync``, ``git_other``
(red team 3, finding 01). After a command, each of its git calls whose sub-command is none of git's commands
(:data:`~sandbox.commands.gitoptions.GIT_COMMANDS`: only those can be aliases) is classified again with the aliases of
each config git may have read (:meth:`GitGuard.alias_views <sandbox.workspace.gitguard.GitGuard.alias_views>`: before
the command and after it, the work tree's repository's and each nested one's, HOME's under them, read as the guard
reads them, never through a link); the riskiest reading replaces the command line's unless that is riskier.

An alias a command defined and removed again within itself, or one given in the environment
(``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_0``/``GIT_CONFIG_VALUE_0``, ``GIT_CONFIG_GLOBAL``, an ``include.path``), is not
seen here; but git runs an alias's expansion as a git of its own, which the exec tracer classifies by its argv
(:mod:`sandbox.commands.tracer`, red team 4, finding 03). That git carries no atom when the line that ran the
alias carries the same one already (one action, one atom). A sub-command no config defines, under which no
program ran, may be a typo ``help.autocorrect`` (set where it is not seen) runs as the command it is closest to, in
the same process: ``git rset --hard`` is classified as ``git reset --hard`` too, when that is riskier.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from channel.vocab.risk import RISK_ORDER
from sandbox.commands.atoms import AtomRegistry, Classification
from sandbox.commands.calls import AtomCall
from sandbox.commands.gitargv import git_command, global_options, runs_alias
from sandbox.commands.gitoptions import GIT_COMMANDS, autocorrected


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
    parents = {c.parent_pid for c in calls if c.parent_pid}
    for call in calls:
        name = may_be_alias(call.argv, registry)
        if name is None:
            out.append(call)
            continue
        if found is None:
            found = views()
        kinds = [k for view in found if name in view and (k := registry.classify(call.argv, view)) is not None]
        if not kinds and not (call.pid and call.pid in parents):
            kinds = [k for k in [_autocorrected(call.argv, registry)] if k is not None]
        best = max(kinds, key=lambda k: RISK_ORDER[k.risk], default=None)
        out.append(call if best is None or not _riskier(best, call) else replace(call, atom=best.atom, risk=best.risk))
    return _once(out)


def _autocorrected(argv: Sequence[str], registry: AtomRegistry) -> Classification | None:
    """``argv`` (git with a sub-command none of its own, no alias known, which ran no program) as git runs it when
    ``help.autocorrect`` is on (set in a config file or the environment: not seen): ``git rset --hard`` is
    ``git reset --hard``, run by the same process (:func:`~sandbox.commands.gitoptions.autocorrected`)."""
    i, _ = global_options(argv[1:])
    typed = argv[1 + i] if 1 + i < len(argv) else ""
    command = autocorrected(typed)
    return None if command is None else registry.classify((*argv[: 1 + i], command, *argv[2 + i :]))


def _once(calls: Sequence[AtomCall]) -> tuple[AtomCall, ...]:
    """``calls`` with the git an alias ran (traced: :mod:`sandbox.commands.tracer`) left without an atom when the
    git that ran the alias carries the same one already: one action, one atom (``git -c alias.x='reset --hard' x``
    is a ``reset --hard`` by its command line, and its traced ``git reset --hard`` is that reset)."""
    carried = {c.pid: c.atom for c in calls if c.pid and c.atom is not None and runs_alias(c.argv)}
    same = [c.source == "trace" and c.atom is not None and carried.get(c.parent_pid) == c.atom for c in calls]
    return tuple(replace(c, atom=None, risk=None) if twice else c for c, twice in zip(calls, same, strict=True))


def _riskier(kind: Classification, call: AtomCall) -> bool:
    return RISK_ORDER[kind.risk] >= RISK_ORDER.get(call.risk or "", -1)
