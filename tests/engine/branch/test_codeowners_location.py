"""Where the CODEOWNERS file is and who its owners are, as on GitHub ("About code owners"): the first of
``.github/CODEOWNERS``, ``CODEOWNERS``, ``docs/CODEOWNERS`` is read by the git server's hook, the engine's merge
requests and the CooperBench pack check alike (only the root file was read: a pack with ``.github/CODEOWNERS`` had
every file open); owner names compare case-insensitively and ``@org/team`` is team ``team`` (``@Core`` and
``@acme/core`` locked core out of its own file); the pack check holds the owner's own files to the owner team."""

from __future__ import annotations

from pathlib import Path

import pytest

from channel.vocab.globs import CODEOWNERS_LOCATIONS, CodeOwners, is_owner
from engine.branch.gitserver import MAIN, GitServer
from engine.branch.validate import check_instance
from tests.engine.branch._tiny import tiny_pack

FILES = {"src/lib/api.py": '"""api"""\n', "src/lib/impl.py": "x = 1\n", "README.md": "r\n"}
MEMBERS = {"requester": "contrib", "owner": "core"}


@pytest.mark.parametrize(
    ("placed", "owners"),
    [
        ({".github/CODEOWNERS": "src/**/api.py @core\n"}, ("core",)),
        ({"docs/CODEOWNERS": "src/**/api.py @core\n"}, ("core",)),
        ({"CODEOWNERS": "src/**/api.py @core\n"}, ("core",)),
        # the first found wins, the others are not read (GitHub: "use the first one it finds")
        ({".github/CODEOWNERS": "src/**/api.py @core\n", "CODEOWNERS": "README.md @docs\n"}, ("core",)),
        ({"CODEOWNERS": "README.md @docs\n", "docs/CODEOWNERS": "src/**/api.py @core\n"}, ()),
        ({".github/CODEOWNERS": "", "CODEOWNERS": "src/**/api.py @core\n"}, ()),  # an empty first file is the file
        ({}, ()),
    ],
)
async def test_the_hook_and_merge_requests_read_the_codeowners_github_reads(
    tmp_path: Path, placed: dict[str, str], owners: tuple[str, ...]
) -> None:
    files = {**FILES, **placed}
    assert CodeOwners.find(files.get).owners_of("src/lib/api.py") == owners  # the pack check's reading
    server = await GitServer.create(tmp_path, files, MEMBERS)
    assert (await server.codeowners()).owners_of("src/lib/api.py") == owners  # the merge requests' reading
    tree = {**files, "src/lib/api.py": files["src/lib/api.py"] + "from x import y\n"}
    pushed = await server.push("requester", MAIN, tree, "direct push", base=await server.head(MAIN))
    assert pushed.ok == (owners == ()), pushed.output  # the hook's reading
    if owners:
        assert "src/lib/api.py is owned by @core" in pushed.output


async def test_a_folder_named_codeowners_is_not_the_file(tmp_path: Path) -> None:
    files = {**FILES, ".github/CODEOWNERS/x": "src/**/api.py @docs\n", "CODEOWNERS": "src/**/api.py @core\n"}
    server = await GitServer.create(tmp_path, files, MEMBERS)
    assert (await server.codeowners()).owners_of("src/lib/api.py") == ("core",)
    tree = {**files, "src/lib/api.py": "changed\n"}
    assert not (await server.push("requester", MAIN, tree, "p", base=await server.head(MAIN))).ok


def test_the_locations_are_githubs_in_its_order() -> None:
    assert CODEOWNERS_LOCATIONS == (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")


@pytest.mark.parametrize("line", ["src/**/api.py @Core", "src/**/api.py @CORE", "src/**/api.py @acme/core"])
async def test_owner_names_are_case_insensitive_and_org_team_is_the_team(tmp_path: Path, line: str) -> None:
    """Core's member pushes its own file, the requester's push is refused, and core's approval lets it through."""
    files = {**FILES, "CODEOWNERS": line + "\n"}
    server = await GitServer.create(tmp_path, files, MEMBERS)
    tree = {**files, "src/lib/api.py": "X = 1\n"}
    mine = await server.push("owner", MAIN, tree, "own file", base=await server.head(MAIN))
    assert mine.ok, mine.output
    theirs = {**tree, "src/lib/api.py": "X = 2\n"}
    refused = await server.push("requester", MAIN, theirs, "not mine", base=await server.head(MAIN))
    assert not refused.ok
    branch = await server.push("requester", "requester", theirs, "branch", base=await server.head(MAIN))
    server.approve(branch.commit, "owner", "core")
    merged = await server.merge("requester", "requester")
    assert merged.ok, merged.output


def test_is_owner() -> None:
    assert is_owner("core", ("Core",)) and is_owner("Core", ("acme/CORE",)) and is_owner("core", ("docs", "core"))
    assert not is_owner("core", ("docs",)) and not is_owner("core", ("core/docs",)) and not is_owner("", ("",))


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("codeowners", "failed"),
    [
        ("pkg/__init__.py @core\npkg/core.py @Core\n", []),
        ("pkg/__init__.py @core\npkg/core.py @docs\n",
         ["CODEOWNERS gives the owner's file pkg/core.py to @docs, not @core"]),
        ("pkg/__init__.py @core\n", ["CODEOWNERS gives the owner's file pkg/core.py to no team, not @core"]),
    ],
)  # fmt: skip
async def test_the_pack_check_holds_the_owners_files_to_the_owner_team(codeowners: str, failed: list[str]) -> None:
    """A pack giving the owner's task file to a team with no member in the episode validated, and every run had the
    hook refuse the owner's own push (owner success 0%). It reads .github/CODEOWNERS, as the hook does."""
    pack, instance = tiny_pack({".github/CODEOWNERS": codeowners})
    assert list((await check_instance(pack, instance)).failed) == failed
