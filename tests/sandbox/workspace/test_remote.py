"""The remote's refs and reflog steps, read by the engine (:mod:`sandbox.workspace.remote`): bounded work for any
reflog an agent wrote by hand, and any depth of ``refs`` (a red team's findings 14 and 08); unchanged refs not read
again, and a push's refs listed capped (red team 6, 03)."""

from __future__ import annotations

import itertools
import subprocess
import zlib
from pathlib import Path

import pytest

from sandbox.commands.volume import REFS_MAX, clip_refs
from sandbox.workspace import remote
from sandbox.workspace.files import remove_tree
from sandbox.workspace.remote import PROTECTED, read_refs, read_state, ref_updates


def _repo(path: Path, commits: int) -> list[str]:
    """A bare-like repository at ``path`` with ``commits`` commits in a line on main; their ids, oldest first."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    ids = []
    for i in range(commits):
        subprocess.run(
            ["git", "-C", str(path), "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-q", "--allow-empty",
             "-m", str(i)], check=True,
        )
        ids.append(subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True,
                                  check=True).stdout.strip())
    return ids


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []
    real = remote.run_git  # type: ignore[attr-defined]

    def run_git(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(remote, "run_git", run_git)
    return calls


def test_a_flood_of_one_reflog_step_costs_one_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c0, c1 = _repo(tmp_path / "r", 2)
    git = tmp_path / "r" / ".git"
    before = read_state(git)
    (git / "refs" / "heads" / "flood").write_text(c1 + "\n")
    (git / "logs" / "refs" / "heads" / "flood").write_text(f"{c0} {c1} a <a@a> 1700000000 +0000\tpush\n" * 3000)
    calls = _counting(monkeypatch)
    updates = ref_updates(git, before)
    assert [(u.ref, u.forced) for u in updates] == [("refs/heads/flood", False)]
    assert len(calls) == 2  # rev-list and cat-file (remote.verified_ancestor)


def test_past_the_budget_a_step_counts_as_forced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _repo(tmp_path / "r", 6)
    git = tmp_path / "r" / ".git"
    before = read_state(git)
    (git / "refs" / "heads" / "f").write_text(ids[-1] + "\n")
    steps = "".join(f"{a} {b} a <a@a> 1700000000 +0000\tpush\n" for a, b in itertools.pairwise(ids))
    (git / "logs" / "refs" / "heads" / "f").write_text(steps)
    monkeypatch.setattr(remote, "CHECKS_MAX", 3)
    calls = _counting(monkeypatch)
    assert [u.forced for u in ref_updates(git, before)] == [True]  # five fast-forwards, three checked
    assert len(calls) == 6


def test_refs_of_any_depth_are_read(tmp_path: Path) -> None:
    (c0,) = _repo(tmp_path / "r", 1)
    git = tmp_path / "r" / ".git"
    deep = git / "refs" / "x" / "/".join(["a"] * 1100)
    subprocess.run(["mkdir", "-p", str(deep)], check=True)  # pathlib's and os's makedirs are recursive
    try:
        (deep / "tip").write_text(c0 + "\n")
        assert read_refs(git)[deep.relative_to(git).as_posix() + "/tip"] == c0
    finally:
        remove_tree(git / "refs" / "x")  # iteratively: pytest's clean-up of its folder is recursive


def _graph_parent(graph: Path, child: str, parent: str) -> None:
    """Rewrite ``child``'s first parent in the commit-graph file at ``graph`` to ``parent`` (its generation and
    corrected date made consistent), as an agent can in the origin it may write: git then walks the forged graph."""
    import struct

    data = bytearray(graph.read_bytes())
    chunks = {}
    for i in range(data[6] + 1):
        at = 8 + 12 * i
        chunks[bytes(data[at : at + 4])] = struct.unpack(">Q", data[at + 4 : at + 12])[0]
    fanout, oids, cdat = chunks[b"OIDF"], chunks[b"OIDL"], chunks[b"CDAT"]
    count = struct.unpack(">I", data[fanout + 1020 : fanout + 1024])[0]
    ids = [bytes(data[oids + 20 * i : oids + 20 * i + 20]).hex() for i in range(count)]
    c, p = ids.index(child), ids.index(parent)
    entry, pentry = cdat + 36 * c, cdat + 36 * p
    struct.pack_into(">I", data, entry + 20, p)
    struct.pack_into(">I", data, entry + 24, 0x70000000)  # no second parent
    level = struct.unpack(">I", data[pentry + 28 : pentry + 32])[0] >> 2
    high = struct.unpack(">I", data[entry + 28 : entry + 32])[0]
    struct.pack_into(">I", data, entry + 28, ((level + 1) << 2) | (high & 3))

    def date(i: int) -> int:
        hi, lo = struct.unpack(">II", data[cdat + 36 * i + 28 : cdat + 36 * i + 36])
        return int(((hi & 3) << 32) | lo)

    if b"GDA2" in chunks:
        g = chunks[b"GDA2"]
        generation = date(p) + struct.unpack(">I", data[g + 4 * p : g + 4 * p + 4])[0]
        struct.pack_into(">I", data, g + 4 * c, max(0, generation - date(c)))
    graph.write_bytes(bytes(data))


def test_a_forged_commit_graph_does_not_make_a_rewrite_a_fast_forward(tmp_path: Path) -> None:
    """Red team round 3, 08: the engine's ancestry check read the origin's ``objects/info/commit-graph``, which an
    agent can write: a rewritten ``main`` whose parent the graph says descends from the old tip read as a
    fast-forward (``git_push_protected``, not ``git_force_push``). The engine's git reads no commit-graph."""
    repo = tmp_path / "origin"
    base, old = _repo(repo, 2)
    git = ["git", "-C", str(repo), "-c", "user.name=a", "-c", "user.email=a@a"]
    tree = subprocess.run([*git, "rev-parse", f"{old}^{{tree}}"], capture_output=True, text=True, check=True)
    made = subprocess.run([*git, "commit-tree", tree.stdout.strip(), "-p", base, "-m", "rewritten"],
                          capture_output=True, text=True, check=True)
    rewritten = made.stdout.strip()
    subprocess.run([*git, "tag", "keep", old], check=True)  # in the graph after main moves
    before = read_state(repo / ".git")
    subprocess.run([*git, "update-ref", "refs/heads/main", rewritten], check=True)
    subprocess.run([*git, "commit-graph", "write", "--reachable"], check=True)
    graph = repo / ".git" / "objects" / "info" / "commit-graph"
    if not graph.exists():
        pytest.skip("this git wrote no single commit-graph file")
    _graph_parent(graph, base, old)
    forged = subprocess.run([*git, "merge-base", "--is-ancestor", old, rewritten])
    assert forged.returncode == 0  # git trusting the graph is fooled
    [update] = ref_updates(repo / ".git", before)
    assert update.ref == "refs/heads/main" and update.forced, update


