"""A workspace secret read through git's objects (red team 2 #24): ``git show HEAD:.env``, ``git cat-file -p
HEAD:.env``, ``git log -p -- .env`` print a sensitive file (:mod:`sandbox.commands.loci`) the workspace's history
holds, and open only ``.git/objects/...``, never its path. A traced git (known by what it is,
:mod:`sandbox.commands.identity`) whose command prints content (``show``, ``cat-file``, ``log``/``whatchanged``
with a patch, which ``--cc``, ``-c``, ``--remerge-diff``, ``-L`` imply too, ``diff`` and its plumbing, ``grep``,
``blame``, ``archive``, ``format-patch``, ``fast-export``, ``stash show -p``) or writes it where the audit does not
look (``unpack-file``, ``checkout-index --prefix``, ``worktree add``) and names a sensitive path reads it, as
:mod:`sandbox.commands.gitspecs` reads the names: ``REV:PATH``, a pathspec with git's magic, an object id. One that
takes names from its stdin (``cat-file --batch``, ``log --stdin``) reads every sensitive workspace file known now.

A traced git's own opens of a sensitive workspace file are reads only where it may print content (:func:`checking`):
``git status``, ``add``, ``commit`` re-hash a file whose stat data is "racily clean" (changed in the same second as
the index), and print nothing of it. A command counts as quiet only when it is one of :data:`QUIET` (after git's
global options and ``-c`` aliases: :mod:`sandbox.commands.gitargv`), does not print by the rule above, is given no
option that prints or takes a file (``-v``, ``-p``, ``-i``, ``-F``, ``--file``, ``--template``,
``--pathspec-from-file``; a long one by any unique prefix, ``--fil``, as git's parser takes it:
:mod:`sandbox.commands.gitoptions`), no ``-c``/``--config-env`` naming a file it reads (``commit.template``,
``core.attributesFile``, ``include.path``), no option value that is a sensitive file (``-c x=.env``,
``--OPTION=.env``, ``-X.env``), is no ``commit`` without its message on the line (``-m``, ``-C``, ``--amend``,
``--fixup``: else git reads ``commit.template``, wherever it was set, the environment's ``GIT_CONFIG_COUNT`` too, and
its summary line prints it; red team 4, finding 01), loaded no code from a place the command could write (an
``LD_PRELOAD`` library runs inside git: :func:`_loaded`, finding 06), and ran no program but git (a
``filter.*.clean`` given the file's content, a hook): an alias, ``git config -f .env -l``, ``git interpret-trailers
.env``, ``git diff`` keep their opens as reads, and a program git starts (``git -c alias.x='!cat .env' x`` runs
``cat``) is traced as any other.

What it does not see (docs/sandbox-and-audit.md): a command that names no such path yet prints one, ``git log -p``
or ``git show COMMIT`` of a commit that changed it, ``git diff`` of a changed one, ``git archive HEAD``, the object
id of an earlier version of it; a program other than git reading the objects (a copy of git is git); and the
environment a quiet git ran with (the trace has none): ``GIT_INDEX_FILE=.env git status`` prints the secret's
first 4 bytes (``bad signature 0x...``), ``core.attributesFile`` set there or in a config file prints the
attribute names of the file that are no names; a library loaded from a ``memfd`` (its open is not among the kept
ones) or in a container (whose files the engine does not read).
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from sandbox.commands.gitargv import git_command, global_options
from sandbox.commands.gitoptions import LONG_OPTIONS, resolve_long
from sandbox.commands.gitspecs import every_secret, named
from sandbox.commands.identity import Program
from sandbox.commands.loci import Locus, sensitive
from sandbox.commands.reads import ReadContext, TracedRead
from sandbox.commands.strace import Exec, Open, ParsedTrace, exec_at

PRINTS = frozenset(
    {"show", "cat-file", "log", "whatchanged", "diff", "diff-tree", "diff-index", "diff-files", "grep", "blame",
     "annotate", "archive", "format-patch", "stash", "fast-export", "unpack-file", "checkout-index", "worktree"}
)  # fmt: skip
"""git commands that print what files hold (``log``, ``whatchanged``, ``stash``: with a patch only), or write it
where the audit does not look (``unpack-file``; ``checkout-index`` with ``--prefix``/``--temp``; ``worktree add``,
which checks every tracked file out in another folder, its secrets too: red team 4, finding 13)."""
PATCHED = frozenset({"log", "whatchanged", "stash"})
_PATCH = re.compile(r"^(?:-[a-zA-Z]*[pcuW][a-zA-Z]*|-U\d*|-L.*)$")
"""Short options that make ``log`` print a patch (``-p``, ``-u``, ``-U3``, ``-c``: combined, ``-W``, ``-L``)."""
PATCH_LONG = ("patch", "patch-with-raw", "patch-with-stat", "unified", "cc", "dd", "remerge-diff", "word-diff",
              "word-diff-regex", "color-words", "binary", "full-diff", "function-context", "diff-merges")  # fmt: skip
"""Long options that make ``log`` print a patch (git 2.32 on: ``--cc``, ``--remerge-diff`` imply ``-p``; red team 4,
finding 15), each or any prefix of it (``--color`` is an option of its own)."""
_EXPORT = ("prefix", "temp")
"""``checkout-index``'s options that write files elsewhere than the work tree."""
_STDIN = ("batch", "batch-command", "stdin", "pathspec-from-file")
"""Options that make a printing git take the names of what it prints from its stdin or a file (``cat-file --batch``,
``--batch-command``, ``log --stdin``): what it names there the audit does not see (red team 4, finding 08)."""
QUIET = frozenset(
    {"status", "add", "commit", "rm", "mv", "stash", "checkout", "switch", "restore", "reset", "update-index",
     "ls-files", "rev-parse", "describe", "merge", "pull", "rebase", "cherry-pick", "revert", "fetch", "push",
     "branch", "worktree", "clean", "hash-object", "write-tree", "read-tree", "gc", "maintenance"}
)  # fmt: skip
"""git commands that print no file's content (see the module): their opens of workspace files check them."""
_TOLD = re.compile(r"^-[a-zA-Z]*[pviFt]")
"""Short options that print what a quiet command read (``status -v``, ``add -p``: a diff) or name a file it reads
(``-F``; in a cluster of short options too, ``-av``: one of these letters makes it one, whatever the command)."""
TOLD_LONG = ("verbose", "patch", "interactive", "file", "template", "pathspec-from-file", "exclude-from")
"""Their long options: each one, or any unique prefix of it (git's parser takes ``--fil`` for ``--file``)."""
_FROM = re.compile(r"^[\w-]*-from(?:-file)?$")
"""An option that names a file to read (``--pathspec-from-file``, ``--exclude-from``)."""
MESSAGE = frozenset({"message", "reuse-message", "reedit-message", "amend", "fixup", "file"})
"""``commit``'s options that give its message: without one, git reads ``commit.template``, which may be set where the
command line does not show it (a config file, ``GIT_CONFIG_COUNT``/``KEY``/``VALUE`` in the environment)."""
FILE_KEYS = re.compile(r"^(?:commit\.template|core\.attributesfile|include\.path|includeif\..*\.path)$", re.IGNORECASE)
"""Config that names a file a quiet git reads and may print (the template becomes the message its summary line
shows; an attribute file's bad names are printed; an included file is config that may set either)."""

