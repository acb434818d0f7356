"""Every scenario name a session takes, each found where its kind lives (one place to ask "what is NAME?"):

- a built-in favor pack or suite: a folder under ``scenarios/packs/`` (:func:`scenarios.loader.builtin_packs`),
  and each pack of a suite as ``<suite>/<domain>`` (seed 000 §4.2);
- the CooperBench branch pack, :data:`scenarios.cooperbench.build.NAME` (seed 000 A.2; runnable once
  ``scopewatch scenarios build cooperbench`` has built it);
- a shipped audit scenario of seed 003 (``scenarios/overeager/benchmark.json``; ``scopewatch overeager list``);
- or the path of a pack or suite folder.

A name that is none of these is answered by :func:`unknown_scenario`, whose one line lists them all.
:func:`starting_norms` says which norms a scenario's sessions start from (what "default" means for it).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from channel.vocab.norms import Norms, pack_norms
from scenarios.cooperbench.build import NAME as COOPERBENCH
from scenarios.cooperbench.build import pack_file
from scenarios.loader import MANIFEST_NAME, SUITE_NAME, ScenarioError, UnknownScenario, _builtin_dirs
from scenarios.overeager.benchmark import benchmark_ids, is_audit_scenario
from scenarios.suite import Suite, load_suite, suite_domains

log = logging.getLogger(__name__)

ScenarioKind = Literal["favor", "branch", "audit"]
"""What a session runs for a scenario: favor episodes (packs, suites), branch episodes, audit episodes."""


@dataclass(frozen=True)
class Catalog:
    """The scenario names a session takes, by kind."""

    packs: tuple[str, ...]
    """The built-in favor packs."""
    suites: dict[str, tuple[str, ...]]
    """The built-in suites, each with its packs' names (``favorbench/iot``, ...)."""
    branch: str
    branch_built: bool
    audit: tuple[str, ...]
    """The shipped audit scenario ids."""


def catalog() -> Catalog:
    """Every scenario name, read from the packs folder (its folders' names, a suite's ``suite.toml``: no pack is
    loaded), the CooperBench build and the audit benchmark."""
    folders = _builtin_dirs()
    domains = {name: suite_domains(folder) for name, folder in folders}
    suites = {name: names for name, names in domains.items() if names is not None}
    return Catalog(
        packs=tuple(name for name, _ in folders if name not in suites),
        suites=suites,
        branch=COOPERBENCH,
        branch_built=pack_file().exists(),
        audit=tuple(benchmark_ids()),
    )


def scenario_kind(name: str) -> ScenarioKind:
    """The episode kind a session of ``name`` runs (favor for any pack or suite, by name or folder). The one rule of
    every command (``run``, ``list``, ``validate``): a name is a folder before it is a built-in, so a folder in the
    working directory named like the branch pack or an audit id is a pack, and the log says so once (as the loader
    says it of a folder named like a built-in pack)."""
    builtin = "audit scenario" if is_audit_scenario(name) else "branch pack" if name == COOPERBENCH else None
    if Path(name).expanduser().is_dir():
        explicit = PurePosixPath(name).as_posix() != name or Path(name).is_absolute()
        if builtin is not None and not explicit and name not in _NOTED:
            _NOTED.add(name)
            log.warning(
                "scopewatch: %r is the folder %s here, taken instead of the built-in %s of that name "
                "(rename the folder, or run from another one, for the built-in)",
                name,
                Path(name).resolve(),
                builtin,
            )
        return "favor"
    if builtin == "audit scenario":
        return "audit"
    if builtin == "branch pack":
        return "branch"
    return "favor"


_NOTED: set[str] = set()


def session_suite(name: str) -> Suite:
    """:func:`scenarios.suite.load_suite` for a session: an unknown name is answered by :func:`unknown_scenario`."""
    try:
        return load_suite(name)
    except UnknownScenario as exc:
        raise unknown_scenario(exc.name) from None


def unknown_scenario(name: str) -> ScenarioError:
    """The one-line error for a scenario name that is none of the catalog's, listing every name it has."""
    known = catalog()
    parts = []
    if known.packs:
        parts.append(f"a built-in pack ({', '.join(known.packs)})")
    for suite, domains in known.suites.items():
        shown = ", ".join(d.removeprefix(f"{suite}/") for d in domains)
        parts.append(f"the suite {suite} or one of its packs {suite}/<domain> ({shown})")
    build = "" if known.branch_built else f" (not built yet: scopewatch scenarios build {known.branch})"
    parts.append(f"the branch pack {known.branch}{build}")
    parts.append(f"one of the {len(known.audit)} audit scenarios (scopewatch overeager list)")
    parts.append(f"or a folder with {MANIFEST_NAME} or {SUITE_NAME}")
    return ScenarioError(f"scenario {name!r} is not known; a session takes " + "; ".join(parts))


def starting_norms(scenario: str) -> Norms:
    """The norms a scenario's sessions start from: scopewatch's defaults under the pack's ``[norms]`` (a
    suite's: its first pack's; the generator gives all of its packs the same). A session's "default"
    is these, not the global ``Norms()``: CooperBench starts with interaction history on (seed 000
    B.2, ``memory=false`` ablates it), an audit scenario sets its own consent."""
    kind = scenario_kind(scenario)
    if kind == "audit":  # an audit scenario sets its own consent (engine/overeager/episodes.py)
        return Norms()
    if kind == "branch":  # branch episodes: interaction history on (seed 000 B.2; memory=false ablates)
        return Norms(memory="full")
    pack = session_suite(scenario).packs[0]
    return pack_norms(pack.manifest.norms, where=str(pack.manifest_path))
