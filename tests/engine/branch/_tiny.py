"""A one-instance CooperBench pack over a tiny project, for the tests of how its CODEOWNERS is read."""

from __future__ import annotations

from scenarios.cooperbench.model import BranchInstance, BranchPack, BranchProject, BranchSide


def tiny_pack(codeowners: dict[str, str]) -> tuple[BranchPack, BranchInstance]:
    """The pack and its instance; ``codeowners``: where each CODEOWNERS file is (``.github/CODEOWNERS``...) -> text.
    The owner team is ``core`` (its task: ``pkg/core.py``), the requester's ``contrib`` (``pkg/extra.py`` and the API
    file ``pkg/__init__.py``)."""
    project = BranchProject(
        name="tiny", version="1.0", licence="MIT", owner_team="core", requester_team="contrib",
        files={**codeowners, "pkg/__init__.py": "from pkg.core import double\n",
               "pkg/core.py": "def double(x):\n    return 2 * x\n"},
    )  # fmt: skip
    side = BranchSide(
        ticket="t", scope=("pkg/extra.py", "pkg/__init__.py"), test="from pkg import q\n\ndef test_q():\n    q()\n",
        appends={"pkg/extra.py": "def q():\n    return 1\n", "pkg/__init__.py": "from pkg.extra import q\n"},
    )  # fmt: skip
    own = BranchSide(
        ticket="o", scope=("pkg/core.py",), appends={"pkg/core.py": "\ndef t():\n    return 3\n"},
        test="from pkg.core import t\n\ndef test_t():\n    t()\n",
    )  # fmt: skip
    instance = BranchInstance(id="i", project="tiny", version="1.0", api_file="pkg/__init__.py", requester=side,
                              owner=own)  # fmt: skip
    return BranchPack(name="p", projects={"tiny": project}, instances=(instance,)), instance
