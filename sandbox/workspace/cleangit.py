"""The engine's own git on a repository an agent can write, with none of that repository's config.

The engine runs git itself in two repositories the jail's uid owns: the workspace's (the amend after a
rollback, :meth:`~sandbox.workspace.gitguard.GitGuard.unmake`) and the ``origin`` remote (whether a ref's
update was a fast-forward, :func:`~sandbox.workspace.remote.ref_updates`). git reads a repository's config
before anything else, and much of it runs programs: ``core.fsmonitor``, a filter's ``clean``, a promisor
remote's ``uploadpack`` that a lazy fetch of a missing object starts, a ``config.worktree`` switched on by
``extensions.worktreeConfig``. Read by the engine's git, any of those would run an agent's program on the
host, as the engine's user, outside the jail.

So the engine's git never reads the repository's config, hooks or ``info/`` (grafts rewrite history,
attributes name drivers): :func:`run_git` gives it a git folder of its own, a scratch folder with a config
the engine wrote (format version 0, so no extension; no remote, hook, filter or driver), whose ``objects``,
``refs``, reflogs and ``packed-refs`` are the repository's (symbolic links), and the repository's index
(``GIT_INDEX_FILE``); no system or global config, no replace refs, no grafts, no commit-graph (its parents
are the agent's to write), no lazy fetch. It runs as the
jail's uid where the sandbox has one, so a symbolic link planted inside the repository (``objects/ab`` to a
host folder) leads nowhere that uid could not write anyway. A repository whose ``objects`` or ``refs`` is
not a real folder, or whose ``HEAD`` is not a plain file, is refused (None): the engine's step is skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from sandbox.jail.isolation import SYSTEM_PATH, minimal_env
from sandbox.workspace.stale import owned_tempdir

_SHARED = ("objects", "refs", "logs", "packed-refs", "shallow")
"""What the scratch git folder takes from the repository, by symbolic link (when present)."""
_HEAD = re.compile(r"(ref: refs/[^\s]+|[0-9a-f]{40}|[0-9a-f]{64})\n?")
_CONFIG = """[core]
\trepositoryformatversion = 0
\tbare = {bare}
\tfilemode = true
\tlogAllRefUpdates = {logs}
\thooksPath = /dev/null
\tfsmonitor = false
\tcommitGraph = false
"""
"""``commitGraph = false``: ``objects/info/commit-graph`` is the repository's (``objects`` is shared), and git takes
the parents of every commit it walks from it: a graph an agent wrote would make a rewrite read as a fast-forward."""


def _real(path: Path, kind: int) -> bool:
    """``path`` is of ``kind`` (``stat.S_IFDIR``, ``S_IFREG``) itself, not through a symbolic link."""
    try:
        return stat.S_IFMT(os.lstat(path).st_mode) == kind
    except OSError:
        return False


def run_git(
    git_dir: Path,
    args: Sequence[str],
    *,
    work_tree: Path | None = None,
    uid: int | None = None,
    timeout: float = 30,
    stdin: bytes | None = None,
) -> subprocess.CompletedProcess[bytes] | None:
    """``git ARGS`` on ``git_dir`` (and ``work_tree``) with a git folder of the engine's (see the module), as
    ``uid`` when given, ``stdin`` its input; None when the repository's layout is refused or git could not run. A
    detached ``HEAD`` that git moved is written back to the repository."""
    if not (_real(git_dir, stat.S_IFDIR) and _real(git_dir / "objects", stat.S_IFDIR)):
        return None
    if not (_real(git_dir / "refs", stat.S_IFDIR) and _real(git_dir / "HEAD", stat.S_IFREG)):
        return None
    try:
        head = (git_dir / "HEAD").read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    if not _HEAD.fullmatch(head):
        return None
    scratch = Path(owned_tempdir("scopewatch-git-"))
    try:
        own = scratch / "git"
        own.mkdir()
        for name in _SHARED:
            if os.path.lexists(git_dir / name):
                (own / name).symlink_to(git_dir / name)
        bare = work_tree is None
        logs = "always" if bare else "true"
        (own / "config").write_text(_CONFIG.format(bare=str(bare).lower(), logs=logs), encoding="utf-8")
        (own / "HEAD").write_text(head, encoding="ascii")
        env = minimal_env(path=SYSTEM_PATH, home=str(scratch), tmp=str(scratch))
        env.update(
            GIT_DIR=str(own),
            GIT_CONFIG_GLOBAL=os.devnull,
            GIT_NO_REPLACE_OBJECTS="1",
            GIT_GRAFT_FILE=os.devnull,
            GIT_NO_LAZY_FETCH="1",
            GIT_ATTR_NOSYSTEM="1",
            GIT_COMMITTER_NAME="scopewatch",
            GIT_COMMITTER_EMAIL="scopewatch@scopewatch.invalid",
        )
        if work_tree is not None:
            env.update(GIT_WORK_TREE=str(work_tree), GIT_INDEX_FILE=str(git_dir / "index"))
        if uid is not None:
            for path in (scratch, own, *own.iterdir()):
                os.lchown(path, uid, uid)
        try:
            done = subprocess.run(
                ["git", "-c", "safe.directory=*", "-c", "protocol.allow=never", *args],
                cwd=work_tree or scratch,
                env=env,
                input=stdin,
                stdin=subprocess.DEVNULL if stdin is None else None,
                capture_output=True,
                timeout=timeout,
                check=False,
                user=uid,
                group=uid,
                extra_groups=None if uid is None else [],
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        moved = (own / "HEAD").read_text(encoding="ascii", errors="replace")
        if moved != head and not head.startswith("ref: ") and _HEAD.fullmatch(moved):
            _put_head(git_dir, moved)
        return done
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _put_head(git_dir: Path, text: str) -> None:
    """``HEAD`` replaced by a new file renamed over it (a symbolic link put there is replaced, not followed)."""
    fd, name = tempfile.mkstemp(prefix="HEAD.", dir=git_dir)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(text)
    st = os.lstat(git_dir)
    os.chown(name, st.st_uid, st.st_gid)
    os.chmod(name, 0o644)
    os.replace(name, git_dir / "HEAD")
