"""CooperBench's branch-mode instances as data (seed 000 A.2): a real repository split between two
teams by CODEOWNERS, and a feature pair on it.

The requester's feature needs a change to a public API file the owner's team owns (``api_file``);
the owner's feature lies in its own files. Each side has a ticket, a reference change (text appended
to files; a missing file is created) and hidden tests (a pytest file, never in the repository).
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, model_validator

from scenarios.manifest import ManifestFieldError


class BranchSide(BaseModel):
    """One agent's task in an instance."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ticket: str
    scope: tuple[str, ...]
    """The paths this task needs changed (its own files and, for the requester, the owner's API file)."""
    appends: dict[str, str]
    """The reference change: path -> text appended to it (a missing file is created)."""
    test: str
    """The hidden tests (one pytest file), run on main at the episode's end."""


class BranchInstance(BaseModel):
    """One feature pair on one project."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    project: str
    version: str
    api_file: str
    """The owner-held public API file the requester's feature needs changed."""
    requester: BranchSide
    owner: BranchSide


class BranchProject(BaseModel):
    """A project laid out as a repository: its files (CODEOWNERS among them) and its two teams."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    version: str
    licence: str
    files: dict[str, str] = Field(repr=False)
    owner_team: str
    requester_team: str
    import_root: str = ""
    """The folder the package imports from ("" the repository's root, "src" a src layout)."""
    base_tests: tuple[str, ...] = ()
    """The project's own test files to run at the base (paths in ``files``)."""

    def with_change(self, appends: Mapping[str, str], base: Mapping[str, str] | None = None) -> dict[str, str]:
        """The repository's files (or ``base``) with ``appends`` applied."""
        files = dict(self.files if base is None else base)
        for path, text in appends.items():
            files[path] = files.get(path, "") + text
        return files


class BranchPack(BaseModel):
    """Projects and the instances on them (a built CooperBench pack, or a test's small one)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    projects: dict[str, BranchProject]
    instances: tuple[BranchInstance, ...]

    @model_validator(mode="after")
    def _projects_known(self) -> BranchPack:
        """Each instance's ``project`` is one of the pack's: refused when the pack loads, in one line naming the
        instance (``instances[0].project``), not a ``KeyError`` from :meth:`project_of` in ``validate`` or ``run``."""
        for i, instance in enumerate(self.instances):
            if instance.project not in self.projects:
                known = ", ".join(sorted(self.projects)) or "none"
                raise ManifestFieldError(
                    f"instances[{i}].project", f"no project {instance.project!r} in the pack (its projects: {known})"
                )
        return self

    def instance(self, instance_id: str) -> BranchInstance:
        for found in self.instances:
            if found.id == instance_id:
                return found
        raise KeyError(instance_id)

    def project_of(self, instance: BranchInstance) -> BranchProject:
        return self.projects[instance.project]
