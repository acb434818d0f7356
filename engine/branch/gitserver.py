"""The shared git server of a branch episode: one bare repository the agents reach as their remote.

It is served from the engine's side (a folder outside every workspace): agents push, open merge
requests, approve and merge through their tools, which run git here as them (``SW_ACTOR``), and
the bare repository's ``pre-receive`` hook (:mod:`engine.branch.hook`) enforces ``CODEOWNERS`` on
``main``. Approvals are recorded in the bare repository (``sw/approvals.json``) by the engine, for
the hook to read; an approval approves one commit's content.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from channel.vocab.globs import CODEOWNERS_LOCATIONS, CodeOwners
from engine.branch.hook import install

MAIN = "main"


class GitFailed(Exception):
    """A git command the server ran failed (its output is the message)."""


@dataclass(frozen=True)
class PushResult:
    ok: bool
    commit: str
    output: str


class GitServer:
    """A bare repository with the CODEOWNERS hook, and the git operations agents' tools run on it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bare = root / "origin.git"

    @classmethod
    async def create(cls, root: Path, files: Mapping[str, str], members: Mapping[str, str]) -> GitServer:
        """A server at ``root`` whose ``main`` holds ``files`` (its CODEOWNERS among them); ``members``:
        agent id -> team."""
        server = cls(root)
        root.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240
        await server._git(root, "init", "-q", "--bare", "-b", MAIN, str(server.bare))
        install(server.bare)
        (server.bare / "sw" / "members.json").write_text(json.dumps(dict(members)))
        (server.bare / "sw" / "approvals.json").write_text("[]")
        await server.push("engine", MAIN, files, "base")
        return server

    # --- git ------------------------------------------------------------------------------------

    async def _git(self, cwd: Path, *args: str, actor: str = "engine", check: bool = True) -> tuple[int, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.root),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": actor,
            "GIT_AUTHOR_EMAIL": f"{actor}@scopewatch.invalid",
            "GIT_COMMITTER_NAME": actor,
            "GIT_COMMITTER_EMAIL": f"{actor}@scopewatch.invalid",
            "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
            "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
            "SW_ACTOR": actor,
        }
        proc = await asyncio.create_subprocess_exec(
            "git", *args, cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        out, _ = await proc.communicate()
        text = out.decode(errors="replace")
        code = proc.returncode or 0
        if check and code != 0:
            raise GitFailed(f"git {args[0]}: {text.strip()}")
        return code, text

    async def _scratch(self, actor: str, branch: str, base: str = "") -> Path:
        """A fresh clone at ``branch``'s head; a new branch (or a push to main) starts at ``base``
        (default: main's head), the commit the agent's working copy came from."""
        work = Path(tempfile.mkdtemp(prefix="clone-", dir=self.root))
        await self._git(self.root, "clone", "-q", str(self.bare), str(work), actor=actor)
        if branch != MAIN and await self.head(branch):
            await self._git(work, "checkout", "-q", branch, actor=actor)
        elif base:
            await self._git(work, "checkout", "-q", "--detach", base, actor=actor)
        return work

    async def head(self, branch: str) -> str:
        """The commit ``branch`` points at ("" when there is no such branch)."""
        code, out = await self._git(self.bare, "rev-parse", "--verify", "-q", f"refs/heads/{branch}", check=False)
        return out.strip() if code == 0 else ""

    async def push(
        self, actor: str, branch: str, files: Mapping[str, str], message: str, *, base: str = ""
    ) -> PushResult:
        """Commit ``files`` (the whole tree) as ``actor`` on top of ``branch`` (a new one, or main, on
        top of ``base``) and push it there; the hook decides a push to main (git refuses one that is
        not a fast-forward)."""
        work = await self._scratch(actor, branch, base)
        try:
            for path in _names((await self._git(work, "ls-files", "-z"))[1]):
                (work / path).unlink()
            for path, text in files.items():
                target = work / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)
            await self._git(work, "add", "-A", "--force", actor=actor)  # the tree is the files given, .gitignore or not
            await self._git(work, "commit", "-q", "--allow-empty", "-m", message, actor=actor)
            commit = (await self._git(work, "rev-parse", "HEAD"))[1].strip()
            code, out = await self._git(
                work, "push", "-q", "origin", f"HEAD:refs/heads/{branch}", actor=actor, check=False
            )
            return PushResult(code == 0, commit, _hook_lines(out))
        finally:
            shutil.rmtree(work, ignore_errors=True)

    async def merge(self, actor: str, branch: str) -> PushResult:
        """Merge ``branch`` into main as ``actor`` and push main; the hook decides."""
        work = await self._scratch(actor, MAIN)
        try:
            code, out = await self._git(
                work, "merge", "-q", "--no-ff", "-m", f"merge {branch}", f"origin/{branch}", actor=actor, check=False
            )
            if code != 0:
                return PushResult(False, "", f"merge conflict: {out.strip()[-300:]}")
            commit = (await self._git(work, "rev-parse", "HEAD"))[1].strip()
            code, out = await self._git(
                work, "push", "-q", "origin", f"HEAD:refs/heads/{MAIN}", actor=actor, check=False
            )
            return PushResult(code == 0, commit, _hook_lines(out))
        finally:
            shutil.rmtree(work, ignore_errors=True)

    async def changed(self, base: str, head: str) -> list[str]:
        """Paths that differ between two commits (``-z``: a name with a space, a tab or a non-ASCII letter is itself,
        not git's quoted form, which CODEOWNERS and the hook would not know)."""
        return _names((await self._git(self.bare, "diff", "-z", "--no-renames", "--name-only", base, head))[1])

    async def merge_base(self, branch: str) -> str:
        return (await self._git(self.bare, "merge-base", MAIN, branch))[1].strip()

    async def diff(self, base: str, head: str) -> str:
        return (await self._git(self.bare, "diff", base, head))[1]

    async def is_ancestor(self, commit: str, of: str) -> bool:
        code, _ = await self._git(self.bare, "merge-base", "--is-ancestor", commit, of, check=False)
        return code == 0

    async def tree(self, rev: str) -> dict[str, str]:
        """Every file of ``rev`` (a branch or a commit) and its text."""
        names = _names((await self._git(self.bare, "ls-tree", "-r", "-z", "--name-only", rev))[1])
        return {name: (await self._git(self.bare, "show", f"{rev}:{name}"))[1] for name in names}

    async def codeowners(self, rev: str = MAIN) -> CodeOwners:
        """``rev``'s ``CODEOWNERS`` (none: nobody owns anything), read as the hook reads main's before a push: the
        file is the one :meth:`CodeOwners.find <channel.vocab.globs.CodeOwners.find>` picks (GitHub's order of
        ``.github/``, the root, ``docs/``) and who owns a path is
        :meth:`CodeOwners.owners_of <channel.vocab.globs.CodeOwners.owners_of>`, on both sides."""
        texts: dict[str, str] = {}
        for location in CODEOWNERS_LOCATIONS:
            code, text = await self._git(self.bare, "cat-file", "blob", f"{rev}:{location}", check=False)
            if code == 0:
                texts[location] = text
        return CodeOwners.find(texts.get)

    # --- approvals --------------------------------------------------------------------------------

    def approve(self, commit: str, by: str, team: str) -> None:
        """Record that ``by`` (of ``team``) approved ``commit``'s content (read by the hook)."""
        path = self.bare / "sw" / "approvals.json"
        approvals = json.loads(path.read_text())
        approvals.append({"commit": commit, "by": by, "team": team})
        path.write_text(json.dumps(approvals))


def _names(listed: str) -> list[str]:
    """The names of a ``-z`` listing."""
    return [name for name in listed.split("\0") if name]


def _hook_lines(output: str) -> str:
    """What the hook said, without git's own noise (``remote: `` prefixes dropped)."""
    lines = [line.removeprefix("remote: ").strip() for line in output.splitlines()]
    said = [line for line in lines if line.startswith("sw: ")]
    return "\n".join(said) if said else output.strip()
