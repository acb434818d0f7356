"""A pytest plugin for ``bench/suite_time.py``: each test's CPU time, written beside the JUnit XML.

Wall time depends on what else the machine runs; CPU time much less. Around each test's whole protocol
(set-up, call, tear-down) it takes the deltas of ``resource.getrusage``:

- ``self``: ``RUSAGE_SELF``, user + system seconds of the pytest process, every thread of it (the
  engine's event loop, ``asyncio.to_thread`` work, watcher threads);
- ``children``: ``RUSAGE_CHILDREN``, user + system seconds of the child processes that ENDED and were
  waited for during the test, with everything they waited for in turn (jails, strace, git, test
  runs). A child still running when the test ends (a session-scoped broker, a warm test server kept
  in a pool) is counted in the test during which it is reaped, or not at all;
- ``wall``: ``time.perf_counter`` over the same span.

It is not part of the product and is not installed: ``bench/suite_time.py`` copies it into a folder of
its own and loads it in both trees' pytest with ``-p suite_cpu --cpu-times=PATH``; the JSON written at
the end of the session maps each test's node id to ``{"wall", "self", "children"}``.
"""

from __future__ import annotations

import json
import resource
import time
from collections.abc import Generator
from pathlib import Path

import pytest

OPTION = "--cpu-times"


def cpu_now() -> tuple[float, float]:
    """(own, waited-for children's) user + system CPU seconds so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


class CpuTimes:
    """Records each test's deltas; writes them to ``path`` when the session ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.times: dict[str, dict[str, float]] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
        wall = time.perf_counter()
        own, children = cpu_now()
        yield
        own_after, children_after = cpu_now()
        self.times[item.nodeid] = {
            "wall": time.perf_counter() - wall,
            "self": own_after - own,
            "children": children_after - children,
        }

    def pytest_sessionfinish(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.times, indent=0, sort_keys=True))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(OPTION, metavar="PATH", help="write each test's wall and CPU seconds (JSON) to PATH")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption(OPTION)
    if path:
        config.pluginmanager.register(CpuTimes(Path(path)), "suite-cpu-times")
