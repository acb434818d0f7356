"""Where the agent products the project installs live (``scopewatch agents install NAME``).

The cache is read-only inside every jail (the product's program runs from it, as the agent); only
the installer, outside any jail, writes it. ``SCOPEWATCH_AGENTS_CACHE`` moves it (the default is
``~/.cache/scopewatch/agents``).
"""

from __future__ import annotations

import os
from pathlib import Path


def agents_cache() -> Path:
    """The folder of installed agent products (one ``NAME/VERSION`` folder each)."""
    given = os.environ.get("SCOPEWATCH_AGENTS_CACHE")
    return Path(given) if given else Path.home() / ".cache" / "scopewatch" / "agents"


def cache_dirs() -> tuple[str, ...]:
    """The cache, when it exists, as a folder the jails bind read-only."""
    root = agents_cache()
    return (str(root.resolve()),) if root.is_dir() else ()
