"""The watcher is ready at its first probe: its watches exist before the probe is written
(sandbox/workspace/watcher.py). A probe written before them is never seen, and the next one came 10 ms later."""

from __future__ import annotations

from pathlib import Path

from sandbox.workspace.watcher import Watcher


async def test_the_first_probe_is_seen(tmp_path: Path) -> None:
    root, probe = tmp_path / "ws", tmp_path / "probe"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("x = 1\n")
    seen: list[int] = []

    async def changed() -> None:
        seen.append(1)

    for _ in range(3):
        watcher = Watcher(root, probe, changed)
        await watcher.start()
        try:
            assert (probe / "probe").read_text() == "0"  # the attempt it answered: the first
        finally:
            await watcher.stop()
    assert seen == []  # the probe is not a change of the workspace
