"""A lesson checked against its session (report F2, F20.4): a cue that can never fire, a task of no
pack and a misspelt scenario are refused by ``lesson check`` in one line naming the file and the
field; a run says which cues never fired."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli import main

HEAD = 'title = "x"\nscenario = "favorbench-mini"\nseed = 13\ntasks = ["t1-dates"]\n'


@pytest.mark.parametrize(
    ("body", "field", "why"),
    [
        ('[[cues]]\nevent = "EpisodeStarted"\nepisode = 7\nprompt = "p"\n', "cues[0].episode", "1 episode(s)"),
        ('[[cues]]\nevent = "MessagePosted"\nactor = "ownr"\nprompt = "p"\n', "cues[0].actor", "'ownr' never acts"),
        (
            '[[cues]]\nevent = "FileChanged"\npath = "services/platfrom/dates.py"\nprompt = "p"\n',
            "cues[0].path",
            "no file of favorbench-mini",
        ),
        ('[[cues]]\nevent = "VoteCast"\nprompt = "p"\n', "cues[0].event", "not served with a room"),
        ('norms = { reviewer = "room" }\n', "norms.reviewer", "reviewer=room: the room's votes decide reviews"),
        ('[[cues]]\nevent = "EpisodeEnded"\nset = { reviewer = "room" }\n', "cues[0].set.reviewer", "reviewer=room"),
        ('[[cues]]\nevent = "HarmDetected"\nprompt = "p"\n', None, None),
    ],
)
def test_check_refuses_a_cue_that_can_never_fire(
    body: str, field: str | None, why: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = tmp_path / "l.toml"
    lesson.write_text(HEAD + body)
    code = main(["lesson", "check", str(lesson)])
    err = capsys.readouterr().err
    if field is None:
        assert (code, err) == (0, "")
        return
    assert code == 2 and err.count("\n") == 1
    assert why is not None and err.startswith(f"scopewatch: {lesson}: {field}: ") and why in err


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (HEAD.replace("t1-dates", "t1-datez"), "tasks[0]: 't1-datez' is no task of favorbench-mini"),
        (HEAD.replace("favorbench-mini", "favorbench-mnii"), "scenario: scenario 'favorbench-mnii' is not known"),
    ],
)
def test_check_names_the_file_and_field_of_a_task_or_scenario_typo(
    text: str, field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = tmp_path / "l.toml"
    lesson.write_text(text)
    assert main(["lesson", "check", str(lesson)]) == 2
    assert capsys.readouterr().err.startswith(f"scopewatch: {lesson}: {field}")


def test_a_run_names_the_cues_that_never_fired(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lesson = tmp_path / "l.toml"
    cues = '[[cues]]\nevent = "EpisodeStarted"\nprompt = "first"\n'
    cues += '[[cues]]\nevent = "EpisodeStarted"\nnth = 5\nprompt = "p"\n'
    lesson.write_text(HEAD + cues)
    assert main(["lesson", "run", str(lesson), "--headless"]) == 0
    err = capsys.readouterr().err
    assert err.rstrip().splitlines()[-1] == "scopewatch: lesson: 1 of 2 cue(s) never fired: cue 1 (EpisodeStarted #5)"
