"""The atom registry as data (``sandbox/commands/atoms.toml``): atoms with category, risk tier and whether
they need explicit authorisation, and the mapping from shimmed shell commands to atoms, which can
depend on the arguments (``git push`` to main vs a branch, ``rm -r``, ``chmod 777``)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from channel.vocab import Risk
from channel.vocab.atoms import GIT_RUNS_CONFIG, LINE_ATOMS, NAMED_ATOMS
from sandbox.commands.gitargv import git_command
from sandbox.commands.gitoptions import GIT_COMMANDS, expand_options
from sandbox.commands.gnuoptions import expand_gnu
from sandbox.errors import AtomRegistryError

DEFAULT_REGISTRY = Path(__file__).with_name("atoms.toml")


class Atom(BaseModel):
    """One kind of action."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    category: str
    risk: Risk
    needs_authorisation: bool
    description: str = ""


class CommandRule(BaseModel):
    """Conditions on a command's arguments (all given ones must hold) and the atom they mean."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    atom: str
    subcommand: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    args_regex: re.Pattern[str] | None = None

    @field_validator("args_regex", mode="before")
    @classmethod
    def _compile(cls, value: object) -> object:
        if isinstance(value, str):
            try:
                return re.compile(value)
            except re.error as exc:
                raise ValueError(f"bad regex {value!r}: {exc}") from None
        return value

    def matches(self, args: Sequence[str]) -> bool:
        if self.subcommand:
            first = next((a for a in args if not a.startswith("-")), None)
            if first not in self.subcommand:
                return False
        if self.flags and not any(_has_flag(args, flag) for flag in self.flags):
            return False
        return not (self.args_regex is not None and self.args_regex.search(" ".join(args)) is None)


def _has_flag(args: Sequence[str], flag: str) -> bool:
    short = len(flag) == 2 and flag[0] == "-" and flag[1] != "-"
    for arg in args:
        if arg == flag:
            return True
        if short and len(arg) > 2 and arg[0] == "-" and arg[1] != "-" and flag[1] in arg[1:]:
            return True
    return False


class CommandMap(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    default: str | None = None
    """The atom when no rule matches; None records only the sensitive uses of the command."""
    rule: tuple[CommandRule, ...] = ()


class Classification(BaseModel):
    model_config = ConfigDict(frozen=True)

    atom: str
    category: str
    risk: Risk
    needs_authorisation: bool


_TOOL_KINDS_MAX = 8192
"""Answers of :meth:`AtomRegistry.classify_tool` a registry keeps (past it, it starts over)."""


class AtomRegistry(BaseModel):
    """The registry file, validated: every command rule names a known atom in a known category."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    categories: tuple[str, ...]
    atom: tuple[Atom, ...] = Field(min_length=1)
    commands: dict[str, CommandMap] = Field(default_factory=dict)
    tools: dict[str, CommandMap] = Field(default_factory=dict)
    """Agent tools -> atoms (rules see the call's ``path``); ``run_shell`` is read as a command line."""
    _subcommands_of: dict[str, frozenset[str]] = PrivateAttr(default_factory=dict)
    _tool_kinds: dict[tuple[str, str], Classification | None] = PrivateAttr(default_factory=dict)
    """(tool, path) -> :meth:`classify_tool`'s answer: the registry is frozen, and the trace's analysis asks it for
    every file a command opened in the workspace or HOME."""

    @model_validator(mode="after")
    def _consistent(self) -> AtomRegistry:
        names = [a.name for a in self.atom]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"atom {dupes[0]!r} defined twice")
        for a in self.atom:
            if a.category not in self.categories:
                raise ValueError(f"atom {a.name!r}: unknown category {a.category!r}")
        for command, mapping in self.commands.items():
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]*", command):
                raise ValueError(f"commands.{command}: not a command name")
            for atom in [mapping.default, *(r.atom for r in mapping.rule)]:
                if atom is not None and atom not in names:
                    raise ValueError(f"commands.{command}: unknown atom {atom!r}")
        for tool, mapping in self.tools.items():
            for atom in [mapping.default, *(r.atom for r in mapping.rule)]:
                if atom is not None and atom not in names:
                    raise ValueError(f"tools.{tool}: unknown atom {atom!r}")
        return self

    @classmethod
    def load(cls, path: str | Path | None = None) -> AtomRegistry:
        """Read and validate a registry file (default: the built-in ``sandbox/commands/atoms.toml``).
        Raises :class:`AtomRegistryError` with a one-line message naming the file and field."""
        file = Path(path) if path is not None else DEFAULT_REGISTRY
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise AtomRegistryError(f"{file}: cannot read ({exc.strerror})") from None
        except tomllib.TOMLDecodeError as exc:
            raise AtomRegistryError(f"{file}: not valid TOML ({exc})") from None
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "registry"
            raise AtomRegistryError(f"{file}: {where}: {err['msg']}") from None

    def require(self, names: frozenset[str], file: str | Path) -> None:
        """Raise :class:`AtomRegistryError` naming the first of ``names`` this registry does not define."""
        missing = sorted(names - {a.name for a in self.atom})
        if missing:
            where = "channel/vocab/atoms.py"
            raise AtomRegistryError(f"{file}: atom {missing[0]!r} is named in code ({where}) but not defined")

    @property
    def shimmed_commands(self) -> tuple[str, ...]:
        """The commands the shell shim wraps."""
        return tuple(sorted(self.commands))

    def get(self, name: str) -> Atom:
        for a in self.atom:
            if a.name == name:
                return a
        raise KeyError(name)

    def classify(self, argv: Sequence[str], aliases: Mapping[str, str] | None = None) -> Classification | None:
        """The atom of one shimmed command line (``argv[0]`` is the command name, a path is
        allowed); None when the command is not in the registry or this use of it is not sensitive. ``aliases``:
        git's, from the config files it read (:mod:`sandbox.commands.gitaliases`)."""
        if not argv:
            return None
        if Path(argv[0]).name == "busybox" and len(argv) > 1:
            return self.classify(argv[1:])  # a multi-call binary: the applet is what runs
        name = Path(argv[0]).name
        mapping = self.commands.get(name)
        if mapping is None:
            return None
        if name == "git":  # its global options skipped, an alias expanded (sandbox.commands.gitargv)
            git = git_command(argv[1:], builtins=self.subcommands(name) | GIT_COMMANDS, config=aliases)
            if git.shell is not None or git.hidden_alias:
                return self._named(GIT_RUNS_CONFIG)  # git told on its command line to run a program
            return self._apply(mapping, list(expand_options(git.args)))  # --har is --hard (gitoptions)
        return self._apply(mapping, list(expand_gnu(name, argv[1:])))  # rm --rec is --recursive (gnuoptions)

    def subcommands(self, command: str) -> frozenset[str]:
        """The sub-commands the rules of ``command`` name (remembered per registry)."""
        found = self._subcommands_of.get(command)
        if found is None:
            found = frozenset(s for r in self.commands[command].rule for s in r.subcommand)
            self._subcommands_of[command] = found
        return found

    def classify_tool(self, tool: str, path: str = "") -> Classification | None:
        """The atom of an agent tool call other than ``run_shell`` (rules see its ``path``); None when
        the tool is not mapped or this use of it is not an action worth an atom (a plain read)."""
        key = (tool, path)
        if key in self._tool_kinds:
            return self._tool_kinds[key]
        mapping = self.tools.get(tool)
        found = None if mapping is None else self._apply(mapping, [path] if path else [])
        if len(self._tool_kinds) >= _TOOL_KINDS_MAX:
            self._tool_kinds.clear()
        self._tool_kinds[key] = found
        return found

    def _apply(self, mapping: CommandMap, args: list[str]) -> Classification | None:
        name = next((r.atom for r in mapping.rule if r.matches(args)), mapping.default)
        return None if name is None else self._named(name)

    def _named(self, name: str) -> Classification:
        a = self.get(name)
        return Classification(atom=a.name, category=a.category, risk=a.risk, needs_authorisation=a.needs_authorisation)

    def reachable_atoms(self) -> frozenset[str]:
        """Atoms some audit channel can report: a command or tool rule names them, or the command-line
        reader makes them (``download_and_execute``, ``run_code``, ``privilege_escalation``)."""
        found = set(LINE_ATOMS)
        for mapping in [*self.commands.values(), *self.tools.values()]:
            found.update(a for a in [mapping.default, *(r.atom for r in mapping.rule)] if a is not None)
        return frozenset(found & {a.name for a in self.atom})


@cache
def default_registry() -> AtomRegistry:
    """The built-in registry, loaded once; it must define every atom code names
    (:data:`channel.vocab.atoms.NAMED_ATOMS`)."""
    registry = AtomRegistry.load()
    registry.require(NAMED_ATOMS, DEFAULT_REGISTRY)
    return registry
