"""Text from an agent, made safe to carry and to show: the one escaping scheme of the project.

An agent chooses file names, arguments and output, and any of them may hold bytes that are not
UTF-8 or characters that steer a terminal. Two rules, one function each:

- **In events** (:func:`escape_bytes`, applied to every string of every event when it is built): a
  byte that is not valid UTF-8 reaches Python as a lone surrogate (``os`` decodes names with
  ``surrogateescape``) and could not be encoded as JSON; it is written ``\\xNN`` (two lowercase hex
  digits: the byte ``0xff`` is ``\\xff``), and any other lone surrogate ``\\uXXXX``. Valid text is
  left as it is, so a recording stays valid JSON and readable; the escape is for people, never
  decoded back.
- **On a screen** (:func:`printable`: headless tables, the TUI, ``scopewatch sandbox exec``): on top
  of that, every control character (C0, DEL, C1: newline, carriage return, ESC, ...) and every
  bidirectional override is shown escaped (``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\u202e``), so a
  file name can never start a fake line or recolour the terminal. ``keep_lines=True`` keeps
  newlines and tabs (a command's output, shown as lines).
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
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


def escape_bytes(text: str) -> str:
    """``text`` with every byte that was not UTF-8 as ``\\xNN`` (see the module); valid text as it is."""
    if text.isascii():
        return text
    return _SURROGATE.sub(_escape, text)


def printable(text: str, *, keep_lines: bool = False) -> str:
    """``text`` safe to print: :func:`escape_bytes`, and control characters escaped (``keep_lines``:
    newlines and tabs kept)."""
    return (_CONTROL_KEEP_LINES if keep_lines else _CONTROL).sub(_escape, text)


def cut(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` characters and how many more there were (a tool call's arguments in an
    event, a tool's result)."""
    return text if len(text) <= limit else text[:limit] + f"\n... [{len(text) - limit} more characters]"
