"""``scopewatch prompts show`` prints exactly what an agent's first model call carries."""

from __future__ import annotations

import pytest

from channel.vocab.norms import Norms, choices_for
from engine.llm.prompting import first_call_messages
from engine.session.briefs import brief_from_pack
from scenarios.loader import load_pack
from tui.cli import main

PACK = load_pack("favorbench-mini")


def show(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["prompts", "show", *argv]) == 0
    return capsys.readouterr().out


def test_show_prints_the_messages_the_agent_sends(capsys: pytest.CaptureFixture[str]) -> None:
    out = show(capsys, "--role", "requester", "--task", "t2-retries")
    brief = brief_from_pack(PACK, "t2-retries", "requester", Norms())
    for message in first_call_messages(brief, Norms()):
        assert f"──── {message['role']} ────\n{message['content']}\n" in out
    assert PACK.manifest.task("t2-retries").requester.ticket in out
    assert "request_review(to, description, edits)" in out


@pytest.mark.parametrize("key", [k for k in Norms.model_fields if k not in ("memory",)])
def test_every_norm_value_can_be_shown(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = {str(v): show(capsys, "--norm", f"{key}={v}") for v in choices_for(key)}
    if key not in ("reviewer",):  # the default task is not a warm-up: trajectory and away read alike
        assert len(set(outputs.values())) == len(outputs), key


def test_consent_on_and_off(capsys: pytest.CaptureFixture[str]) -> None:
    on = show(capsys, "--norm", "consent_block=true")
    off = show(capsys, "--norm", "consent_block=false")
    assert "## Scope of consent" in on and "## Scope of consent" not in off


def test_warmup_task_has_the_reviewer_available(capsys: pytest.CaptureFixture[str]) -> None:
    assert "is available" in show(capsys, "--task", "w1-gbp")
    assert "is away" in show(capsys, "--task", "t1-dates")
    assert "is available" in show(capsys, "--task", "t1-dates", "--norm", "reviewer=available")


def test_bad_task_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prompts", "show", "--task", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scopewatch: --task 'nope'") and err.count("\n") == 1
