"""The command line as a newcomer meets it: one-line usage errors with exit code 2, and help text on
every option."""

from __future__ import annotations

import argparse

import pytest

from tui.cli import build_parser, main


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--seed", "abc"],
        ["run", "--trajectories", "0"],
        ["deom"],
        ["replay", "r.jsonl", "--speed", "nan"],
        ["replay", "r.jsonl", "--speed", "inf"],
        ["replay", "r.jsonl", "--speed", "0"],
        ["scenarios", "lst"],
        ["run", "--persona", "nobody"],
        ["run", "--headless", "--api-base", "not a url"],
        ["overeager", "run", "--api-base", "localhost:8080"],
        ["overeager", "run", "--api-base", "http://127.0.0.1:99999/v1"],  # no such port (outside tester F9)
        ["run", "--headless", "--api-base", "http://127.0.0.1:0/v1"],
    ],
)
def test_a_usage_error_is_one_line_on_stderr_with_exit_code_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("scopewatch")
    assert "usage:" not in captured.err


def _parsers(parser: argparse.ArgumentParser, path: str = "scopewatch") -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _parsers(sub, f"{path} {name}")
    return found


def test_every_option_has_help_text() -> None:
    missing = [
        f"{path} {action.option_strings or action.dest}"
        for path, parser in _parsers(build_parser())
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction) and not action.help
    ]
    assert missing == []


def test_defaults_are_shown_in_help() -> None:
    text = dict(_parsers(build_parser()))["scopewatch web"].format_help()
    assert "(default: localhost)" in " ".join(text.split()) and "(default: 8000)" in text


def test_watch_help_names_every_token_kind() -> None:
    """A student joins with the watcher token or their own member token; the help named instructor and reviewer
    only (newcomer5 14)."""
    text = " ".join(dict(_parsers(build_parser()))["scopewatch watch"].format_help().split())
    options = text[text.index("options:") :]
    token = options[options.index("--token TOKEN") : options.index("--key")]
    assert all(kind in token for kind in ("instructor", "reviewer", "watcher", "member")), token


def test_no_flag_shows_a_default() -> None:
    """A flag's default is no value to show: ``--no-stream`` once read "(default: True)"."""
    shown = [
        f"{path} {action.option_strings}"
        for path, parser in _parsers(build_parser())
        for action in parser._actions
        if action.nargs == 0
        and action.option_strings
        and "(default:" in (parser._get_formatter()._get_help_string(action) or "")
    ]
    assert shown == []


def test_no_help_names_its_default_twice() -> None:
    twice = [
        f"{path} {action.option_strings}"
        for path, parser in _parsers(build_parser())
        for action in parser._actions
        if (parser._get_formatter()._get_help_string(action) or "").count("(default:") > 1
    ]
    assert twice == []


def test_run_takes_an_audit_scenario_by_its_id(capsys: pytest.CaptureFixture[str]) -> None:
    """``run --scenario <audit id>`` (issue 13) is not a pack: its norms come from the audit session."""
    import json

    assert main(["run", "--headless", "--scenario", "git-typo-commit-039", "--persona", "overeager", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["overeager"]["runs"] >= 1


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"scopewatch {metadata.version('scopewatch')}"


@pytest.mark.parametrize("norm", ["reviewer=human", "permission_gate=human"])
def test_a_person_s_norm_is_refused_headless_in_one_line(norm: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An outside tester's ``run --headless --norm reviewer=human`` waited for ever for a person with no screen."""
    assert main(["run", "--headless", "--norm", norm]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"scopewatch: {norm}: a person")


def test_ctrl_c_before_work_began_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C early in ``scenarios validate`` printed "interrupted", then Python's warning for each coroutine made but
    never awaited (newcomer4 08)."""
    import gc
    import warnings

    import tui.cli.report as report_cli

    def interrupted(args: object) -> int:
        async def work() -> None:
            pass

        made = [work() for _ in range(3)]  # as a batch of checks is, before it is awaited
        assert made
        raise KeyboardInterrupt

    monkeypatch.setattr(report_cli, "report", interrupted)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        assert main(["report", "x.jsonl"]) == 130
        gc.collect()
    assert capsys.readouterr().err == "scopewatch: interrupted\n"
    assert not [w for w in caught if "never awaited" in str(w.message)], [str(w.message) for w in caught]


@pytest.mark.parametrize("typed", ["overeager", "audit"])
def test_an_unknown_audit_scenario_points_to_the_list_of_the_command_typed(
    typed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """nc7 nit: ``overeager show nosuch`` pointed to 'scopewatch audit list' (the alias) and a file name."""
    assert main([typed, "show", "nosuch"]) == 2
    assert capsys.readouterr().err == f"scopewatch: no audit scenario 'nosuch' (see 'scopewatch {typed} list')\n"


def test_the_scenarios_summary_names_every_action(capsys: pytest.CaptureFixture[str]) -> None:
    """nc7 nit: the summary left out ``build``, which the list below it names."""
    with pytest.raises(SystemExit):
        main(["scenarios", "--help"])
    summary = " ".join(capsys.readouterr().out.split("positional arguments")[0].split())
    for action in ("List", "validate", "trajectories", "regenerate FavorBench", "build the CooperBench pack"):
        assert action in summary, action
