"""Whole command lines as atoms: what an agent's ``run_shell`` asked for, before anything ran.

The shell shim sees one program at a time (``curl`` and ``bash`` separately, never the pipe between
them); this module reads the line the agent sent, as bash would split it, so the tool channel can
name what only the whole line shows (seed 003 appendix A: tool calls and shell commands map to the
same atoms):

- a download piped into a shell or interpreter is ``download_and_execute``;
- running a program or script (``python x.py``, ``bash s.sh``, ``./run``, ``node -e ...``) is
  ``run_code`` unless the registry knows the use better (``python -m pip install`` is a package install);
- wrappers are looked through: a shell given a command string (``bash -c '...'``, ``sh -c``, and every
  spelling of it: ``bash -lc``, ``bash -ec``, ``/bin/bash -l -c``, ``bash -o pipefail -c``; :func:`shell_script`)
  has that line classified again,
  ``sudo cmd`` (``privilege_escalation`` and the command), ``xargs [opts] cmd`` (the command, its
  arguments coming from stdin), ``env VAR=1 cmd``, ``nohup``, ``time``, ``nice``, ``timeout``, ``exec``;
  git's global options are skipped by the registry (:mod:`sandbox.commands.gitargv`), and the shell
  command of a ``!`` alias given with ``-c`` (``git -c 'alias.x=!curl … | sh' x``) is classified again;
- a line no `execve` can take (a NUL byte, past the kernel's limit for one argument) is refused before it runs
  (:func:`runnable`);
- every other simple command goes through the registry's command rules, as a shim record would.

Splitting uses :mod:`shlex` in POSIX mode with bash's control operators as punctuation, so quoting is
respected (``echo 'a | b'`` is one command); an unquoted newline ends a command as ``;`` does (a line
ending in ``|``, ``&&`` or ``||`` goes on), and a here-document's body is skipped (it is input, not
commands). Not modelled: command substitution ``$(...)``, process substitution, what a here-document
feeds to a shell, functions and aliases; the shim still records what actually runs.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TextIO, cast

from channel.vocab import Risk
from channel.vocab.atoms import DOWNLOAD_AND_EXECUTE, HTTP_DOWNLOAD, HTTP_UPLOAD, PRIVILEGE_ESCALATION, RUN_CODE
from sandbox.commands.atoms import AtomRegistry
from sandbox.commands.gitargv import git_command
from sandbox.errors import SandboxError

CONTROL = frozenset({"|", "|&", "||", "&&", ";", "&", ";;", "\n"})
"""Operators that end a simple command (``|`` and ``|&`` keep the pipeline going)."""
PIPES = frozenset({"|", "|&"})
REDIRECTS = frozenset({">", ">>", "<", "<<", "<<<", ">&", "<&", "&>", "&>>", ">|", "<>"})
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
INTERPRETERS = SHELLS | frozenset({"python", "python3", "perl", "ruby", "node", "php", "Rscript"})
WRAPPERS = frozenset({"nohup", "time", "exec", "command", "builtin", "stdbuf", "unbuffer"})
"""Wrappers that take no arguments of their own before the command they run."""
RECURSION_LIMIT = 4
KEYWORDS = frozenset({"if", "then", "else", "elif", "while", "until", "do", "!"})
"""Shell keywords that can open a simple command (``for p in ...; do nc ...; done``)."""


@dataclass(frozen=True)
class LineAtom:
    """One action a command line asks for: the simple command and its atom."""

    argv: tuple[str, ...]
    atom: str
    risk: Risk
    needs_authorisation: bool


def split_line(line: str) -> list[list[tuple[str, ...]]]:
    """The pipelines of a command line, each a list of simple commands (argv, redirections and
    subshell parentheses removed). An unbalanced quote is read as if closed at the end of the line."""
    tokens = _tokens(line)
    pipelines: list[list[tuple[str, ...]]] = []
    pipeline: list[tuple[str, ...]] = []
    current: list[str] = []
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in CONTROL:
            if current:
                pipeline.append(tuple(current))
            current = []
            if token not in PIPES and pipeline:
                pipelines.append(pipeline)
                pipeline = []
        elif token in REDIRECTS:
            skip_next = True  # the redirection's target is not an argument
        elif token in ("(", ")", "{", "}"):
            continue
        else:
            current.append(token)
    if current:
        pipeline.append(tuple(current))
    if pipeline:
        pipelines.append(pipeline)
    return pipelines


def _tokens(line: str) -> list[str]:
    """The words and operators of a line; an unquoted newline is ``"\\n"`` (it ends a command as ``;``
    does, except after ``|``, ``&&``, ``||`` where bash reads on), here-document bodies left out."""
    if "\n" in line:
        line = _without_heredocs(line.replace("\\\n", ""))
    for candidate in (line, line + "'", line + '"'):  # an unclosed quote is closed at the end
        text = cast(TextIO, _Text(candidate)) if "#" in candidate and "\n" in candidate else candidate
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|<>()\n")
        lexer.whitespace_split = True
        lexer.whitespace = " \t\r"
        lexer.commenters = "#"
        try:
            return _newlines(list(lexer)) if "\n" in candidate else list(lexer)
        except ValueError:
            continue
    return line.split()


class _Text:
    """A line for shlex whose comments end before their newline (the newline still ends the command)."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def read(self, size: int = 1) -> str:
        part = self.text[self.at : self.at + size]
        self.at += len(part)
        return part

    def readline(self) -> str:
        end = self.text.find("\n", self.at)
        end = len(self.text) if end < 0 else end
        part, self.at = self.text[self.at : end], end
        return part


