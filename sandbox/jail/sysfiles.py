"""System files the jail sees instead of the host's, each saving the opens a program's start spends on
what a jail has no use for (every open is a stop of the exec tracer, :mod:`sandbox.commands.tracer`):

- ``/etc/nsswitch.conf`` without ``systemd`` (:func:`nsswitch`): there is nothing in a jail to ask, and its
  module walks ``/etc`` and loads three libraries on every user lookup (~20 opens in each bash);
- ``/usr/lib/locale`` with a ``locale-archive`` (:func:`locales`) where the host has only the locale
  folders (Debian's ``C.utf8``): glibc then maps the one archive instead of opening 13 files
  (``LC_CTYPE``, ``LC_COLLATE``, ...) in every program that sets its locale. The archive holds the same
  compiled data (``localedef --add-to-archive``) and the folders stay beside it;
- a shell for the shim's wrappers that starts without bash's loader and locale (:func:`quick_sh`: 5 opens less a
  shimmed program).

Each is made once per engine process, in a folder of its own removed when the process exits; the jail
binds it read-only over the host's (:mod:`sandbox.jail.isolation`). None where there is nothing to change.
"""

from __future__ import annotations

import atexit
import os
import re
import shlex
import shutil
import subprocess
from functools import cache

from sandbox.workspace.stale import owned_tempdir

NSSWITCH = "/etc/nsswitch.conf"
LOCALES = "/usr/lib/locale"
_NO_SOURCE = ("systemd",)
"""Name services the jail leaves out."""


def _folder(prefix: str) -> str:
    folder = owned_tempdir(prefix)  # swept once this process is gone, if its atexit never ran
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.chmod(folder, 0o755)
    return folder


@cache
def nsswitch() -> str | None:
    """The host's ``nsswitch.conf`` without :data:`_NO_SOURCE` (each with the ``[...]`` action after it)
    (None: the host has none, or it names none of them)."""
    try:
        with open(NSSWITCH, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    kept: list[str] = []
    for line in lines:
        head, sep, rest = line.partition(":")
        words = rest.split()
        if not sep or line.lstrip().startswith("#") or not set(words) & set(_NO_SOURCE):
            kept.append(line)
            continue
        out: list[str] = []
        for word in words:
            if out and out[-1] in _NO_SOURCE and word.startswith("["):
                continue
            out.append(word)
        kept.append(f"{head}:{' ' * 9}{' '.join(w for w in out if w not in _NO_SOURCE) or 'files'}")
    if kept == lines:
        return None
    path = os.path.join(_folder("scopewatch-nss-"), "nsswitch.conf")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(kept) + "\n")
    os.chmod(path, 0o444)
    return path


@cache
def locales() -> str | None:
    """A copy of the host's ``/usr/lib/locale`` with an archive of its locales (None: the host has an
    archive already, no locale folder, or no ``localedef``)."""
    localedef = shutil.which("localedef", path="/usr/bin:/bin:/usr/sbin:/sbin")
    try:
        names = sorted(n for n in os.listdir(LOCALES) if os.path.isdir(os.path.join(LOCALES, n)))
    except OSError:
        return None
    if localedef is None or not names or os.path.exists(os.path.join(LOCALES, "locale-archive")):
        return None
    root = _folder("scopewatch-locale-")
    copy = root + LOCALES
    try:
        shutil.copytree(LOCALES, copy, symlinks=True)
        done = subprocess.run(
            [
                localedef,
                f"--prefix={root}",
                "--add-to-archive",
                "--replace",
                *(os.path.join(LOCALES, n) for n in names),
            ],
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, shutil.Error):
        return None
    archive = os.path.join(copy, "locale-archive")
    if done.returncode != 0 or not os.path.isfile(archive):
        return None
    for path, dirs, _ in os.walk(root):
        for d in dirs:
            os.chmod(os.path.join(path, d), 0o755)
    os.chmod(archive, 0o444)
    return copy


def binds() -> tuple[tuple[str, str], ...]:
    """(file or folder made here, the host path it stands for in the jail)."""
    made = ((nsswitch(), NSSWITCH), (locales(), LOCALES))
    return tuple((src, dst) for src, dst in made if src is not None)


@cache
def quick_sh(search_path: str) -> str | None:
    """mksh's ``lksh`` on ``search_path`` (Debian's ``mksh`` package) when it runs the shim's wrappers as ``bash -p``
    would (``exec -a``, ``$EPOCHREALTIME``, ``$'...'``, ``builtin printf``: probed once), else None. Debian's is
    linked statically with musl: it starts with no loader, no locale and none of glibc's cache probing (~70 ``cpuid``
    a program's start, each an exit to the hypervisor in a virtual machine): a shimmed program costs ~0.6 ms and 5
    traced opens less in the episode's jail (docs/performance.md, stop 46)."""
    found, true = shutil.which("lksh", path=search_path), shutil.which("true", path=search_path)
    if found is None or true is None:
        return None
    probe = f"builtin printf '%s\\0' \"$EPOCHREALTIME\" $'\\x1eSW' && (exec -a sw-probe {shlex.quote(true)})"
    try:
        done = subprocess.run([found, "-c", probe], capture_output=True, timeout=10, env={}, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return found if done.returncode == 0 and re.fullmatch(rb"\d+\.\d{6}\0\x1eSW\0", done.stdout) else None
