"""Suites: several packs run as one scenario (FavorBench's ten monorepos, seed 000 §4.2).

A suite is a folder with ``suite.toml`` (its name, description, the domain folders in order, the task
families) and one complete pack per domain below it (``<suite>/<domain>/scenario.toml`` ...), each in
the ordinary pack format and loadable on its own as ``<suite>/<domain>``. A plain pack is a suite of
one, so the engine handles every scenario as a suite: a trajectory runs inside one of its packs.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from channel.vocab import Variant
from scenarios.loader import (
    MANIFEST_NAME,
    PACKS_DIR,
    SUITE_NAME,
    Pack,
    ScenarioError,
    _builtin_dirs,
    _builtin_path,
    _read_toml,
    _validation_message,
    load_pack,
)

VARIANTS: tuple[Variant, ...] = ("trap", "twin", "safe", "warmup")


class Excluded(BaseModel):
    """An instance the generator made that failed validation, left out of the suite."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    reason: str


class SuiteManifest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str = ""
    schema_version: Literal[1] = 1
    seed: int | None = None
    """The generator's seed, when the suite was generated."""
    domains: tuple[str, ...] = Field(min_length=1)
    """The domain folders (each a pack), in order."""
    families: tuple[str, ...] = ()
    excluded: tuple[Excluded, ...] = ()
    """Generated instances that failed validation, with the reason (they are not in the packs)."""


@dataclass(frozen=True, eq=False)
class Suite:
    """A loaded scenario: one or more packs (domains)."""

    name: str
    description: str
    packs: tuple[Pack, ...]
    families: tuple[str, ...]
    folder: Path

    @property
    def domains(self) -> tuple[str, ...]:
        return tuple(pack.name for pack in self.packs)

    def counts(self) -> dict[str, int]:
        """Tasks per variant over every pack (trap, twin, safe, warmup)."""
        seen = Counter(task.variant for pack in self.packs for task in pack.manifest.tasks)
        return {variant: seen.get(variant, 0) for variant in VARIANTS}

    @classmethod
    def of(cls, pack: Pack) -> Suite:
        """A single pack as a suite of one."""
        families = tuple(dict.fromkeys(t.family for t in pack.manifest.tasks if t.family))
        return cls(pack.name, pack.manifest.description, (pack,), families, pack.folder)

    def pack(self, name: str) -> Pack:
        for pack in self.packs:
            if pack.name == name:
                return pack
        raise KeyError(name)


def _suite_path(name_or_path: str | Path) -> Path | None:
    candidate = Path(name_or_path).expanduser()
    if candidate.is_file() and candidate.name == SUITE_NAME:
        return candidate.resolve()
    if candidate.is_dir() and (candidate / SUITE_NAME).is_file() and not (candidate / MANIFEST_NAME).is_file():
        return (candidate / SUITE_NAME).resolve()
    builtin = _builtin_path(str(name_or_path))
    if builtin is not None and (builtin / SUITE_NAME).is_file() and not candidate.is_dir():
        return (builtin / SUITE_NAME).resolve()
    return None


def _suite_manifest(path: Path) -> SuiteManifest:
    try:
        return SuiteManifest.model_validate(_read_toml(path))
    except ValidationError as exc:
        raise ScenarioError(_validation_message(path, exc)) from None


def suite_domains(folder: Path) -> tuple[str, ...] | None:
    """The names a suite folder's packs are run by (``<suite>/<domain>``), from its ``suite.toml`` alone (no pack
    read); None when the folder is not a suite."""
    path = folder / SUITE_NAME
    if not path.is_file() or (folder / MANIFEST_NAME).is_file():
        return None
    return tuple(f"{folder.name}/{domain}" for domain in _suite_manifest(path).domains)


def load_suite(name_or_path: str | Path, *, lazy: bool = False) -> Suite:
    """A suite folder (or built-in suite name) with all its packs, or any single pack as a suite of one.
    ``lazy``: each pack's manifest only (:func:`scenarios.loader.load_pack`), for ``scenarios list``.
    A whole suite is read again only when a byte of its folder changed (:func:`_folder_digest`): a run asks for
    its suite several times before its first episode (its kind, its norms, the contracts' check), ~0.5 s each."""
    path = _suite_path(name_or_path)
    if path is None:
        return Suite.of(load_pack(name_or_path, lazy=lazy))
    if lazy:
        return _read_suite(path, lazy=True)
    digest = _folder_digest(path.parent)
    kept = _LOADED.get(path)
    if kept is not None and kept[0] == digest:
        return kept[1]
    suite = _read_suite(path, lazy=False)
    _LOADED[path] = (digest, suite)
    return suite


_LOADED: dict[Path, tuple[bytes, Suite]] = {}
"""Whole suites loaded in this process, by their ``suite.toml``, with the digest of their folder then."""


def _folder_digest(folder: Path) -> bytes:
    """A digest of every file's path and bytes under ``folder`` (~20 ms for FavorBench's 1,211 files, which a
    suite's load reads anyway): a content digest, not times, which a rewrite within a clock tick keeps. A link is
    taken by its target's name, never followed (a pack's links lead inside it, or the load refuses them), and
    anything but a file or a link by its kind: a FIFO is never opened (its open would wait for a writer)."""
    digest = hashlib.blake2b(digest_size=32)
    for top, folders, files in os.walk(folder):
        folders.sort()
        for name in sorted(files):
            where = os.path.join(top, name)
            try:
                st = os.lstat(where)
                if stat.S_ISLNK(st.st_mode):
                    data = b"\0link " + os.fsencode(os.readlink(where))
                elif stat.S_ISREG(st.st_mode):
                    with open(where, "rb") as f:
                        data = f.read()
                else:
                    data = b"\0kind %o" % stat.S_IFMT(st.st_mode)
            except OSError:
                data = b"\0unreadable"
            digest.update(b"%d:%s\0%d:" % (len(where), os.fsencode(where), len(data)))
            digest.update(data)
        digest.update(b"%d folders" % len(folders))
    return digest.digest()


def _read_suite(path: Path, *, lazy: bool) -> Suite:
    manifest = _suite_manifest(path)
    packs: list[Pack] = []
    owners: dict[str, str] = {}
    for i, domain in enumerate(manifest.domains):
        folder = path.parent / domain
        if "/" in domain or domain in ("", ".", "..") or not (folder / MANIFEST_NAME).is_file():
            raise ScenarioError(f"{path}: domains[{i}]: no pack {domain!r} ({folder / MANIFEST_NAME} is missing)")
        pack = load_pack(folder, lazy=lazy)
        for task in pack.manifest.tasks:
            if task.id in owners:
                raise ScenarioError(f"{pack.manifest_path}: task id {task.id!r} is also in {owners[task.id]}")
            owners[task.id] = pack.name
        packs.append(pack)
    return Suite(manifest.name, manifest.description, tuple(packs), manifest.families, path.parent)


def list_packs() -> list[tuple[str, str]]:
    """(name, description) of every built-in pack or suite, for ``scopewatch scenarios list``."""
    return [(name, load_suite(folder, lazy=True).description) for name, folder in _builtin_dirs()]


__all__ = ["PACKS_DIR", "Suite", "SuiteManifest", "list_packs", "load_suite", "suite_domains"]
