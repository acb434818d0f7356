"""The warm test runner and the outcome cache (issue 15): what one run does never reaches the next,
and an unchanged tree is answered from the cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.testing import warm
from sandbox.testing.testrun import run_tests
from sandbox.workspace.snapshot import CACHE, run_tests_on_snapshot

LEAKY = (
    "import json, os, sys\n"
    "def test_clean_start():\n"
    "    assert not hasattr(json, 'LEAK'), 'a previous run leaked into this one'\n"
    "    assert 'calc' not in sys.modules and 'random' not in sys.modules\n"
    "    json.LEAK = 1\n"
    "    os.environ['LEAKED'] = '1'\n"
    "def test_home_is_this_runs_own():\n"
    "    assert 'LEAKED' not in os.environ or json.LEAK\n"
    "    assert os.environ['HOME'] == os.path.join(os.path.dirname(os.environ['HOME']), 'home')\n"
    "    assert not os.listdir(os.environ['HOME'])\n"
    "    open(os.path.join(os.environ['HOME'], 'x'), 'w').close()\n"
)


@pytest.fixture(autouse=True)
def warm_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # Runs on a folder are warm only unjailed (in a jail, a warm server sees no folder but its own:
    # runs on a tree, tests/sandbox/testing/test_warm_jail.py): these tests ask for no jail.
    monkeypatch.setenv("SCOPEWATCH_ISOLATION", "none")
    monkeypatch.setenv("SCOPEWATCH_WARM_TESTS", "1")
    CACHE.clear()


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "calc.py").write_text("def total(xs):\n    return sum(xs)\n")
    return ws


async def test_runs_in_warm_children_share_nothing(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    for _ in range(3):
        outcome = await run_tests(ws, {"t/test_leak.py": LEAKY})
        assert outcome.ok, outcome
    assert any(server.alive for server in warm.servers()), "the runs did not use a warm server"


async def test_each_warm_child_draws_its_own_randomness(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    draw = "import random\ndef test_draw():\n    assert False, random.random()\n"
    lines = {(await run_tests(ws, {"t/test_draw.py": draw})).failed[0].last_line for _ in range(3)}
    assert len(lines) == 3, lines


async def test_a_crashed_warm_child_is_a_failure_and_the_server_lives_on(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    crash = "import os\ndef test_crash():\n    print('going down', flush=True)\n    os._exit(3)\n"
    outcome = await run_tests(ws, {"t/test_crash.py": crash})
    assert outcome.failed[0].last_line == "test process crashed (exit code 3): going down"
    after = await run_tests(ws, {"t/test_ok.py": "from calc import total\ndef test_t():\n    assert total([2]) == 2\n"})
    assert after.ok, after


async def test_unchanged_tree_comes_from_the_cache_and_any_change_runs_again(tmp_path: Path) -> None:
    tree = {"calc.py": b"def total(xs):\n    return sum(xs)\n"}
    tests = {"t/test_calc.py": "from calc import total\ndef test_t():\n    assert total([1, 2]) == 3\n"}
    first = await run_tests_on_snapshot(tree, tests, scratch=tmp_path, timeout=30)
    again = await run_tests_on_snapshot(dict(tree), tests, scratch=tmp_path, timeout=30)
    assert first.ok and again == first and CACHE.hits == 1
    changed = await run_tests_on_snapshot({"calc.py": tree["calc.py"] + b"# x\n"}, tests, scratch=tmp_path, timeout=30)
    broken = await run_tests_on_snapshot(
        {"calc.py": b"def total(xs):\n    return 0\n"}, tests, scratch=tmp_path, timeout=30
    )
    assert changed.ok and not broken.ok and CACHE.hits == 1


async def test_timeouts_are_never_cached(tmp_path: Path) -> None:
    tests = {"t/test_slow.py": "import time\ndef test_slow():\n    time.sleep(30)\n"}
    for _ in range(2):
        outcome = await run_tests_on_snapshot({}, tests, scratch=tmp_path, timeout=0.5)
        assert outcome.failed[0].last_line.startswith("TimeoutError")
    assert CACHE.hits == 0
