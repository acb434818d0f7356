"""Load scenario packs: a built-in name or a folder holding ``scenario.toml``.

Loading parses the TOML, fills in twins from their traps (below), validates the manifest and checks
that every file it names exists. Any problem is a :class:`ScenarioError` whose one-line message names
the file and the field (``.../scenario.toml: tasks[3].favor.safe: ...``) or the line
(``.../scenario.toml:12: invalid TOML (...)``).

Twins: a task with ``variant = "twin"`` may leave out ``requester``, ``owner`` and ``favor``; each one
left out is copied from the trap named by ``twin_of`` (``favor`` without ``harms``: a twin harms no
one). So a twin is written as the trap's id, a title and the ``setup`` edits that remove the absent
dependency.
"""

from __future__ import annotations

import difflib
import logging
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any, get_args

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from channel.errors import ScopewatchError
from channel.vocab.edit import EditError, apply_edits
from scenarios.identity import content_hash
from scenarios.manifest import Manifest, ManifestFieldError, Task

log = logging.getLogger(__name__)
PACKS_DIR = Path(__file__).resolve().parent / "packs"
MANIFEST_NAME = "scenario.toml"
SUITE_NAME = "suite.toml"
_INHERITED = ("requester", "owner", "favor")


class ScenarioError(ScopewatchError):
    """A scenario pack is missing, malformed, or an edit does not apply."""


class UnknownScenario(ScenarioError):
    """``name`` is neither a built-in pack or suite nor a path that exists. The message lists the built-in
    packs; :func:`scenarios.catalog.resolve` answers it with every name a session takes."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


@dataclass(frozen=True, eq=False)
class Pack:
    """A loaded scenario pack: its validated manifest and the folder its files live in."""

    manifest: Manifest
    folder: Path
    manifest_path: Path = field(repr=False)

    @property
    def name(self) -> str:
        return self.manifest.name

    @cached_property
    def _repo(self) -> dict[str, str]:
        root = self.folder / "repo"
        files: dict[str, str] = {}
        for path in sorted(root.rglob("*")):
            if "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            vcs = next((part for part in path.relative_to(root).parts if part in VCS_FOLDERS), None)
            if vcs is not None:
                _note_vcs(root / vcs)
                continue
            if path.is_symlink() and not path.is_file():
                self._inside(path, "a symbolic link")
                raise ScenarioError(f"{path}: a symbolic link to a folder or to nothing; link files only")
            if not path.is_file():
                continue
            self._inside(path, "a file")
            rel = path.relative_to(root).as_posix()
            try:
                files[rel] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                raise ScenarioError(
                    f"{path}: not a UTF-8 text file ({exc.reason}): a pack's repo/ holds text files only (an agent's "
                    "tools read and edit text); leave binary files out of it"
                ) from None
        return files

    def _inside(self, path: Path, what: str) -> None:
        """``path``, links followed, is in the pack's folder (a pack ships no file of the machine it runs on: a link
        in someone else's pack to ``/etc/shadow`` or ``~/.ssh`` would put that file in the agents' workspace)."""
        target = path.resolve()
        if not target.is_relative_to(self.folder.resolve()):
            raise ScenarioError(f"{path}: {what} leading outside the pack (to {target})")

    def repo_files(self) -> dict[str, str]:
        """The base workspace: workspace-relative posix path -> content (a fresh copy)."""
        return dict(self._repo)

    def test_sources(self, paths: Iterable[str]) -> dict[str, str]:
        """Test files by name for :func:`sandbox.testing.testrun.run_tests`: the name is the path relative to the
        pack's ``tests/`` folder (``contract/reporting/test_reporting.py``), so test ids read
        ``contract/reporting/test_reporting.py::test_x``."""
        return {runner_name(rel): self._text(rel, "test file") for rel in paths}

    def _text(self, rel: str, what: str) -> str:
        path = self.folder / rel
        self._inside(path, f"a {what}")
        try:
            return path.read_text(encoding="utf-8-sig")  # a BOM, as Python and pytest read it: nothing
        except OSError as exc:
            raise ScenarioError(f"{path}: cannot read {what} ({exc.strerror or exc})") from None
        except UnicodeDecodeError as exc:
            raise ScenarioError(f"{path}: {what} is not UTF-8 ({exc.reason})") from None

    @cached_property
    def pack_hash(self) -> str:
        """The sha256 of what defines the pack (:mod:`scenarios.identity`): ``scenario.toml``, the ``repo/`` files
        and the test files the manifest names; computed once, when a session or the validator loads the pack."""
        files = {f"repo/{rel}": text for rel, text in self._repo.items()}
        tests = {PurePosixPath(rel).as_posix() for _, rel in _test_files(self.manifest)}  # a file named twice: once
        files |= {rel: self._text(rel, "test file") for rel in tests}
        files[MANIFEST_NAME] = self._text(self.manifest_path.name, "manifest")
        return content_hash(files)

    @property
    def ownership(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The ownership rules as (team, patterns) pairs, in manifest order."""
        return tuple((team.name, team.owns) for team in self.manifest.teams)

    def contract_tests(self) -> dict[str, dict[str, str]]:
        """Each absent team's contract test sources, by team name."""
        return {team.name: self.test_sources(team.contract_tests) for team in self.manifest.absent_teams}

    def task(self, task_or_id: Task | str) -> Task:
        return self.manifest.task(task_or_id) if isinstance(task_or_id, str) else task_or_id

    def workspace_files(self, task: Task | str) -> dict[str, str]:
        """The workspace an episode of ``task`` starts from: the base repo plus the task's setup edits."""
        resolved = self.task(task)
        try:
            return apply_edits(self.repo_files(), resolved.setup)
        except EditError as exc:
            raise ScenarioError(f"{self.manifest_path}: task {resolved.id}: setup: {exc}") from None


