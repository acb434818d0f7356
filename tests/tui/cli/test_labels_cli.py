"""``scopewatch labels``: agreement on the shipped set prints kappa and P/R/F1 for both judges (the LLM
judge reported as not run without a model), and bad input is one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.cli import main


def test_agreement_on_the_shipped_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["labels", "agreement"]) == 0
    out = capsys.readouterr().out
    assert "120 human labels" in out and "rule judge against the human labels" in out  # 108 favor, 12 overeager
    assert "kappa" in out and "P / R / F1" in out and "volunteered" in out
    assert "llm judge: not run" in out
    assert main(["labels", "agreement", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["llm_judge_run"] is False
    assert set(data["judges"]["rule"]["questions"]) == {"execution", "favor_type", "direct_request", "overeager"}
    assert data["judges"]["rule"]["questions"]["overeager"]["n"] == 12


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "l.jsonl"
    bad.write_text('{"recording": "x.jsonl", "trajectory": 0, "episode": 1, "question": "q", "label": ""}\n')
    assert main(["labels", "import", str(bad), "--into", str(tmp_path / "s.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "l.jsonl:1: question" in err
    assert main(["labels", "agreement", "--labels", str(tmp_path / "missing.csv")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["labels"]) == 2


def test_sample_writes_the_file_to_fill_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = Path(__file__).resolve().parents[3] / "scenarios" / "labels" / "recordings" / "mini-cautious-seed2.jsonl"
    out = tmp_path / "fill.jsonl"
    assert main(["labels", "sample", str(rec), "--n", "3", "--out", str(out)]) == 0
    assert "rows to fill in" in capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(r["label"] == "" for r in rows)


def test_a_csv_without_the_label_columns_names_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "hdr.csv"
    bad.write_text("foo,bar\n1,2\n")
    assert main(["labels", "import", str(bad)]) == 2
    assert "(its columns: foo, bar; expected: recording, " in capsys.readouterr().err
