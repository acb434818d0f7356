"""Every file the command line writes, to a place it cannot write, gets one line naming the option and
the OS's reason, never a traceback; a missing folder is made alike for all of them (cli2 F26)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    """A copy of the golden recording: a reader may write its index beside it (never into tests/data)."""
    copy = tmp_path / "golden" / GOLDEN.name
    copy.parent.mkdir()
    copy.write_bytes(GOLDEN.read_bytes())
    return copy


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["export", "{golden}", "-o", "{file}/x.eval"], "-o"),
        (["export", "{golden}", "-o", "{file}/x.json"], "-o"),
        (["report", "{golden}", "--html", "{file}/x.html"], "--html"),
        (["labels", "sample", "{golden}", "--n", "2", "--out", "{file}/x.csv"], "--out"),
        (["run", "--headless", "--trajectories", "1", "--record", "{file}/x.jsonl"], "--record"),
        (["fork", "{golden}", "--at", "20", "--norm", "admin_only=true", "--headless", "--record", "{file}/x.jsonl"],
         "--record"),
    ],
)
def test_a_file_where_a_folder_should_be_is_one_line_naming_the_option(
    argv: list[str], option: str, tmp_path: Path, golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "a.jsonl"
    file.write_text("x")
    assert main([a.format(file=file, golden=golden) for a in argv]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last == f"scopewatch: {option} {file}/x{Path(argv[-1]).suffix}: cannot write " + (
        "the recording (Not a directory)" if option == "--record" else "it (Not a directory)"
    )


def test_export_and_the_html_report_both_make_a_missing_folder(tmp_path: Path, golden: Path) -> None:
    assert main(["export", str(golden), "-o", str(tmp_path / "new1" / "run.eval")]) == 0
    assert main(["report", str(golden), "--html", str(tmp_path / "new2" / "run.html")]) == 0
    assert (tmp_path / "new1" / "run.eval").is_file() and (tmp_path / "new2" / "run.html").is_file()


@pytest.mark.parametrize(("command", "option", "suffix"), [("report", "--html", ".html"), ("export", "-o", ".eval")])
def test_a_place_that_cannot_even_be_looked_into_is_the_same_one_line(
    command: str, option: str, suffix: str, tmp_path: Path, golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``exists()`` itself fails there (nc7 03: a folder the user may not enter; here a name too long, which
    fails for root too): the one "cannot write it" line, as for every other place, not a traceback."""
    out = tmp_path / ("x" * 300 + suffix)
    assert main([command, str(golden), option, str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"scopewatch: {option} {out}: cannot write it (File name too long)\n"


def test_an_existing_output_is_still_refused_by_name(
    tmp_path: Path, golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.html"
    out.write_text("mine")
    assert main(["report", str(golden), "--html", str(out)]) == 2
    assert capsys.readouterr().err == f"scopewatch: --html {out}: the file exists; choose a new name\n"
    assert out.read_text() == "mine"
