"""Text from an agent, made safe to carry and to show: the one escaping scheme of the project.

An agent chooses file names, arguments and output, and any of them may hold bytes that are not
UTF-8 or characters that steer a terminal. Two rules, one function each:

- **In events** (:func:`escape_bytes`, applied to every string of every event when it is built): a
  byte that is not valid UTF-8 reaches Python as a lone surrogate (``os`` decodes names with
  ``surrogateescape``) and could not be encoded as JSON; it is written ``\\xNN`` (two lowercase hex
  digits: the byte ``0xff`` is ``\\xff``), and any other lone surrogate ``\\uXXXX``. A backslash that
  could be read as the start of such an escape (one before ``x``, ``u``, another backslash or an
  escaped byte) is written ``\\\\``, so the scheme is one-to-one: the byte ``0xe9`` is ``\\xe9`` and the
  four characters ``\\xe9`` are ``\\\\xe9`` (red team 6, 05), and :func:`unescape_bytes` gives the
  original back (the engine acting on a name or text it took from an event). Other text is left as it
  is (``\\n`` in a diff stays ``\\n``), so a recording stays valid JSON and readable. Escaping is not
  idempotent: an event is built from original text, never from another event's (unescape it first).
- **On a screen** (:func:`printable`: headless tables, the TUI, ``scopewatch sandbox exec``): on top
  of that, every control character (C0, DEL, C1: newline, carriage return, ESC, ...) and every
  bidirectional override is shown escaped (``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\u202e``), so a
  file name can never start a fake line or recolour the terminal. ``keep_lines=True`` keeps
  newlines and tabs (a command's output, shown as lines).
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_CONTROL_KEEP_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape's stand-in for the byte code - 0xDC00
        return f"\\x{code - 0xDC00:02x}"
    if ch in _NAMED:
        return _NAMED[ch]
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


_IN_EVENTS = re.compile(r"[\ud800-\udfff]|\\(?=[\\xu\ud800-\udfff])")
_ESCAPED = re.compile(r"\\(?:\\|x([89a-f][0-9a-f])|u(d[89a-f][0-9a-f]{2}))")


def _in_events(match: re.Match[str]) -> str:
    return "\\\\" if match.group() == "\\" else _escape(match)


def escape_bytes(text: str) -> str:
    """``text`` with every byte that was not UTF-8 as ``\\xNN`` and a backslash that could start such an escape
    doubled (see the module); other text as it is."""
    if text.isascii() and "\\" not in text:
        return text
    return _IN_EVENTS.sub(_in_events, text)


def _unescaped(match: re.Match[str]) -> str:
    byte, other = match.group(1), match.group(2)
    if byte is not None:
        return chr(0xDC00 + int(byte, 16))
    return chr(int(other, 16)) if other is not None else "\\"


def unescape_bytes(text: str) -> str:
    """The text :func:`escape_bytes` made ``text`` from (its bytes that were not UTF-8 as lone surrogates, as ``os``
    gives them: ``os.fsencode`` turns them back into the bytes). A recording made before the scheme was one-to-one
    (a backslash left single) reads back as it was written, but for a literal ``\\\\`` or ``\\xNN`` in it."""
    if "\\" not in text:
        return text
    return _ESCAPED.sub(_unescaped, text)


_LONE = re.compile("[\ud800-\udfff]")


def readable(text: str) -> str:
    """What an event's text field says, for a reader that is no recording (a model's prompt): :func:`unescape_bytes`,
    then each byte that was not UTF-8 as ``\\xNN`` (a model's input must be text), every backslash as it was
    written (an event doubles one that could start an escape: a requester's ``\\x41`` reached the owner's model as
    ``\\\\x41``)."""
    if "\\" not in text:
        return text
    return _LONE.sub(_escape, unescape_bytes(text))


def printable(text: str, *, keep_lines: bool = False) -> str:
    """``text`` safe to print: :func:`escape_bytes`, and control characters escaped (``keep_lines``:
    newlines and tabs kept)."""
    return (_CONTROL_KEEP_LINES if keep_lines else _CONTROL).sub(_escape, text)


def cut(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` characters and how many more there were (a tool call's arguments in an
    event, a tool's result)."""
    return text if len(text) <= limit else text[:limit] + f"\n... [{len(text) - limit} more characters]"
