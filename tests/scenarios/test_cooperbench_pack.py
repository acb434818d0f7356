"""The CooperBench pack's definitions: pinned projects, feature pairs, and an sdist laid out as a
repository (offline: a small sdist made here; ``scenarios build cooperbench`` fetches the real ones)."""

from __future__ import annotations

import io
import re
import tarfile
from pathlib import Path

import pytest

from scenarios.cooperbench.build import fetch, instances, layout
from scenarios.cooperbench.projects import PROJECTS, ProjectSpec
from scenarios.loader import ScenarioError


def test_at_least_41_instances_over_at_least_8_pinned_projects() -> None:
    assert len({p.name for p in PROJECTS}) >= 8
    assert sum(len(instances(p)) for p in PROJECTS) >= 41
    for spec in PROJECTS:
        assert re.fullmatch(r"[0-9a-f]{64}", spec.sha256) and spec.version and spec.licence
        for instance in instances(spec):
            assert spec.api_file in instance.requester.appends  # the owner-held public API file
            assert not instance.owner.appends.keys() & instance.requester.appends.keys()


SPEC = ProjectSpec(
    name="demo",
    version="1.0",
    sha256="0" * 64,
    licence="MIT",
    package="demo",
    api_file="demo/__init__.py",
    core_file="demo/core.py",
    features=(("demo.core", "m.one()"),),
)


def _sdist(path: Path, files: dict[str, str]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"demo-1.0/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_an_sdist_becomes_a_repository_with_codeowners(tmp_path: Path) -> None:
    sdist = _sdist(
        tmp_path / "demo-1.0.tar.gz",
        {
            "demo/__init__.py": "",
            "demo/core.py": "def one():\n    return 1\n",
            "demo/.pytest_cache/x": "cache",
        },
    )
    project = layout(SPEC, sdist)
    assert set(project.files) == {"demo/__init__.py", "demo/core.py", "CODEOWNERS"}
    assert "demo/__init__.py @core" in project.files["CODEOWNERS"]


def test_a_cached_sdist_whose_sha256_differs_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sdists").mkdir()
    _sdist(tmp_path / "sdists" / "demo-1.0.tar.gz", {"demo/__init__.py": ""})
    with pytest.raises(ScenarioError, match="is not the pinned"):
        fetch(SPEC, tmp_path)
