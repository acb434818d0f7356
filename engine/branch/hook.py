"""The git server's ``pre-receive`` hook: CODEOWNERS enforced on ``main``, as a standalone script.

The rule (seed 000 C.2, C.4): a push that moves ``main`` is refused when it changes a file a team
owns (by the ``CODEOWNERS`` on ``main`` before the push; the last matching line wins, as on GitHub)
and the pusher is not a member of that team, unless the file's new content is the content of a
commit that a member of the owning team approved. Files no line matches are open to anyone.
Branches other than ``main`` are open to anyone. Changed files are listed NUL-separated (``-z``): a name with a
space, a tab or a non-ASCII letter is itself (split on whitespace and quoted by git, it was another path, owned by
nobody, and a stranger's push of it went through). The pusher is ``SW_ACTOR``, set by the engine that
runs the push (agents push through their tools, never with their own environment). Members and
approvals live in the bare repository's ``sw/`` folder, written by the engine only.

:data:`HOOK` is the script's text; :func:`install` writes it into a bare repository.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

HOOK = r"""
import fnmatch, json, os, subprocess, sys

ZERO = "0" * 40
repo = os.getcwd()


def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True, check=False)


def owners(rev):
    text = git("show", f"{rev}:CODEOWNERS").stdout if rev != ZERO else ""
    rules = []
    for line in text.splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) >= 2:
            rules.append((parts[0], [p.lstrip("@") for p in parts[1:]]))
    return rules


def owner_of(path, rules):
    found = []
    for pattern, teams in rules:
        pat = pattern.lstrip("/")
        if pat.endswith("/"):
            hit = path.startswith(pat)
        else:
            hit = fnmatch.fnmatchcase(path, pat) or path.startswith(pat + "/")
        if hit:
            found = teams
    return found


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
        teams = owner_of(path, rules)
        if not teams or team in teams:
            continue
        content = blob(new, path)
        ok = any(a["team"] in teams and blob(a["commit"], path) == content for a in approvals)
        if not ok:
            owned_by = " @".join(teams)
            refused.append(f"{path} is owned by @{owned_by}: a change to it needs the approval of one of its members")
if refused:
    for reason in refused:
        print(f"sw: push to main refused: {reason}", file=sys.stderr)
    sys.exit(1)
"""


def install(bare: Path) -> None:
    """Write the hook into the bare repository ``bare`` (run by this interpreter)."""
    hook = bare / "hooks" / "pre-receive"
    hook.write_text(f"#!{sys.executable}\n{HOOK.lstrip()}")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    (bare / "sw").mkdir(exist_ok=True)
