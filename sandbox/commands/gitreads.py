"""A workspace secret read through git's objects (red team 2 #24): ``git show HEAD:.env``, ``git cat-file -p
HEAD:.env``, ``git log -p -- .env`` print a sensitive file (:mod:`sandbox.commands.loci`) the workspace's history
holds, and open only ``.git/objects/...``, never its path. A traced git (known by what it is,
:mod:`sandbox.commands.identity`) whose command prints content (``show``, ``cat-file``, ``log``/``whatchanged``
with a patch, ``diff`` and its plumbing, ``grep``, ``blame``, ``archive``, ``format-patch``, ``stash show -p``)
and names a sensitive path reads it: as ``REV:PATH`` (``:PATH``, ``:0:PATH``; ``REV:./PATH`` from the folder it
ran in), as a pathspec (relative to that folder; ``:/PATH``, ``:(top)``, ``:(glob)``; a glob or a folder naming
the workspace's sensitive files known now), or as the object id (or its abbreviation) of a sensitive workspace
file's content now (``git cat-file -p $(git rev-parse HEAD:.env)``).

A traced git's own opens of a sensitive workspace file are reads only where it may print content
(:func:`checking`): ``git status``, ``add``, ``commit`` re-hash a file whose stat data is "racily clean" (changed
in the same second as the index), and print nothing of it. A command counts as quiet only when it is one of
:data:`QUIET` (after git's global options and ``-c`` aliases: :mod:`sandbox.commands.gitargv`), does not print by
the rule above, is given no option that prints or takes a file (``-v``, ``-p``, ``-i``, ``-F``, ``--file``,
``--template``, ``--pathspec-from-file``), and ran no program but git (a ``filter.*.clean`` given the file's
content, a hook): an alias, ``git config -f .env -l``, ``git interpret-trailers .env``, ``git diff`` keep their
opens as reads, and a program git starts (``git -c alias.x='!cat .env' x`` runs ``cat``) is traced as any other.

What it does not see (docs/sandbox-and-audit.md): a command that names no such path yet prints one, ``git log -p``
or ``git show COMMIT`` of a commit that changed it, ``git diff`` of a changed one, ``git archive HEAD``, the object
id of an earlier version of it; and a program other than git reading the objects (a copy of git is git).
"""

from __future__ import annotations

import fnmatch
import hashlib
import posixpath
import re
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from sandbox.commands.gitargv import git_command
from sandbox.commands.identity import Program
from sandbox.commands.loci import Locus, sensitive
from sandbox.commands.reads import ReadContext, TracedRead
from sandbox.commands.strace import Exec, Open, ParsedTrace, exec_at

PRINTS = frozenset(
    {"show", "cat-file", "log", "whatchanged", "diff", "diff-tree", "diff-index", "diff-files", "grep", "blame",
     "annotate", "archive", "format-patch", "stash"}
)  # fmt: skip
"""git commands that print what files hold (``log``, ``whatchanged``, ``stash``: with a patch only)."""
PATCHED = frozenset({"log", "whatchanged", "stash"})
_PATCH = re.compile(r"^(?:-p|-u|-U\d*|--patch(?:-with-\w+)?|--unified(?:=\d+)?|-[a-zA-Z]*p[a-zA-Z]*|--full-diff)$")
_VALUED = frozenset({"-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path"})
"""git's own options that take the next argument as their value (``-C`` is followed: it moves the folder)."""
_OBJECT = re.compile(r"^[0-9a-f]{4,64}$")
_STAGE = re.compile(r"^[0-3]:")
QUIET = frozenset(
    {"status", "add", "commit", "rm", "mv", "stash", "checkout", "switch", "restore", "reset", "update-index",
     "ls-files", "rev-parse", "describe", "merge", "pull", "rebase", "cherry-pick", "revert", "fetch", "push",
     "branch", "worktree", "clean", "hash-object", "write-tree", "read-tree", "gc", "maintenance"}
)  # fmt: skip
"""git commands that print no file's content (see the module): their opens of workspace files check them."""
_TOLD = re.compile(r"^(?:-[a-zA-Z]*[pviFt]|--(?:verbose|patch|interactive|file|template|[\w-]*-from(?:-file)?)(?:=|$))")
"""Options that print what a quiet command read (``status -v``, ``add -p``: a diff) or name a file it reads (``-F``;
in a cluster of short options too, ``-av``: one of these letters makes it one, whatever the command)."""


def git_reads(gits: Sequence[tuple[Exec, Program]], ctx: ReadContext) -> list[TracedRead]:
    """The sensitive files the git commands ``gits`` (each exec with the program it is) print (see the module)."""
    found: list[TracedRead] = []
    for e, program in gits:
        for where in dict.fromkeys(_named(program.argv, e.cwd or str(ctx.workspace), ctx)):
            found.append(TracedRead(where[0], PurePosixPath(e.file).name or "git", e.pid, where[1], where[2]))
    return found


