"""``--test-timeout`` (``SessionConfig.test_timeout``): each test of a sandbox's test runs has its own limit, so a
test an agent made hang fails as hung and costs that limit, not the run's 60 s; and the limit reaches the sandbox
from the command line."""

from __future__ import annotations

import argparse

import pytest

from channel.emitter import Emitter
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.workspace.ownership import Ownership
from sandbox.workspace.snapshot import CACHE
from tests.sandbox._support import FILES, TEAMS
from tui.cli.common import add_session_options, session_config

TESTS = {
    "contract/test_mixed.py": (
        "import time\n\n"
        "def test_hangs():\n    time.sleep(120)\n\n"
        "def test_passes():\n    assert 1 + 1 == 2\n"
    )
}


async def test_a_hanging_test_fails_at_its_limit_and_the_others_run(bus: InProcessBus) -> None:
    sb = await LocalSandbox.create(
        FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "test"), watch=False, test_timeout=1.5
    )
    try:
        outcome = await sb.run_tests(TESTS, timeout=60)
        assert outcome.passed == ("contract/test_mixed.py::test_passes",)
        (hung,) = outcome.failed
        assert hung.test == "contract/test_mixed.py::test_hangs"
        assert hung.last_line == "TimeoutError: hung: no result within the per-test limit of 1.5 s"
        # Not kept: a slow machine, not the tree, may have made it late.
        hits = CACHE.hits
        again = await sb.run_tests(TESTS, timeout=60)
        assert again == outcome and CACHE.hits == hits
    finally:
        await sb.close()


def test_the_limit_is_keyed_in_the_outcome_cache() -> None:
    tree = {"a.py": b"x = 1\n"}
    tests = {"test_a.py": "def test_a():\n    pass\n"}
    assert CACHE.key(tree, tests) == CACHE.key(tree, tests, None)
    assert len({CACHE.key(tree, tests), CACHE.key(tree, tests, 2.0), CACHE.key(tree, tests, 3.0)}) == 3


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser()
    add_session_options(p)
    return p


def test_the_option_reaches_the_session_config() -> None:
    assert session_config(_parser().parse_args([])).test_timeout is None
    assert session_config(_parser().parse_args(["--test-timeout", "2.5"])).test_timeout == 2.5


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "soon"])
def test_a_bad_limit_is_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        _parser().parse_args(["--test-timeout", bad])
    assert exit_.value.code == 2
    assert "--test-timeout" in capsys.readouterr().err
