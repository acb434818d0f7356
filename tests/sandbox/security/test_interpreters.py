"""A script whose interpreter line names a wrapped program (``#!/usr/bin/env bash``, a venv's ``pip``
beginning ``#!/venv/bin/python3``) runs that program's wrapper in the script's own exec: the kernel
resolves the line, so the trace shows the script and the wrapper's record names the interpreter. That
record is the wrapper's, no forgery: running such a script raised ``audit_tampered`` (critical) for
every ``pip`` and every ``#!/usr/bin/env python3`` script before. A record that no such script's
wrapper wrote is still a forgery."""

from __future__ import annotations

import pytest

from channel.events import ShellCommandRan, ShimTampered
from tests.sandbox.security.conftest import SANDBOXES, Box, sandbox_exec

AUDIT = '"$SCOPEWATCH_WORKSPACE/../audit/records"'


def _traced(box: Box) -> None:
    if not box.sandbox.label.endswith("+ strace"):
        pytest.fail(f"no exec tracer on {box.backend}: {box.sandbox.label}", pytrace=False)


def _shim(box: Box) -> list[tuple[str, tuple[str, ...]]]:
    return [(e.argv[0], e.argv[1:]) for e in box.of(ShellCommandRan) if e.source == "shim" and e.argv[0] != "chmod"]


async def test_a_script_run_by_env_is_the_env_wrapper(box: Box) -> None:
    _traced(box)
    await box.sh("printf '#!/usr/bin/env bash\\necho hi\\n' > /tmp/s && chmod +x /tmp/s && /tmp/s one")
    assert not box.of(ShimTampered), [e.reason for e in box.of(ShimTampered)]
    assert _shim(box) == [("env", ("bash", "/tmp/s", "one"))]


async def test_the_interpreter_lines_argument_goes_first(box: Box) -> None:
    """``#!/usr/bin/cat -n``: the wrapper is run with ``-n``, the script's path, then its arguments."""
    _traced(box)
    await box.sh("printf '#!%s -n\\n' \"$(command -v cat)\" > /tmp/c && chmod +x /tmp/c && cd /tmp && ./c /dev/null")
    assert not box.of(ShimTampered), [e.reason for e in box.of(ShimTampered)]
    assert _shim(box) == [("cat", ("-n", "./c", "/dev/null"))]


async def test_a_record_no_interpreter_wrapper_wrote_is_still_a_forgery(box: Box) -> None:
    """The script is run by env's wrapper with ``bash /tmp/s``; it writes a record of ``env bash
    /tmp/other`` as well, which no wrapper's exec matches."""
    _traced(box)
    record = f"printf '%s\\0' SWREC1 alice \"$PWD\" 1.0 2.0 0 env bash /tmp/other $'\\x1eSWEND' >> {AUDIT}"
    await box.sh(f"cat > /tmp/s <<'EOF'\n#!/usr/bin/env bash\n{record}\nEOF\nchmod +x /tmp/s && /tmp/s")
    forged = [e.reason for e in box.of(ShimTampered)]
    assert len(forged) == 1 and "env bash /tmp/other" in forged[0], forged
    assert ("env", ("bash", "/tmp/s")) in _shim(box)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_sandbox_exec_a_script_with_a_wrapped_interpreter_is_no_tampering(sandbox: str) -> None:
    """As a user runs it: no ``audit_tampered``."""
    result = sandbox_exec("printf '#!/usr/bin/env bash\\necho ok\\n' > /tmp/s && chmod +x /tmp/s && /tmp/s", sandbox)
    assert "audit_tampered" not in [t["id"] for t in result["traps"]], result["stdout"][-3000:]