def _named(argv: Sequence[str], cwd: str, ctx: ReadContext) -> list[Locus]:
    args, i = list(argv[1:]), 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "-C" and i + 1 < len(args):
            cwd = posixpath.normpath(posixpath.join(cwd, args[i + 1]))
        i += 2 if args[i] in _VALUED or args[i] == "-C" else 1
    if i >= len(args) or not _prints(args[i], args[i + 1 :]):
        return []
    rest = args[i + 1 :]
    found: list[Locus] = []
    spec = False  # after ``--``: only paths
    for arg in rest:
        if arg == "--" and not spec:
            spec = True
        elif spec or not arg.startswith("-"):
            found += _arg(arg, cwd, ctx, spec)
    return found


def _prints(sub: str, rest: Sequence[str]) -> bool:
    """Whether git's ``sub`` with the arguments ``rest`` prints what files hold (see the module)."""
    if sub not in PRINTS or (sub == "stash" and rest[:1] != ["show"]):
        return False
    return sub not in PATCHED or any(_PATCH.match(a) for a in rest)


def quiet(argv: Sequence[str]) -> bool:
    """Whether the git command line ``argv`` prints no file's content (see the module): one of :data:`QUIET`."""
    command = git_command(argv[1:], builtins=QUIET)
    if command.shell is not None or command.hidden_alias or not command.args or command.args[0] not in QUIET:
        return False
    rest = command.args[1:]
    return not _prints(command.args[0], rest) and not any(_TOLD.match(a) for a in rest)


def checking(gits: Sequence[tuple[Exec, Program]], trace: ParsedTrace) -> Callable[[Open], bool]:
    """Whether an open of the trace is a quiet git's (:func:`quiet`, and no program but git ran under it):
    git checking a file, not reading it (see the module). Each git is looked at once, at its first such open."""
    programs = {id(e): program for e, program in gits}
    known: dict[int, bool] = {}

    def checks(o: Open) -> bool:
        e = exec_at(trace, o.pid, o.ts)
        if e is None or id(e) not in programs:
            return False
        if id(e) not in known:
            known[id(e)] = quiet(programs[id(e)].argv) and not _spawned(e, trace, set(programs))
        return known[id(e)]

    return checks


def _spawned(e: Exec, trace: ParsedTrace, gits: set[int]) -> bool:
    """Whether a program other than git (``gits``: theirs) ran under ``e`` after it (a filter, a hook, a pager)."""
    children: dict[int, list[int]] = {}
    for child, parent in trace.parent.items():
        children.setdefault(parent, []).append(child)
    under, todo = set(), list(children.get(e.pid, ()))
    while todo:
        pid = todo.pop()
        if pid not in under:
            under.add(pid)
            todo += children.get(pid, ())
    return any(x.pid in under and x.ts >= e.ts and id(x) not in gits for x in trace.execs)


def _arg(arg: str, cwd: str, ctx: ReadContext, spec: bool) -> list[Locus]:
    """The sensitive files one argument names (a revision with a path, a pathspec, an object id)."""
    root = str(ctx.workspace)
    out: list[Locus] = []
    magic = re.match(r"^:(?:/|\([^)]*\))", arg)
    if magic is not None:  # a pathspec from the top (``:(exclude)``, ``:!``: not one)
        if "exclude" in magic.group() or arg.startswith((":!", ":^")):
            return []
        out += _paths(posixpath.join(root, arg[magic.end() :]), ctx)
    elif not spec and ":" in arg:  # REV:PATH, :PATH (the index), :N:PATH (a stage)
        path = _STAGE.sub("", arg[1:]) if arg.startswith(":") else arg.partition(":")[2]
        if path:
            out += _paths(posixpath.join(cwd if path.startswith(("./", "../")) else root, path), ctx)
    else:
        out += _paths(posixpath.join(cwd, arg), ctx)
    if not spec and _OBJECT.match(arg):
        out += [where for blob, where in _blobs(ctx) if blob.startswith(arg)]
    return out


def _paths(path: str, ctx: ReadContext) -> list[Locus]:
    """The sensitive file ``path`` is, or the sensitive workspace files it holds (a folder) or matches (a glob)."""
    path = posixpath.normpath(path)
    glob = any(c in path for c in "*?[")
    where = None if glob else sensitive(path, ctx)
    if where is not None:
        return [where]
    root = str(ctx.workspace)
    if not (path == root or path.startswith(root + "/")):
        return []
    rel = "" if path == root else path[len(root) + 1 :]
    return [
        w
        for w in _workspace_secrets(ctx)
        if not rel or w[0].startswith(rel + "/") or (glob and fnmatch.fnmatchcase(w[0], rel))
    ]


def _workspace_secrets(ctx: ReadContext) -> list[Locus]:
    """The sensitive files of the workspace known now (their paths relative to it)."""
    return sorted({w for w in (ctx.secrets or {}).values() if not w[0].startswith("~/")})


def _blobs(ctx: ReadContext) -> list[tuple[str, Locus]]:
    """The git object id of each sensitive workspace file's content now (SHA-1 and SHA-256 repositories)."""
    out = []
    for where in _workspace_secrets(ctx):
        try:
            data = (ctx.workspace / where[0]).read_bytes()
        except OSError:
            continue
        head = b"blob %d\0" % len(data)
        out += [(hashlib.sha1(head + data).hexdigest(), where), (hashlib.sha256(head + data).hexdigest(), where)]
    return out
