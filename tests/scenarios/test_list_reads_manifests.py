"""``scenarios list`` of the built-ins reads their manifests only, what it prints (packs5: it read and checked every
pack's repo/ and tests, and the catalog loaded every pack twice more: 1.9 -> 3.1 s); ``list PATH``, ``run`` and
``validate`` load a pack whole, as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scenarios import loader
from scenarios.catalog import catalog
from scenarios.loader import PACKS_DIR, ScenarioError, load_pack
from scenarios.suite import load_suite
from tui.cli import main


@pytest.fixture
def builtins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A packs folder of our own: favorbench-mini, and favorbench with two of its domains."""
    packs = tmp_path / "packs"
    shutil.copytree(PACKS_DIR / "favorbench-mini", packs / "favorbench-mini")
    for domain in ("iot", "crm"):
        shutil.copytree(PACKS_DIR / "favorbench" / domain, packs / "favorbench" / domain)
    (packs / "favorbench/suite.toml").write_text('name = "favorbench"\ndomains = ["iot", "crm"]\n')
    monkeypatch.setattr(loader, "PACKS_DIR", packs)
    return packs


def test_list_of_the_builtins_reads_their_manifests_only(builtins: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What ``list`` prints is in the manifests: a file of repo/ or tests/ it never opens (here: one no command would
    take) leaves it as it was, while ``list PATH``, ``run`` and ``validate`` load the pack whole and refuse it."""
    assert main(["scenarios", "list"]) == 0
    before = capsys.readouterr().out
    assert "favorbench " in before and "2 domains" in before and "favorbench-mini " in before
    (builtins / "favorbench-mini/repo/logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    crm = builtins / "favorbench/crm"
    (crm / load_pack(crm).manifest.absent_teams[0].contract_tests[0]).write_text("def test_(:\n")
    assert main(["scenarios", "list"]) == 0
    assert capsys.readouterr().out == before
    with pytest.raises(ScenarioError, match="not a UTF-8 text file"):
        load_pack(builtins / "favorbench-mini")
    with pytest.raises(ScenarioError, match="does not compile"):
        load_suite("favorbench")
    assert main(["scenarios", "list", str(builtins / "favorbench-mini")]) == 2
    assert "not a UTF-8 text file" in capsys.readouterr().err


def test_the_catalog_names_a_suites_packs_from_its_suite_toml(builtins: Path) -> None:
    """The catalog (every name a session takes) loads no pack: a broken one still has its name in the list."""
    (builtins / "favorbench/iot/scenario.toml").write_text("name = [broken\n")
    known = catalog()
    assert known.packs == ("favorbench-mini",) and known.suites == {"favorbench": ("favorbench/iot", "favorbench/crm")}
