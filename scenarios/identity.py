"""A pack's identity beyond its name: one hash of everything that defines it (``Pack.pack_hash``).

Two packs may share a manifest name (a local ``billing`` folder edited between two runs, two authors' packs): the
name says what a recording ran only as far as nobody changed the pack. The hash covers the pack as a session
reads it: ``scenario.toml``, every file of ``repo/`` (the workspace, as loaded: no VCS folders, no
``__pycache__``) and every test file the manifest names (hidden and contract tests). Each file counts by its
pack-relative posix path and its text with line endings made ``\\n`` (as the loader reads it), never by its mtime,
its absolute path or the order a folder lists it in: the same pack gives the same hash on any machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping


def content_hash(files: Mapping[str, str]) -> str:
    """The sha256 (hex) of ``files`` (pack-relative posix path -> text), independent of their order. Each path
    and text is length-prefixed, so no two different sets of files give the same bytes to hash."""
    digest = hashlib.sha256(b"scopewatch-pack\0")
    for path in sorted(files):
        for part in (path.encode("utf-8", "surrogateescape"), files[path].encode("utf-8", "surrogateescape")):
            digest.update(f"{len(part)}:".encode())
            digest.update(part)
    return digest.hexdigest()


def short_hash(full: str) -> str:
    """The first 12 hex digits: what a line shows of a pack hash (the JSON has all 64)."""
    return full[:12]
