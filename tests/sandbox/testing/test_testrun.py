"""The fast test runner: passes, assertion failures with their last line, import errors, timeouts,
crashes, isolation (no files left in the workspace, no host secrets, no network)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sandbox.jail import isolation
from sandbox.testing.testrun import HUNG, TestOutcome, collect_tests, run_test_batch, run_tests, run_tests_on_tree


@pytest.fixture(autouse=True, params=["warm", "fresh"])
def runner(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test twice: in a warm server's forked child, on the workspace's files as the engine runs
    them (:func:`run_tests_on_tree`, inside this machine's jail), and in a fresh subprocess."""
    monkeypatch.setenv("SCOPEWATCH_WARM_TESTS", "1" if request.param == "warm" else "0")
    if request.param == "warm":
        monkeypatch.setattr(sys.modules[__name__], "run_tests", _on_tree)
    return str(request.param)


async def _on_tree(workspace: Path, tests: dict[str, str], *, timeout: float = 60) -> TestOutcome:  # noqa: ASYNC109
    return await run_tests_on_tree(_snapshot(workspace), tests, timeout=timeout, scratch=workspace.parent)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "services" / "calc").mkdir(parents=True)
    (ws / "services" / "__init__.py").write_text("")
    (ws / "services" / "calc" / "__init__.py").write_text("")
    (ws / "services" / "calc" / "core.py").write_text("COUNTER = []\n\ndef total(xs):\n    return sum(xs) * 10\n")
    return ws


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _failure(outcome: TestOutcome, test_id: str) -> str:
    by_id = {f.test: f.last_line for f in outcome.failed}
    assert test_id in by_id, f"{test_id} did not fail: {outcome}"
    return by_id[test_id]


async def test_passes_and_assertion_failures(workspace: Path) -> None:
    source = (
        "from services.calc.core import total\n"
        "def test_ok():\n    assert total([1, 2]) == 30\n"
        "def test_msg():\n    got = total([3])\n    assert got == 5, f'expected 5, got {got}'\n"
        "def test_bare():\n    assert total([1]) == 1\n"
        "def helper():\n    raise RuntimeError('not a test')\n"
    )
    outcome = await run_tests(workspace, {"hidden/test_calc.py": source})
    assert outcome.passed == ("hidden/test_calc.py::test_ok",)
    assert _failure(outcome, "hidden/test_calc.py::test_msg") == "AssertionError: expected 5, got 30"
    assert _failure(outcome, "hidden/test_calc.py::test_bare").startswith("AssertionError: assert total([1]) == 1")
    assert len(outcome.failed) == 2
    assert not outcome.ok


async def test_import_error_fails_every_test_of_that_file_only(workspace: Path) -> None:
    outcome = await run_tests(
        workspace,
        {
            "contract/a/test_a.py": (
                "from services.gone import x\ndef test_one():\n    pass\ndef test_two():\n    pass\n"
            ),
            "contract/b/test_b.py": "def test_fine():\n    assert True\n",
        },
    )
    assert outcome.passed == ("contract/b/test_b.py::test_fine",)
    line = _failure(outcome, "contract/a/test_a.py::test_two")
    assert "ModuleNotFoundError: No module named 'services.gone'" in line
    assert outcome.failures_in("contract/a/") == outcome.failed


async def test_syntax_error_is_a_collect_failure(workspace: Path) -> None:
    outcome = await run_tests(workspace, {"t/test_s.py": "def test_x(:\n    pass\n"})
    assert outcome.failed_ids == ("t/test_s.py::<collect>",)
    assert outcome.failed[0].last_line.startswith("SyntaxError")


async def test_timeout_fails_unfinished_tests_and_keeps_finished_ones(workspace: Path) -> None:
    source = (
        "def test_first():\n    pass\ndef test_hang():\n    while True:\n        pass\ndef test_after():\n    pass\n"
    )
    outcome = await run_tests(workspace, {"t/test_h.py": source}, timeout=0.5)
    assert outcome.passed == ("t/test_h.py::test_first",)
    assert outcome.failed_ids == ("t/test_h.py::test_hang", "t/test_h.py::test_after")
    hang, after = (f.last_line for f in outcome.failed)
    assert hang == "TimeoutError: test run killed after 0.5 s"
    assert after.startswith("not run: TimeoutError: test run killed after 0.5 s")


async def test_per_test_limit_fails_the_hanging_test_alone(workspace: Path) -> None:
    source = (
        "import time\ndef test_first():\n    pass\ndef test_hang():\n    while True:\n        pass\n"
        "def test_sleeps():\n    time.sleep(60)\ndef test_after():\n    pass\n"
    )
    outcome = await run_test_batch([(workspace, {"t/test_h.py": source})], timeout=30, test_timeout=0.3)
    (result,) = outcome
    assert result.passed == ("t/test_h.py::test_first", "t/test_h.py::test_after")
    assert result.failed_ids == ("t/test_h.py::test_hang", "t/test_h.py::test_sleeps")
    assert all(f.last_line.startswith(HUNG) and "0.3 s" in f.last_line for f in result.failed)


async def test_crash_of_the_process_is_a_failure_not_an_exception(workspace: Path) -> None:
    source = "import os\ndef test_die():\n    os._exit(3)\ndef test_never():\n    pass\n"
    outcome = await run_tests(workspace, {"t/test_c.py": source})
    assert outcome.failed_ids == ("t/test_c.py::test_die", "t/test_c.py::test_never")
    assert "exit code 3" in outcome.failed[0].last_line


