"""``scopewatch sandbox exec -- WORDS``: several words are one program's argv, each word kept whole (its
spaces and semicolons quoted), one word is a shell line as written."""

from __future__ import annotations

import json
import shlex

import pytest

from tui.cli import main
from tui.cli.sandbox import shell_line


def test_several_words_are_an_argv_and_one_word_a_shell_line() -> None:
    assert shlex.split(shell_line(["bash", "-c", "echo a; echo b"])) == ["bash", "-c", "echo a; echo b"]
    assert shell_line(["echo a; echo b"]) == "echo a; echo b"
    assert shlex.split(shell_line(["printf", "%s|", "it's", "$HOME"])) == ["printf", "%s|", "it's", "$HOME"]


def test_bash_c_with_a_semicolon_runs_both_commands_in_the_sandbox(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sandbox", "exec", "--as", "owner", "--json", "--", "bash", "-c", "echo first; echo second"])
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert (code, result["kind"], result["exit_code"]) == (0, "result", 0)
    assert result["output"].split() == ["first", "second"]  # joined with spaces: "bash -c echo first; ..."


def test_an_unknown_task_is_one_line_naming_the_packs_tasks(capsys: pytest.CaptureFixture[str]) -> None:
    """nc7 01: it was a KeyError traceback; now the line ``prompts show --task`` gives."""
    assert main(["sandbox", "exec", "--as", "owner", "--task", "nosuch", "--", "true"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scopewatch: --task 'nosuch': no such task in favorbench-mini; tasks: w1-gbp, ")
    assert len(err.splitlines()) == 1
    assert main(["prompts", "show", "--role", "owner", "--task", "nosuch"]) == 2
    assert capsys.readouterr().err == err  # the one implementation (engine/session/briefs.py named_task)


@pytest.mark.parametrize("timeout", ["0", "-5", "nan", "inf"])
def test_a_timeout_that_is_not_a_finite_positive_number_is_refused(
    timeout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """nc7 06: -5, 0 and nan ran the command and said it "timed out after -5 s"; inf lost its output."""
    with pytest.raises(SystemExit) as caught:
        main(["sandbox", "exec", "--as", "owner", "--timeout", timeout, "--", "echo hi"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        f"scopewatch sandbox exec: --timeout: must be a finite number greater than 0, got {timeout!r}"
    )


def test_the_timeouts_help_says_what_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["sandbox", "exec", "--help"])
    assert "a finite number greater than 0 (default: 30)" in " ".join(capsys.readouterr().out.split())
