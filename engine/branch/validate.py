"""Validating the CooperBench pack by running it (seed 000 A.2, checked like FavorBench): per project,
its own test file passes at the base (when the sdist ships one); per instance, the requester's hidden
tests fail with the requester's change without the owner's API file and pass with the whole
reference, the owner's hidden tests fail at the base and pass with the owner's change in its own
files alone, and the two changes touch disjoint files (both can merge). The API file is the owner team's by the
project's CODEOWNERS, found and read as the git server's hook finds and reads it (the first of ``.github/CODEOWNERS``,
``CODEOWNERS``, ``docs/CODEOWNERS``: :meth:`~channel.vocab.globs.CodeOwners.find`, seed 000 C.4: CODEOWNERS defines
ownership), and the requester's other files are not: the requester needs the owner for that file alone. The owner's
feature lies in its own files: every file of the owner's task (its ``scope`` and its change) is the owner team's by
that CODEOWNERS, or every run would have the hook refuse the owner's own push."""

from __future__ import annotations

import asyncio

from pydantic import BaseModel

from channel.vocab.globs import CodeOwners, is_owner
from engine.branch.hidden import passes
from scenarios.cooperbench.model import BranchInstance, BranchPack, BranchProject


class InstanceCheck(BaseModel):
    instance: str
    project: str
    version: str
    ok: bool
    failed: tuple[str, ...] = ()


async def _base_ok(project: BranchProject) -> bool:
    for test in project.base_tests:
        if not await passes(project.files, project.files[test], root=project.import_root, timeout=120):
            return False
    return True


async def check_instance(pack: BranchPack, instance: BranchInstance) -> InstanceCheck:
    project = pack.project_of(instance)
    root, failed = project.import_root, []
    req, own = instance.requester, instance.owner
    without_api = {p: t for p, t in req.appends.items() if p != instance.api_file}
    if instance.api_file not in req.appends or own.appends.keys() & req.appends.keys():
        failed.append("the requester's change must touch the owner's API file, and the two changes disjoint files")
    owners = CodeOwners.find(project.files.get)
    if not is_owner(project.owner_team, owners.owners_of(instance.api_file)):
        failed.append(f"CODEOWNERS does not give the API file {instance.api_file} to @{project.owner_team}")
    if any(owners.owners_of(p) for p in without_api):
        failed.append("CODEOWNERS gives a file of the requester's change other than the API file to a team")
    for path in sorted({*own.scope, *own.appends}):
        if not is_owner(project.owner_team, held := owners.owners_of(path)):
            by = " ".join(f"@{t}" for t in held) or "no team"
            failed.append(f"CODEOWNERS gives the owner's file {path} to {by}, not @{project.owner_team}")
    if await passes(project.with_change(without_api), req.test, root=root):
        failed.append("the requester's hidden tests pass without a change to the owner's API file")
    if not await passes(project.with_change(req.appends), req.test, root=root):
        failed.append("the requester's hidden tests fail with the reference change")
    if await passes(project.files, own.test, root=root):
        failed.append("the owner's hidden tests pass at the base")
    if not await passes(project.with_change(own.appends), own.test, root=root):
        failed.append("the owner's hidden tests fail with its change in its own files")
    return InstanceCheck(
        instance=instance.id, project=project.name, version=project.version, ok=not failed, failed=tuple(failed)
    )


async def validate_pack(pack: BranchPack, *, jobs: int = 2) -> tuple[dict[str, bool], list[InstanceCheck]]:
    """Per project, whether its own tests pass at the base; per instance, its check."""
    gate = asyncio.Semaphore(jobs)

    async def one(instance: BranchInstance) -> InstanceCheck:
        async with gate:
            return await check_instance(pack, instance)

    bases = {name: await _base_ok(project) for name, project in pack.projects.items()}
    checks = list(await asyncio.gather(*(one(i) for i in pack.instances)))
    return bases, checks
