"""Warm runs on a tree (issue 15), at the bubblewrap level (the server inside the jail) and at none:
nothing a run does reaches the next one, the server is out of a test's reach, modules changed in a
run are imported as they are, and identical runs at once run once."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.backends.local import LocalSandbox
from sandbox.jail.isolation import _works
from sandbox.testing import warm
from sandbox.testing.testrun import run_tests_on_tree
from sandbox.workspace.snapshot import CACHE, run_tests_on_snapshot

TREE = {"calc.py": b"def total(xs):\n    return sum(xs)\n", "pkg/__init__.py": b""}

LEAVE = """
import ctypes, os, subprocess, sys
JAILED = open('/proc/1/comm').read().strip() == 'bwrap'  # unjailed, the host's /tmp and IPC: left alone
def test_leave_everything():
    run = os.path.dirname(os.environ['HOME'])
    for folder in (os.environ['HOME'], os.path.dirname(run), *(('/tmp', '/dev/shm', '/dev/mqueue') if JAILED else ())):
        try:
            open(os.path.join(folder, 'left'), 'w').close()
        except PermissionError:  # the jail's uid may not write there at all (the server's area, /tmp)
            assert JAILED and os.getuid() != 0, folder
    with open('calc.py', 'r+') as f:  # same size, other bytes
        f.write('def total(xs):\\n    return  -1 \\n')
    open('extra.py', 'w').close()
    os.mkdir('pkg_new')
    os.chmod('pkg/__init__.py', 0o600)
    if JAILED:
        assert ctypes.CDLL(None).shmget(0x5157, 4096, 0o1000 | 0o600) >= 0  # IPC_CREAT
        subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], start_new_session=True)
"""

CHECK = """
import ctypes, os
from calc import total
def test_nothing_was_left():
    assert total([1, 2]) == 3
    assert sorted(os.listdir('.')) == ['calc.py', 'pkg'], os.listdir('.')
    assert os.listdir('pkg') == ['__init__.py'] and os.stat('pkg/__init__.py').st_mode & 0o777 != 0o600
    run = os.path.dirname(os.environ['HOME'])
    try:
        assert sorted(os.listdir(os.path.dirname(run))) == sorted(['ws', os.path.basename(run)])
    except PermissionError:  # as the jail's uid the server's area is reached by path only
        assert os.getuid() != 0
    assert not os.listdir(os.environ['HOME'])
def test_the_jail_is_clean():
    for folder in ('/tmp', '/dev/shm', '/dev/mqueue'):
        assert not [n for n in os.listdir(folder) if n == 'left'], folder
    assert ctypes.CDLL(None).shmget(0x5157, 0, 0) == -1, 'a SysV segment survived'
    mine = {1, os.getpid(), os.getppid()}
    others = [p for p in os.listdir('/proc') if p.isdigit() and int(p) not in mine]
    assert not others, [open(f'/proc/{p}/cmdline').read() for p in others]
def test_the_server_is_out_of_reach():
    server = f'/proc/{os.getppid()}'
    try:
        fds = os.listdir(f'{server}/fd')
    except PermissionError:  # as the jail's uid, not even listed
        fds = []
    targets = [f'{server}/mem', f'{server}/environ', *(f'{server}/fd/{fd}' for fd in fds)]
    for path in targets:  # its memory, its environment, its pipes to the engine (a forged reply)
        try:
            open(path, 'r+b' if '/fd/' in path else 'rb').close()
        except PermissionError:
            continue
        raise AssertionError(f'opened {path}')
