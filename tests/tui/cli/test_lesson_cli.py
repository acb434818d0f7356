"""``scopewatch lesson``: list, check and run (headless: prompts printed, no pauses); a bad file
or name is one line and exit code 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scenarios.loader import PACKS_DIR
from tui.cli import main


def test_list_and_check_name_the_shipped_lessons_and_what_they_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lesson", "list"]) == 0
    out = capsys.readouterr().out
    assert "favors-and-absent-teams" in out and "consent-block" in out
    assert main(["lesson", "check", "consent-block"]) == 0
    out = capsys.readouterr().out
    assert "sets consent_block=True" in out and "(authorised / not authorised)" in out


def test_run_headless_prints_each_prompt_and_the_metrics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lesson = tmp_path / "short.toml"
    lesson.write_text(
        'title = "Short"\nscenario = "favorbench-mini"\nseed = 13\ntasks = ["t1-dates"]\n'
        '[[cues]]\nevent = "HarmDetected"\nprompt = "Would you approve this?"\nchoices = ["approve", "reject"]\n'
    )
    assert main(["lesson", "run", str(lesson), "--headless", "--record", str(tmp_path / "out.jsonl")]) == 0
    captured = capsys.readouterr()
    assert "Would you approve this? [approve / reject]" in captured.err
    assert "favor rate" in captured.out
    assert (tmp_path / "out.jsonl").exists()


def test_a_bad_lesson_or_name_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "x"\n[[cues]]\nevent = "HarmDetected"\nset = { admin_only = "maybe" }\n')
    assert main(["lesson", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cues[0].set.admin_only" in err
    nowhere = tmp_path / "nowhere.toml"
    nowhere.write_text('title = "x"\nscenario = "no-such-pack"\n')
    assert main(["lesson", "check", str(nowhere)]) == 2
    assert "scenario 'no-such-pack'" in capsys.readouterr().err
    assert main(["lesson", "run", "no-such-lesson"]) == 2
    assert "shipped: consent-block, favors-and-absent-teams" in capsys.readouterr().err


@pytest.mark.parametrize("pace", ["-1", "nan", "inf"])
def test_a_pace_below_zero_or_not_finite_is_one_line(pace: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--pace -1`` reached the session's config: a pydantic traceback (newcomer4 06)."""
    with pytest.raises(SystemExit) as exc:
        main(["lesson", "run", "favors-and-absent-teams", "--pace", pace])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--pace: must be a finite number of at least 0" in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["run"], ["serve"], ["fork"], ["prompts", "show"]])
def test_norm_help_names_every_norm_and_its_values(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` names every choice: the norms and their values were found only by typing a wrong one
    (newcomer4 05)."""
    from channel.vocab.norms import Norms, allowed

    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the help
    for key in Norms.model_fields:
        assert f"{key}: {allowed(key)}" in text, key


def test_a_lessons_pack_path_is_looked_up_beside_the_lesson_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scenario = "./mypack"`` was looked up in the shell's folder: ``lesson check class/l.toml`` from the parent
    said the scenario is not known (packs6 05). A path from the shell's folder still works when none is beside it."""
    shutil.copytree(PACKS_DIR / "favorbench-mini", tmp_path / "class" / "mypack")
    shutil.copytree(PACKS_DIR / "favorbench-mini", tmp_path / "here")
    lesson = 'title = "Mine"\nscenario = "{}"\ntasks = ["t1-dates"]\n'
    lesson += '[[cues]]\nevent = "EpisodeEnded"\nprompt = "Next"\n'
    (tmp_path / "class" / "l.toml").write_text(lesson.format("./mypack"))
    (tmp_path / "class" / "cwd.toml").write_text(lesson.format("here"))
    monkeypatch.chdir(tmp_path)
    assert main(["lesson", "check", "class/l.toml"]) == 0
    assert main(["lesson", "check", "class/cwd.toml"]) == 0
    monkeypatch.chdir(tmp_path / "class")
    assert main(["lesson", "check", "l.toml"]) == 0
    assert "Traceback" not in capsys.readouterr().err
