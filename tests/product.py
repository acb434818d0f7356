"""The product's modules as files, for the tests that read the source (import circles, type names,
package maps)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("tui", "engine", "sandbox", "scenarios", "channel", "themes")
"""The packages that ship (pyproject's wheel packages)."""


def module_files(packages: Iterable[str] = PRODUCT) -> dict[str, Path]:
    """Every module of ``packages`` by dotted name, a package by its ``__init__.py`` (scenario packs
    are data, not the product)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            if "packs" in rel.parts:
                continue
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            found[".".join(parts)] = path
    return found
