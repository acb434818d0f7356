"""What the arguments of a git command that prints content name among the sensitive files
(:mod:`sandbox.commands.gitreads`), read as git reads them.

- ``REV:PATH`` (``:PATH``, ``:0:PATH``; ``REV:./PATH`` from the folder git ran in): git splits at the first ``:``
  outside ``{...}`` (``HEAD^{/:?}:.env``: a message regex may hold one); every part after a ``:`` is taken for the
  path, so no such spelling hides it (red team 4, finding 11).
- An object id, whole or abbreviated, in either case and with a suffix (``B03C0EEA``, ``b03c0eea^{blob}``), of a
  sensitive workspace file's content now.
- A pathspec, with git's magic (``pathspec.c``): ``:(top)``/``:/``, ``:(icase)``, ``:(glob)`` (``**/`` is any
  folders, none too), ``:(literal)``, ``:(attr:...)`` (taken for every file); an exclusion (``:(exclude)``, ``:!``,
  ``:^``) takes files out, and a command given only exclusions means every other file (red team 4, finding 16).
- ``-L<range>:<path>`` (``log -L1,1:.env``): the path after any ``:`` (red team 4, finding 15).
"""

from __future__ import annotations

import fnmatch
import hashlib
import posixpath
import re
from collections.abc import Sequence

from sandbox.commands.loci import Locus, sensitive
from sandbox.commands.reads import ReadContext

_OBJECT = re.compile(r"^([0-9a-fA-F]{4,64})(?:$|[\^~@:])")
"""An object id (git takes upper-case hex) and what may follow it (``^{blob}``, ``~0``, ``:PATH``)."""
_STAGE = re.compile(r"^[0-3]:")
_SHORT_MAGIC = re.compile(r"^:([/!^]+):?")
_LONG_MAGIC = re.compile(r"^:\(([^)]*)\)")


def named(args: Sequence[str], cwd: str, ctx: ReadContext) -> list[Locus]:
    """The sensitive files the arguments ``args`` (after the sub-command) of a git that prints content name (see the
    module), git having run in ``cwd``."""
    found: list[Locus] = []
    spec = positive = False  # after ``--``: only paths; a pathspec that is no exclusion was given
    excludes: list[tuple[frozenset[str], str]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--" and not spec:
            spec = True
        elif not spec and arg.startswith("-L"):  # -L<range>:<path>, -L <range>:<path>
            value = arg[2:] or (args[i + 1] if i + 1 < len(args) else "")
            i += 0 if arg[2:] else 1
            found += [w for part in _after_colons(value) for w in _paths(posixpath.join(cwd, part), ctx)]
        elif spec or not arg.startswith("-"):
            magic = _magic(arg, cwd, ctx)
            if magic is not None and "exclude" in magic[0]:
                excludes.append(magic)
            elif magic is not None:
                positive = True
                found += [w for w in _workspace_secrets(ctx) if _matches(*magic, w[0])]
            else:
                positive = positive or spec
                found += _arg(arg, cwd, ctx, spec)
        i += 1
    if excludes and not positive:  # only exclusions: every file but those
        found += [w for w in _workspace_secrets(ctx) if not any(_matches(*x, w[0]) for x in excludes)]
    return found


def every_secret(ctx: ReadContext) -> list[Locus]:
    """The sensitive files of the workspace known now: what a command that names files where the audit does not see
    them (on its stdin) may name."""
    return _workspace_secrets(ctx)


def _after_colons(arg: str) -> list[str]:
    """Each part of ``arg`` after one of its ``:`` (a path it may name)."""
    return [arg[i + 1 :] for i, c in enumerate(arg) if c == ":" and arg[i + 1 :]]


def _magic(arg: str, cwd: str, ctx: ReadContext) -> tuple[frozenset[str], str] | None:
    """A pathspec with magic as (its magic words, its pattern relative to the workspace), else None."""
    long, short = _LONG_MAGIC.match(arg), _SHORT_MAGIC.match(arg)
    if long is not None:
        words = frozenset(w.strip().split(":", 1)[0].lower() for w in long.group(1).split(","))
        rest = arg[long.end() :]
    elif short is not None:
        marks = short.group(1)
        words = frozenset({"top"} if "/" in marks else set()) | ({"exclude"} if set(marks) & {"!", "^"} else set())
        rest = arg[short.end() :]
    else:
        return None
    root = str(ctx.workspace)
    base = root if "top" in words else cwd
    pattern = posixpath.normpath(posixpath.join(base, rest)) if rest else posixpath.normpath(base)
    if not (pattern == root or pattern.startswith(root + "/")):
        return None if "exclude" not in words else (words, "\0")
    return words, "" if pattern == root else pattern[len(root) + 1 :]


def _matches(words: frozenset[str], pattern: str, path: str) -> bool:
    """Whether the pathspec ``pattern`` with the magic ``words`` matches the workspace file ``path``."""
    if "attr" in words:
        return True  # attributes the audit does not read: any file may have them
    if "icase" in words:
        pattern, path = pattern.lower(), path.lower()
    if not pattern or path == pattern or path.startswith(pattern + "/"):
        return True
    if "literal" in words:
        return False
    if "glob" in words:
        return _wildmatch(pattern).fullmatch(path) is not None
    return fnmatch.fnmatchcase(path, pattern)  # git's default: ``*`` matches ``/`` too


def _wildmatch(pattern: str) -> re.Pattern[str]:
    """``pattern`` as git's ``wildmatch`` with ``WM_PATHNAME`` reads it: ``**/`` is any folders (none too), ``/**``
    anything below, ``*`` and ``?`` never a ``/``."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i) and (i == 0 or pattern[i - 1] == "/"):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i) and (i == 0 or pattern[i - 1] == "/") and i + 2 == len(pattern):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[" and "]" in pattern[i + 2 :]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1 : end].replace("\\", "\\\\")
            out, i = out + "[" + ("^" + body[1:] if body[:1] in "!^" and body else body) + "]", end + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out, re.DOTALL)  # a newline in a name is a character as any other (red team 6, 06)


def _arg(arg: str, cwd: str, ctx: ReadContext, spec: bool) -> list[Locus]:
    """The sensitive files one argument without magic names (a revision with a path, a pathspec, an object id)."""
    root = str(ctx.workspace)
    out: list[Locus] = []
    if not spec and ":" in arg:  # REV:PATH, :PATH (the index), :N:PATH (a stage): any part after a ``:``
        for path in {_STAGE.sub("", p) for p in _after_colons(arg)}:
            if path:
                out += _paths(posixpath.join(cwd if path.startswith(("./", "../")) else root, path), ctx)
    else:
        out += _paths(posixpath.join(cwd, arg), ctx)
    hexed = _OBJECT.match(arg) if not spec else None
    if hexed is not None:
        prefix = hexed.group(1).lower()
        out += [where for blob, where in _blobs(ctx) if blob.startswith(prefix)]
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
