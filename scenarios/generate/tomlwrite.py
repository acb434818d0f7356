"""A small TOML writer for the generator's own data (the standard library only reads TOML).

It writes what manifests hold: strings, whole numbers, booleans, lists of those, tables and arrays of
tables. Code goes into multi-line literal strings (``'''...'''``) so a person can read the generated
manifest; a string a literal cannot hold exactly falls back to an escaped basic string. :func:`dumps`
checks its own output by reading it back.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def _string(value: str) -> str:
    if "\n" in value:
        literal_ok = (
            "'''" not in value
            and not value.startswith("\n")
            and not value.endswith("'")
            and not any(ord(c) < 32 and c not in "\n\t" for c in value)
            and "\r" not in value
        )
        if literal_ok:
            return f"'''{value}'''"
    return json.dumps(value, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, Sequence):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as a TOML value")


def _is_table_array(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str) and bool(value) and all(
        isinstance(v, Mapping) for v in value
    )


def _table(lines: list[str], prefix: str, table: Mapping[str, Any]) -> None:
    nested: list[tuple[str, Any]] = []
    for key, value in table.items():
        if isinstance(value, Mapping) or _is_table_array(value):
            nested.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in nested:
        name = f"{prefix}.{_key(key)}" if prefix else _key(key)
        if isinstance(value, Mapping):
            lines.append("")
            lines.append(f"[{name}]")
            _table(lines, name, value)
        else:
            for item in value:
                lines.append("")
                lines.append(f"[[{name}]]")
                _table(lines, name, item)


def dumps(data: Mapping[str, Any], header: str = "") -> str:
    """``data`` as TOML text (``header``: comment lines put first); raises ValueError if the text does
    not read back as ``data``."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    _table(lines, "", data)
    text = "\n".join(lines).strip("\n") + "\n"
    if tomllib.loads(text) != _plain(data):
        raise ValueError("TOML writer: the text does not read back as the data")
    return text


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [_plain(v) for v in value]
    return value
