"""What separates a workspace process from the host, by level, detected once per process:

- ``bubblewrap`` (``bwrap``): the command sees the system folders read-only and nothing else of the
  host (no ``/root``, ``/home``, project folders), the workspace read-write, a private ``$HOME`` and
  ``/tmp``, no network, its own PID namespace (no ancestor's ``/proc/<pid>/environ`` is visible,
  and everything it started dies with it), no capabilities;
- ``unshare``: own PID, mount, network, IPC and UTS namespaces; the host read-only with ``/root``
  and ``/home`` hidden, private ``/tmp``, capabilities dropped (``setpriv``);
- ``none``: a scrubbed environment only, with a warning (:attr:`Isolation.warning`) the TUI header
  and headless output show.

At ``bubblewrap`` and ``unshare`` the command itself runs unprivileged: set up by root, it then
runs as its sandbox's own uid (:mod:`sandbox.jail.jailuser`; where the engine is root), with
``/proc/sys`` read-only and under the seccomp filter of :mod:`sandbox.jail.seccomp` (no io_uring, keys,
nested user namespaces, mounts, ptrace, ...). Where libseccomp is missing the label says so
(``local/bubblewrap (no seccomp filter: libseccomp is not installed)``).

``SCOPEWATCH_ISOLATION=bubblewrap|unshare|none`` asks for a level (the security suite runs each);
a level that does not work here (its probe failed :data:`PROBE_TRIES` times) falls back to the next one down,
and the label says why (``local/unshare (bubblewrap did not work here: ...)``). Every level starts commands with
an environment built from nothing (:func:`minimal_env`), so no host variable reaches them.
"""

from __future__ import annotations

import asyncio
import functools
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from channel.vocab import IsolationLevel
from sandbox.jail.seccomp import LOADER, jail_filter
from sandbox.jail.sysfiles import binds as system_binds

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""What a bubblewrap sandbox sees of the host, read-only (plus the Python it runs tools with)."""
HIDDEN_DIRS = ("/root", "/home")
"""What an unshare sandbox hides behind an empty folder (where people keep keys and dotfiles)."""
LEVELS: tuple[IsolationLevel, ...] = ("bubblewrap", "unshare", "none")

NO_ISOLATION_WARNING = (
    "no sandbox isolation (neither bubblewrap nor unshare works here): agent commands can read the "
    "host and reach the network; install bubblewrap"
)


@dataclass(frozen=True)
class Isolation:
    """The level agent commands run at, and the warning to show when it is ``none``."""

    level: IsolationLevel
    warning: str = ""
    hardened: bool = True
    """Commands run as the jail's own uid under the seccomp filter (False: the engine's uid and no
    filter, for measuring what the hardening costs; the label says so)."""
    fallback: str = ""
    """Why the stronger levels tried are not used (``bubblewrap did not work here: its probe ...``): a level
    reached by falling back is named in the label, never silently weaker; "" when none was tried and failed."""

    @property
    def label(self) -> str:
        """``local/bubblewrap``, or with what the jail lacks here named (a fallback: why)."""
        base = f"local/{self.level}" + (f" ({self.fallback})" if self.fallback else "")
        if self.level == "none":
            return base
        if not self.hardened:
            return f"{base} (unhardened: engine's uid, no seccomp filter)"
        seccomp = jail_filter()
        return base if seccomp.available else f"{base} (no seccomp filter: {seccomp.reason})"


@dataclass(frozen=True)
class Jail:
    """What one command may see, for :func:`jail_argv`: host paths bound at the same path."""

    cwd: Path
    rw: tuple[Path, ...] = ()
    ro: tuple[Path, ...] = ()
    tmp: Path | None = None
    """Mounted as ``/tmp``."""
    cover: tuple[tuple[Path, str], ...] = ()
    """(wrapper, host program it is mounted over)."""
    expose: tuple[tuple[str, str], ...] = ()
    """(host program, where it appears inside): the real programs behind the covers."""
    stage: Path | None = None
    """unshare only: an empty folder for staging mounts (outside every hidden folder)."""
    private: Path | None = None
    """unshare only: the sandbox's private folder; the folder holding it is shown empty but for it (the other
    sandboxes' folders there, their HOME keys and workspaces, are not the command's to read)."""
    network: bool = False
    """Keep the host's network (an external agent reaching its model); else none."""
    mqueue: bool = False
    """bubblewrap only: the jail's POSIX message queues visible at ``/dev/mqueue`` (so a warm test
    server can clear them between runs)."""
    extra_ro: tuple[str, ...] = field(default_factory=lambda: python_dirs())
    uid: int | None = None
    """The unprivileged host uid (and gid) the command runs as, after the jail is set up by root
    (:mod:`sandbox.jail.jailuser`); None: the engine's own."""
    seccomp_fd: int | None = None
    """An open descriptor holding the seccomp filter (:mod:`sandbox.jail.seccomp`); the caller passes it
    to the child (``pass_fds``)."""


