"""The LLM judge beside the rule judge, and Cohen's kappa."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.scoring.judge_answers import parse_answer
from engine.scoring.llm_judge import (
    cohen_kappa,
    compare,
    judge_prompt,
    judge_recording,
    split_episodes,
)
from engine.scoring.metrics import score
from engine.session.loop import Session
from tests.engine.llm.fakes import Sleeps, reply
from tui.cli.report import print_judge_comparison


def test_kappa_textbook_example() -> None:
    # 50 items: both yes 20, A yes / B no 5, A no / B yes 10, both no 15 -> po 0.7, pe 0.5, kappa 0.4
    a = ["yes"] * 25 + ["no"] * 25
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)


def test_kappa_edges() -> None:
    assert cohen_kappa(["a", "b", "c"], ["a", "b", "c"]) == pytest.approx(1.0)
    assert cohen_kappa(["a", "b"], ["b", "a"]) == pytest.approx(-1.0)
    assert cohen_kappa(["a", "a"], ["a", "a"]) is None  # one label only: kappa undefined
    assert cohen_kappa([], []) is None
    with pytest.raises(ValueError):
        cohen_kappa(["a"], [])


def test_parse_answer() -> None:
    assert parse_answer("execution", '```json\n{"label": "implemented", "reason": "edited"}\n```') == (
        "implemented",
        "edited",
    )
    assert parse_answer("execution", '{"label": "No Action"}')[0] == "no_action"
    assert parse_answer("direct_request", '{"label": "maybe"}')[0] is None
    assert parse_answer("favor_type", "I think solicited")[0] is None
    assert parse_answer("favor_type", "{label: solicited}")[0] is None


@pytest.fixture(scope="module")
def recording() -> list[Any]:
    import asyncio

    async def run() -> list[Any]:
        config = SessionConfig(tasks=("w1-gbp", "t1-dates", "t1-dates-twin", "t2-retries", "s1-cart-ttl"), seed=3)
        session = Session(config, InProcessBus())
        events: list[Any] = []
        session.emitter.add_listener(events.append)
        await session.run()
        return events

    return asyncio.run(run())


class RuleAnswers:
    """A fake judge model that answers with the rule judge's labels, except where told otherwise."""

    def __init__(self, events: list[Any], wrong: dict[tuple[str, str], str] | None = None) -> None:
        self.labels = {lab.task_id: lab for lab in score(events).labels}
        self.direct = {lab.task_id: lab.direct_request for lab in score(events).labels}
        self.wrong = wrong or {}
        self.calls = 0

    async def __call__(self, **kwargs: Any) -> Any:
        self.calls += 1
        prompt = kwargs["messages"][0]["content"]
        label: str
        task = re.search(r"\(Task (\S+)\. ", prompt).group(1)  # type: ignore[union-attr]
        lab = self.labels[task]
        if "Label what the owner did" in prompt:
            question, label = "execution", lab.execution_type
        elif "say how the need reached the owner" in prompt:
            question, label = "favor_type", lab.favor_type or "none"
        else:
            question, label = "direct_request", "yes" if self.direct[task] else "no"
        label = self.wrong.get((task, question), label)
        return reply(json.dumps({"label": label, "reason": "because"}), prompt=50, completion=10)


def test_transcript_shows_what_the_judge_needs(recording: list[Any]) -> None:
    episodes = split_episodes(recording)
    assert [ep.start.task_id for ep in episodes] == ["w1-gbp", "t1-dates", "t1-dates-twin", "t2-retries", "s1-cart-ttl"]
    prompt = judge_prompt("execution", episodes[1])
    assert "requester" in prompt and "owner" in prompt and "$" not in prompt
    assert "(Task t1-dates." in prompt
    assert ", ".join(episodes[1].start.beneficiary_paths) in prompt


async def test_a_judge_that_agrees_with_the_rules(recording: list[Any]) -> None:
    fake = RuleAnswers(recording)
    labels = await judge_recording(recording, "openai/gpt-4o-mini", completion=fake)
    assert fake.calls == 3 * len(labels) == 15
    result = compare(recording, score(recording).labels, labels, "openai/gpt-4o-mini")
    for agreement in result.agreements:
        assert agreement.accuracy == 1.0 and agreement.disagreements == []
        assert agreement.kappa in (1.0, None)
    assert result.usage.calls == 15 and result.usage.tokens == 15 * 60


async def test_disagreements_lower_kappa_and_are_listed(recording: list[Any]) -> None:
    rules = {lab.task_id: lab for lab in score(recording).labels}
    flip = next(t for t, lab in rules.items() if lab.execution_type != "refusal")
    fake = RuleAnswers(recording, wrong={(flip, "execution"): "refusal", ("t2-retries", "favor_type"): "bogus"})
    labels = await judge_recording(recording, "m", completion=fake)
    result = compare(recording, list(rules.values()), labels, "m")
    execution = next(a for a in result.agreements if a.question == "execution")
    favor = next(a for a in result.agreements if a.question == "favor_type")
    assert execution.accuracy is not None and execution.accuracy < 1.0
    assert execution.kappa is None or execution.kappa < 1.0
    assert [d[2] for d in execution.disagreements] == ["refusal"]
    assert favor.n == len(labels) - 1  # the unusable answer is left out
    assert result.unusable == 1
    assert "episode" in result.table() and "rule " in result.table()


async def test_provider_errors_are_retried_then_recorded() -> None:
    class RateLimitError(Exception):
        pass

    from engine.scoring.llm_judge import EpisodeEvents, judge_episode

    calls: list[int] = []

    async def flaky(**kwargs: Any) -> Any:
        calls.append(1)
        raise RateLimitError("slow down")

    from channel.events import EpisodeStarted

    ep = EpisodeEvents(
        EpisodeStarted(session="s", trajectory=0, episode=1, task_id="t", variant="trap", reviewer_available=False),
        "requester",
        "owner",
        "platform",
    )
    sleeps = Sleeps()
    label = await judge_episode(ep, "m", completion=flaky, retries=2, sleep=sleeps)
    assert len(calls) == 9 and len(sleeps.delays) == 6
    assert label.execution is None and label.errors["execution"].startswith("rate_limit")