def test_a_forged_loose_commit_does_not_make_a_rewrite_a_fast_forward(tmp_path: Path) -> None:
    """Red team round 4, 07: git checks the hash of the tip it is given, not of the parents it walks to. A rewrite
    X -> Y -> base of ``main`` (old tip M1, a child of base) whose loose object Y is rewritten in place to say
    ``parent M1`` read as a fast-forward to ``merge-base --is-ancestor``. The engine hashes what it walks."""
    repo = tmp_path / "origin"
    base, old = _repo(repo, 2)
    git = ["git", "-C", str(repo), "-c", "user.name=a", "-c", "user.email=a@a"]

    def run(*args: str, data: bytes | None = None) -> str:
        return subprocess.run([*git, *args], input=data, capture_output=True, check=True).stdout.decode().strip()

    tree = run("rev-parse", f"{old}^{{tree}}")
    middle = run("commit-tree", tree, "-p", base, "-m", "intermediate")
    rewritten = run("commit-tree", tree, "-p", middle, "-m", "rewritten")
    before = read_state(repo / ".git")
    run("update-ref", "refs/heads/main", rewritten)
    body = run("cat-file", "commit", middle).encode().replace(f"parent {base}".encode(), f"parent {old}".encode())
    loose = repo / ".git" / "objects" / middle[:2] / middle[2:]
    loose.chmod(0o644)
    loose.write_bytes(zlib.compress(b"commit %d\0" % (len(body) + 1) + body + b"\n"))
    forged = subprocess.run([*git, "-c", "core.commitGraph=false", "merge-base", "--is-ancestor", old, rewritten])
    assert forged.returncode == 0  # git trusting the loose object is fooled
    [update] = ref_updates(repo / ".git", before)
    assert update.ref == "refs/heads/main" and update.forced, update


def test_a_true_fast_forward_of_many_commits_is_one(tmp_path: Path) -> None:
    ids = _repo(tmp_path / "r", 30)
    assert remote.verified_ancestor(tmp_path / "r" / ".git", ids[0], ids[-1])
    assert not remote.verified_ancestor(tmp_path / "r" / ".git", ids[-1], ids[0])


def _flood(git_dir: Path, count: int) -> None:
    heads = git_dir / "refs" / "heads"
    heads.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (heads / f"b{i}").write_text(f"{i + 1:040x}\n")


def test_unchanged_refs_are_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team 6, 03: 10,000 refs written by hand made every later command read every one of them (seconds)."""
    git_dir = tmp_path / "remote.git"
    _flood(git_dir, 300)
    monkeypatch.setattr(remote, "RACY_NS", 0)  # the files were just written: no wait for the clock tick
    first = read_state(git_dir)
    reads: list[object] = []
    real = remote._head  # type: ignore[attr-defined]
    monkeypatch.setattr(remote, "_head", lambda path: reads.append(path) or real(path))
    assert read_state(git_dir) == first and reads == []
    (git_dir / "refs/heads/b7").write_text(f"{7:040x}\n")  # rewritten in place: its folder's times unchanged
    (git_dir / "refs/heads/b8").unlink()
    again = read_refs(git_dir)
    assert again["refs/heads/b7"] == f"{7:040x}" and "refs/heads/b8" not in again and len(reads) == 1
    assert {u.ref for u in ref_updates(git_dir, first)} == {"refs/heads/b7", "refs/heads/b8"}


def test_a_push_of_many_refs_lists_them_capped_and_says_so() -> None:
    refs = [f"refs/heads/b{i}" for i in range(REFS_MAX + 10)] + ["refs/heads/main"]
    clipped = clip_refs(refs, PROTECTED)
    assert clipped[0] == "refs/heads/main" and len(clipped) == REFS_MAX + 1
    assert clipped[-1] == "[... 11 more refs cut]"
    assert clip_refs(refs[:3], PROTECTED) == tuple(refs[:3])