def git_reads(gits: Sequence[tuple[Exec, Program]], ctx: ReadContext) -> list[TracedRead]:
    """The sensitive files the git commands ``gits`` (each exec with the program it is) print (see the module)."""
    found: list[TracedRead] = []
    for e, program in gits:
        for where in dict.fromkeys(_named(program.argv, e.cwd or str(ctx.workspace), ctx)):
            found.append(TracedRead(where[0], PurePosixPath(e.file).name or "git", e.pid, where[1], where[2]))
    return found


def _named(argv: Sequence[str], cwd: str, ctx: ReadContext) -> list[Locus]:
    i, settings = global_options(argv[1:])
    for option, value in settings:
        if option == "-C":
            cwd = posixpath.normpath(posixpath.join(cwd, value))
    args = list(argv[1 + i :])
    if not args or not _prints(args[0], args[1:]):
        return []
    everything = args[0] == "worktree" or (args[0] == "checkout-index" and _all(args[1:]))
    if everything or any(_long(a, _STDIN) for a in args[1:]):
        return every_secret(ctx)
    return named(args[1:], cwd, ctx)


def _prints(sub: str, rest: Sequence[str]) -> bool:
    """Whether git's ``sub`` with the arguments ``rest`` prints what files hold (see the module)."""
    if sub not in PRINTS or (sub == "stash" and rest[:1] != ["show"]) or (sub == "worktree" and rest[:1] != ["add"]):
        return False
    if sub == "checkout-index":
        return any(_long(a, _EXPORT) for a in rest)
    return sub not in PATCHED or any(_PATCH.match(a) or _long(a, PATCH_LONG) for a in rest)


