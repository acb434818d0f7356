"""The sandbox's diffs (:mod:`sandbox.workspace.diffs`): ``difflib``'s own below the bound; past it, the shared head
and tail set aside and, where what lies between is still past it, one hunk: a true diff that ``patch`` applies, at
a cost that grows with the files, not with their square (red team round 3, 04: 200,000 changed lines held the
engine's loop 34 s)."""

from __future__ import annotations

import difflib
import random
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from engine.session.feedback import change_items
from sandbox.workspace import diffs


def _text(rng: random.Random, n: int) -> str:
    return "".join(f"{rng.randrange(40)}\n" for _ in range(n))


def _edited(rng: random.Random, text: str) -> str:
    lines = text.splitlines(keepends=True)
    for _ in range(rng.randrange(4)):
        at = rng.randrange(len(lines) + 1)
        if rng.random() < 0.5:
            lines.insert(at, f"{rng.randrange(40)}\n")
        elif lines:
            lines[min(at, len(lines) - 1)] = "changed\n"
    return "".join(lines)


def _pairs(count: int) -> list[tuple[str, str]]:
    rng = random.Random(29)
    out = []
    for _ in range(count):
        before = _text(rng, rng.randrange(30))
        out.append((before, _edited(rng, before)))
    return [*out, ("", "a\n"), ("a\n", ""), ("a\nb\n", "a\nb\n")]


def test_below_the_bound_the_diff_is_difflibs() -> None:
    for before, after in _pairs(200):
        ours = diffs.unified_diff("f", before.encode(), after.encode())
        theirs = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), "a/f", "b/f"))
        assert ours == theirs


@pytest.mark.parametrize("bound", [8, 0])
def test_past_the_bound_the_diff_still_applies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bound: int) -> None:
    monkeypatch.setattr(diffs, "DIFF_LINES_MAX", bound)
    for before, after in _pairs(120):
        diff = diffs.unified_diff("f", before.encode(), after.encode())
        if before == after:
            assert diff == ""
            continue
        (tmp_path / "f").write_text(before)
        done = subprocess.run(["git", "apply", "-p1"], cwd=tmp_path, input=diff.encode(), capture_output=True)
        assert done.returncode == 0 and (tmp_path / "f").read_text() == after, (before, after, diff, done.stderr)


def test_a_huge_rewrite_is_one_hunk_and_its_change_items_one_item() -> None:
    rng = random.Random(4)
    before, after = _text(rng, 100_000), _text(rng, 100_000)
    before, after = "head\n" + before + "tail\n", "head\n" + after + "tail\n"
    diff = diffs.unified_diff("f", before.encode(), after.encode())
    assert diff.count("\n@@ ") == 1 and "@@ -1,100002 +1,100002 @@" in diff
    [item] = change_items("f", before, after)
    assert (item.start, item.end) == (1, 100_001) and item.restored(after) == before


def _permuted(lines: int, distinct: int) -> tuple[bytes, bytes]:
    vals = [f"v{i:03d}\n" for i in range(distinct)]
    before = "".join(vals[i % distinct] for i in range(lines))
    after = "".join(vals[(i * 7 + 3) % distinct] for i in range(lines))
    return before.encode(), after.encode()


def test_difflibs_work_is_bounded_not_only_its_lines() -> None:
    """Red team round 4, 05: 5,000 lines of 100 distinct ones, each repeated just under autojunk's 1 % and permuted,
    cost seconds of difflib though well under the line bound; past the work bound the diff is the one hunk."""
    before, after = _permuted(4_999, 100)
    start = time.perf_counter()
    diff = diffs.unified_diff("f", before, after)
    assert time.perf_counter() - start < 2.0
    assert diff.count("\n@@ ") == 1 and diff.startswith("--- a/f\n+++ b/f\n@@ -1,4999 +1,4999 @@\n")


def test_within_the_work_bound_the_diff_is_difflibs_byte_for_byte() -> None:
    rng = random.Random(5)
    for n in (0, 1, 50, 400, 3_000):
        before = _text(rng, n)
        after = _edited(rng, _edited(rng, before))
        ours = diffs.unified_diff("f", before.encode(), after.encode())
        assert ours == "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), "a/f", "b/f"))


async def test_past_the_loops_share_a_diff_runs_in_a_thread_with_the_same_text() -> None:
    before, after = _permuted(300, 20)
    loop = threading.get_ident()
    ran: list[int] = []
    real = diffs._unified

    def spy(*args: Any) -> Any:
        ran.append(threading.get_ident())
        return real(*args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(diffs, "_unified", spy)
        budget = diffs.DiffBudget(10)
        text = await diffs.diff_off_loop("f", before, after, budget)
        small = await diffs.diff_off_loop("g", b"a\n", b"b\n", diffs.DiffBudget())
    assert text == diffs.unified_diff("f", before, after) and "@@" in small
    assert ran[0] == loop and ran[1] != loop and ran[2] == loop and budget.left == 0
