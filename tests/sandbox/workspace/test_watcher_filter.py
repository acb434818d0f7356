"""The watcher's filter (sandbox.workspace.watcher): which changes watchfiles reports wake the sandbox. It reads
plain strings; it must keep exactly what the path reading it replaced kept."""

from __future__ import annotations

from pathlib import Path

from watchfiles import Change

from sandbox.workspace.paths import is_noise
from sandbox.workspace.watcher import Watcher

ROOT = Path("/var/tmp/sb-1/workspace")
PROBE = Path("/var/tmp/sb-1/probe")


async def _nothing() -> None:
    return None


def _by_paths(path: str) -> bool:
    """The filter as it was, by ``pathlib``."""
    if path.startswith(str(PROBE)):
        return True
    try:
        rel = Path(path).relative_to(ROOT).as_posix()
    except ValueError:
        return False
    return not is_noise(rel)


def test_the_filter_keeps_the_workspace_and_the_probe_and_drops_noise_and_the_rest() -> None:
    watcher = Watcher(ROOT, PROBE, _nothing)
    cases = {
        f"{ROOT}/src/app.py": True,
        f"{ROOT}/README.md": True,
        f"{ROOT}/a b/ünïcode.txt": True,
        str(ROOT): True,
        f"{ROOT}/.git/index.lock": False,
        f"{ROOT}/.git": False,
        f"{ROOT}/src/__pycache__/app.cpython-311.pyc": False,
        f"{ROOT}/src/mod.pyc": False,
        f"{ROOT}/.pytest_cache/v/cache": False,
        f"{PROBE}/probe": True,
        f"{ROOT}-other/file.py": False,
        "/var/tmp/sb-1/home/.bashrc": False,
        "/etc/passwd": False,
    }
    for path, kept in cases.items():
        assert watcher._filter(Change.modified, path) is kept, path
        assert _by_paths(path) is kept, path
