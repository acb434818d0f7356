"""One sandbox's command does not read another's folders (red team 5, 08: at isolation ``unshare`` the host's
``/var/tmp`` is visible, and sandbox A's command read B's HOME key and workspace ``.env`` by name)."""

from __future__ import annotations

import pytest

from channel.emitter import Emitter
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.jail.isolation import Isolation, _works
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS

READ = (
    "python3 -c 'import sys\n"
    "for p in sys.argv[1:]:\n"
    "    try: print(p, open(p).read().strip())\n"
    "    except OSError as e: print(p, type(e).__name__)' {paths}; echo LISTED; ls {parent}"
)


@pytest.mark.parametrize("level", ["unshare", "bubblewrap"])
async def test_a_command_reads_no_other_sandboxs_folders(bus: InProcessBus, level: str) -> None:
    if not await _works(level):  # type: ignore[arg-type]
        pytest.skip(f"{level} does not work here")
    made = []
    try:
        for name in ("a", "b"):
            made.append(await LocalSandbox.create(
                {**FILES, ".env": f"SECRET_{name.upper()}=1\n"}, ownership=Ownership.from_teams(TEAMS),
                emitter=Emitter(bus, name), home={".ssh/id_rsa": f"KEY_{name.upper()}\n"},
                isolation=Isolation(level), watch=False,  # type: ignore[arg-type]
            ))  # fmt: skip
        a, b = made
        a.register_actor("alice", "billing")
        theirs = f"{b.home}/.ssh/id_rsa {b.root}/.env"
        ran = await a.run_shell("alice", READ.format(paths=f"{theirs} {a.home}/.ssh/id_rsa {a.root}/.env",
                                                     parent=a.root.parent.parent))  # fmt: skip
        assert "KEY_B" not in ran.output and "SECRET_B" not in ran.output, ran.output
        assert "KEY_A" in ran.output and "SECRET_A" in ran.output, ran.output  # its own, still
        assert b.root.parent.name not in ran.output.split("LISTED")[1]  # not even listed
    finally:
        for sb in made:
            await sb.close()
