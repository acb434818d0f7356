"""Which git config runs programs: the entries the git guard (:mod:`sandbox.workspace.gitguard`) rolls back.

A key that names a program (:data:`RUNS_PROGRAMS`: ``core.fsmonitor``, ``core.hooksPath``, editors, pagers,
drivers, filters, helpers, includes, ``protocol.*.allow``, ...), an ``alias.*`` or ``submodule.*.update`` that
starts with ``!``, and a URL git runs a program for (:data:`RUNS_URL`): a remote's ``url`` / ``pushurl`` or the
``BASE`` of a ``url.BASE.insteadOf`` of the form ``TRANSPORT::ADDRESS`` (``ext::sh -c ...`` runs a shell command;
any other ``TRANSPORT::`` runs ``git-remote-TRANSPORT`` from ``PATH``). The engine reads config with
``git config --file`` (a reader: it runs nothing), a plain file in-process (:mod:`~sandbox.workspace.configparse`).
:func:`aliases` reads a file's ``alias.*`` entries: what an agent's ``git NAME`` runs
(:mod:`sandbox.commands.gitaliases`).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from sandbox.jail.isolation import SYSTEM_PATH, minimal_env
from sandbox.workspace.configparse import plain_entries

RUNS_PROGRAMS = re.compile(
    r"^(core\.(fsmonitor|hookspath|sshcommand|editor|pager|askpass|gitproxy|alternaterefscommand)"
    r"|sequence\.editor|diff\.external|credential(\..+)?\.helper|gpg(\..+)?\.program|gpg\.ssh\.defaultkeycommand"
    r"|uploadpack\.packobjectshook|pager\..+|include\.path|includeif\..+\.path|interactive\.difffilter"
    r"|(diff|difftool|mergetool|merge)\..+\.(textconv|command|cmd|driver)|(browser|man)\..+\.(cmd|path)"
    r"|filter\..+\.(clean|smudge|process)|remote\..+\.(receivepack|uploadpack|vcs)|protocol(\..+)?\.allow)$"
)
"""Config keys (as ``git config --list`` spells them) whose value is a program git runs, or (``protocol.allow``,
``protocol.ext.allow``) lets a URL run one."""
RUNS_URL = re.compile(r"^remote\..+\.(url|pushurl)$")
"""Config keys whose value is a URL: one of the form ``TRANSPORT::ADDRESS`` runs a program."""
_REWRITE = re.compile(r"^url\.(?P<base>.+)\.(insteadof|pushinsteadof)$")
"""``url.BASE.insteadOf``: URLs that start with the value are rewritten to start with ``BASE``."""
_TRANSPORT = re.compile(r"^\s*[A-Za-z0-9][A-Za-z0-9+.-]*::")
_BANG = re.compile(r"^(alias\..+|submodule\..+\.update)$")
"""Keys whose value runs a shell command when it starts with ``!``."""


def runs_program(key: str, value: str) -> bool:
    """Whether config ``key`` (lower-case, as ``git config --list`` has it) set to ``value`` makes git run one."""
    if RUNS_PROGRAMS.match(key):
        return True
    if _BANG.match(key) and value.lstrip().startswith("!"):
        return True
    rewrite = _REWRITE.match(key)
    url = rewrite.group("base") if rewrite else value if RUNS_URL.match(key) else ""
    return bool(_TRANSPORT.match(url))


def programs(data: bytes | None) -> frozenset[tuple[str, str]]:
    """The program-running entries of a config file's bytes (an unreadable file: all of its lines,
    so any change to it counts)."""
    if not data:
        return frozenset()
    entries = _entries(data)
    if entries is None:
        return frozenset(("?", line) for line in data.decode("utf-8", "replace").splitlines())
    return frozenset((key, value) for key, value in entries if runs_program(key, value))


CACHED_MAX = 16 * 1024
"""A config this big or bigger is not remembered by :func:`aliases` (read again each time: its bytes are not kept)."""


def aliases(data: bytes | None) -> Mapping[str, str]:
    """The ``alias.NAME`` entries of a config file's bytes, NAME lower-case (git's names are), the last one of a name
    (git's); none for a file git cannot read (git refuses to run with it). Remembered by the bytes (the last 1,024
    configs under :data:`CACHED_MAX`): do not change it."""
    return _aliases(data) if data is not None and len(data) >= CACHED_MAX else _remembered(data)


def _aliases(data: bytes | None) -> Mapping[str, str]:
    entries = _entries(data) if data else None
    return {key[len("alias.") :]: value for key, value in entries or () if key.startswith("alias.")}


_remembered = lru_cache(maxsize=1024)(_aliases)


def _entries(data: bytes) -> list[tuple[str, str]] | None:
    """A config file's entries in order, as ``git config --list`` gives them (None: git could not read it); read
    in-process when the file is plain (:func:`~sandbox.workspace.configparse.plain_entries`), else by git."""
    plain = plain_entries(data)
    if plain is not None:
        return plain
    scratch = Path(os.environ.get("TMPDIR", "/tmp"))
    env = minimal_env(path=SYSTEM_PATH, home=str(scratch), tmp=str(scratch), extra={"GIT_CONFIG_NOSYSTEM": "1"})
    try:
        done = subprocess.run(
            ["git", "config", "--file", "-", "--no-includes", "--list", "-z"],
            input=data,
            env={**env, "GIT_CONFIG_GLOBAL": os.devnull},
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    found: list[tuple[str, str]] = []
    for item in done.stdout.decode("utf-8", "replace").split("\0"):
        key, _, value = item.partition("\n")
        if key:
            found.append((key, value))
    return found
