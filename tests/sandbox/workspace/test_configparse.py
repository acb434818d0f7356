"""A plain git config file read in-process gives git's own entries (red team round 4, 10: one ``git config``
subprocess per nested repository's config stalled the engine for seconds per command)."""

from __future__ import annotations

import random
import subprocess
import time

from sandbox.workspace import gitconfig
from sandbox.workspace.configparse import plain_entries

PIECES = [
    "[core]", "[Alias]", "  [alias \"Sub Sect\"]", "[a.B]", "[ core]", "[alias \"q\\\"\"]", "[x]k=1", "[alias \"\"]",
    "\tbare", "\tSt = status", "x = a\t b  # c", "y=;", "k = \"quoted\"", "k = back\\\\slash", "k = v\\", "z= 1 2 ",
    "# comment", "; other", "", "   ", "key # c", "1k = v", "k-2 = v=w", "\tk\t=\tv\t", "k =", "[s] ; c", "naked",
    "[\u00e9]", "k = caf\u00e9", "k = a\rb", "[-]", "[a..b]", "[.a]", "k.x = 1",
]


def _git(data: bytes) -> list[tuple[str, str]] | None:
    done = subprocess.run(
        ["git", "config", "--file", "-", "--no-includes", "--list", "-z"], input=data, capture_output=True, check=False
    )
    if done.returncode != 0:
        return None
    return [(k, v) for item in done.stdout.decode().split("\0") if item for k, _, v in [item.partition("\n")]]


def test_plain_files_read_as_git_reads_them_and_others_left_to_git() -> None:
    rng = random.Random(10)
    plain = 0
    for _ in range(1500):
        lines = [rng.choice(PIECES[:4]), *(rng.choice(PIECES) for _ in range(rng.randint(0, 5)))]
        text = "\n".join(lines) + rng.choice(["", "\n"])
        data = text.encode()
        mine = plain_entries(data)
        if mine is None:
            continue
        plain += 1
        assert mine == _git(data), text
    assert plain > 300


def test_a_typical_config_is_plain() -> None:
    data = b"[core]\n\trepositoryformatversion = 0\n\tbare = false\n[alias]\n\tx1 = status\n[remote \"origin\"]\n"
    assert plain_entries(data) == [
        ("core.repositoryformatversion", "0"), ("core.bare", "false"), ("alias.x1", "status")
    ]


def test_many_distinct_configs_are_read_without_a_subprocess_each() -> None:
    start = time.perf_counter()
    for i in range(800):
        assert gitconfig.aliases(f"[core]\n\tbare = false\n[alias]\n\tx{i} = status\n".encode()) == {f"x{i}": "status"}
    assert time.perf_counter() - start < 0.5
