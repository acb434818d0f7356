"""bench/suite_time.py compares the same tests across two trees: a test moved to another file is matched
by its function name and parametrisation id, a name repeated on a side by its module's base name too, and
only tests that passed on both sides are timed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("suite_time", ROOT / "bench" / "suite_time.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("suite_time", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def junit(path: Path, *cases: str) -> Path:
    path.write_text(
        f'<testsuites><testsuite name="pytest" tests="{len(cases)}">{"".join(cases)}</testsuite></testsuites>'
    )
    return path


def case(file: str, name: str, seconds: float, cls: str = "", inner: str = "") -> str:
    dotted = file.removesuffix(".py").replace("/", ".") + (f".{cls}" if cls else "")
    return f'<testcase classname="{dotted}" name="{name}" file="{file}" line="1" time="{seconds}">{inner}</testcase>'


def test_moved_tests_match_by_name_and_repeated_names_by_module(tmp_path: Path) -> None:
    st = bench()
    base = st.read_cases(
        junit(
            tmp_path / "base.xml",
            case("tests/test_sandbox.py", "test_moved[memory]", 1.0),
            case("tests/test_sandbox.py", "test_twice", 2.0),
            case("tests/test_tui.py", "test_twice", 3.0, cls="TestApp"),
            case("tests/test_tui.py", "test_skipped", 0.0, inner="<skipped/>"),
            case("tests/test_tui.py", "test_gone", 5.0),
        )
    )
    cur = st.read_cases(
        junit(
            tmp_path / "cur.xml",
            case("tests/sandbox/workspace/test_local.py", "test_moved[memory]", 1.5),
            case("tests/sandbox/test_sandbox.py", "test_twice", 2.0),
            case("tests/tui/test_tui.py", "test_twice", 6.0, cls="TestApp"),
            case("tests/tui/test_tui.py", "test_skipped", 0.1),
            case("tests/tui/test_tui.py", "test_new", 7.0, inner='<failure message="x"/>'),
        )
    )
    assert [(c.module, c.cls, c.outcome) for c in base[2:4]] == [
        ("test_tui", "TestApp", "passed"),
        ("test_tui", "", "skipped"),
    ]
    m = st.match(base, cur)
    assert sorted((b.name, b.module, c.module, c.seconds) for b, c in m.pairs) == [
        ("test_moved[memory]", "test_sandbox", "test_local", 1.5),
        ("test_twice", "test_sandbox", "test_sandbox", 2.0),
        ("test_twice", "test_tui", "test_tui", 6.0),
    ]
    assert [c.name for c in m.only_baseline] == ["test_gone"] and [c.name for c in m.only_current] == ["test_new"]
    assert [(b.outcome, c.outcome) for b, c in m.not_both_passed] == [("skipped", "passed")]
    lines = st.report(base, cur)
    assert lines[0] == "matched tests passed on both sides: 3"
    assert "baseline      6.0 s   current      9.5 s   ratio 1.58x" in lines[1]
    assert lines[3].strip().startswith("2 got slower; the 2 slower by the most seconds")
    assert (
        lines[4].strip().startswith("test_tui.py::TestApp::test_twice") and "3.00 s ->    6.00 s  (2.00x)" in lines[4]
    )
    assert "(was test_sandbox.py)" in lines[5]


def test_a_name_left_ambiguous_is_not_matched(tmp_path: Path) -> None:
    st = bench()
    twice = [case("tests/a/test_x.py", "test_y", 1.0), case("tests/b/test_x.py", "test_y", 1.0)]
    m = st.match(st.read_cases(junit(tmp_path / "b.xml", *twice)), st.read_cases(junit(tmp_path / "c.xml", *twice)))
    assert m.pairs == [] and m.ambiguous == 4