def test_the_judge_comparison_prints_metrics_and_agreement(
    recording: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    metrics = score(recording)
    print_judge_comparison(recording, metrics, "openai/gpt-4o-mini", completion=RuleAnswers(recording))
    out = capsys.readouterr().out
    assert "favor rate (EF)" in out and "LLM judge openai/gpt-4o-mini: 5 episodes" in out
    assert re.search(r"execution\s+5\s+100%", out)
    print_judge_comparison(recording, metrics, "m", as_json=True, completion=RuleAnswers(recording))
    data = json.loads(capsys.readouterr().out)
    assert data["judge"]["agreement"]["execution"]["accuracy"] == 1.0
    assert data["metrics"]["episodes"] == metrics.episodes


def test_report_judge_from_the_command_line(
    recording: list[Any], tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import engine.scoring.llm_judge as llm_judge
    from channel.recorder import Recorder
    from tui.cli import main

    path = tmp_path / "run.jsonl"
    recorder = Recorder(path)
    for event in recording:
        recorder.write(event)
    recorder.close()
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["report", str(path), "--judge", "openai/gpt-4o-mini"]) == 2
    err = capsys.readouterr().err
    assert "OPENAI_API_KEY" in err and err.count("\n") == 1

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-000000")
    monkeypatch.setattr(llm_judge, "litellm_completion", RuleAnswers(recording))
    assert main(["report", str(path), "--judge", "openai/gpt-4o-mini"]) == 0
    out = capsys.readouterr().out
    assert "favor rate (EF)" in out and "agreement with the rule judge" in out


def test_the_llm_judge_can_be_primary(recording: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    """``--judge llm:MODEL``: the metrics come from the LLM judge's labels (here it calls one of the
    rule judge's favors no action), and the agreement with the rule judge is still reported."""
    metrics = score(recording)
    favor = next(lab for lab in metrics.labels if lab.favor and lab.variant != "warmup")
    wrong = RuleAnswers(recording, wrong={(favor.task_id, "execution"): "no_action"})
    print_judge_comparison(recording, metrics, "m", as_json=True, primary=True, completion=wrong)
    data = json.loads(capsys.readouterr().out)
    assert data["metrics"]["favors"] == metrics.favors - 1
    assert data["judge"]["agreement"]["execution"]["accuracy"] < 1.0
    print_judge_comparison(recording, metrics, "m", as_json=True, completion=wrong)
    assert json.loads(capsys.readouterr().out)["metrics"]["favors"] == metrics.favors  # rule judge primary


def test_the_llm_judge_primary_leaves_out_the_episodes_report_does(
    recording: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """``--judge llm:MODEL`` scored its labels again without the unscored episodes (a test run crashed in them,
    engine/scoring/unsettled.py): they were back in its rates, though ``report`` leaves them out
    (engine/scoring/scored.py)."""
    events, _ = _with_a_crash(recording)
    metrics = score(events)
    assert len(metrics.unscored) == 1 and metrics.episodes == score(recording).episodes - 1
    print_judge_comparison(events, metrics, "m", as_json=True, primary=True, completion=RuleAnswers(recording))
    primary = json.loads(capsys.readouterr().out)["metrics"]
    assert primary["episodes"] == metrics.episodes  # was one more: the unscored episode counted
    assert primary["favors"] == metrics.favors and len(primary["unscored"]) == 1


def test_the_agreement_leaves_out_crashed_episodes_and_asks_nothing_of_them(
    recording: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """An episode whose test run crashed is in no rate, and the rule judge's label there says nothing of the agents
    (its tests never judged the code): the judges' agreement was measured on it too, and the LLM was asked about it."""
    events, first = _with_a_crash(recording)
    metrics = score(events)
    fake = RuleAnswers(recording)
    print_judge_comparison(events, metrics, "m", as_json=True, completion=fake)
    judged = json.loads(capsys.readouterr().out)["judge"]
    assert fake.calls == 3 * (len(split_episodes(events)) - 1)  # nothing asked of the crashed episode
    assert judged["left_out_episodes"] == 1 and judged["episodes"] == len(split_episodes(events)) - 1
    assert judged["agreement"]["execution"]["n"] == len(split_episodes(events)) - 1
    assert all((lab["trajectory"], lab["episode"]) != (first.trajectory, first.episode) for lab in judged["labels"])
    print_judge_comparison(events, metrics, "m", completion=RuleAnswers(recording))
    assert "1 episodes left out (a crashed test run" in capsys.readouterr().out


def _with_a_crash(recording: list[Any]) -> tuple[list[Any], Any]:
    """The recording with a crashed test run in its first scored episode (engine/scoring/unsettled.py), and that
    episode's start."""
    from channel.events import EpisodeStarted, FailingTest, SuiteRan

    crash = "test process crashed (exit code 1): PermissionError: [Errno 13] Permission denied: '/var/tmp/x/tmp/'"
    first = next(e for e in recording if isinstance(e, EpisodeStarted) and e.variant != "warmup")
    at = recording.index(first) + 1
    failed = (FailingTest(test="contract/t.py::t", last_line=crash),)
    crashed = SuiteRan(session=first.session, seq=first.seq, ts=first.ts, actor="engine", suite="contract",
                       team="inventory", episode=first.episode, failed=failed)  # fmt: skip
    return [*recording[:at], crashed, *recording[at:]], first
