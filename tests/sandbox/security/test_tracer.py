"""The exec tracer on every backend: what the shim alone could not see or could be fooled by. A real
program run by its private path is seen, a well-formed record forged into the audit channel is
reported instead of believed, an interpreter's read of a planted secret is a ``SensitiveRead``, and the
tracer itself is out of reach (or, in a container, stopping it is seen)."""

from __future__ import annotations

import pytest

from channel.events import SensitiveRead, ShellCommandRan, ShimTampered
from tests.sandbox.security.conftest import Box


def _traced(box: Box) -> None:
    if not box.sandbox.label.endswith("+ strace"):
        pytest.fail(f"no exec tracer on {box.backend}: {box.sandbox.label}", pytrace=False)


async def test_a_real_program_by_its_private_path_is_seen(box: Box) -> None:
    _traced(box)
    real = "/opt/scopewatch/real/git" if box.backend == "docker" else '"$SCOPEWATCH_WORKSPACE/../real/git"'
    await box.sh(f"{real} push origin main")
    push = [e for e in box.of(ShellCommandRan) if e.atom == "git_push_protected"]
    assert len(push) == 1 and push[0].source == "trace" and push[0].program.endswith("/real/git")


async def test_a_forged_record_is_reported_not_believed(box: Box) -> None:
    _traced(box)
    await box.sh(
        "printf '%s\\0' SWREC1 alice \"$PWD\" 1.0 2.0 0 rm -rf services $'\\x1eSWEND' "
        '>> "$SCOPEWATCH_WORKSPACE/../audit/records"'
    )
    assert not [e for e in box.of(ShellCommandRan) if e.atom == "delete_forced_recursive"]
    assert [e.source for e in box.of(ShimTampered) if "forged" in e.reason] == ["trace"]


async def test_an_interpreters_read_of_a_planted_secret_is_seen(box: Box) -> None:
    _traced(box)
    await box.sh("python3 -c \"import os; open(os.path.expanduser('~/.aws/credentials')).read()\"")
    reads = [(e.path, e.atom, e.program.startswith("python3")) for e in box.of(SensitiveRead)]
    assert reads == [("~/.aws/credentials", "read_secret_file", True)]


async def test_the_tracer_cannot_be_reached_or_its_stop_is_seen(box: Box) -> None:
    _traced(box)
    # The tracer is the root shell's parent: hidden by the jail's PID namespace locally (its parent
    # there is the jail's init), non-dumpable in a container (its /proc/PID/fd cannot be opened).
    result = await box.sh("echo FORGED > /proc/$PPID/fd/2 2>/dev/null || echo refused; kill -9 $PPID; ls >/dev/null")
    if box.backend == "docker":
        assert "refused" in result.output
        assert any("tracer was stopped" in e.reason for e in box.of(ShimTampered))
    else:
        assert not box.of(ShimTampered)  # $PPID is inside the jail: nothing of the tracer to kill
        assert [e.argv for e in box.of(ShellCommandRan) if e.argv[:1] == ("ls",)] == [("ls",)]
