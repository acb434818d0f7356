"""No file the product or the tests ship is left out of git by .gitignore (a labelled set once was:
``*.jsonl`` is ignored, and the tests passed in the tree that made it and failed on a clean clone)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("channel", "engine", "sandbox", "scenarios", "themes", "tui", "tests", "bench", "docs", "scripts")
CACHES = ("__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "snapshot_report.html")


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_no_shipped_file_is_ignored_by_git() -> None:
    listed = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--untracked-files=all", "--", *SHIPPED],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    ignored = [line[3:] for line in listed if line.startswith("!! ")]
    assert [path for path in ignored if not any(part in CACHES for part in Path(path).parts)] == []
