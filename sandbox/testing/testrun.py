"""The fast test runner: hidden task tests and absent-team contract tests against a workspace.

Tests are plain Python files with ``def test_*():`` functions and bare ``assert`` (no pytest, whose
startup is too slow for the hundreds of runs a session does). One call runs every given file in ONE
``python -I -B`` process: a fresh subprocess, or a child forked by a warm server started the same
way (:mod:`sandbox.testing.warm`; :func:`run_tests_on_tree`, what the engine's snapshot runs use, gets one
inside the jail too):

- cwd = the workspace, the workspace first on ``sys.path``; each test file in its own module
  namespace, and the workspace's modules imported fresh for each file;
- test files written to a temp dir OUTSIDE the workspace, no bytecode written, so the workspace is
  left exactly as it was (an agent never sees the hidden tests);
- no network (a network namespace where the OS allows, plus a socket fence in the child) and a
  minimal environment (no host API keys or proxies reach the tests);
- inside the same jail as agent commands (:mod:`sandbox.jail.isolation`): the tests import modules an
  agent wrote, so they must not see the engine's process (its environment) or the host either.

A raise is a failure whose ``last_line`` is the traceback's last line (``AssertionError: expected 5,
got 30``). A timeout or crash of the subprocess never raises: the first test without a result fails with
a ``last_line`` saying what happened, the ones after it as not run. With a per-test limit a hanging
test fails alone (``TimeoutError: hung: ...``) and the others still run.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import functools
import marshal
import os
import re
import signal
import sys
import tempfile
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict

from channel.events import FailingTest
from channel.tasks import cancel_and_wait, wait_ended
from sandbox.jail.isolation import SYSTEM_PATH, Jail, detect_isolation, jail_argv, minimal_env, network_cut_prefix
from sandbox.jail.jailuser import hand_over, jail_uid
from sandbox.jail.seccomp import filter_pipe
from sandbox.testing import warm
from sandbox.workspace.entries import put_copy
from sandbox.workspace.files import remove_tree

_DRIVER = Path(__file__).with_name("_testdriver.py")

HUNG = "TimeoutError: hung"
"""How the ``last_line`` of a test that ran past its per-test limit starts."""


class TestOutcome(BaseModel):
    """The result of one run: ``file::function`` ids that passed, and the failures with their last
    traceback line."""

    __test__ = False  # not a pytest test class despite its name

    model_config = ConfigDict(frozen=True, extra="forbid")

    passed: tuple[str, ...] = ()
    failed: tuple[FailingTest, ...] = ()

    @property
    def ok(self) -> bool:
        """True when at least one test ran and none failed."""
        return bool(self.passed) and not self.failed

    @property
    def failed_ids(self) -> tuple[str, ...]:
        return tuple(f.test for f in self.failed)

    def failures_in(self, prefix: str) -> tuple[FailingTest, ...]:
        """The failures whose test file starts with ``prefix`` (e.g. ``contract/reporting/``)."""
        return tuple(f for f in self.failed if f.test.startswith(prefix))


def scratch_root() -> str | None:
    """Where throw-away test dirs go: ``$SCOPEWATCH_TMPDIR``, else ``/dev/shm`` when it is a writable
    folder (RAM: a disk under load makes each mkdir/open cost milliseconds), else the system default."""
    configured = os.environ.get("SCOPEWATCH_TMPDIR")
    if configured:
        return configured
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def collect_tests(name: str, source: str) -> list[str]:
    """The top-level ``test_*`` functions of a test file, in source order (parsed, not imported).

    Raises :class:`SyntaxError` if the source does not parse."""
    return list(_collected(name, source))


@functools.lru_cache(maxsize=512)
def _collected(name: str, source: str) -> tuple[str, ...]:
    """:func:`collect_tests`, kept: an episode runs the same test files a dozen times (its parse was ~3 % of a
    favorbench worker's CPU)."""
    tree = ast.parse(source, filename=name)
    return tuple(
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    )


def _safe_relpath(name: str) -> PurePosixPath:
    rel = PurePosixPath(name.replace("\\", "/"))
    if rel.is_absolute() or ".." in rel.parts or not rel.parts:
        raise ValueError(f"test file name {name!r} must be a relative path without '..'")
    return rel


def _kill_group(proc: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


async def run_tests(
    workspace: Path,
    tests: Mapping[str, str],
    *,
    timeout: float = 60,  # noqa: ASYNC109 - the budget is enforced by killing the child, not by cancelling
) -> TestOutcome:
    """Run the test files ``tests`` (name -> source, e.g. ``"contract/reporting/test_api.py"``)
    against ``workspace`` in one isolated subprocess; never raises for what the tests do.

    Raises :class:`ValueError` only for a test file name that is absolute or contains ``..``."""
    (outcome,) = await run_test_batch([(workspace, tests)], timeout=timeout)
    return outcome


TestExecutor = Callable[[Sequence[str], Path, float], Awaitable[tuple[int | None, str]]]
"""Runs the driver (``argv``, ``python3`` first) in a folder within a time budget somewhere else (a
container): returns the exit code (None: killed at the timeout) and the end of its output."""


async def run_test_batch(
    runs: Sequence[tuple[Path, Mapping[str, str]]],
    *,
    timeout: float = 60,  # noqa: ASYNC109 - the budget is enforced by killing the child, not by cancelling
    test_timeout: float | None = None,
    executor: TestExecutor | None = None,
    scratch: Path | None = None,
) -> list[TestOutcome]:
    """Several ``(workspace, tests)`` runs, one after the other in ONE subprocess (saves an interpreter
    start per run; the workspace's modules are dropped between runs). ``timeout`` is for the batch;
    ``test_timeout`` (seconds) limits each test (and each test file's import): a test past it fails with
    a ``last_line`` starting ``TimeoutError: hung``, and the run goes on with the next test.
    With an ``executor`` the driver runs there, its files under ``scratch`` (a folder it sees)."""
    tmp = Path(tempfile.mkdtemp(prefix="scopewatch-tests-", dir=scratch or scratch_root()))
    try:
        batch = [_prepare(index, workspace, tests, tmp) for index, (workspace, tests) in enumerate(runs)]
        level = (await detect_isolation()).level if executor is None else "none"
        netns = await network_cut_prefix() if level == "none" and executor is None else ("jailed",)
        _write_spec(batch, tmp, fence_network=not netns, test_timeout=test_timeout, timeout=timeout)
        if any(run.files for run in batch):
            argv = [sys.executable, "-I", "-B", str(_DRIVER), str(tmp / "spec.bin")]
            if executor is not None:
                code, tail = await executor(["python3", *argv[1:]], tmp, timeout)
                problem = _problem(code, tail, timeout)
            else:
                if level == "none":
                    problem = await _execute(tmp, timeout, [*netns, *argv], warm_netns=netns)
                else:
                    # Tests are the agents' code too: the same unprivileged, filtered jail.
                    rw = (tmp, *{run.workspace for run in batch})
                    uid = jail_uid()
                    if uid is not None:
                        await asyncio.to_thread(hand_over, rw, uid)
                        os.chmod(tmp, 0o711)  # the jail is entered (chdir) by a root without capabilities
                    seccomp = filter_pipe()
                    jail = Jail(cwd=tmp, rw=rw, ro=(_DRIVER.parent,), uid=uid, seccomp_fd=seccomp)
                    try:
                        problem = await _execute(tmp, timeout, jail_argv(level, jail, argv), pass_fds=seccomp)
                    finally:
                        if seccomp is not None:
                            os.close(seccomp)
            results = _read_results(tmp / "results.txt")
            for index, run in enumerate(batch):
                run.record(results.get(index, {}), problem)
        return [run.outcome() for run in batch]
    finally:
        remove_tree(tmp)


async def run_tests_on_tree(
    tree: Mapping[str, bytes],
    tests: Mapping[str, str],
    *,
    timeout: float = 60,  # noqa: ASYNC109 - enforced by killing the run
    scratch: Path,
    test_timeout: float | None = None,
) -> TestOutcome:
    """Run ``tests`` against a workspace given as its entries (path -> bytes; see
    :func:`sandbox.workspace.entries.put_entry`). In a warm server (:mod:`sandbox.testing.warm`) when one can be had
    at this isolation level: the tree goes into the server's mirror, rewritten only where it changed,
    and workspace modules unchanged since the server compiled them are not compiled again. Else the
    tree is written to a fresh folder under ``scratch`` and run as :func:`run_tests` does."""
    for name in tests:
        _safe_relpath(name)
    level = (await detect_isolation()).level
    netns = await network_cut_prefix() if level == "none" else ()
    server = warm.take(level, netns, scratch_root())
    if server is not None:
        try:
            outcome = await _run_warm(
                server, tree, tests, timeout, fence_network=level == "none" and not netns, test_timeout=test_timeout
            )
        finally:
            warm.give_back(server)
        if outcome is not None:
            return outcome
    copy = Path(tempfile.mkdtemp(prefix="tests-", dir=scratch))
    try:
        for rel, data in tree.items():
            put_copy(copy / rel, data)
        (outcome,) = await run_test_batch([(copy, tests)], timeout=timeout, test_timeout=test_timeout)
        return outcome
    finally:
        remove_tree(copy)


async def prewarm() -> None:
    """Have a warm server of this machine's isolation level starting (see :func:`run_tests_on_tree`)."""
    level = (await detect_isolation()).level
    netns = await network_cut_prefix() if level == "none" else ()
    warm.prestart(level, netns, scratch_root())


async def _run_warm(
    server: warm.WarmServer,
    tree: Mapping[str, bytes],
    tests: Mapping[str, str],
    timeout: float,  # noqa: ASYNC109
    *,
    fence_network: bool,
    test_timeout: float | None = None,
) -> TestOutcome | None:
    """One run in ``server``; None when the server could not take it (the caller runs it fresh)."""
    try:
        written = server.mirror.sync(tree)
        folder = server.run_folder()
        run = _prepare(0, server.mirror.root, tests, folder)
    except OSError:
        server.kill()  # a folder it cannot write: not a server to keep
        return None
    try:
        # A tree holding bytecode may hold a .pyc a fresh interpreter would load instead of the source.
        bytecode = not any("__pycache__" in rel or rel.endswith((".pyc", ".pyo")) for rel in tree)
        compile_paths = [str(run.workspace / rel) for rel in written if rel.endswith(".py")] if bytecode else []
        _write_spec(
            [run], folder, fence_network, test_timeout, timeout=timeout, compile_paths=compile_paths, bytecode=bytecode
        )
        await asyncio.to_thread(server.hand_over, folder)  # its tests run as the jail's uid, as fresh ones do
        if run.files:
            reply = await server.run(folder / "spec.bin", folder, timeout)
            if reply is None:  # the server stopped (a test may kill it): the run goes to a fresh process
                return None
            run.record(_read_results(folder / "results.txt").get(0, {}), warm.problem_of(reply, folder, timeout))
        return run.outcome()
    finally:
        server.tidy()


class _Run:
    """The bookkeeping of one run: test ids in order, collected files, and errors by test id."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.order: list[str] = []
        self.errors: dict[str, Result] = {}
        self.files: list[tuple[str, str, list[str]]] = []  # (name, path in tmp, test functions)

    def record(self, results: dict[str, Result], problem: str | None) -> None:
        self.errors.update(results)
        if problem is not None:
            # Results are flushed per test: the first test without one is where the run stopped.
            first = True
            for test_id in self.order:
                if test_id not in self.errors:
                    error = problem if first else f"not run: {problem} (during an earlier test)"
                    self.errors[test_id] = (error, "", "")
                    first = False

    def outcome(self) -> TestOutcome:
        for test_id in self.order:
            self.errors.setdefault(test_id, ("test produced no result", "", ""))
        return TestOutcome(
            passed=tuple(t for t in self.order if self.errors[t] is None),
            failed=tuple(
                FailingTest(test=t, last_line=error[0], error_line=error[1], log=error[2])
                for t in self.order
                if (error := self.errors[t]) is not None
            ),
        )


def _prepare(index: int, workspace: Path, tests: Mapping[str, str], tmp: Path) -> _Run:
    """Collect each file's test functions and write the files into ``tmp``."""
    run = _Run(Path(workspace).resolve())
    for name, source in tests.items():
        rel = _safe_relpath(name)
        try:
            funcs = collect_tests(name, source)
        except SyntaxError as exc:
            test_id = f"{name}::<collect>"
            run.order.append(test_id)
            run.errors[test_id] = (
                f"SyntaxError: {exc.msg} ({name}, line {exc.lineno})",
                f"{name}:{exc.lineno}: {(exc.text or '').strip()}",
                "",
            )
            continue
        if not funcs:
            continue
        path = tmp / "tests" / str(index) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
        run.files.append((name, str(path), funcs))
        run.order.extend(f"{name}::{func}" for func in funcs)
    return run


def _write_spec(
    batch: Sequence[_Run],
    tmp: Path,
    fence_network: bool,
    test_timeout: float | None = None,
    *,
    timeout: float | None = None,
    compile_paths: Sequence[str] = (),
    bytecode: bool = True,
) -> None:
    (tmp / "home").mkdir()
    spec = {
        "results": str(tmp / "results.txt"),
        "fence_network": fence_network,
        "test_timeout": test_timeout,
        "timeout": timeout,
        "compile": list(compile_paths),
        "bytecode": bytecode,
        "runs": [
            {
                "workspace": str(run.workspace) + os.sep,
                "files": [{"name": name, "path": path, "tests": funcs} for name, path, funcs in run.files],
            }
            for run in batch
        ],
    }
    (tmp / "spec.bin").write_bytes(marshal.dumps(spec))


async def _execute(
    tmp: Path,
    timeout: float,  # noqa: ASYNC109
    argv: Sequence[str],
    *,
    warm_netns: tuple[str, ...] | None = None,
    pass_fds: int | None = None,
) -> str | None:
    """Run the driver; return None if it exited cleanly, else the ``last_line`` for unfinished tests.
    With ``warm_netns`` (no jail on this machine: the tests get the same isolation either way) a warm
    child (:mod:`sandbox.testing.warm`) runs it when one can be had; a jailed run is always a fresh process,
    since a warm server outside the jail would not hold the tests in it."""
    if warm_netns is not None:
        warm_result = await warm.execute(tmp, timeout, warm_netns)
        if warm_result is not False:
            return warm_result if isinstance(warm_result, str) else None
    proc = await asyncio.create_subprocess_exec(
        *argv,
        cwd=tmp,
        env=minimal_env(path=SYSTEM_PATH, home=str(tmp / "home"), tmp=str(tmp / "home")),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
        pass_fds=() if pass_fds is None else (pass_fds,),
    )
    assert proc.stdout is not None
    tail = bytearray()

    async def drain(stream: asyncio.StreamReader) -> None:
        # Keep only the end of what the tests print: enough to name a crash, bounded in memory.
        while chunk := await stream.read(65536):
            tail.extend(chunk)
            del tail[:-4096]

    reader = asyncio.ensure_future(drain(proc.stdout))
    code: int | None = None
    try:
        code = await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        pass
    finally:
        _kill_group(proc)
        await proc.wait()
        if not await wait_ended(reader, 5):
            await cancel_and_wait(reader)
    return _problem(code, tail.decode("utf-8", "replace"), timeout)


def _problem(code: int | None, tail: str, timeout: float) -> str | None:
    """None for a clean exit, else the ``last_line`` of the tests that have no result."""
    if code is None:
        return f"TimeoutError: test run killed after {timeout:g} s"
    if code == 0:
        return None
    lines = [line for line in tail.splitlines() if line.strip()]
    detail = f": {lines[-1].strip()}" if lines else ""
    return f"test process crashed (exit code {code}){detail}"


Result = tuple[str, str, str] | None
"""A test's result: None when it passed, else (last line, error line, full log)."""

_UNESCAPE = re.compile(r"\\(.)")


def _unescape(text: str) -> str:
    return _UNESCAPE.sub(lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _read_results(path: Path) -> dict[int, dict[str, Result]]:
    """Run index -> test id -> result (None = passed). A test's first line is its result: a later line for it (the
    tests' own code appending to the file) changes nothing. Code under test runs in the driver's process and could
    still forge results there (docs/sandbox-and-audit.md, limits)."""
    results: dict[int, dict[str, Result]] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return results
    for line in text.split("\n")[:-1]:  # what follows the last newline was cut short by a kill
        parts = line.split("\t")
        if len(parts) not in (3, 5) or not parts[0].isdigit():
            continue
        run, test_id, error = parts[:3]
        where, log = (_unescape(parts[3]), _unescape(parts[4])) if len(parts) == 5 else ("", "")
        results.setdefault(int(run), {}).setdefault(test_id, None if error == "-" else (error, where, log))
    return results
