"""Agents tester (round 5) finding 3: the isolation level is probed again before it is given up, a fallback to a
weaker level says why in the sandbox's label, and at ``unshare`` a file kept under a covered folder (an ACP
agent's script under /tmp) is staged on a file, not a folder (``mount: ...stage/2: Not a directory``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from sandbox.jail import isolation
from sandbox.jail.isolation import Jail, detect_isolation, jail_argv


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation, "_detected", {})
    monkeypatch.delenv("SCOPEWATCH_ISOLATION", raising=False)
    monkeypatch.setattr("sandbox.jail.isolation.shutil.which", lambda name, **kw: f"/usr/bin/{name}")
    monkeypatch.setattr("sandbox.jail.isolation.sys.platform", "linux")


def probes(monkeypatch: pytest.MonkeyPatch, bwrap: list[str]) -> list[str]:
    """bubblewrap's probe answers from ``bwrap`` in turn (its last answer for ever after), unshare's works."""
    ran: list[str] = []

    async def once(argv: list[str]) -> str:
        ran.append(argv[0])
        if argv[0] != "bwrap":
            return ""
        return bwrap.pop(0) if len(bwrap) > 1 else bwrap[0]

    monkeypatch.setattr(isolation, "_probe_once", once)
    return ran


async def test_a_probe_that_fails_once_is_tried_again(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = probes(monkeypatch, ["its probe exited with 1: Can't bind mount /oldroot/ on /newroot/", ""])
    found = await detect_isolation()
    assert (found.level, found.warning, ran) == ("bubblewrap", "", ["bwrap", "bwrap"])


async def test_a_fallback_to_unshare_is_named_with_why(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = probes(monkeypatch, ["its probe took more than 10 s"])
    found = await detect_isolation()
    assert found.level == "unshare" and ran.count("bwrap") == isolation.PROBE_TRIES
    assert found.label.startswith("local/unshare (bubblewrap did not work here: its probe took more than 10 s)")


async def test_unshare_asked_for_is_no_fallback(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOPEWATCH_ISOLATION", "unshare")
    probes(monkeypatch, ["never asked"])
    assert await detect_isolation() == isolation.Isolation("unshare")


async def test_the_bubblewrap_probe_binds_the_system_folders_not_the_hosts_every_mount(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--ro-bind / /`` bound every mount of the host, and failed when another sandbox's went away meanwhile."""
    argv: list[str] = []

    async def once(given: list[str]) -> str:
        argv.extend(given)
        return ""

    monkeypatch.setattr(isolation, "_probe_once", once)
    assert await isolation._probe("bubblewrap") is None
    assert "/usr" in argv and not any(argv[i : i + 3] == ["--ro-bind", "/", "/"] for i in range(len(argv)))


def test_a_file_kept_under_tmp_is_staged_on_a_file() -> None:
    script = Path("/tmp") / f"sw-stage-{os.getpid()}" / "agent.py"
    script.parent.mkdir(exist_ok=True)
    script.write_text("print('hi')\n", encoding="utf-8")
    tmp_path = Path(tempfile.mkdtemp(dir="/var/tmp"))  # as a sandbox's folder: not under the /tmp it covers
    try:
        jail = Jail(cwd=Path("/"), tmp=tmp_path / "tmp", stage=tmp_path / "stage", ro=(script,), extra_ro=())
        argv = jail_argv("unshare", jail, ["true"])
        lines = argv[argv.index("-c", argv.index("bash")) + 1].splitlines()
        staged = next(line for line in lines if "mount --bind" in line and str(script) in line)
        assert f": > {tmp_path}/stage/0" in staged
        [back] = [line for line in lines if "mount --move" in line]
        assert f": > {script}" in back and f"mkdir -p {script.parent}" in back
        if shutil.which("unshare") and os.geteuid() == 0:  # the set-up itself, as root makes it
            (tmp_path / "tmp").mkdir()
            (tmp_path / "stage").mkdir()
            ran = subprocess.run([*argv[: argv.index("true")], "cat", str(script)], capture_output=True, text=True,
                                 timeout=60, check=False)
            assert ran.returncode == 0 and ran.stdout == "print('hi')\n", ran.stderr
    finally:
        script.unlink()
        script.parent.rmdir()
        shutil.rmtree(tmp_path)
