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
