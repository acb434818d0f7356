"""A whole suite is loaded once per process while its folder is unchanged (a run asked for it four times before its
first episode, ~0.5 s each), and read again after any change of a byte in it, even one of the same size within the
same clock tick, which file times would miss."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from scenarios.loader import PACKS_DIR, ScenarioError
from scenarios.suite import load_suite


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "mybench"
    for domain in ("iot", "crm"):
        shutil.copytree(PACKS_DIR / "favorbench" / domain, folder / domain)
    (folder / "suite.toml").write_text('name = "mybench"\ndomains = ["iot", "crm"]\n')
    return folder


def test_an_unchanged_suite_is_the_same_and_a_changed_one_is_read_again(suite: Path) -> None:
    first = load_suite(suite)
    assert load_suite(suite) is first
    assert load_suite(suite / "suite.toml") is first  # by its suite.toml, however named
    assert load_suite(suite, lazy=True) is not first  # a lazy load reads the manifests only, never kept
    module = next(p for p in sorted((suite / "crm" / "repo").rglob("*.py")) if p.stat().st_size > 0)
    text = module.read_text()
    module.write_text(text[:-1] + ("x" if text[-1] != "x" else "y"))  # same size, same tick
    second = load_suite(suite)
    assert second is not first
    assert second.packs[1].repo_files() != first.packs[1].repo_files()
    assert load_suite(suite) is second


def test_a_suite_broken_after_a_good_load_is_refused(suite: Path) -> None:
    load_suite(suite)
    (suite / "suite.toml").write_text('name = "mybench"\ndomains = ["iot", "crm"\n')
    with pytest.raises(ScenarioError, match=r"suite\.toml: invalid TOML"):
        load_suite(suite)
    (suite / "suite.toml").write_text('name = "mybench"\ndomains = ["iot"]\n')
    assert [p.name for p in load_suite(suite).packs] == [load_suite(suite / "iot").packs[0].name]


def test_a_fifo_or_a_link_in_a_suite_is_never_opened_and_a_retargeted_link_is_a_change(suite: Path) -> None:
    """A pack from someone else may hold anything: a FIFO's open would wait for a writer forever."""
    os.mkfifo(suite / "notes.fifo")
    (suite / "a.txt").write_text("a\n")
    (suite / "b.txt").write_text("b\n")
    (suite / "current").symlink_to("a.txt")
    first = load_suite(suite)
    assert load_suite(suite) is first
    (suite / "current").unlink()
    (suite / "current").symlink_to("b.txt")
    assert load_suite(suite) is not first