"""


@pytest.fixture(params=["bubblewrap", "none"])
async def level(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "bubblewrap" and not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    monkeypatch.setenv("SCOPEWATCH_ISOLATION", request.param)
    monkeypatch.setenv("SCOPEWATCH_WARM_TESTS", "1")
    CACHE.clear()
    return str(request.param)


@pytest.fixture(autouse=True)
def fresh_pool() -> Iterator[None]:
    warm.shutdown()
    yield
    warm.shutdown()


async def test_nothing_a_run_does_reaches_the_next(level: str, tmp_path: Path) -> None:
    left = await run_tests_on_tree(TREE, {"t/test_leave.py": LEAVE}, scratch=tmp_path)
    assert left.ok, left
    (server,) = warm.servers()
    after = await run_tests_on_tree(TREE, {"t/test_check.py": CHECK}, scratch=tmp_path)
    assert warm.servers() == [server], "the second run did not reuse the warm server"
    if level == "bubblewrap":
        assert after.ok, after
    else:  # no jail: the host's /tmp and processes are shared (the none level isolates nothing)
        assert after.passed == ("t/test_check.py::test_nothing_was_left",), after
    assert server.mirror.full_writes == 2  # the first run, then again after the first run's changes


async def test_a_module_changed_during_a_run_is_imported_as_changed(level: str, tmp_path: Path) -> None:
    use = "from calc import total\ndef test_t():\n    assert total([2]) == 2, total([2])\n"
    edit = (
        "def test_edit_then_import():\n"
        "    open('calc.py', 'w').write('def total(xs):\\n    return 7\\n')\n"
        "    from calc import total\n"
        "    assert total([2]) == 7\n"
    )
    for tests in ({"t/test_use.py": use}, {"t/test_edit.py": edit}, {"t/test_use.py": use}):
        outcome = await run_tests_on_tree(TREE, tests, scratch=tmp_path)
        assert outcome.ok, outcome


async def test_a_timeout_kills_the_run_and_the_server_serves_the_next(level: str, tmp_path: Path) -> None:
    hang = "def test_hang():\n    while True:\n        pass\n"
    outcome = await run_tests_on_tree(TREE, {"t/test_hang.py": hang}, timeout=0.5, scratch=tmp_path)
    assert outcome.failed[0].last_line == "TimeoutError: test run killed after 0.5 s"
    ok = "from calc import total\ndef test_t():\n    assert total([1]) == 1\n"
    assert (await run_tests_on_tree(TREE, {"t/test_ok.py": ok}, scratch=tmp_path)).ok
    assert len(warm.servers()) == 1


async def test_identical_runs_at_once_run_once(level: str, tmp_path: Path) -> None:
    tests = {"t/test_calc.py": "from calc import total\ndef test_t():\n    assert total([1, 2]) == 3\n"}
    first, second = await asyncio.gather(
        run_tests_on_snapshot(dict(TREE), tests, scratch=tmp_path, timeout=30),
        run_tests_on_snapshot(dict(TREE), tests, scratch=tmp_path, timeout=30),
    )
    assert first.ok and second == first and CACHE.joined == 1


async def test_a_prefetched_run_is_joined_by_the_same_call(level: str, sandbox: LocalSandbox) -> None:
    tests = {"t/test_cfg.py": "from services.payments.config import RETRIES\ndef test_r():\n    assert RETRIES == 3\n"}
    sandbox.prefetch_tests(tests)
    outcome = await sandbox.run_tests(tests)
    assert outcome.ok and CACHE.joined == 1


async def test_a_run_that_kills_its_server_is_run_again_in_a_fresh_process(level: str, tmp_path: Path) -> None:
    if level == "none":
        pytest.skip("at isolation none nothing shields the engine: the rerun's parent would be the test runner")
    # As the jail's own uid the kill is refused (EPERM); as root in a PID namespace it is ignored.
    source = (
        "import contextlib, os, signal\ndef test_kill_the_parent():\n"
        "    with contextlib.suppress(PermissionError):\n        os.kill(os.getppid(), signal.SIGKILL)\n"
    )
    outcome = await run_tests_on_tree(TREE, {"t/test_kill.py": source}, scratch=tmp_path)
    assert outcome.ok, outcome  # fresh, its parent is the jail's init, which a signal from inside cannot kill
    if os.geteuid() == 0:  # the run's child is the jail's uid: the server, the jail's root, is out of its reach
        assert len(warm.servers()) == 1
    else:
        assert not warm.servers()


async def test_a_warm_run_is_the_jails_uid_not_root(level: str, tmp_path: Path) -> None:
    """Red team 2, finding 18: workspace code imported by a warm run ran as uid 0 and read ``/etc/shadow``."""
    if level == "none" or os.geteuid() != 0:
        pytest.skip("the jail's uid is taken where the engine is root, at a jail's level")
    source = (
        "import os\ndef test_uid():\n    assert os.getuid() != 0 and os.getgid() != 0 and not os.getgroups()\n"
        "    assert os.geteuid() == os.getuid()\n"
        "def test_no_root_only_file():\n"
        "    for path in ('/etc/shadow', '/etc/gshadow'):\n"
        "        assert not os.path.exists(path) or not os.access(path, os.R_OK), path\n"
    )
    for _ in range(2):  # the server's first run and a later one
        outcome = await run_tests_on_tree(TREE, {"t/test_uid.py": source}, scratch=tmp_path)
        assert outcome.ok, outcome
    assert len(warm.servers()) == 1 and warm.servers()[0].uid is not None  # warm, not the fresh path