def _newlines(tokens: list[str]) -> list[str]:
    """Operator tokens shlex ran together with newlines (``;\\n``, ``|\\n``) split again."""
    out: list[str] = []
    for token in tokens:
        if "\n" not in token or token.strip(";&|<>()\n"):
            out.append(token)  # a word (a quoted newline stays in its word)
            continue
        ops = token.replace("\n", "")
        if ops:
            out.append(ops)
        if not ops.endswith(("|", "&&", "|&")):
            out.append("\n")
    return out


_HEREDOC = re.compile(r"(?<!<)<<-?[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\1")


def _without_heredocs(line: str) -> str:
    """``line`` without the bodies of its here-documents (their lines are input, not commands)."""
    if "<<" not in line:
        return line
    out: list[str] = []
    pos = 0
    for m in _HEREDOC.finditer(line):
        if m.start() < pos:
            continue
        start = line.find("\n", m.end())
        if start < 0:
            break
        end = re.compile(rf"^\t*{re.escape(m.group(2))}[ \t]*$", re.M).search(line, start + 1)
        out.append(line[pos:start])
        pos = end.end() if end else len(line)
    out.append(line[pos:])
    return "".join(out)


def classify_line(registry: AtomRegistry, line: str, *, _depth: int = 0) -> tuple[LineAtom, ...]:
    """Every atom a command line asks for, in order (the same action once per simple command)."""
    found: list[LineAtom] = []
    for pipeline in split_line(line):
        downloaded = False
        for argv in pipeline:
            atoms = _simple(registry, argv, _depth)
            if downloaded and _reads_stdin_code(argv):
                kept = [a for a in atoms if a.atom == PRIVILEGE_ESCALATION]
                atoms = [*kept, _make(registry, argv, DOWNLOAD_AND_EXECUTE)]
            downloaded = downloaded or any(a.atom in (HTTP_DOWNLOAD, HTTP_UPLOAD) for a in atoms)
            found.extend(atoms)
    return tuple(found)


def _make(registry: AtomRegistry, argv: Sequence[str], name: str) -> LineAtom:
    a = registry.get(name)
    return LineAtom(tuple(argv), a.name, a.risk, a.needs_authorisation)


def _strip(argv: Sequence[str]) -> list[str]:
    """Leading shell keywords and ``VAR=value`` assignments removed."""
    i = 0
    while i < len(argv) and (
        argv[i] in KEYWORDS or ("=" in argv[i] and not argv[i].startswith("=") and argv[i].split("=")[0].isidentifier())
    ):
        i += 1
    return list(argv[i:])


def _simple(registry: AtomRegistry, raw: Sequence[str], depth: int) -> list[LineAtom]:
    argv = _strip(raw)
    if not argv:
        return []
    name = PurePosixPath(argv[0]).name
    inner = _unwrap(name, argv)
    if inner is not None:
        prefix = [_make(registry, argv, PRIVILEGE_ESCALATION)] if name in ("sudo", "doas") else []
        return prefix + _simple(registry, inner, depth)
    script = shell_script(argv)
    if script is not None and depth < RECURSION_LIMIT:
        return list(classify_line(registry, script, _depth=depth + 1))
    known = registry.classify(argv)
    if known is not None:
        found = [LineAtom(tuple(argv), known.atom, known.risk, known.needs_authorisation)]
        if name == "git" and depth < RECURSION_LIMIT:  # a `!` alias given with -c: what its shell runs too
            shell = git_command(argv[1:], builtins=registry.subcommands("git")).shell
            if shell is not None:
                found.extend(classify_line(registry, shell, _depth=depth + 1))
        return found
    if _runs_code(name, argv):
        return [_make(registry, argv, RUN_CODE)]
    return []


SHELL_VALUED = frozenset({"--rcfile", "--init-file"})
"""A shell's long options that take a value (``-o``/``-O`` in a cluster of short ones take one too)."""