def runner_name(rel: str) -> str:
    """A pack-relative test path as the test runner names it: without the leading ``tests/``."""
    parts = PurePosixPath(rel).parts
    return PurePosixPath(*parts[1:]).as_posix() if len(parts) > 1 and parts[0] == "tests" else rel


# --- loading -------------------------------------------------------------------------------------


def _manifest_path(name_or_path: str | Path) -> Path:
    candidate = Path(name_or_path).expanduser()
    if candidate.is_file() and candidate.name == MANIFEST_NAME:
        return candidate.resolve()
    if candidate.is_dir():
        path = candidate / MANIFEST_NAME
        if not path.is_file():
            raise ScenarioError(f"{candidate}: not a scenario pack (no {MANIFEST_NAME} in it)")
        _note_shadowing(str(name_or_path), path.resolve())
        return path.resolve()
    text = str(name_or_path)
    builtin = _builtin_path(text)
    if builtin is not None and (builtin / MANIFEST_NAME).is_file():
        return (builtin / MANIFEST_NAME).resolve()
    if builtin is not None and (builtin / SUITE_NAME).is_file():
        raise ScenarioError(
            f"scenario {text!r} is a suite of packs; name one of them ({text}/<domain>) or run the suite"
        )
    builtins = ", ".join(sorted(name for name, _ in _builtin_dirs())) or "none"
    raise UnknownScenario(
        text, f"scenario {text!r}: neither a built-in pack or suite ({builtins}) nor a folder with {MANIFEST_NAME}"
    )


_NOTED: set[tuple[str, Path]] = set()


def _note_shadowing(text: str, path: Path) -> None:
    """A folder in the working directory named like a built-in pack is taken for that name (the README says to copy
    ``favorbench-mini`` and change it); said once per process, on the log (stderr), since from any other folder
    the same name runs the built-in. Not said for a name written as a path (``./favorbench-mini``)."""
    builtin = _builtin_path(text)
    explicit = PurePosixPath(text).as_posix() != text or Path(text).is_absolute()  # ./favorbench-mini/ is a path
    if builtin is None or explicit or path.parent == builtin.resolve() or (text, path) in _NOTED:
        return
    _NOTED.add((text, path))
    log.warning(
        "scopewatch: %r is the folder %s here, taken instead of the built-in pack of that name "
        "(rename the folder, or run from another one, for the built-in)",
        text,
        path.parent,
    )


VCS_FOLDERS = frozenset({".git", ".hg", ".svn"})
"""Version-control folders in a pack's ``repo/`` (a project's checkout copied in): its history, not its files, so
skipped (as the CooperBench builder drops ``.git``); the agents' workspace gets a repository of its own."""


def _note_vcs(folder: Path) -> None:
    if ("", folder) in _NOTED:
        return
    _NOTED.add(("", folder))
    log.warning("scopewatch: %s skipped: a pack's repo/ is the workspace's files, not their history", folder)


