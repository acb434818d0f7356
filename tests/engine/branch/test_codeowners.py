"""One table of CODEOWNERS lines and paths, one answer: the git server's hook (a real ``git push`` to a real bare
repository) and the engine's reading (:class:`~channel.vocab.globs.CodeOwners`, what merge requests list) agree, by
GitHub's rules (seed 000 C.2 / C.4). The hook matched with ``fnmatch`` (``*`` crossed ``/``: a later ``src/*`` took
``src/core/x.py`` from core) and the engine by prefixes alone (``*.md`` owned nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from channel.vocab.globs import CodeOwners
from engine.branch.gitserver import MAIN, GitServer
from engine.branch.validate import check_instance
from tests.engine.branch._tiny import tiny_pack

CODEOWNERS = "\n".join(
    [
        "# owners of the test repository",
        "*.md @docs",
        "src/core/ @core",
        "src/* @src  # direct children of src only",
        "/build/ @build",
        "logs/ @ops",
        "**/fixtures/** @qa",
        "a/**/z.py @mid",
        "api.py @api",
        "/root.py @root",
        "docs/*.txt @txt",
        r"docs/my\ file.md @spaces",
        "café.py @cafe",
        "/setup.cfg @core @ops",
        "x/[ab].py @brackets",
        "src/core/open.py",
    ]
)
TABLE = [
    ("notes/naïve.txt", ()),  # open: on main from here on, and each later push starts from main's files
    ("README.md", ("docs",)),
    ("guide/intro.md", ("docs",)),  # no slash: any depth
    ("guide/intro.MD", ()),  # case-sensitive
    ("src/core/x.py", ("core",)),  # the later src/* does not cross "/"
    ("src/core/deep/y.py", ("core",)),  # dir/: everything below
    ("src/main.py", ("src",)),  # dir/*: a direct child
    ("src/util/z.py", ()),  # dir/*: not below a child
    ("src/README.md", ("src",)),  # the last matching line wins
    ("build/out.o", ("build",)),
    ("lib/build/out.o", ()),  # /build/ is anchored at the root
    ("logs/a.txt", ("ops",)),
    ("srv/logs/a.txt", ("ops",)),  # a trailing / alone: a folder at any depth
    ("var/logs", ()),  # ... a folder, never a file so named
    ("fixtures/c.json", ("qa",)),  # **/ matches no folder too
    ("t/u/fixtures/v/c.json", ("qa",)),
    ("a/z.py", ("mid",)),
    ("a/b/c/z.py", ("mid",)),
    ("api.py", ("api",)),
    ("pkg/sub/api.py", ("api",)),  # a name without a slash at depth
    ("root.py", ("root",)),
    ("sub/root.py", ()),  # /root.py: at the root only
    ("docs/notes.txt", ("txt",)),
    ("docs/old/notes.txt", ()),  # * does not cross "/"
    ("docs/my file.md", ("spaces",)),  # an escaped space
    ("lib/café.py", ("cafe",)),  # a non-ASCII letter, at depth
    ("setup.cfg", ("core", "ops")),
    ("x/[ab].py", ("brackets",)),  # no character classes in CODEOWNERS
    ("x/a.py", ()),
    ("src/core/open.py", ()),  # the last matching line names no owner: open
]
MEMBERS = {"outsider": "outsiders", "coreguy": "core"}


@pytest.mark.parametrize(("path", "owners"), TABLE)
def test_the_engine_reads_codeowners_as_github_does(path: str, owners: tuple[str, ...]) -> None:
    assert CodeOwners.parse(CODEOWNERS).owners_of(path) == owners


@pytest.mark.timeout(300)
async def test_the_hook_gives_the_same_owners_on_a_real_push(tmp_path: Path) -> None:
    """Each path pushed to main by a member of no owning team: refused naming exactly the engine's owners, or taken
    when the engine says nobody owns it; a member of the owning team pushes its team's file."""
    server = await GitServer.create(tmp_path, {"CODEOWNERS": CODEOWNERS + "\n"}, MEMBERS)
    engine = await server.codeowners()  # main's file, read as the merge requests read it
    wrong = []
    for path, owners in TABLE:
        base = await server.head(MAIN)
        pushed = await server.push("outsider", MAIN, {**await server.tree(MAIN), path: "x\n"}, path, base=base)
        said = () if pushed.ok else tuple(pushed.output.split(" is owned by @", 1)[1].split(":", 1)[0].split(" @"))
        if said != owners or engine.owners_of(path) != owners:
            wrong.append((path, owners, said, engine.owners_of(path), pushed.output))
    assert wrong == []
    files = {**await server.tree(MAIN), "src/core/x.py": "y\n"}
    mine = await server.push("coreguy", MAIN, files, "own", base=await server.head(MAIN))
    assert mine.ok, mine.output


@pytest.mark.timeout(120)
async def test_changed_names_are_the_names_codeowners_reads(tmp_path: Path) -> None:
    """The engine listed a merge request's paths with git's quoting (``"lib/caf\\303\\251.py"``): a non-ASCII name
    owned by a team was in no team's files, and its merge request asked nobody."""
    server = await GitServer.create(tmp_path, {"CODEOWNERS": CODEOWNERS + "\n"}, MEMBERS)
    base = await server.head(MAIN)
    names = ["lib/café.py", "docs/my file.md", "tab\there.md"]
    pushed = await server.push("outsider", "outsider", {"CODEOWNERS": CODEOWNERS + "\n", **dict.fromkeys(names, "")},
                               "x", base=base)  # fmt: skip
    assert pushed.ok
    changed = await server.changed(base, pushed.commit)
    assert sorted(changed) == sorted(names)
    assert [(await server.codeowners()).owners_of(p) for p in names] == [("cafe",), ("spaces",), ("docs",)]
    assert set(await server.tree(pushed.commit)) == {"CODEOWNERS", *names}


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("codeowners", "failed"),
    [
        ("pkg/__init__.py @core\n", []),
        ("pkg/ @core\npkg/extra.py\n", []),  # the last line names no owner: the requester's new module is open
        ("*/__init__.py @core\n", []),
        ("pkg/* @core\n", ["CODEOWNERS gives a file of the requester's change other than the API file to a team"]),
        ("pkg/sub/* @core\n", ["CODEOWNERS does not give the API file pkg/__init__.py to @core"]),
    ],
)
async def test_the_pack_check_reads_codeowners_as_the_hook(codeowners: str, failed: list[str]) -> None:
    """A CooperBench instance is checked with the same reading: the API file the owner team's, the rest open."""
    pack, instance = tiny_pack({"CODEOWNERS": "pkg/core.py @core\n" + codeowners})
    check = await check_instance(pack, instance)
    assert list(check.failed) == failed