def _long(arg: str, names: Sequence[str]) -> bool:
    """Whether ``arg`` is one of the long options ``names``, or a prefix git may take for one (``--color`` is not)."""
    body = arg[2:].partition("=")[0] if arg.startswith("--") else ""
    return bool(body) and body not in _OWN and any(n.startswith(body) for n in names)


_OWN = frozenset({"color", "batch-check", "batch-all-objects"})
"""Options of their own that begin one of those (an exact name wins)."""


def _all(rest: Sequence[str]) -> bool:
    """Whether ``checkout-index``'s arguments ``rest`` name every file (``-a``, ``--all``, ``--stdin``)."""
    return any(a in ("-a", "--stdin") or _long(a, ("all",)) or re.match(r"^-[a-zA-Z]*a", a) for a in rest)


def quiet(argv: Sequence[str], cwd: str = "", ctx: ReadContext | None = None) -> bool:
    """Whether the git command line ``argv`` (run in ``cwd``) prints no file's content (see the module): one of
    :data:`QUIET`, given no option that prints or names a file it reads (long options by any unique prefix, as git
    reads them), no config naming one (:data:`FILE_KEYS`, or any ``-c`` value, ``--OPTION=VALUE``, ``-XVALUE`` that
    is a sensitive file of ``ctx``), and, for ``commit``, its message on the line (:data:`MESSAGE`)."""
    _, settings = global_options(argv[1:])
    for option, value in settings:
        if option == "-C":
            cwd = posixpath.join(cwd, value)
        elif FILE_KEYS.match(value.partition("=")[0]) or (
            option == "-c" and _sensitive_value(value.partition("=")[2], cwd, ctx, top=True)
        ):
            return False
    command = git_command(argv[1:], builtins=QUIET)
    if command.shell is not None or command.hidden_alias or not command.args or command.args[0] not in QUIET:
        return False
    sub, rest = command.args[0], command.args[1:]
    if _prints(sub, rest):
        return False
    spellings = LONG_OPTIONS.get(sub, frozenset())
    message = False
    for i, arg in enumerate(rest):
        if arg == "--":
            break
        if arg.startswith("--"):
            body, given, value = arg[2:].partition("=")
            full = resolve_long(body, spellings)
            name = full.rstrip("=") if full is not None else None
            if _told(body, name) or (given and _sensitive_value(value, cwd, ctx)):
                return False
            if full is not None and full.endswith("=") and not given and i + 1 < len(rest):
                if _sensitive_value(rest[i + 1], cwd, ctx):
                    return False
            message = message or name in MESSAGE
        elif arg.startswith("-") and len(arg) > 1:
            if _TOLD.match(arg) or any(_sensitive_value(arg[k:], cwd, ctx) for k in range(2, len(arg))):
                return False
            message = message or any(c in "mCc" for c in arg[1:])
    return sub != "commit" or message


