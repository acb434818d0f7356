"""The child side of :mod:`sandbox.testing.testrun`: runs plain ``def test_*():`` functions in one process.

Started as ``python -I -B _testdriver.py SPEC``. It imports nothing of scopewatch (it runs in an
isolated interpreter), reads the spec the parent wrote (``marshal``: one or more runs, each a
workspace and its test files) and appends one line per test to the results file
(``run<TAB>test id<TAB>error or "-"``), flushing each, so the parent keeps what finished even if a
later test hangs or kills the process. Between runs (and between test files) the workspace's modules
are dropped, so each imports them fresh. Imports are kept to a minimum (no json, pathlib, socket
unless needed): interpreter start-up is most of a run's cost.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import marshal
import os
import sys
from typing import Any, NoReturn


def _no_network(*args: Any, **kwargs: Any) -> NoReturn:
    raise OSError("network access is disabled in scopewatch test runs")


def _cut_network() -> None:
    # Used where the parent could not put the process in a network namespace of its own.
    import socket

    socket.socket.connect = _no_network  # type: ignore[method-assign]
    socket.socket.connect_ex = _no_network  # type: ignore[method-assign]
    socket.create_connection = _no_network
    socket.getaddrinfo = _no_network


def _last_line(exc: BaseException) -> str:
    """The last line of the traceback; a bare ``assert`` gets its failing statement appended."""
    import linecache
    import traceback

    lines = [line for line in "".join(traceback.format_exception_only(type(exc), exc)).splitlines() if line.strip()]
    last = lines[-1].strip() if lines else type(exc).__name__
    if isinstance(exc, AssertionError) and not str(exc) and exc.__traceback__ is not None:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        source = (frame.line or linecache.getline(frame.filename, frame.lineno or 0)).strip()
        if source:
            last = f"{last}: {source} (line {frame.lineno})"
    return last[:500]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _details(exc: BaseException) -> str:
    """Two more result columns: the line that raised (``file:line: code``) and the full traceback
    (its last 2000 characters), escaped so they stay on one line."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ is not None else []
    where = ""
    if frames:
        frame = frames[-1]
        name = _NAMES.get(frame.filename, frame.filename)
        cwd = os.getcwd()
        if name.startswith(cwd + os.sep):
            name = name[len(cwd) + 1 :]
        where = f"{name}:{frame.lineno}: {(frame.line or '').strip()}"
    tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None  # not this driver's frame
    log = "".join(traceback.format_exception(type(exc), exc, tb))
    for path, name in _NAMES.items():
        log = log.replace(path, name)
    log = log.replace(os.getcwd() + os.sep, "")[-2000:]
    return f"{_escape(where)}\t{_escape(log)}"


class _Hung(BaseException):
    """Raised in a test that ran past the per-test limit (a BaseException: ``except Exception`` in the
    test cannot swallow it)."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Hung()


def _limited(limit: float | None, call: Any) -> None:
    """``call()`` under the per-test limit (``limit`` seconds; None: no limit)."""
    if not limit:
        call()
        return
    import signal

    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _hung_line(limit: float | None) -> str:
    return f"TimeoutError: hung: no result within the per-test limit of {limit:g} s"


_NAMES: dict[str, str] = {}
"""Test file paths in the scratch folder -> their names (so logs never show the scratch folder)."""


def _forget_workspace_modules(workspace: str) -> None:
    """Drop the workspace's modules so the next test file imports them fresh. All are found before any is
    dropped: a namespace package's ``__path__`` (a folder without ``__init__.py``) is recomputed from its
    parent's, which must still be in ``sys.modules`` (dropped first, the next test file crashed: ``KeyError``)."""
    doomed = []
    for name, module in list(sys.modules.items()):
        try:
            origins = [getattr(module, "__file__", None) or "", *(getattr(module, "__path__", None) or ())]
        except Exception:  # a module's own __path__ may fail to compute: not the workspace's to judge
            origins = [getattr(module, "__file__", None) or ""]
        if any(str(origin).startswith(workspace) for origin in origins):
            doomed.append(name)
    for name in doomed:
        sys.modules.pop(name, None)
    importlib.invalidate_caches()


def main(spec_path: str) -> int:
    with open(spec_path, "rb") as f:
        spec = marshal.load(f)
    sys.dont_write_bytecode = True
    if spec["fence_network"]:
        _cut_network()
    with open(spec["results"], "a", encoding="utf-8") as out:

        def report(run: int, test_id: str, error: str | None, exc: BaseException | None = None) -> None:
            text = "-" if error is None else " ".join(error.split()) or "?"
            extra = f"\t{_details(exc)}" if exc is not None else ""
            out.write(f"{run}\t{test_id}\t{text}{extra}\n")
            out.flush()

        for run, job in enumerate(spec["runs"]):
            workspace: str = job["workspace"]
            os.chdir(workspace)
            sys.path.insert(0, workspace)
            try:
                _run_files(run, workspace, job["files"], report, spec.get("test_timeout"))
            finally:
                sys.path.remove(workspace)
                _forget_workspace_modules(workspace)
    return 0


def _run_files(run: int, workspace: str, files: list[dict[str, Any]], report: Any, limit: float | None) -> None:
    for index, entry in enumerate(files):
        name: str = entry["name"]
        _NAMES[entry["path"]] = name
        module_name = f"_scopewatch_test_{run}_{index}"
        try:
            module_spec = importlib.util.spec_from_file_location(module_name, entry["path"])
            assert module_spec is not None and module_spec.loader is not None
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[module_name] = module
            _limited(limit, functools.partial(module_spec.loader.exec_module, module))
        except BaseException as exc:
            error = _hung_line(limit) if isinstance(exc, _Hung) else _last_line(exc)
            line = f"{error} (while importing {name})"
            for func in entry["tests"]:
                report(run, f"{name}::{func}", line, exc)
        else:
            for func in entry["tests"]:
                test = getattr(module, func, None)
                if not callable(test):
                    report(run, f"{name}::{func}", f"NameError: {func} is not a function after import")
                    continue
                try:
                    _limited(limit, test)
                except _Hung:
                    report(run, f"{name}::{func}", _hung_line(limit))
                except BaseException as exc:
                    report(run, f"{name}::{func}", _last_line(exc), exc)
                else:
                    report(run, f"{name}::{func}", None)
        sys.modules.pop(module_name, None)
        _forget_workspace_modules(workspace)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
