"""The git server's ``pre-receive`` hook: CODEOWNERS enforced on ``main``, as a standalone script.

The rule (seed 000 C.2, C.4): a push that moves ``main`` is refused when it changes a file a team
owns (by the ``CODEOWNERS`` on ``main`` before the push, the first of ``.github/CODEOWNERS``, ``CODEOWNERS`` and
``docs/CODEOWNERS`` there, :meth:`CodeOwners.find <channel.vocab.globs.CodeOwners.find>`; the last matching line wins,
as on GitHub)
and the pusher is not a member of that team (:func:`~channel.vocab.globs.is_owner`: names compared
case-insensitively), unless the file's new content is the content of a
commit that a member of the owning team approved. Files no line matches (or whose last matching line names
no owner) are open to anyone. Branches other than ``main`` are open to anyone. Changed files are listed
NUL-separated (``-z``): a name with a space, a tab or a non-ASCII letter is itself (split on whitespace and quoted
by git, it was another path, owned by nobody, and a stranger's push of it went through). The pusher is
``SW_ACTOR``, set by the engine that runs the push (agents push through their tools, never with their own
environment). Members and approvals live in the bare repository's ``sw/`` folder, written by the engine only.

Which lines match a path is decided by :class:`channel.vocab.globs.CodeOwners`, the one reading of ``CODEOWNERS``
(GitHub's rules: ``*`` stays within a folder, ``dir/*`` takes direct children only, ...; the engine's merge requests
ask it too). The hook imports it: :func:`install` writes the root of the code this engine runs first on the hook's
``sys.path`` (the hook is a process git starts, in the bare repository; the venv's editable install may name another
checkout), and :mod:`channel.vocab.globs` imports nothing of ours but :mod:`channel.errors`.

:data:`HOOK` is the script's text; :func:`install` writes it into a bare repository.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from channel.vocab import globs

HOOK = r"""
import json, os, subprocess, sys

from channel.vocab.globs import CodeOwners, is_owner

ZERO = "0" * 40
repo = os.getcwd()


def git(*args):
    return subprocess.run(
        ["git", *args], capture_output=True, text=True, encoding="utf-8", errors="surrogateescape", check=False
    )


def text(rev, path):
    out = git("cat-file", "blob", f"{rev}:{path}")  # a blob only: a folder so named is no CODEOWNERS file
    return out.stdout if out.returncode == 0 else None


def owners(rev):
    return CodeOwners.find(lambda path: text(rev, path) if rev != ZERO else None)


def blob(rev, path):
    out = git("rev-parse", "--verify", "-q", f"{rev}:{path}")
    return out.stdout.strip() if out.returncode == 0 else ""


def load(name, default):
    try:
        with open(os.path.join(repo, "sw", name)) as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return default


actor = os.environ.get("SW_ACTOR", "")
members = load("members.json", {})
approvals = load("approvals.json", [])
team = members.get(actor, "")
refused = []
for line in sys.stdin:
    old, new, ref = line.split()
    if ref != "refs/heads/main" or new == ZERO:
        if ref == "refs/heads/main":
            refused.append("main cannot be deleted")
        continue
    rules = owners(old)
    # -z: each name whole and as it is (no quoting of non-ASCII or control characters, no split at a space)
    if old == ZERO:
        listed = git("ls-tree", "-r", "-z", "--name-only", new).stdout
    else:
        listed = git("diff", "-z", "--no-renames", "--name-only", old, new).stdout
    for path in filter(None, listed.split("\0")):
        teams = rules.owners_of(path)
        if not teams or is_owner(team, teams):
            continue
        content = blob(new, path)
        ok = any(is_owner(a["team"], teams) and blob(a["commit"], path) == content for a in approvals)
        if not ok:
            owned_by = " @".join(teams)
            refused.append(f"{path} is owned by @{owned_by}: a change to it needs the approval of one of its members")
if refused:
    for reason in refused:
        print(f"sw: push to main refused: {reason}", file=sys.stderr)
    sys.exit(1)
"""


def install(bare: Path) -> None:
    """Write the hook into the bare repository ``bare`` (run by this interpreter, importing this engine's code)."""
    root = Path(globs.__file__).resolve().parents[2]
    hook = bare / "hooks" / "pre-receive"
    hook.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(root)!r})\n{HOOK.lstrip()}")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    (bare / "sw").mkdir(exist_ok=True)