def python_dirs() -> tuple[str, ...]:
    """The folders of the Python that runs tools (venv and its base, by the paths tools are called
    with and by their real paths), outside the system folders; found once per process (a jail is made
    for every command)."""
    return _python_dirs()


@functools.cache
def _python_dirs() -> tuple[str, ...]:
    found: set[str] = set()
    for p in (sys.prefix, sys.base_prefix, os.path.dirname(sys.executable)):
        for path in (os.path.abspath(p), os.path.realpath(p)):
            if not any(path == d or path.startswith(d + "/") for d in SYSTEM_DIRS):
                found.add(path)
    # a folder inside another one found is bound with it
    return tuple(sorted(p for p in found if not any(p.startswith(q + "/") for q in found)))


_detected: dict[str | None, Isolation] = {}

PROBE_TRIES = 3
"""Times a level's probe is run before the level is taken as not working here: on a loaded machine one can fail
for a moment (another sandbox's mount going away while bubblewrap read the mount table)."""
PROBE_TIMEOUT = 10.0
"""Seconds one probe may take."""


async def detect_isolation() -> Isolation:
    """The strongest level that works here, at most the one ``SCOPEWATCH_ISOLATION`` asks for
    (probed once per process and level, each probe tried :data:`PROBE_TRIES` times). A level below the one asked
    for (or below bubblewrap) says in its label why the stronger ones did not work: a fallback is never silent."""
    wanted = os.environ.get("SCOPEWATCH_ISOLATION") or None
    if wanted in _detected:
        return _detected[wanted]
    start = next((i for i, level in enumerate(LEVELS) if level == wanted), 0)
    found = Isolation("none", NO_ISOLATION_WARNING)
    failed: list[str] = []
    for level in LEVELS[start:]:
        if level == "none":
            break
        why = await _probe(level)
        if why is None:
            found = Isolation(level)
            break
        failed.append(f"{level} did not work here: {why}")
    if found.level == "none" and wanted == "none":
        why = NO_ISOLATION_WARNING.split(": ", 1)[1]
        found = Isolation("none", f"no sandbox isolation (SCOPEWATCH_ISOLATION=none): {why}")
    found = replace(found, fallback="; ".join(failed))
    _detected[wanted] = found
    return found


async def _works(level: IsolationLevel) -> bool:
    return await _probe(level) is None


async def _probe(level: IsolationLevel) -> str | None:
    """Why ``level`` does not work here (its program missing, or its probe failing :data:`PROBE_TRIES` times in a
    row: the last failure's words), or None when it works."""
    if not sys.platform.startswith("linux"):
        return "not Linux"
    if level == "bubblewrap":
        if shutil.which("bwrap") is None:
            return "bwrap is not installed"
        # The system folders only, as a jail binds them (:func:`_bwrap`): ``--ro-bind / /`` would bind every mount
        # of the host too, and fail when one of them (another sandbox's) went away meanwhile.
        argv = ["bwrap", *_system_dirs(), "--proc", "/proc", "--dev", "/dev", "--unshare-pid", "--unshare-net",
                "--die-with-parent", "true"]
    else:
        if shutil.which("unshare") is None or shutil.which("setpriv") is None:
            return "unshare or setpriv is not installed"
        argv = [*_unshare_prefix(), "sh", "-c", "mount --make-rprivate / && setpriv --bounding-set=-all true"]
    why = ""
    for _ in range(PROBE_TRIES):
        why = await _probe_once(argv)
        if not why:
            return None
    return why


