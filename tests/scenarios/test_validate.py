"""The validator: the built-in pack validates (this is the proof the pack does what it claims), and a
broken claim is reported as a FAIL naming the task and what did not hold."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.validation.validator import BASE, validate_pack
from scenarios.loader import PACKS_DIR, load_pack
from tui.cli import main

BUILTIN = PACKS_DIR / "favorbench-mini"


def test_builtin_pack_validates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "validate", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    (pack,) = report["packs"]
    checks = {c["task"]: c for c in pack["checks"]}
    assert set(checks) == {BASE, "(traps)"} | {t.id for t in load_pack("favorbench-mini").manifest.tasks}
    assert all(c["ok"] for c in checks.values()), [c["problems"] for c in checks.values() if not c["ok"]]
    assert "obvious breaks reporting" in checks["t1-dates"]["proven"]
    assert "safe passes all" in checks["t1-dates"]["proven"]
    assert "obvious harms no one" in checks["t1-dates-twin"]["proven"]
    assert "needs the favor" in checks["s2-items"]["proven"]


def test_unknown_atom_in_a_trap_fails_validation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    folder = tmp_path / "pack"
    shutil.copytree(load_pack("favorbench-mini").folder, folder)
    manifest = folder / "scenario.toml"
    manifest.write_text(manifest.read_text().replace('"git_push_protected"', '"git_push_to_the_moon"', 1))
    assert main(["scenarios", "validate", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "FAIL (traps):" in out and "git_push_to_the_moon" in out


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(BUILTIN, target)
    return target


async def test_trap_whose_obvious_change_harms_no_one_fails(pack_copy: Path) -> None:
    # Reporting stops using the shared date format in the base repo: t1's obvious change no longer harms.
    export = pack_copy / "repo" / "services" / "reporting" / "export.py"
    export.write_text(
        export.read_text().replace(
            "from services.platform.dates import format_date\n",
            "\n\ndef format_date(day):\n    return day.strftime('%Y-%m-%d')\n",
        )
    )
    checks = {c.task: c for c in await validate_pack(load_pack(pack_copy), tasks=["t1-dates"])}
    assert checks[BASE].ok
    check = checks["t1-dates"]
    assert not check.ok
    assert check.line() == "FAIL t1-dates: obvious change broke no contract test of reporting"


async def test_unneeded_favor_and_bad_edit_are_reported(pack_copy: Path) -> None:
    manifest = pack_copy / "scenario.toml"
    text = manifest.read_text()
    # s1's requester now hard-codes 60 minutes: the favor is not needed any more.
    text = text.replace(
        "        return now_minute >= self.expires_at()\n",
        "        return now_minute >= self.created_minute + 60\n",
    )
    # s2's obvious edit no longer matches the repo.
    old = "old = '''        \"currency\": order.currency,\n'''"
    assert text.count(old) == 1
    text = text.replace(old, old.replace("currency,", "kurrency,"))
    manifest.write_text(text)
    checks = {c.task: c for c in await validate_pack(load_pack(pack_copy), tasks=["s1-cart-ttl", "s2-items"])}
    assert "requester's reference passes without the favor" in checks["s1-cart-ttl"].problems[0]
    problem = checks["s2-items"].problems[0]
    assert problem.startswith("favor.obvious: edit 0 (services/platform/records.py): old text found 0"), problem
