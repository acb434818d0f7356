"""The unshare jail's seccomp loader runs the real interpreter, never the shim's cover of it. Where the
engine's Python is a system one (Debian's /usr/bin/python3, what a newcomer on Debian 12 gets), the
python3 wrapper is mounted over it, and the loader ran the wrapper: its record, written before the
tracer saw any wrapper, read as one forged into the audit channel (six security tests failed there and
passed under another Python)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sandbox.jail.isolation import Jail, jail_argv


def _script(jail: Jail) -> str:
    argv = jail_argv("unshare", jail, ["true"])
    return argv[argv.index("-c", argv.index("bash")) + 1]


def test_the_loader_runs_the_exposed_interpreter_when_the_engines_python_is_covered(tmp_path: Path) -> None:
    real = os.path.realpath(sys.executable)
    inside = str(tmp_path / "real" / "python3")
    jail = Jail(cwd=tmp_path, cover=((tmp_path / "shim" / "python3", real),), expose=((real, inside),), seccomp_fd=9)
    last = _script(jail)
    assert f"{inside} -I -S -c" in last and f"{sys.executable} -I -S -c" not in last


def test_the_loader_runs_the_engines_python_when_nothing_covers_it(tmp_path: Path) -> None:
    jail = Jail(cwd=tmp_path, seccomp_fd=9)
    assert f"{sys.executable} -I -S -c" in _script(jail)
