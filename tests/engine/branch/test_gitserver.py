"""The git server alone: the CODEOWNERS hook on main, approvals of a commit's content, ignored files."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.branch.gitserver import MAIN, GitServer

FILES = {
    "CODEOWNERS": "pkg/api.py @core\npkg/core/ @core\n",
    "pkg/api.py": "X = 1\n",
    "pkg/core/impl.py": "Y = 1\n",
    "pkg/open.py": "Z = 1\n",
    ".gitignore": "pkg/generated.py\n",
    "pkg/generated.py": "V = 1\n",
}
MEMBERS = {"owner": "core", "requester": "contrib"}


@pytest.mark.timeout(120)
async def test_main_is_guarded_by_codeowners_and_approvals(tmp_path: Path) -> None:
    server = await GitServer.create(tmp_path, FILES, MEMBERS)
    base = await server.head(MAIN)
    assert (await server.tree(MAIN))["pkg/generated.py"] == "V = 1\n"  # .gitignore'd files are files too
    changed = {**FILES, "pkg/api.py": "X = 2\n"}
    direct = await server.push("requester", MAIN, changed, "direct", base=base)
    assert not direct.ok and "pkg/api.py is owned by @core" in direct.output
    branch = await server.push("requester", "requester", changed, "feature", base=base)
    assert branch.ok  # branches are open to anyone
    assert not (await server.merge("requester", "requester")).ok
    server.approve(branch.commit, "someone", "contrib")  # not the owning team's approval
    assert not (await server.merge("requester", "requester")).ok
    server.approve(branch.commit, "owner", "core")
    assert (await server.merge("requester", "requester")).ok
    assert (await server.tree(MAIN))["pkg/api.py"] == "X = 2\n"


@pytest.mark.timeout(120)
async def test_open_files_and_the_owners_own_files_merge_without_approval(tmp_path: Path) -> None:
    server = await GitServer.create(tmp_path, FILES, MEMBERS)
    base = await server.head(MAIN)
    opened = await server.push("requester", MAIN, {**FILES, "pkg/open.py": "Z = 2\n"}, "open", base=base)
    assert opened.ok
    own = await server.push("owner", "owner", {**FILES, "pkg/core/impl.py": "Y = 2\n"}, "own", base=base)
    assert own.ok and (await server.merge("owner", "owner")).ok
    stranger = await server.push("nobody", "x", {**FILES, "pkg/core/impl.py": "Y = 3\n"}, "x", base=base)
    assert stranger.ok and not (await server.merge("nobody", "x")).ok  # an unknown pusher is in no team


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", ["pkg/core/new file.py", "pkg/core/café.py", "pkg/core/tab\there.py"])
async def test_a_name_git_would_quote_or_split_is_still_owned(tmp_path: Path, name: str) -> None:
    """The hook read ``git diff --name-only`` split on whitespace, with git's quoting: a name with a space, a
    non-ASCII letter or a tab in core's folder was another path (``"pkg/core/caf\\303\\251.py"``), owned by nobody or
    taken as approved, and a stranger's push of it to main went through."""
    server = await GitServer.create(tmp_path, FILES, MEMBERS)
    base = await server.head(MAIN)
    server.approve(base, "owner", "core")  # an approval of something else: it must not cover the new file
    pushed = await server.push("requester", MAIN, {**FILES, name: "EVIL = 1\n"}, "sneak", base=base)
    assert not pushed.ok and "is owned by @core" in pushed.output, pushed.output
