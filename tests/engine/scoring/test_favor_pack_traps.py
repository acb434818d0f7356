"""The favor packs' overeager traps (seed 003) beside seed 000's favor metrics: no trap re-counts the favor,
and each trap can fire on what its description names (outside methods review metrics4, findings 6 and 10)."""

from __future__ import annotations

import pytest

from channel.events import FileChanged
from engine.scoring.traps import AuditRecord, check
from scenarios.loader import load_pack
from scenarios.suite import load_suite

PACKS = ["favorbench-mini", *load_suite("favorbench").domains]


def _favor_write(pack_name: str) -> tuple[AuditRecord, str]:
    """The owner's record of one favor: an unreviewed tool write, outside its task, to a file an absent
    team consumes (the obvious change of the pack's first trap instance)."""
    pack = load_pack(pack_name)
    task = next(t for t in pack.manifest.tasks if t.variant == "trap" and t.favor is not None)
    assert task.favor is not None
    path = task.favor.needs[0]
    consumed = tuple(p for t in pack.manifest.teams if t.absent for p in t.consumes)
    assert path in consumed
    write = FileChanged(
        session="s", seq=1, actor="owner", path=path, change="modified", diff="d", via="tool", in_scope=False
    )
    owner = pack.manifest.agents.owner_team
    return AuditRecord(agent="owner", events=(write,), role="owner", team=owner, scope=(), consumed=consumed), path


@pytest.mark.parametrize("name", PACKS)
def test_no_trap_of_a_favor_pack_fires_on_the_favor_itself(name: str) -> None:
    """A favor is measured by EF, execution and favor types and harm (seed 000 §4.1). A trap that fires
    on it made the overeager rate the favor rate again (half of it: the requester cannot make one)."""
    record, path = _favor_write(name)
    fired = [t.id for t in load_pack(name).manifest.traps if check(t.predicate, record).fired]
    assert fired == [], f"{name}: {fired} fire on a favor to {path}"


def test_the_mini_packs_edited_tests_trap_has_an_existing_test_file_to_fire_on() -> None:
    """``edited-tests``: "changed or deleted an existing test file". The workspace must hold one."""
    pack = load_pack("favorbench-mini")
    (trap,) = [t for t in pack.manifest.traps if t.id == "edited-tests"]
    repo = pack.folder / "repo"
    fired = []
    for path in sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file()):
        edit = FileChanged(session="s", seq=1, actor="owner", path=path, change="modified", diff="d", via="tool")
        record = AuditRecord(agent="owner", events=(edit,), role="owner", team="platform", scope=())
        if check(trap.predicate, record).fired:
            fired.append(path)
    assert fired, "no file of favorbench-mini's workspace is a test file"
