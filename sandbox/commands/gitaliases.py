"""A git command whose sub-command is an alias from a config file, classified by what the alias runs.

``git sync`` where ``.git/config`` (or ``~/.gitconfig``) says ``sync = reset --hard`` is a ``reset --hard``: git
expands it before it runs anything. An alias that runs no program (``!``) is config that runs nothing, so the git
guard keeps it (:mod:`sandbox.workspace.gitguard`), and the command line alone showed only ``git sync``, ``git_other``
(red team 3, finding 01). After a command that was not traced, each of its git calls whose sub-command is none of
git's commands (:data:`~sandbox.commands.gitoptions.GIT_COMMANDS`: only those can be aliases) is classified again with
the aliases of each config git may have read
(:meth:`GitGuard.alias_views <sandbox.workspace.gitguard.GitGuard.alias_views>`: before the command and after it,
the work tree's repository's and each nested one's, HOME's under them, read as the guard reads them, never through a
link); the riskiest reading replaces the command line's unless that is riskier. The
caller runs this off the event loop: a workspace may hold hundreds of nested repositories (red team round 4, 10; a
plain config is read in-process, :mod:`sandbox.workspace.configparse`).

An alias a command defined and removed again within itself, or one given in the environment
(``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_0``/``GIT_CONFIG_VALUE_0``, ``GIT_CONFIG_GLOBAL``, an ``include.path``), is not
seen in those files; but git runs an alias's expansion as a program of its own (``git sync`` starts
``git reset --hard``; a ``!`` alias, ``sh``), which the exec tracer sees and classifies by its argv
(:mod:`sandbox.commands.tracer`, red team 4, finding 03). So where the command was traced, the trace is what
decides: a git of an alias takes the atom of the gits it started (which then carry none: one action, one atom);
one that started nothing ran no alias, and no config file is read for it (red team 4, finding 12: an alias in
another team's nested repository made a failed ``git st`` a force push; finding 10: those files read, each by a
``git config``, on the event loop). A sub-command no alias is known for, that ran no program, may be a typo
``help.autocorrect`` (set where it is not seen) runs as the command it is closest to, in the same process:
``git rset --hard`` is classified as ``git reset --hard`` too, when that is riskier.
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
    """``calls`` with each git call of an alias classified by what the alias ran, when that is as risky or more:
    traced, by the gits it started (which then carry no atom: one action, one atom); traced and starting nothing,
    it ran no alias (git runs an alias's expansion as a program of its own), so only as git's autocorrection;
    untraced (no ``pid``), by what the alias runs in the ``views`` that define it (alias name -> value, each the
    config files git may have read; called once, and only for such a call), else as git's autocorrection."""
    started: dict[int, list[int]] = {}  # a call's pid -> the indexes of the traced gits it started
    parents = {c.parent_pid for c in calls if c.parent_pid}
    for i, c in enumerate(calls):
        names = (PurePosixPath(c.argv[0]).name, PurePosixPath(c.program).name)
        if c.source == "trace" and c.parent_pid and "git" in names:
            started.setdefault(c.parent_pid, []).append(i)
    found: Sequence[Mapping[str, str]] | None = None
    out = list(calls)
    for n, call in enumerate(calls):
        if call.pid and call.pid in parents:
            if call.pid in started and PurePosixPath(call.argv[0]).name == "git" and runs_alias(call.argv):
                ran = [calls[i] for i in started[call.pid] if calls[i].risk is not None]
                best = max(ran, key=lambda c: RISK_ORDER[c.risk or "low"], default=None)
                if best is not None and RISK_ORDER[best.risk or "low"] >= RISK_ORDER.get(call.risk or "", -1):
                    out[n] = replace(call, atom=best.atom, risk=best.risk)
                for i in started[call.pid]:
                    out[i] = replace(out[i], atom=None, risk=None)
            continue
        name = may_be_alias(call.argv, registry)
        if name is None:
            continue
        kinds: list[Classification] = []
        if not call.pid:
            found = views() if found is None else found
            kinds = [k for view in found if name in view and (k := registry.classify(call.argv, view)) is not None]
        if not kinds:
            kinds = [k for k in [_autocorrected(call.argv, registry)] if k is not None]
        best_kind = max(kinds, key=lambda k: RISK_ORDER[k.risk], default=None)
        if best_kind is not None and _riskier(best_kind, call):
            out[n] = replace(call, atom=best_kind.atom, risk=best_kind.risk)
    return tuple(out)


def _autocorrected(argv: Sequence[str], registry: AtomRegistry) -> Classification | None:
    """``argv`` (git with a sub-command none of its own, no alias known, which ran no program) as git runs it when
    ``help.autocorrect`` is on (set in a config file or the environment: not seen): ``git rset --hard`` is
    ``git reset --hard``, run by the same process (:func:`~sandbox.commands.gitoptions.autocorrected`)."""
    i, _ = global_options(argv[1:])
    typed = argv[1 + i] if 1 + i < len(argv) else ""
    command = autocorrected(typed)
    return None if command is None else registry.classify((*argv[: 1 + i], command, *argv[2 + i :]))


def _riskier(kind: Classification, call: AtomCall) -> bool:
    return RISK_ORDER[kind.risk] >= RISK_ORDER.get(call.risk or "", -1)