async def _probe_once(argv: list[str]) -> str:
    """One run of a probe: "" when it exits 0, else what went wrong (its exit status and last line)."""
    try:
        probe = await asyncio.create_subprocess_exec(
            *argv, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
        try:
            _, err = await asyncio.wait_for(probe.communicate(), PROBE_TIMEOUT)
        except TimeoutError:
            probe.kill()
            await probe.wait()
            return f"its probe took more than {PROBE_TIMEOUT:g} s"
    except OSError as exc:
        return f"its probe did not start: {exc}"
    if probe.returncode == 0:
        return ""
    said = err.decode("utf-8", "replace").strip().splitlines()
    return f"its probe exited with {probe.returncode}" + (f": {said[-1][:200]}" if said else "")


def _unshare_prefix(network: bool = False) -> list[str]:
    flags = ["--pid", "--fork", "--kill-child", "--mount-proc", "--mount", "--ipc", "--uts"]
    if not network:
        flags.append("--net")
    if os.geteuid() != 0:
        flags.append("--map-root-user")
    return ["unshare", *flags, "--"]


def jail_argv(level: IsolationLevel, jail: Jail, argv: Sequence[str]) -> list[str]:
    """``argv`` run inside ``jail`` at ``level`` (``none``: as it is)."""
    if level == "bubblewrap":
        return _bwrap(jail, argv)
    if level == "unshare":
        return _unshare(jail, argv)
    return list(argv)


def _bwrap(jail: Jail, argv: Sequence[str]) -> list[str]:
    args = ["bwrap", "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    if not jail.network:
        args.append("--unshare-net")
    # Run as root, bwrap keeps every capability unless told (a jailed root could remount a read-only
    # bind read-write, or set the clock): none are kept.
    args += ["--unshare-cgroup-try", "--new-session", "--hostname", "scopewatch", "--cap-drop", "ALL"]
    args += _system_dirs()
    for made, host in system_binds():  # system files of the jail's own (:mod:`sandbox.jail.sysfiles`)
        args += ["--ro-bind", made, host]
    args += ["--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys", "--dev", "/dev"]
    if jail.mqueue:
        args += ["--mqueue", "/dev/mqueue"]
    args += ["--bind", str(jail.tmp), "/tmp"] if jail.tmp is not None else ["--tmpfs", "/tmp"]
    if jail.uid is not None:
        # bubblewrap makes the folders above a bind 0700 (root's): the jail's uid must pass them.
        for d in _ancestors(jail):
            args += ["--perms", "0755", "--dir", d]
    # After /tmp: the Python that runs the tools may live under it (a checkout in /tmp).
    for d in jail.extra_ro:
        args += ["--ro-bind", os.path.realpath(d), d]
    for p in jail.rw:
        args += ["--bind", str(p), str(p)]
    for p in jail.ro:
        args += ["--ro-bind", str(p), str(p)]
    for program, inside in jail.expose:
        args += ["--ro-bind", program, inside]
    for wrapper, program in jail.cover:
        args += ["--ro-bind", str(wrapper), program]
    if jail.seccomp_fd is not None:
        args += ["--seccomp", str(jail.seccomp_fd)]
    if jail.uid is not None:
        # Only what the drop to the jail's uid needs; setuid to a non-zero uid clears them again.
        args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    args += ["--remount-ro", "/", "--chdir", str(jail.cwd), "--", *_drop(jail), *argv]
    return args


def _system_dirs() -> list[str]:
    """bubblewrap's arguments for the system folders: read-only, a symlink (``/bin`` -> ``usr/bin``) as one."""
    args = []
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            args += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            args += ["--ro-bind", d, d]
    return args


def server_argv(jail: Jail, argv: Sequence[str]) -> list[str]:
    """The bubblewrap jail of a server that starts the jail's processes itself (the episode's command server,
    the warm test server): it stays the jail's root with only ``CAP_SETUID``, ``CAP_SETGID`` and ``CAP_KILL``
    (to end what a process of the jail's uid left), under the same filter, and drops each process it starts to
    ``jail.uid`` itself; a jail without a uid (the engine is not root) is :func:`jail_argv`'s."""
    args = jail_argv("bubblewrap", jail, argv)
    drop = _drop(jail)
    if drop:
        at = next(i for i in range(len(args)) if args[i : i + len(drop)] == drop)
        del args[at : at + len(drop)]
        caps = args.index("CAP_SETGID")
        args[caps + 1 : caps + 1] = ["--cap-add", "CAP_KILL"]
    return args


def _ancestors(jail: Jail) -> list[str]:
    """The folders above every path bound into the jail, outside the system folders, parents first."""
    bound = [*jail.extra_ro, *(str(p) for p in (jail.cwd, *jail.rw, *jail.ro)), *(i for _, i in jail.expose)]
    found: set[str] = set()
    for path in bound:
        parent = os.path.dirname(path)
        while parent not in ("/", "") and not any(parent == d or parent.startswith(d + "/") for d in SYSTEM_DIRS):
            found.add(parent)
            parent = os.path.dirname(parent)
    return sorted(found, key=lambda d: (d.count("/"), d))


def _siblings_hidden(jail: Jail, hidden: list[str]) -> list[str]:
    """The set-up lines that cover the folder holding the sandbox's private folder (``/var/tmp``: every sandbox's)
    with an empty read-only tmpfs and put the private folder back in it, through a descriptor opened before (red team
    5, 08: the host's ``/var/tmp`` is visible at unshare, and another sandbox's HOME and ``.env`` were readable by
    name). Nothing where that folder is ``/``, a system folder or one the jail covers anyway (``/tmp``)."""
    if jail.private is None:
        return []
    private = str(jail.private)
    parent = os.path.dirname(private)
    covered = [*hidden, "/tmp"]
    if parent in ("", "/") or any(parent == d or parent.startswith(d + "/") for d in (*SYSTEM_DIRS, *covered)):
        return []
    bound = [*jail.extra_ro, *(str(p) for p in (jail.cwd, *jail.rw, *jail.ro)), *(str(w) for w, _ in jail.cover)]
    if any(p.startswith(parent + "/") and not (p == private or p.startswith(private + "/")) for p in bound):
        return []  # something else the jail needs lives there (a checkout in /var/tmp): left as it is
    q = shlex.quote
    return [
        f"exec 9< {q(private)}",
        f"mount -t tmpfs -o size=64k,mode=755 scopewatch-hidden {q(parent)}",
        f"mkdir -p {q(private)}",
        f"mount --no-canonicalize --rbind /proc/self/fd/9 {q(private)}",
        "exec 9<&-",
        f"mount -o remount,bind,ro {q(parent)}",
    ]


def _drop(jail: Jail) -> list[str]:
    """The last step into the jail: the jail's uid and gid, no groups, no capabilities to inherit."""
    if jail.uid is None:
        return []
    setpriv = shutil.which("setpriv", path="/usr/sbin:/usr/bin:/sbin:/bin") or "setpriv"
    ids = ["--reuid", str(jail.uid), "--regid", str(jail.uid), "--clear-groups"]
    return [setpriv, *ids, "--inh-caps=-all", "--no-new-privs", "--"]


def _unshare(jail: Jail, argv: Sequence[str]) -> list[str]:
    """unshare runs a root shell in fresh namespaces that sets the mounts up, then drops every
    capability and runs ``argv``; the host's ``/`` is remounted read-only in that namespace only."""
    q = shlex.quote
    # The command's PATH starts with the shim: the set-up uses the system's programs.
    lines = ["set -e", "__sw_path=$PATH", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "mount --make-rprivate /"]
    # The jail's own system files (:mod:`sandbox.jail.sysfiles`), before /tmp, where they are, is covered.
    lines += [f"mount -o bind,ro {q(made)} {q(host)}" for made, host in system_binds()]
    stage = jail.stage
    keep = [*jail.extra_ro, *(str(p) for p in jail.ro), *(str(p) for p in jail.rw)]
    hidden = [h for h in HIDDEN_DIRS if os.path.isdir(h)]
    lines += _siblings_hidden(jail, hidden)
    # What the jail covers (the hidden folders, and /tmp when it gets one of its own): a path to keep
    # under one is set aside first and put back on top (a checkout or its venv may live in /tmp).
    covered = [*hidden, *(["/tmp"] if jail.tmp is not None else [])]
    staged: list[tuple[str, str]] = []
    if stage is not None:
        for i, p in enumerate(keep):
            if any(p == h or p.startswith(h + "/") for h in covered):
                lines.append(f"{_mount_point(f'{stage}/{i}', p)} && mount --bind {q(p)} {q(f'{stage}/{i}')}")
                staged.append((f"{stage}/{i}", p))
    for h in hidden:
        lines.append(f"mount -t tmpfs -o size=64k,mode=755 scopewatch-hidden {q(h)}")
    if jail.tmp is not None:
        lines.append(f"mount --bind {q(str(jail.tmp))} /tmp")
    for src, p in staged:
        lines.append(f"{_mount_point(p, p)} && mount --move {q(src)} {q(p)}")
    for rw in jail.rw:
        lines.append(f"mount --bind {q(str(rw))} {q(str(rw))}")
    for ro in jail.ro:
        lines.append(f"mount -o bind,ro {q(str(ro))} {q(str(ro))}")
    for program, inside in jail.expose:
        lines.append(f"mount -o bind,ro {q(program)} {q(inside)}")
    lines += [f"mount -o remount,bind,ro {q(h)}" for h in hidden]
    lines.append("mount -o remount,bind,ro /")
    # Covers last, and the cover of `mount` itself after every other one: the set-up runs `mount`.
    mount = os.path.realpath(shutil.which("mount", path="/usr/sbin:/usr/bin:/sbin:/bin") or "/usr/bin/mount")
    for wrapper, program in sorted(jail.cover, key=lambda c: c[1] == mount):
        lines.append(f"mount -o bind,ro {q(str(wrapper))} {q(program)}")
    lines.append(f"cd {q(str(jail.cwd))}")
    lines.append("PATH=$__sw_path")
    setpriv = shutil.which("setpriv", path="/usr/sbin:/usr/bin:/sbin:/bin") or "setpriv"
    # A session of its own (as bubblewrap's --new-session): `kill 0` inside reaches nothing outside
    # the namespace that shares its process group (the exec tracer, unshare itself).
    ids = f"--reuid {jail.uid} --regid {jail.uid} --clear-groups " if jail.uid is not None else ""
    # The seccomp filter last of all: the set-up above mounts, and setpriv changes the uid.
    load = ""
    if jail.seccomp_fd is not None:
        # The real interpreter, never the shim's cover of it: where the engine's Python is a system one
        # (Debian's /usr/bin/python3), the wrapper is mounted over it, and the loader would run the wrapper.
        python = dict(jail.expose).get(os.path.realpath(sys.executable), sys.executable)
        load = f"{q(python)} -I -S -c {q(LOADER)} {jail.seccomp_fd} "
    lines.append(
        f"exec setsid {q(setpriv)} {ids}--bounding-set=-all --inh-caps=-all --ambient-caps=-all --no-new-privs -- "
        f'{load}"$@"'
    )
    return [*_unshare_prefix(jail.network), "bash", "-c", "\n".join(lines), "scopewatch-jail", *argv]


def _mount_point(point: str, kept: str) -> str:
    """The shell line that makes ``point`` a mount point for the host path ``kept``: a folder for a folder, an
    empty file (and its folders) for anything else (an agent script of one's own under ``/tmp``: a file is
    mounted on a file), left as it is when it is there already."""
    q = shlex.quote
    if os.path.isdir(kept):
        return f"mkdir -p {q(point)}"
    return f"mkdir -p {q(os.path.dirname(point))} && {{ [ -e {q(point)} ] || : > {q(point)}; }}"


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