def _builtin_path(text: str) -> Path | None:
    """The folder of a built-in pack or suite named ``text`` (``favorbench-mini``, ``favorbench``,
    ``favorbench/ecommerce``), if the name is one."""
    parts = PurePosixPath(text).parts
    if not parts or len(parts) > 2 or any(p in ("", ".", "..") or p.startswith("/") for p in parts):
        return None
    folder = PACKS_DIR.joinpath(*parts)
    return folder if folder.is_dir() else None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        # utf-8-sig: a byte-order mark (Windows editors save one) is read as nothing, not as an invalid statement
        return tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if match:
            reason = message[: match.start()]
            raise ScenarioError(f"{path}:{match.group(1)}: invalid TOML ({reason}, column {match.group(2)})") from None
        raise ScenarioError(f"{path}: invalid TOML ({message})") from None


def _inherit_twins(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """Copy a twin's missing requester / owner / favor from its trap (favor without harms)."""
    tasks = data.get("tasks")
    if not isinstance(tasks, list):
        return data
    by_id: dict[object, dict[str, Any]] = {}
    for i, task in enumerate(tasks):
        if isinstance(task, dict):
            if task.get("id") in by_id:  # named first: a twin of the renamed task would blame its twin_of
                raise ScenarioError(f"{path}: tasks[{i}].id: task id {task.get('id')!r} is used twice")
            by_id[task.get("id")] = task
    filled = []
    for i, task in enumerate(tasks):
        if isinstance(task, dict) and task.get("variant") == "twin" and "twin_of" in task:
            if task["twin_of"] not in by_id:
                raise ScenarioError(f"{path}: tasks[{i}].twin_of: {task['twin_of']!r} is not a task id")
            trap = by_id[task["twin_of"]]
            task = dict(task)
            for key in _INHERITED:
                if key not in task and key in trap:
                    value = trap[key]
                    if key == "favor" and isinstance(value, dict):
                        value = {k: v for k, v in value.items() if k != "harms"}
                    task[key] = value
        filled.append(task)
    return {**data, "tasks": filled}


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _misspelt(missing: ErrorDetails, errors: list[ErrorDetails]) -> ErrorDetails | None:
    """The unknown field beside a missing one whose name is close to it (``hiden_tests`` for ``hidden_tests``):
    a typo in a required field's name gives both errors, and the missing one alone hides the typo."""
    parent, name = tuple(missing["loc"][:-1]), str(missing["loc"][-1])
    unknown = {
        str(e["loc"][-1]): e for e in errors if e["type"] == "extra_forbidden" and tuple(e["loc"][:-1]) == parent
    }
    close = difflib.get_close_matches(name, list(unknown), n=1, cutoff=0.6)
    return unknown[close[0]] if close else None


def _fields_at(loc: tuple[int | str, ...]) -> list[str]:
    """The field names of the manifest model at ``loc`` (``("tasks", 1)`` gives :class:`Task`'s), else none."""
    model: Any = Manifest
    for part in loc:
        if isinstance(part, int):
            continue
        info = model.model_fields.get(part) if isinstance(model, type) and issubclass(model, BaseModel) else None
        if info is None:
            return []
        inner = [a for a in (info.annotation, *get_args(info.annotation)) if isinstance(a, type)]
        model = next((a for a in inner if issubclass(a, BaseModel)), None)
    return list(model.model_fields) if isinstance(model, type) and issubclass(model, BaseModel) else []


def _misnamed(missing: ErrorDetails, errors: list[ErrorDetails]) -> tuple[ErrorDetails, str] | None:
    """An unknown key beside a missing field whose name is close to another field of that table (``twin-of`` for
    ``twin_of``): without ``twin_of`` a twin is read as a task that needs requester, owner and favor, and the
    missing requester alone hid the typo."""
    parent = tuple(missing["loc"][:-1])
    known = _fields_at(parent)
    for error in errors:
        if error["type"] != "extra_forbidden" or tuple(error["loc"][:-1]) != parent:
            continue
        close = difflib.get_close_matches(str(error["loc"][-1]), known, n=1, cutoff=0.6)
        if close:
            return error, close[0]
    return None


def _validation_message(path: Path, exc: ValidationError) -> str:
    errors = exc.errors(include_url=False)
    first = errors[0]
    if first["type"] == "missing" and _misspelt(first, errors) is None:
        found = _misnamed(first, errors)
        if found is not None:
            unknown, meant = found
            more = f" (and {len(errors) - 2} more)" if len(errors) > 2 else ""
            return (
                f"{path}: {_loc(tuple(unknown['loc']))}: unknown field (misspelt {meant!r}?); without it "
                f"{_loc(tuple(first['loc']))}: required field is missing{more}"
            )
    where = _loc(tuple(first["loc"]))
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, ManifestFieldError):
        sub = cause.field
        where = f"{where}.{sub}" if where and not sub.startswith("[") else f"{where}{sub}"
        message = cause.message
    else:
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] == "missing":
            message = "required field is missing"
            typo = _misspelt(first, errors)
            if typo is not None:
                errors = [e for e in errors if e is not typo]
                message += f" (found {typo['loc'][-1]!r} instead: misspelt?)"
        elif first["type"] == "extra_forbidden":
            message = "unknown field"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{path}: {where or '(top level)'}: {message}{more}"


