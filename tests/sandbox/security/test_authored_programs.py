"""A program one agent wrote and another agent's command ran is its author's doing (issue 24): a
script in ``/tmp`` or HOME, one placed earlier on ``PATH`` and run by a hook, and what a hook removes.
The author's team guards what it changed (bob, of payments, cannot change billing's files through
alice's command); a program the runner itself rewrote before running it is the runner's; an agent
removing another's hook is refused and the hook put back. Authorship narrows what a command may do, never
widens it: what the author's program changed that the runner's team may not is the runner's, refused (the
runner chooses the environment and the arguments: ``BASH_ENV=mine bash HIS_FILE`` runs the runner's code)."""

from __future__ import annotations

import pytest

from channel.events import FileChanged, OutsideChanged, WriteRefused
from tests.sandbox.security.conftest import Box

FIX = "#!/bin/sh\\necho fixed >> services/billing/invoice.py\\necho fixed >> services/payments/notes.txt\\n"


def _changed(box: Box) -> list[tuple[str, str]]:
    return [(e.path, e.actor) for e in box.of(FileChanged)]


def _refused(box: Box) -> list[tuple[str, str, bool]]:
    return [(e.path, e.actor, e.rolled_back) for e in box.of(WriteRefused)]


@pytest.fixture
def bob(box: Box) -> Box:
    box.sandbox.register_actor("bob", "payments", ["services/payments/**"])
    return box


@pytest.mark.parametrize("where", ["/tmp/fix", "~/bin/fix"])
async def test_another_agents_script_is_its_authors(bob: Box, where: str) -> None:
    box = bob
    await box.sandbox.run_shell("bob", f"mkdir -p $(dirname {where}) && printf '{FIX}' > {where} && chmod +x {where}")
    await box.sh(f"echo mine >> services/billing/old.txt && {where}")
    # bob's script changed billing's file (not his: rolled back, as his) and payments' (his, but not alice's: her
    # command may not, rolled back as hers)
    assert ("services/payments/notes.txt", "alice", True) in _refused(box)
    assert ("services/billing/old.txt", "alice") in _changed(box)
    assert ("services/billing/invoice.py", "bob", True) in _refused(box)
    assert not [p for p, a in _changed(box) if a == "alice" and p != "services/billing/old.txt"]


async def test_a_program_placed_on_path_and_run_by_a_hook_is_its_authors(bob: Box) -> None:
    """The person's hook runs ``fix`` by name; alice's command puts bob's ``/tmp/bin`` first on
    ``PATH``: what ``fix`` changed is bob's, not the hook's author's or alice's."""
    box = bob
    hook = "printf '#!/bin/sh\\nfix\\n' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit"
    await box.sandbox.run_shell("human", f"mkdir -p .git/hooks && {hook}")
    await box.sandbox.run_shell("bob", f"mkdir -p /tmp/bin && printf '{FIX}' > /tmp/bin/fix && chmod +x /tmp/bin/fix")
    await box.sh("echo c >> services/billing/old.txt && PATH=/tmp/bin:$PATH git commit -qam c")
    assert ("services/payments/notes.txt", "alice", True) in _refused(box)
    assert ("services/billing/invoice.py", "bob", True) in _refused(box)
    assert ("services/billing/old.txt", "alice") in _changed(box)


async def test_another_agents_file_run_with_the_runners_code_borrows_nothing(bob: Box) -> None:
    """``BASH_ENV=mine bash HIS_FILE``: alice's code, run as "bob's program", may not change what alice may not,
    and the change is not bob's (red team, round 2)."""
    box = bob
    await box.sandbox.write("bob", "services/payments/notes.txt", "ordinary notes\n")
    await box.sh(
        "echo 'echo ALICE >> services/payments/config.py' > /tmp/e.sh && "
        "BASH_ENV=/tmp/e.sh bash services/payments/notes.txt"
    )
    assert ("services/payments/config.py", "alice", True) in _refused(box)
    assert ("services/payments/config.py", "bob") not in _changed(box)
    assert "ALICE" not in (box.sandbox.root / "services/payments/config.py").read_text()


async def test_what_a_hook_removes_is_its_authors(box: Box) -> None:
    hook = "printf '#!/bin/sh\\nrm -f services/billing/old.txt\\n' > .git/hooks/post-commit"
    await box.sandbox.run_shell("human", f"mkdir -p .git/hooks && {hook} && chmod +x .git/hooks/post-commit")
    await box.sh("echo c >> services/billing/invoice.py && git commit -qam c")
    assert ("services/billing/old.txt", "human") in _changed(box)
    assert ("services/billing/invoice.py", "alice") in _changed(box)


async def test_a_script_the_runner_rewrote_is_the_runners(bob: Box) -> None:
    box = bob
    await box.sandbox.run_shell("bob", "printf '#!/bin/sh\\ntrue\\n' > /tmp/fix && chmod +x /tmp/fix")
    await box.sh(f"printf '{FIX}' > /tmp/fix && /tmp/fix")
    assert ("services/billing/invoice.py", "alice") in _changed(box)
    assert ("services/payments/notes.txt", "alice", True) in _refused(box)
    assert not [a for _, a in _changed(box) if a == "bob"]


@pytest.mark.parametrize("remove", ["rm .git/hooks/post-commit", "rm -rf .git/hooks", "mv .git/hooks /tmp/h"])
async def test_removing_another_agents_hook_is_refused(box: Box, remove: str) -> None:
    hook = "printf '#!/bin/sh\\ntrue\\n' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit"
    await box.sandbox.run_shell("human", f"mkdir -p .git/hooks && {hook}")
    await box.sh(remove)
    assert (".git/hooks/post-commit", "alice", True) in _refused(box)
    assert (box.sandbox.root / ".git/hooks/post-commit").read_text() == "#!/bin/sh\ntrue\n"


REWRITE = """
import os, sys
p = os.path.expanduser(sys.argv[1])
st, old = os.stat(p), open(p, "rb").read()
new = b"#!/bin/sh\\necho fixed >> services/billing/invoice.py\\necho fixed >> services/payments/notes.txt\\n"
assert len(old) > len(new), (len(old), len(new))
new += b"#" * (len(old) - len(new) - 1) + b"\\n"
with open(p, "r+b") as f:
    f.write(new)
os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
print("same size, time and inode")
"""


@pytest.mark.parametrize("where", ["/tmp/fix", "~/bin/fix"])
async def test_a_script_rewritten_in_place_with_its_time_put_back_is_the_rewriters(bob: Box, where: str) -> None:
    """Red team 3, finding 02: alice rewrites bob's script keeping its size, inode and modification time, then
    runs it. The change time (no unprivileged process can set it) makes the rewrite alice's ``OutsideChanged``,
    and alice its author: what it does is hers, not bob's."""
    box = bob
    body = "#!/bin/sh\\necho this script formats nothing at all, it only says so, and it says so at some length\\n"
    await box.sandbox.run_shell("bob", f"mkdir -p $(dirname {where}) && printf '{body}' > {where} && chmod +x {where}")
    result = await box.sh(f"python3 - {where} <<'EOF'\n{REWRITE}\nEOF\n")
    assert "same size, time and inode" in result.output, result.output
    rewritten = [e for e in box.of(OutsideChanged) if e.actor == "alice"]
    assert [(e.path, e.change) for e in rewritten] == [(where.split("/", 1)[1].removeprefix("tmp/"), "modified")]
    await box.sh(where)
    assert ("services/billing/invoice.py", "alice") in _changed(box)
    assert ("services/payments/notes.txt", "alice", True) in _refused(box)
    assert not [p for p, a, _ in _refused(box) if a == "bob"]