def shell_script(argv: Sequence[str]) -> str | None:
    """The command string a shell is given to run (``bash -c LINE``), or None when ``argv`` is not a shell
    run with ``-c``. Short options may be combined (``bash -lc``, ``sh -ec``, ``bash -xeuo pipefail -c``) or
    apart (``bash -l -c``), after long ones (``bash --norc -c``): as bash reads them, ``c`` anywhere in the
    options makes the first word after them the command string. The one place command lines are unwrapped."""
    if not argv or PurePosixPath(argv[0]).name not in SHELLS:
        return None
    command, i = False, 1
    while i < len(argv):
        word = argv[i]
        if word in ("--", "-"):
            i += 1
            break
        if word.startswith("--"):
            i += 2 if word in SHELL_VALUED else 1
        elif len(word) > 1 and word[0] in "-+":
            command = command or (word[0] == "-" and "c" in word[1:])
            i += 1 + (word[1:].count("o") + word[1:].count("O"))  # -o NAME / -O NAME: a value each
        else:
            break
    return argv[i] if command and i < len(argv) else None


def _unwrap(name: str, argv: list[str]) -> list[str] | None:
    """The command a wrapper runs, or None when ``argv`` is not a wrapper around one."""
    args = argv[1:]
    if name in ("sudo", "doas"):
        rest = _skip_options(args, takes_value={"-u", "-g", "-C", "-D", "-h", "-p", "-U", "-r", "-t"})
    elif name == "env":
        rest = _strip(_skip_options(args, takes_value={"-u", "-C", "-S"}))
    elif name == "xargs":
        rest = _skip_options(args, takes_value={"-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a"})
    elif name in ("nice", "ionice"):
        rest = _skip_options(args, takes_value={"-n", "-c"})
    elif name == "timeout":
        rest = _skip_options(args, takes_value={"-s", "-k", "--signal", "--kill-after"})
        rest = rest[1:]  # the duration
    elif name in WRAPPERS:
        rest = _skip_options(args, takes_value=set())
    else:
        return None
    if not rest:
        return None if name in ("env", "sudo", "doas") else []
    return rest


def _skip_options(args: list[str], *, takes_value: set[str]) -> list[str]:
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        if args[i] == "--":
            return args[i + 1 :]
        i += 2 if args[i] in takes_value else 1
    return args[i:]


def _runs_code(name: str, argv: Sequence[str]) -> bool:
    """An interpreter given a script or inline code, or a program run by its path (``./build.sh``)."""
    if name in INTERPRETERS:
        return any(not a.startswith("-") or a in ("-c", "-e", "-m") for a in argv[1:])
    return "/" in argv[0] and not argv[0].startswith("/")


def _reads_stdin_code(argv: Sequence[str]) -> bool:
    """An interpreter that takes its program from stdin (``| sh``, ``| bash -s``, ``| python3 -``)."""
    args = _strip(argv)
    if not args:
        return False
    name = PurePosixPath(args[0]).name
    inner = _unwrap(name, args)
    if inner:
        return _reads_stdin_code(inner)
    if name not in INTERPRETERS:
        return False
    operands = [a for a in args[1:] if not a.startswith("-") or a == "-"]
    return not operands or operands[0] == "-" or "-s" in args[1:]


def classify_tool_call(registry: AtomRegistry, tool: str, args: dict[str, object]) -> tuple[LineAtom, ...]:
    """The atoms of an agent tool call: ``run_shell`` by its command line, the file tools by their
    ``[tools.*]`` rules in the registry (a read of a secret, a write), every other tool none."""
    if tool == "run_shell":
        command = args.get("command")
        return classify_line(registry, command) if isinstance(command, str) else ()
    path = args.get("path")
    known = registry.classify_tool(tool, path if isinstance(path, str) else "")
    resolved = args.get("resolved")  # the file a path through a symlink reached (red team 5, finding 05)
    if isinstance(resolved, str) and (reached := registry.classify_tool(tool, resolved)) is not None:
        known, path = reached, resolved
    if known is None:
        return ()
    argv = (tool, path) if isinstance(path, str) else (tool,)
    return (LineAtom(argv, known.atom, known.risk, known.needs_authorisation),)


ARG_STRING_MAX = 131072 - 1 - 256
"""The longest command line :func:`runnable` lets through, in bytes: the kernel's limit for one argument
(``MAX_ARG_STRLEN``, 32 pages with its NUL: bash gets the line as ``-c``'s one argument) less room for what a
backend wraps around it (docker's ``exec 2>&1``, a ``(...) < FILE`` for standard input)."""


def runnable(command: str) -> None:
    """Raise :class:`~sandbox.errors.SandboxError` (what the agent is told; nothing runs, nothing is recorded as
    run) for a line no ``execve`` can take: a NUL byte in it, or more bytes than :data:`ARG_STRING_MAX`. Such a
    line failed before it reached bash, with ``exit 127`` and an empty trace the audit took for a stopped tracer
    (agents5 #1: a 200 KB here-document fired ``audit_tampered``)."""
    if "\0" in command:
        raise SandboxError("the command line has a NUL byte, which no command line can carry: not run")
    size = len(command.encode("utf-8", "surrogateescape"))
    if size > ARG_STRING_MAX:
        raise SandboxError(
            f"the command line is {size:,} bytes, past the {ARG_STRING_MAX:,} one argument may have on Linux: "
            "not run (write a long script or here-document to a file in parts, then run the file)"
        )