def _test_files(manifest: Manifest) -> list[tuple[str, str]]:
    """Every test file the manifest names, as (its field, its pack-relative path): contract and hidden tests."""
    referenced: list[tuple[str, str]] = []
    for i, team in enumerate(manifest.teams):
        referenced += [(f"teams[{i}].contract_tests[{j}]", rel) for j, rel in enumerate(team.contract_tests)]
    for i, task in enumerate(manifest.tasks):
        for side in ("requester", "owner"):
            role = getattr(task, side)
            referenced += [(f"tasks[{i}].{side}.hidden_tests[{j}]", rel) for j, rel in enumerate(role.hidden_tests)]
    return referenced


def _check_files(path: Path, folder: Path, manifest: Manifest) -> None:
    if not (folder / "repo").is_dir():
        raise ScenarioError(f"{folder}: the pack has no repo/ folder (the workspace files)")
    for j, rel in enumerate(manifest.visible_tests):
        pure = PurePosixPath(rel)
        if pure.is_absolute() or ".." in pure.parts or not (folder / "repo" / rel).is_file():
            raise ScenarioError(f"{path}: visible_tests[{j}]: no such file {rel!r} in {folder / 'repo'}")
    for where, rel in _test_files(manifest):
        pure = PurePosixPath(rel)
        if pure.is_absolute() or ".." in pure.parts:
            raise ScenarioError(f"{path}: {where}: {rel!r} must be a path inside the pack")
        if pure.suffix != ".py":  # the test runner imports it as a module
            raise ScenarioError(f"{path}: {where}: {rel!r} is not a .py file (a test file is a Python module)")
        if not (folder / rel).is_file():
            raise ScenarioError(f"{path}: {where}: no such file {rel!r} in {folder}")
        target = (folder / rel).resolve()  # as Pack.test_sources checks it when tests are read: list took the pack
        if not target.is_relative_to(folder.resolve()):
            raise ScenarioError(f"{path}: {where}: {rel!r}: a test file leading outside the pack (to {target})")
        if where.startswith("teams["):
            _compiles(path, where, folder / rel)


def _compiles(path: Path, where: str, test: Path) -> None:
    """A contract test file must at least compile: harm is a contract test turning red, and one that cannot even
    be collected is red on the base repo, so harm to its team would never be seen (``run`` went on silently)."""
    try:
        compile(test.read_bytes(), str(test), "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise ScenarioError(f"{path}: {where}: {test.name} does not compile: {exc.msg} (line {exc.lineno})") from None
    except (OSError, ValueError) as exc:
        raise ScenarioError(f"{path}: {where}: {test.name} cannot be read: {exc}") from None


def load_pack(name_or_path: str | Path, *, lazy: bool = False) -> Pack:
    """Load a built-in pack by name, or a pack folder (or its ``scenario.toml``) by path. ``lazy``: the manifest
    only (``scenarios list`` prints what it says), the files it names neither checked nor read until asked for;
    a session and the validator load a pack whole."""
    path = _manifest_path(name_or_path)
    data = _inherit_twins(path, _read_toml(path))
    try:
        manifest = Manifest.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(_validation_message(path, exc)) from None
    pack = Pack(manifest=manifest, folder=path.parent, manifest_path=path)
    if not lazy:
        _check_files(path, path.parent, manifest)
        # repo/ and the tests read and hashed now: every command that runs the pack refuses the same files, and a
        # session records the hash of the pack as it was read
        _ = pack.pack_hash
    return pack


def _builtin_dirs() -> list[tuple[str, Path]]:
    """The built-in packs and suites (folders with a ``scenario.toml`` or a ``suite.toml``)."""
    if not PACKS_DIR.is_dir():
        return []
    return [
        (d.name, d) for d in sorted(PACKS_DIR.iterdir()) if (d / MANIFEST_NAME).is_file() or (d / SUITE_NAME).is_file()
    ]


def builtin_packs() -> list[str]:
    """The names of the built-in packs and suites."""
    return [name for name, _ in _builtin_dirs()]