async def test_sys_exit_in_a_test_is_that_test_failing(workspace: Path) -> None:
    source = "import sys\ndef test_exit():\n    sys.exit(4)\ndef test_next():\n    pass\n"
    outcome = await run_tests(workspace, {"t/test_e.py": source})
    assert outcome.passed == ("t/test_e.py::test_next",)
    assert _failure(outcome, "t/test_e.py::test_exit") == "SystemExit: 4"


async def test_workspace_left_untouched(workspace: Path) -> None:
    before = _snapshot(workspace)
    source = "import services.calc.core as core\ndef test_ok():\n    assert core.total([]) == 0\n"
    outcome = await run_tests(workspace, {"hidden/test_x.py": source, "contract/r/test_y.py": source})
    assert outcome.ok
    assert _snapshot(workspace) == before
    assert not any(name.endswith((".pyc", "__pycache__")) for name in _snapshot(workspace))


async def test_workspace_modules_are_fresh_for_each_file(workspace: Path) -> None:
    mutate = (
        "from services.calc import core\n"
        "def test_mutate():\n    core.COUNTER.append(1)\n    assert core.COUNTER == [1], core.COUNTER\n"
    )
    outcome = await run_tests(workspace, {"a/test_1.py": mutate, "a/test_2.py": mutate})
    assert outcome.ok, outcome


async def test_cwd_is_the_workspace_and_host_secrets_stay_out(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-host-secret")
    source = (
        "import os\n"
        "def test_cwd():\n    assert os.path.exists('services/calc/core.py'), os.getcwd()\n"
        "def test_env():\n    leaked = [k for k in os.environ if 'KEY' in k or 'TOKEN' in k]\n"
        "    assert not leaked, f'leaked {leaked}'\n"
    )
    outcome = await run_tests(workspace, {"t/test_env.py": source})
    assert outcome.ok, outcome


@pytest.mark.parametrize("netns", [True, False], ids=["namespace-if-available", "socket-fence"])
async def test_no_network(workspace: Path, netns: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not netns:
        monkeypatch.setattr(isolation, "_netns", ())
    source = "import socket\ndef test_connect():\n    s = socket.socket()\n    s.connect(('127.0.0.1', 9))\n"
    outcome = await run_tests(workspace, {"t/test_net.py": source})
    assert outcome.failed_ids == ("t/test_net.py::test_connect",)
    assert "Error" in outcome.failed[0].last_line


async def test_rejects_test_names_escaping_the_temp_dir(workspace: Path) -> None:
    with pytest.raises(ValueError, match=r"\.\."):
        await run_tests(workspace, {"../evil/test_x.py": "def test_x():\n    pass\n"})


def test_collect_tests_in_source_order() -> None:
    assert collect_tests("t.py", "def test_b():\n    pass\ndef x():\n    pass\nasync def test_a():\n    pass\n") == [
        "test_b",
        "test_a",
    ]


async def test_batch_runs_each_workspace_with_its_own_modules(workspace: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    (other / "services" / "calc").mkdir(parents=True)
    (other / "services" / "calc" / "core.py").write_text("def total(xs):\n    return 7\n")
    source = (
        "from services.calc.core import total\ndef test_total():\n    got = total([1])\n    assert got == 10, got\n"
    )
    first, second = await run_test_batch([(workspace, {"t/test_t.py": source}), (other, {"t/test_t.py": source})])
    assert first.passed == ("t/test_t.py::test_total",)
    assert second.failed[0].last_line == "AssertionError: 7"


async def test_namespace_packages_import_fresh_in_every_file(workspace: Path) -> None:
    """Folders without ``__init__.py`` (namespace packages, as packs written by others have them): the second file
    importing from them crashed the run (``KeyError: 'ns'``: a namespace package's path is recomputed from its
    parent's, which had been dropped first)."""
    (workspace / "ns" / "billing").mkdir(parents=True)
    (workspace / "ns" / "billing" / "invoice.py").write_text("RATE = 2\n")
    (workspace / "ns" / "payments").mkdir()
    (workspace / "ns" / "payments" / "config.py").write_text("TIMEOUT = 5\n")
    tests = {
        "t/test_a.py": "from ns.billing import invoice\ndef test_a():\n    assert invoice.RATE == 2\n",
        "t/test_b.py": "from ns.payments import config\ndef test_b():\n    assert config.TIMEOUT == 5\n",
        "t/test_c.py": "from ns.billing.invoice import RATE\ndef test_c():\n    assert RATE == 2\n",
    }
    outcome = await run_tests(workspace, tests)
    assert outcome.passed == ("t/test_a.py::test_a", "t/test_b.py::test_b", "t/test_c.py::test_c"), outcome


async def test_a_tests_first_result_is_final(workspace: Path) -> None:
    """A line the tests' own code appends to the results file after a failure does not turn it into a pass."""
    source = (
        "import sys\ndef test_fails():\n    assert False, 'really'\n"
        "def test_forges():\n"
        "    spec = open(sys.argv[1], 'rb').read()\n"
        "    path = spec[spec.index(b'/'):spec.index(b'results.txt') + 11].decode()\n"
        "    with open(path, 'a') as out:\n"
        "        out.write('0\\tt/test_f.py::test_fails\\t-\\n')\n"
    )
    outcome = await run_tests(workspace, {"t/test_f.py": source})
    assert _failure(outcome, "t/test_f.py::test_fails") == "AssertionError: really"
