"""What separates a workspace process from the host: a minimal environment (no host variables, so
no API key reaches the workspace) and, where the OS allows, no network (a fresh network namespace
via ``unshare``; probed once, silently skipped where it is not permitted)."""

from __future__ import annotations

import asyncio
import shutil
import sys

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"

_netns: tuple[str, ...] | None = None


async def network_cut_prefix() -> tuple[str, ...]:
    """The argv prefix that runs a command without network: ``unshare -n`` (root) or
    ``unshare -rn`` (unprivileged user namespaces), else ``()`` when neither works here."""
    global _netns
    if _netns is None:
        _netns = ()
        unshare = shutil.which("unshare")
        if unshare and sys.platform.startswith("linux"):
            for flags in ("-n", "-rn"):
                try:
                    probe = await asyncio.create_subprocess_exec(
                        unshare, flags, "true", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
                    )
                    if await asyncio.wait_for(probe.wait(), 5) == 0:
                        _netns = (unshare, flags)
                        break
                except (OSError, TimeoutError):
                    continue
    return _netns


def minimal_env(*, path: str, home: str, tmp: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """An environment built from nothing: only these variables, never the host's."""
    env = {
        "PATH": path,
        "HOME": home,
        "TMPDIR": tmp,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "NO_PROXY": "*",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    env.update(extra or {})
    return env
