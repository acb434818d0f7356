"""An episode's jail on one CPU (sandbox.jail.cpus): its commands see one CPU, two jails at once get two, and
``SCOPEWATCH_JAIL_CPUS=all`` leaves them every CPU."""

from __future__ import annotations

import itertools
import os

import pytest

from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.jail import cpus
from tests.sandbox._support import jailed

ALLOWED = "grep Cpus_allowed_list /proc/self/status"

pytestmark = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU here: nothing to choose")


async def _cpus_of_a_command(sb: LocalSandbox) -> set[int]:
    if "one jail per episode" not in sb.label:
        pytest.skip(f"no episode's jail here: {sb.label}")
    result = await sb.run_shell("alice", ALLOWED)
    assert result.exit_code == 0, result.output
    return _parse(result.output.split(":", 1)[1].strip())


def _ours(pid: int) -> bool:
    """Whether ``pid`` descends from this process: another test's jail still dying is not this test's."""
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid == os.getpid():
            return True
    return False


def _parse(listing: str) -> set[int]:
    found: set[int] = set()
    for part in listing.split(","):
        low, _, high = part.partition("-")
        found.update(range(int(low), int(high or low) + 1))
    return found


async def test_a_command_in_the_episodes_jail_runs_on_one_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cpus.VARIABLE, raising=False)
    bus = InProcessBus()
    async with jailed(bus) as sb:
        first = await _cpus_of_a_command(sb)
        assert len(first) == 1 and first <= os.sched_getaffinity(0)
        assert await _cpus_of_a_command(sb) == first  # the same jail, the same CPU
    await bus.close()


async def test_two_jails_at_once_are_put_on_two_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cpus.VARIABLE, raising=False)
    monkeypatch.setattr(cpus, "_started", itertools.repeat(0))  # no turn taking: only the count tells them apart
    every = cpus._tracers
    monkeypatch.setattr(cpus, "_tracers", lambda: [(pid, cpu) for pid, cpu in every() if _ours(pid)])
    bus = InProcessBus()
    async with jailed(bus) as one, jailed(bus) as two:
        a = await _cpus_of_a_command(one)
        b = await _cpus_of_a_command(two)
        assert len(a) == len(b) == 1 and a != b
    await bus.close()


async def test_all_leaves_every_cpu_to_the_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpus.VARIABLE, "all")
    bus = InProcessBus()
    async with jailed(bus) as sb:
        assert await _cpus_of_a_command(sb) == os.sched_getaffinity(0)
    await bus.close()


def test_only_all_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, expected in (("all", "all"), (" ALL ", "all"), ("one", "one"), ("", "one"), ("bogus", "one")):
        monkeypatch.setenv(cpus.VARIABLE, value)
        assert cpus.wanted() == expected
    monkeypatch.setenv(cpus.VARIABLE, "all")
    assert cpus.jail_cpus() is None
    monkeypatch.delenv(cpus.VARIABLE)
    chosen = cpus.jail_cpus()
    assert chosen is not None and len(chosen) == 1 and chosen <= os.sched_getaffinity(0)