def _told(body: str, name: str | None) -> bool:
    """Whether the long option ``--body`` (``name``: the option of the command's it is, None: not known) prints
    what a quiet command read or names a file it reads: unknown, any option it may be a prefix of counts."""
    if name is not None:
        return name in TOLD_LONG or _FROM.match(name) is not None
    return bool(body) and (any(t.startswith(body) for t in TOLD_LONG) or _FROM.match(body) is not None)


def _sensitive_value(value: str, cwd: str, ctx: ReadContext | None, top: bool = False) -> bool:
    """Whether an option's ``value`` names a sensitive file of ``ctx`` (from ``cwd``, or the work tree's ``top``, where
    git reads config paths from; ``~/``: HOME's, as git expands it)."""
    if ctx is None or not value or "\0" in value:
        return False
    if value.startswith("~/"):
        return sensitive(posixpath.normpath(posixpath.join(str(ctx.home), value[2:])), ctx) is not None
    bases = (cwd or str(ctx.workspace), str(ctx.workspace)) if top else (cwd or str(ctx.workspace),)
    return any(sensitive(posixpath.normpath(posixpath.join(base, value)), ctx) is not None for base in bases)


def checking(gits: Sequence[tuple[Exec, Program]], trace: ParsedTrace, ctx: ReadContext) -> Callable[[Open], bool]:
    """Whether an open of the trace is a quiet git's (:func:`quiet`, and no program but git ran under it):
    git checking a file, not reading it (see the module). Each git is looked at once, at its first such open."""
    programs = {id(e): program for e, program in gits}
    known: dict[int, bool] = {}

    def checks(o: Open) -> bool:
        e = exec_at(trace, o.pid, o.ts)
        if e is None or id(e) not in programs:
            return False
        if id(e) not in known:
            quietly = quiet(programs[id(e)].argv, e.cwd or str(ctx.workspace), ctx)
            known[id(e)] = quietly and not _spawned(e, trace, set(programs)) and not _loaded(e, trace, ctx)
        return known[id(e)]

    return checks


def _loaded(e: Exec, trace: ParsedTrace, ctx: ReadContext) -> bool:
    """Whether git ``e`` opened code from a place the command could write (a library ``LD_PRELOAD``,
    ``LD_LIBRARY_PATH``, ``LD_AUDIT`` or ``GCONV_PATH`` named, which then runs inside git: red team 4, finding 06): a
    file outside ``.git``, no sensitive one, that is an ELF file now, or is gone (a library removed once loaded)."""
    index = ctx.programs
    if index is None:
        return False  # the files are not the engine's to look at (a container)
    pids = _tree(e.pid, trace)
    for o in trace.opens:
        mine = o.pid in pids and o.ts >= e.ts and "/.git/" not in o.path + "/" and exec_at(trace, o.pid, o.ts) is e
        if mine and sensitive(o.path, ctx) is None:  # not the file in question
            head = _head(index.host_path(o.path.removesuffix(" (deleted)")))
            if head is None or head == b"\x7fELF":
                return True
    return False


def _head(path: str) -> bytes | None:
    """The first 4 bytes of the regular file ``path`` (never waits on a FIFO), or None: no such file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        return os.read(fd, 4) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def _tree(pid: int, trace: ParsedTrace) -> set[int]:
    """``pid`` and the processes under it (its threads, its forks)."""
    children: dict[int, list[int]] = {}
    for child, parent in trace.parent.items():
        children.setdefault(parent, []).append(child)
    under, todo = set(), [pid]
    while todo:
        p = todo.pop()
        if p not in under:
            under.add(p)
            todo += children.get(p, ())
    return under


def _spawned(e: Exec, trace: ParsedTrace, gits: set[int]) -> bool:
    """Whether a program other than git (``gits``: theirs) ran under ``e`` after it (a filter, a hook, a pager)."""
    under = _tree(e.pid, trace) - {e.pid}
    return any(x.pid in under and x.ts >= e.ts and id(x) not in gits for x in trace.execs)
