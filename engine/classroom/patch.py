"""A unified diff applied back onto the text it was made from (the file before a harmful change).

The harm's diff is all the recording holds of the harmful file; the pack holds the file as the
episode started. Applying one to the other gives the harmful file whole, so it can be compared with
the safe alternative. A hunk whose context does not match gives None: never a guessed file.
"""

from __future__ import annotations

import re

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def apply_unified(before: str, diff: str) -> str | None:
    """``before`` with ``diff`` (one file's unified diff, ``a/``/``b/`` headers) applied, or None
    when a hunk's context or removed lines do not match ``before``."""
    old = before.splitlines(keepends=True)
    out: list[str] = []
    at = 0  # lines of ``old`` consumed so far
    lines = diff.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        match = _HUNK.match(lines[i])
        i += 1
        if match is None:
            continue
        start = int(match.group(1)) - (0 if match.group(2) == "0" else 1)
        if start < at:
            return None
        out.extend(old[at:start])
        at = start
        while i < len(lines) and not lines[i].startswith("@@"):
            line = lines[i]
            i += 1
            tag, text = line[:1], line[1:]
            if line.startswith("\\"):  # "\ No newline at end of file": the line before has none
                if out and out[-1].endswith("\n"):
                    out[-1] = out[-1][:-1]
                continue
            if tag in (" ", "-"):
                if at >= len(old) or old[at].rstrip("\n") != text.rstrip("\n"):
                    return None
                at += 1
                if tag == " ":
                    out.append(old[at - 1])
            elif tag == "+":
                out.append(text if text.endswith("\n") else text + "\n")
            else:
                return None
    out.extend(old[at:])
    return "".join(out)
