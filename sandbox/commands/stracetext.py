"""strace's text, for :mod:`sandbox.commands.strace`: its C string literals (``"a\\nb"``, cut ones), arrays of them,
the paths ``-y`` shows in ``<...>`` after a descriptor, and the paths a call names, each joined to its dirfd.

A descriptor ``-y`` cannot name has no ``<...>``: the kernel cannot write a path longer than ``PATH_MAX`` (a folder
4,096 characters deep), so ``openat(AT_FDCWD, "k", O_RDONLY) = 3`` in such a folder shows neither where the
process is nor what it opened. Such a path is joined to the working directory the reader followed (its
``chdir``\\s), else it is unknown: :func:`named` says ``""``, and the audit does not take it for a harmless file.
"""

from __future__ import annotations

import posixpath
import re

_ESCAPES = {"n": 10, "t": 9, "r": 13, "v": 11, "f": 12, "a": 7, "b": 8, "\\": 92, '"': 34, "'": 39}
_DIRFD = re.compile(r"AT_FDCWD|-?\d+")


def paths(args: str, count: int, at: bool, cwd: str) -> list[str] | None:
    """The first ``count`` paths of a call's arguments, each after its dirfd when ``at`` (joined to the folder
    ``-y`` shows for it, else to ``cwd`` for an ``AT_FDCWD`` it could not name); None when one is relative to
    a descriptor that is no folder the trace names."""
    pos, found = 0, []
    for _ in range(count):
        base: str | None = cwd
        if at:
            base, pos = _dirfd(args, pos, cwd)
            if not args.startswith(", ", pos):
                return None
            pos += 2
        value, pos = string(args, pos, "surrogateescape")
        if value is None or (base is None and not value.startswith("/")):
            return None
        found.append(_joined(value, base or ""))
        pos += 2  # ", "
    return found


def named(name: str, args: str, cwd: str) -> str:
    """The absolute path an ``open`` / ``openat`` / ``openat2`` / ``creat`` named (its dirfd's folder or ``cwd``
    joined: for an open ``-y`` could not name), ``""`` when it is relative to a folder that is not known."""
    pos, base = 0, cwd
    if name in ("openat", "openat2"):
        found, pos = _dirfd(args, 0, cwd)
        if not args.startswith(", ", pos):
            return ""
        base, pos = found or "", pos + 2
    value, _ = string(args, pos, "surrogateescape")
    if value is None or not (value.startswith("/") or base.startswith("/")):
        return ""
    return _joined(value, base)


def _dirfd(args: str, pos: int, cwd: str) -> tuple[str | None, int]:
    """The folder of the dirfd at ``pos`` (``AT_FDCWD</d>``, ``3</d>``; ``cwd`` for a bare ``AT_FDCWD``; None
    for a bare number) and the position after it."""
    fd = _DIRFD.match(args, pos)
    if fd is None:
        return None, pos
    if args.startswith("<", fd.end()):
        return decoration(args, fd.end())
    return (cwd or None) if fd.group() == "AT_FDCWD" else None, fd.end()


def _joined(value: str, base: str) -> str:
    path = value if value.startswith("/") or not base else f"{base.rstrip('/')}/{value}"
    if "/." in path or "//" in path or path.endswith("/"):  # as ``-y`` shows a path (``mv ./a b/``)
        path = posixpath.normpath(path)
    return path


def decoration(text: str, pos: int) -> tuple[str | None, int]:
    """The path ``-y`` shows in ``<...>`` at ``pos`` (``3</home/u/a\\nb>``) and the position after it. strace
    escapes it as it does a string argument (``\\n``, ``\\303\\251``, ``\\\\``) and ``<`` / ``>`` too
    (``\\74`` / ``\\76``), so the first ``>`` ends it. Bytes that are no UTF-8 are kept as Python keeps
    a file name's (``surrogateescape``): the path names the same file on the host."""
    if pos < 0 or not text.startswith("<", pos):
        return None, pos
    end = text.find(">", pos + 1)
    if end < 0:
        return None, pos
    raw = text[pos + 1 : end]
    if "\\" not in raw:
        return raw, end + 1
    data, _ = unescape(raw, 0, "")
    return data.decode("utf-8", "surrogateescape"), end + 1


def string(text: str, pos: int, errors: str = "replace") -> tuple[str | None, int]:
    """The C string literal at ``pos`` (strace's escapes decoded, as UTF-8: bytes that are not are replaced,
    or kept as a file name's with ``errors="surrogateescape"``) and the position after it (and after a
    ``...`` strace puts after a string it cut)."""
    if pos >= len(text) or text[pos] != '"':
        return None, pos
    data, i = unescape(text, pos + 1, '"')
    if i >= len(text):
        return None, i
    i += 1
    if text.startswith("...", i):
        i += 3
    return data.decode("utf-8", errors), i


def unescape(text: str, i: int, stop: str) -> tuple[bytearray, int]:
    """The bytes strace's escapes stand for from ``i`` to the first unescaped ``stop`` (the end of ``text``
    when ``""``), and where that is. Runs of plain characters are taken whole: a character at a time was
    most of a trace's parsing."""
    data = bytearray()
    plain_re = _PLAIN if stop == '"' else _PLAIN_ALL
    while i < len(text):
        plain = plain_re.match(text, i)
        if plain is not None:
            data.extend(plain.group().encode("utf-8", "surrogateescape"))
            i = plain.end()
            continue
        c = text[i]
        if c == stop:
            return data, i
        if c == "\\" and i + 1 < len(text):  # a backslash with something after it
            nxt = text[i + 1]
            hexa = _HEX.match(text, i + 2) if nxt == "x" else None
            if hexa is not None:
                data.append(int(hexa.group(), 16))
                i += 4
                continue
            octal = _OCTAL.match(text, i + 1)
            if octal is not None:
                data.append(int(octal.group(), 8) & 0xFF)
                i += 1 + len(octal.group())
                continue
            data.append(_ESCAPES.get(nxt, ord(nxt) if nxt.isascii() else 63))
            i += 2
            continue
        data.extend(c.encode("utf-8", "surrogateescape"))
        i += 1
    return data, i


_PLAIN = re.compile(r'[^"\\]+')
_PLAIN_ALL = re.compile(r"[^\\]+")
_HEX = re.compile(r"[0-9a-fA-F]{2}")
_OCTAL = re.compile(r"[0-7]{1,3}")


def strings(text: str, pos: int) -> tuple[list[str], int]:
    """A ``["a", "b", ...]`` array at ``pos`` (strace's ``...`` for the elements it left out ends it)."""
    items: list[str] = []
    if pos >= len(text) or text[pos] != "[":
        return items, pos
    pos += 1
    while pos < len(text):
        if text[pos] == "]":
            return items, pos + 1
        if text.startswith(", ", pos):
            pos += 2
            continue
        value, after = string(text, pos)
        if value is None:
            break
        items.append(value)
        pos = after
    return items, pos
