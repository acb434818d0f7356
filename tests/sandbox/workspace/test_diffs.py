"""The sandbox's diffs (:mod:`sandbox.workspace.diffs`): ``difflib``'s own below the bound; past it, the shared head
and tail set aside and, where what lies between is still past it, one hunk: a true diff that ``patch`` applies, at
a cost that grows with the files, not with their square (red team round 3, 04: 200,000 changed lines held the
engine's loop 34 s)."""

from __future__ import annotations

import difflib
import random
import subprocess
from pathlib import Path

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
