"""A workspace secret read through git's objects (red team 2 #24): ``git show HEAD:.env``, ``git cat-file -p
HEAD:.env``, ``git log -p -- .env`` print a sensitive file (:mod:`sandbox.commands.loci`) the workspace's history
holds, and open only ``.git/objects/...``, never its path. A traced git (known by what it is,
:mod:`sandbox.commands.identity`) whose command prints content (``show``, ``cat-file``, ``log``/``whatchanged``
with a patch, ``diff`` and its plumbing, ``grep``, ``blame``, ``archive``, ``format-patch``, ``stash show -p``)
and names a sensitive path reads it: as ``REV:PATH`` (``:PATH``, ``:0:PATH``; ``REV:./PATH`` from the folder it
ran in), as a pathspec (relative to that folder; ``:/PATH``, ``:(top)``, ``:(glob)``; a glob or a folder naming
the workspace's sensitive files known now), or as the object id (or its abbreviation) of a sensitive workspace
file's content now (``git cat-file -p $(git rev-parse HEAD:.env)``).

What it does not see (docs/sandbox-and-audit.md): a command that names no such path yet prints one, ``git log -p``
or ``git show COMMIT`` of a commit that changed it, ``git diff`` of a changed one, ``git archive HEAD``, the object
id of an earlier version of it; and a program other than git reading the objects (a copy of git is git).
"""

from __future__ import annotations

import fnmatch
import hashlib
import posixpath
import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from sandbox.commands.identity import Program
from sandbox.commands.loci import Locus, sensitive
from sandbox.commands.reads import ReadContext, TracedRead
from sandbox.commands.strace import Exec

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
    if i >= len(args) or args[i] not in PRINTS:
        return []
    sub, rest = args[i], args[i + 1 :]
    if sub == "stash" and rest[:1] != ["show"]:
        return []
    if sub in PATCHED and not any(_PATCH.match(a) for a in rest):
        return []
    found: list[Locus] = []
    spec = False  # after ``--``: only paths
    for arg in rest:
        if arg == "--" and not spec:
            spec = True
        elif spec or not arg.startswith("-"):
            found += _arg(arg, cwd, ctx, spec)
    return found


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
