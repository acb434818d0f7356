"""The jail's own system files (sandbox.jail.sysfiles): the host's ``nsswitch.conf`` without ``systemd``
(user lookups still answered from the files) and a locale archive (a UTF-8 locale still in force)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from sandbox.jail import isolation, sysfiles
from sandbox.jail.isolation import Jail, jail_argv
from sandbox.jail.sysfiles import locales, nsswitch


def test_systemd_and_its_action_are_left_out_and_every_other_line_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = tmp_path / "nsswitch.conf"
    host.write_text(
        "# systemd here is a comment\npasswd: files systemd\ngroup: systemd [SUCCESS=merge] files\nhosts: files dns\n"
    )
    monkeypatch.setattr(sysfiles, "NSSWITCH", str(host))
    nsswitch.cache_clear()
    try:
        made = nsswitch()
        assert made is not None
        lines = Path(made).read_text().splitlines()
    finally:
        nsswitch.cache_clear()
    assert lines[0] == "# systemd here is a comment"
    assert [line.split() for line in lines[1:]] == [
        ["passwd:", "files"],
        ["group:", "files"],
        ["hosts:", "files", "dns"],
    ]


def test_a_host_without_systemd_in_it_keeps_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    host = tmp_path / "nsswitch.conf"
    host.write_text("passwd: files\n")
    monkeypatch.setattr(sysfiles, "NSSWITCH", str(host))
    nsswitch.cache_clear()
    try:
        assert nsswitch() is None
    finally:
        nsswitch.cache_clear()


def test_the_jail_sees_it_and_still_finds_its_users(tmp_path: Path) -> None:
    if not asyncio.run(isolation._works("bubblewrap")):
        pytest.skip("bubblewrap does not work here")
    if nsswitch() is None:
        pytest.skip("this host's nsswitch.conf names no service the jail leaves out")
    argv = jail_argv(
        "bubblewrap", Jail(cwd=tmp_path, rw=(tmp_path,)), ["sh", "-c", "cat /etc/nsswitch.conf; getent passwd root"]
    )
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    assert [w for line in out.splitlines() if line.startswith("passwd:") for w in line.split()[1:]] == ["files"]
    assert out.splitlines()[-1].startswith("root:x:0:0:")


def test_the_jail_keeps_its_utf8_locale_from_the_archive(tmp_path: Path) -> None:
    if not asyncio.run(isolation._works("bubblewrap")):
        pytest.skip("bubblewrap does not work here")
    if locales() is None:
        pytest.skip("this host has a locale archive already, or no localedef")
    script = "ls /usr/lib/locale; printf 'caf\\303\\251\\n' | wc -m"
    argv = jail_argv("bubblewrap", Jail(cwd=tmp_path, rw=(tmp_path,)), ["sh", "-c", script])
    done = subprocess.run(
        argv, capture_output=True, text=True, check=True, env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}
    )
    assert "locale-archive" in done.stdout.split()
    assert done.stdout.split()[-1] == "5"  # four characters and the newline: the locale is UTF-8
    assert done.stderr == ""
