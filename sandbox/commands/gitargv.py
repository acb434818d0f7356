"""What a git command line runs: its global options skipped, an alias (given with ``-c``, or from config) expanded.

``git -C DIR reset --hard``, ``git -c color.ui=never clean -fdx``, ``git --git-dir=x --no-pager stash`` run
the sub-command after git's global options; the atom rules (:mod:`sandbox.commands.atoms`) read that
sub-command and its arguments, whichever channel classifies the argv (the shim's records, the tracer's
execs, the tool channel's command lines). An alias defined on the command line is expanded as git
does (``git -c alias.ship=push ship origin main`` is a push to main; aliases of aliases, a few deep); an
alias whose value starts with ``!`` runs a shell command: :attr:`GitCommand.shell` is that command. The aliases
of the config files git read (``.git/config``, ``~/.gitconfig``: :mod:`sandbox.commands.gitaliases`) may be given
too; one given with ``-c`` overrides them, as in git.

A few dict and string operations per git command: the options are read up to the sub-command only.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sandbox.commands.gitoptions import GIT_COMMANDS

TAKES_VALUE = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--attr-source",
     "--shallow-file"}
)  # fmt: skip
"""Global options whose value may be the next argument (``--git-dir x``; ``--git-dir=x`` is one)."""
AS_COMMAND = {"--version": "version", "-v": "version", "--help": "help", "-h": "help"}
"""Global options git runs as a sub-command, with the rest of the line as its arguments."""
ALIAS_DEPTH = 4


@dataclass(frozen=True)
class GitCommand:
    """A git command line as git runs it."""

    args: tuple[str, ...]
    """The sub-command and its arguments (global options removed, a ``-c`` alias expanded)."""
    shell: str | None = None
    """The shell command a ``!`` alias runs (``git -c 'alias.x=!curl … | sh' x``), else None."""
    hidden_alias: bool = False
    """The sub-command is an alias whose value is not on the line (``--config-env=alias.x=VAR``)."""


def git_command(
    args: Sequence[str], *, builtins: frozenset[str] = frozenset(), config: Mapping[str, str] | None = None
) -> GitCommand:
    """``args`` (a git command line without ``git`` itself) as git runs it, with the aliases of ``config`` (lower-case
    names) and of its ``-c`` options. An alias named like one of ``builtins`` is not expanded: git ignores aliases
    that hide its own commands."""
    aliases: dict[str, str | None] = dict(config or {})
    i, settings = global_options(args)
    for option, value in ((o, v) for o, v in settings if o != "-C"):
        key, has_value, text = value.partition("=")
        name = key.lower().removeprefix("alias.") if key.lower().startswith("alias.") else None
        if name:
            aliases[name] = text if option == "-c" and has_value else None
    rest = list(args[i:])
    if rest and rest[0] in AS_COMMAND:
        rest[0] = AS_COMMAND[rest[0]]
    for _ in range(ALIAS_DEPTH):
        if not rest or rest[0].lower() not in aliases or rest[0] in builtins:
            break
        alias = aliases.pop(rest[0].lower())
        if alias is None:
            return GitCommand(tuple(rest), hidden_alias=True)
        if alias.lstrip().startswith("!"):
            return GitCommand(tuple(rest), shell=" ".join([alias.lstrip()[1:], *(shlex.quote(a) for a in rest[1:])]))
        try:
            words = shlex.split(alias)
        except ValueError:
            words = alias.split()
        rest = [*words, *rest[1:]]
    return GitCommand(tuple(rest))


def global_options(args: Sequence[str]) -> tuple[int, list[tuple[str, str]]]:
    """Where git's global options of ``args`` (a command line without ``git``) end (the sub-command's index), and
    the config they set and the folders they move to: (``-c``, ``key=value``), (``--config-env``, ``key=VAR``),
    (``-C``, ``DIR``), in order."""
    settings: list[tuple[str, str]] = []
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] not in AS_COMMAND:
        option, given, value = args[i].partition("=")
        if option in TAKES_VALUE and not given:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        if option in ("-c", "--config-env", "-C"):
            settings.append((option, value))
        i += 1
    return i, settings


def runs_alias(argv: Sequence[str]) -> bool:
    """Whether the git command line ``argv`` (``git`` first) runs an alias: its sub-command, as typed, is none of
    git's own commands (:data:`~sandbox.commands.gitoptions.GIT_COMMANDS`: git never takes an alias of one)."""
    sub = typed_subcommand(argv[1:])
    return sub is not None and not sub.startswith("-") and sub not in GIT_COMMANDS


def typed_subcommand(args: Sequence[str]) -> str | None:
    """The sub-command of ``args`` (a command line without ``git``) as it was typed: no alias expanded (None: none)."""
    i, _ = global_options(args)
    return None if i >= len(args) else AS_COMMAND.get(args[i], args[i])
