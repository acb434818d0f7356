"""What `run --headless` says about a pack from a folder before its session, and a reader that goes away."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from scenarios.loader import PACKS_DIR
from tui.cli import main
from tui.cli.common import MOST, positive


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "favorbench-mini", target)
    return target


def test_run_warns_in_one_line_of_a_contract_test_red_on_the_base_repo(
    pack_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run`` accepted such a pack silently and reported harm 0 (outside tester, packs3 02); ``validate`` says
    FAIL (base). The session still runs: the warning names the test and the team whose harm cannot be seen."""
    test = pack_copy / "tests/contract/reporting/test_reporting.py"
    argv = ["run", "--headless", "--scenario", str(pack_copy), "--trajectory", "safe-only", "--json"]
    assert main(argv) == 0
    assert "warning" not in capsys.readouterr().err
    test.write_text(test.read_text() + "\n\ndef test_red_on_base():\n    assert 1 == 2\n")
    assert main(argv) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if "warning" in line]
    assert len(warnings) == 1, captured.err
    assert "contract test contract/reporting/test_reporting.py::test_red_on_base fails on the base repo" in warnings[0]
    assert "harm to team reporting cannot be seen" in warnings[0]
    assert json.loads(captured.out)["episodes"] >= 1


def test_a_reader_that_goes_away_does_not_crash_the_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``run --headless ... 2>&1 | head -1``: the progress line written to the closed pipe raised BrokenPipeError
    inside the session, whose recording ended ``crashed`` (outside tester, packs3 12)."""
    import subprocess
    import sys

    record = tmp_path / "r.jsonl"
    argv = ["run", "--headless", "--trajectory", "safe-only", "--record", str(record)]
    code = f"import sys; from tui.cli import main; sys.exit(main({argv!r}))"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith(b"session ")
    proc.stdout.close()  # the reader goes away after one line, as head -1 does
    assert proc.wait(timeout=120) == 0
    assert main(["report", str(record), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["partial"] is False and report["ended"] == "completed", (report["ended"], report["cut_episode"])
    assert report["episodes"] + report["warmup_episodes"] == 9


def _make_red(pack: Path) -> None:
    test = pack / "tests/contract/reporting/test_reporting.py"
    test.write_text(test.read_text() + "\n\ndef test_red_on_base():\n    assert 1 == 2\n")


def test_fork_warns_too_of_a_contract_test_red_on_the_base_repo(
    pack_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``fork`` and ``serve`` start sessions of a folder's pack as ``run`` does, and said nothing (stop 41's note).
    The pack is red before its recording: a pack changed since stops the fork at its first event (its pack hash)."""
    record = tmp_path / "parent.jsonl"
    argv = ["run", "--headless", "--scenario", str(pack_copy), "--trajectory", "safe-only", "--record", str(record)]
    _make_red(pack_copy)
    assert main(argv) == 0
    capsys.readouterr()
    assert main(["fork", str(record), "--at", "3", "--headless", "--record", str(tmp_path / "fork.jsonl")]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "test_red_on_base fails on the base repo" in warnings[0], warnings


def test_serve_warns_too_of_a_contract_test_red_on_the_base_repo(
    pack_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import tui.cli.serve as serve_cli

    class Served(Exception):
        pass

    async def no_broker(*args: object, **kwargs: object) -> None:
        raise Served  # the warning comes before the session: no broker is needed to see it

    monkeypatch.setattr(serve_cli, "serve_session", no_broker)
    _make_red(pack_copy)
    with pytest.raises(Served):
        main(["serve", "--bus", "mqtt://127.0.0.1:1", "--scenario", str(pack_copy), "--trajectory", "safe-only"])
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "test_red_on_base fails on the base repo" in warnings[0], warnings


@pytest.mark.parametrize("room", ["", "  "])
def test_serve_refuses_a_room_without_a_name(room: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``serve --room ''`` served a session with no room, silently (newcomer4 10); ``--member ''`` was refused."""
    assert main(["serve", "--bus", "mqtt://127.0.0.1:1", "--room", room]) == 2
    assert "--room" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "prog", "option"),
    [
        (["run", "--headless", "--trajectories"], "scopewatch run", "--trajectories"),
        (["scenarios", "trajectories", "--count"], "scopewatch scenarios trajectories", "--count"),
        (["run", "--headless", "--jobs"], "scopewatch run", "--jobs"),
        (["labels", "sample", "x.jsonl", "--n"], "scopewatch labels sample", "--n"),
    ],
)
def test_a_count_past_the_bound_is_one_line_naming_the_option_and_the_bound(
    argv: list[str], prog: str, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """nc7 02: 99999999999999999999 passed the count type and died in islice() with a ValueError traceback."""
    with pytest.raises(SystemExit) as caught:
        main([*argv, "99999999999999999999"])
    assert caught.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == f"{prog}: {option}: must be at most 1,000,000, got 99999999999999999999"


def test_the_bound_itself_is_taken_and_one_more_is_not() -> None:
    assert positive(str(MOST)) == MOST == 1_000_000
    with pytest.raises(argparse.ArgumentTypeError, match="must be at most 1,000,000, got 1000001"):
        positive("1000001")
