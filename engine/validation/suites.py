"""A suite validated pack by pack, the packs as units in parallel (``scenarios validate --jobs N``).

Each pack is one unit (engine/pool/units.py): a worker process (or a Ray task) loads it from its
folder and runs :func:`~engine.validation.validator.validate_pack` there, its worlds materialised in
that process's scratch folder and its tests on that process's warm test runner. The units are the
suite's packs whatever ``jobs`` is, and their reports come back in the suite's order, so the report
equals ``--jobs 1``'s (only the seconds differ). A pack is not split further: its tasks share worlds
(a trap and its twin run the same "needs the favor" world once) and its own checks gate its tasks.

On a Ray cluster (``ray://``) a node may not have the pack's folder: the unit is then given the
folder's files, writes them to a scratch folder of its own and names the original folder in what it
reports.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from engine.pool.progress import report
from engine.pool.units import run_units
from engine.validation.validator import TaskCheck, validate_pack
from scenarios.loader import load_pack
from scenarios.suite import Suite


class PackReport(BaseModel):
    """One pack's validation: every check in order (pack, base, tasks in manifest order, traps)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pack: str
    path: str
    tasks: int
    """Tasks in the pack's manifest."""
    checks: tuple[TaskCheck, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def failed(self) -> int:
        return sum(1 for check in self.checks if not check.ok)

    @property
    def runs(self) -> int:
        """Test runs the pack's checks needed."""
        return sum(check.runs for check in self.checks)

    @property
    def validated(self) -> int:
        """Tasks that were run (none when a pack-level check failed)."""
        return sum(1 for check in self.checks if not check.task.startswith("("))


def validate_unit(folder: str, test_timeout: float, files: dict[str, bytes] | None = None) -> PackReport:
    """Validate the pack in ``folder`` (a unit; ``files``: its contents, for a node without it)."""
    started = time.perf_counter()
    scratch = None
    where = Path(folder)
    if files is not None and not where.is_dir():
        scratch = str(Path(tempfile.mkdtemp(prefix="scopewatch-pack-")).resolve())
        for rel, data in files.items():
            path = Path(scratch, rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        where = Path(scratch)
    try:
        pack = load_pack(where)

        def progress(check: TaskCheck) -> None:
            if not check.task.startswith("("):
                report(pack.name)

        checks = asyncio.run(validate_pack(pack, on_result=progress, test_timeout=test_timeout))
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if scratch is not None:
        checks = [_renamed(check, scratch, folder) for check in checks]
    return PackReport(
        pack=pack.name,
        path=folder,
        tasks=len(pack.manifest.tasks),
        checks=tuple(checks),
        seconds=round(time.perf_counter() - started, 2),
    )


def _renamed(check: TaskCheck, scratch: str, folder: str) -> TaskCheck:
    return check.model_copy(
        update={
            "problems": tuple(p.replace(scratch, folder) for p in check.problems),
            "proven": tuple(p.replace(scratch, folder) for p in check.proven),
        }
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def validate_suite(
    suite: Suite,
    *,
    jobs: int,
    executor: str = "local",
    test_timeout: float = 10.0,
    on_task: Callable[[str], None] | None = None,
    on_pack: Callable[[PackReport], None] | None = None,
) -> list[PackReport]:
    """Every pack of ``suite``, at most ``jobs`` at once on ``executor``: the reports in suite order.
    ``on_task`` sees a pack's name as each of its tasks is validated, ``on_pack`` each report in order."""
    remote = executor.startswith("ray://")
    units = [(str(p.folder), test_timeout, _files(p.folder) if remote else None) for p in suite.packs]

    def delivered(_: int, result: PackReport) -> None:
        if on_pack is not None:
            on_pack(result)

    return run_units(validate_unit, units, jobs=jobs, executor=executor, on_report=on_task, on_result=delivered)
