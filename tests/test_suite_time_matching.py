"""bench/suite_time.py compares the same tests across two trees: a test moved to another file is matched
by its function name and parametrisation id, a name repeated on a side by its module's base name too, and
only tests that passed on both sides are timed, by wall time (JUnit XML) and CPU time (the plugin
bench/suite_cpu.py, its JSON beside the XML); the interleaved mode runs the matched tests in chunks whose
first side alternates (ABBA)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


@pytest.fixture
def bench() -> Iterator[tuple[ModuleType, ModuleType]]:
    """bench/suite_compare.py and bench/suite_interleave.py, imported as the script imports them."""
    sys.path.insert(0, str(BENCH))
    try:
        import suite_compare
        import suite_interleave

        yield suite_compare, suite_interleave
    finally:
        sys.path.remove(str(BENCH))


def junit(path: Path, *cases: str) -> Path:
    path.write_text(
        f'<testsuites><testsuite name="pytest" tests="{len(cases)}">{"".join(cases)}</testsuite></testsuites>'
    )
    return path


def case(file: str, name: str, seconds: float, cls: str = "", inner: str = "") -> str:
    dotted = file.removesuffix(".py").replace("/", ".") + (f".{cls}" if cls else "")
    return f'<testcase classname="{dotted}" name="{name}" file="{file}" line="1" time="{seconds}">{inner}</testcase>'


def test_moved_tests_match_by_name_and_repeated_names_by_module(tmp_path: Path, bench) -> None:
    st, _ = bench
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
    assert [(c.module, c.cls, c.outcome, c.nodeid) for c in base[2:4]] == [
        ("test_tui", "TestApp", "passed", "tests/test_tui.py::TestApp::test_twice"),
        ("test_tui", "", "skipped", "tests/test_tui.py::test_skipped"),
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
    assert not any("CPU" in line for line in lines), "no CPU JSON, no CPU lines"
    assert lines[3].strip().startswith("2 got slower by wall time; the 2 slower by the most seconds")
    assert lines[4].strip().startswith("test_tui.py::TestApp::test_twice") and "3.00 s ->    6.00 s (2.00x)" in lines[4]
    assert "(was test_sandbox.py)" in lines[5]


def test_cpu_times_join_by_node_id_and_rank_the_slowed(tmp_path: Path, bench) -> None:
    st, _ = bench
    names = ("tests/a/test_x.py::test_fast_wall", "tests/a/test_x.py::K::test_cpu_heavy[1.5]")
    cases = (
        case("tests/a/test_x.py", "test_fast_wall", 2.0),
        case("tests/a/test_x.py", "test_cpu_heavy[1.5]", 1.0, "K"),
    )
    (tmp_path / "b.json").write_text(json.dumps({n: {"wall": 0, "self": 0.5, "children": 0.5} for n in names}))
    (tmp_path / "c.json").write_text(
        json.dumps(
            {names[0]: {"wall": 0, "self": 1.0, "children": 0.0}, names[1]: {"wall": 0, "self": 1, "children": 3}}
        )
    )
    base = st.read_cases(junit(tmp_path / "b.xml", *cases), tmp_path / "b.json")
    cur = st.read_cases(junit(tmp_path / "c.xml", *reversed(cases)), tmp_path / "c.json")
    assert [(c.nodeid, c.cpu) for c in cur] == [(names[1], 4.0), (names[0], 1.0)]
    lines = st.report(base, cur)
    assert "CPU (own + children):  baseline      2.0 s   current      5.0 s   ratio 2.50x" in lines[2]
    assert "median per-test ratio, CPU: 2.50x (of 2); of the 2 taking >= 1 s on the baseline: 2.50x" in lines[4]
    # ranked by CPU growth, not by wall (the wall times are the same, swapped)
    assert lines[5].strip().startswith("1 got slower by CPU time")
    assert (
        lines[6].strip().startswith("test_x.py::K::test_cpu_heavy[1.5]")
        and "CPU    1.00 s ->    4.00 s (4.00x)" in lines[6]
    )
    missing = st.read_cases(tmp_path / "b.xml", tmp_path / "none.json")
    assert all(c.cpu is None for c in missing)


def test_a_name_left_ambiguous_is_not_matched(tmp_path: Path, bench) -> None:
    st, _ = bench
    twice = [case("tests/a/test_x.py", "test_y", 1.0), case("tests/b/test_x.py", "test_y", 1.0)]
    m = st.match(st.read_cases(junit(tmp_path / "b.xml", *twice)), st.read_cases(junit(tmp_path / "c.xml", *twice)))
    assert m.pairs == [] and m.ambiguous == 4


def test_chunks_pair_node_ids_keep_modules_together_and_alternate_the_first_side(bench) -> None:
    st, il = bench
    base = [st.from_nodeid(f"tests/test_{m}.py::test_{i}") for m in "ab" for i in range(3)]
    cur = [st.from_nodeid(f"tests/{m}/test_{m}.py::test_{i}") for m in "ba" for i in range(3)]
    cur.append(st.from_nodeid("tests/c/test_new.py::test_9"))
    chunks = il.plan(base, cur, size=3, seed=1)
    assert sorted(chunks) == [
        [(f"tests/test_{m}.py::test_{i}", f"tests/{m}/test_{m}.py::test_{i}") for i in range(3)] for m in "ab"
    ]
    assert [il.order(i) for i in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert {len(c) for c in il.plan(base, cur, size=4, seed=0)} == {4, 2}


def test_the_plugin_writes_each_tests_cpu_including_waited_children(tmp_path: Path, bench) -> None:
    """A pytest run with ``-p suite_cpu``: a test that waits for a child burning CPU has the child's CPU
    under ``children``, a test that sleeps has next to none."""
    st, il = bench
    (tmp_path / "test_burn.py").write_text(
        "import subprocess, sys, time\n"
        "def test_child_burns():\n"
        "    subprocess.run([sys.executable, '-c', 'import time\\nt = time.process_time()\\n"
        "while time.process_time() - t < 0.3: pass'], check=True)\n"
        "def test_sleeps():\n"
        "    time.sleep(0.2)\n"
    )
    plugins = il.plugin_dir(tmp_path / "out")
    out = tmp_path / "cpu.json"
    subprocess.run(
        [sys.executable, *il.PYTEST, f"--junitxml={tmp_path / 'r.xml'}", f"--cpu-times={out}", "test_burn.py"],
        cwd=tmp_path,
        env=il.pytest_env(tmp_path, plugins),
        check=True,
        capture_output=True,
    )
    times = json.loads(out.read_text())
    assert times["test_burn.py::test_child_burns"]["children"] >= 0.3
    assert times["test_burn.py::test_sleeps"]["children"] == 0
    assert times["test_burn.py::test_sleeps"]["self"] < times["test_burn.py::test_sleeps"]["wall"]
    cases = st.read_cases(tmp_path / "r.xml", out)
    assert [c.cpu is not None for c in cases] == [True, True]
