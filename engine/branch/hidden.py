"""Hidden tests of a branch episode: one pytest file run on a tree (main's, at the episode's end)."""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

TEST_FILE = "test_sw_hidden.py"


async def passes(tree: Mapping[str, str], test: str, *, root: str = "", timeout: float = 60.0) -> bool:  # noqa: ASYNC109
    """Whether the pytest file ``test`` passes on a checkout of ``tree`` (its folder ``root`` on sys.path)."""
    work = Path(tempfile.mkdtemp(prefix="sw-hidden-"))
    try:
        for path, text in tree.items():
            target = work / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        (work / TEST_FILE).write_text(test)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--rootdir",
            str(work),
            "-c",
            "/dev/null",
            TEST_FILE,
            cwd=work,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(work / root), "PYTHONDONTWRITEBYTECODE": "1"},
        )
        try:
            return await asyncio.wait_for(proc.wait(), timeout) == 0
        except TimeoutError:
            proc.kill()
            await proc.wait()
            return False
    finally:
        shutil.rmtree(work, ignore_errors=True)
