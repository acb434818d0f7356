"""A recording exported as an Inspect AI log reads back with inspect_ai's own reader (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from channel.recorder import load_recording
from engine.scoring.metrics import score
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"


def test_an_exported_run_has_one_sample_per_scored_episode_with_its_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai.log import read_eval_log

    out = tmp_path / "run.eval"
    assert main(["export", str(GOLDEN), "--format", "inspect", "-o", str(out)]) == 0
    assert "10 samples" in capsys.readouterr().err
    log = read_eval_log(str(out))
    metrics = score(load_recording(GOLDEN))
    scored = [lab for lab in metrics.labels if lab.variant != "warmup"]
    assert log.status == "success" and log.samples is not None
    assert len(log.samples) == metrics.episodes == len(scored)
    samples = {sample.id: sample for sample in log.samples}
    for label in scored:
        sample = samples[f"ep{label.episode}-{label.task_id}"]
        assert sample.scores is not None
        assert sample.scores["favor"].value == int(label.favor)
        assert sample.scores["harm"].value == int(label.harm)
        assert sample.metadata["label"]["execution_type"] == label.execution_type
        assert any(m.role == "tool" for m in sample.messages)  # the tool calls and their results
    assert log.results is not None
    favor = next(s for s in log.results.scores if s.name == "favor")
    assert favor.metrics["mean"].value == pytest.approx(metrics.favor_rate)
    assert log.eval.metadata is not None and len(log.eval.metadata["recording"]["sha256"]) == 64
    assert "pack_hash" not in log.eval.metadata  # recorded before packs were hashed


def test_export_names_the_pack_by_its_hash(tmp_path: Path) -> None:
    """Two packs of one name are told apart in Inspect's log too (packs5 08)."""
    from inspect_ai.log import read_eval_log

    from channel.codec import encode

    events = load_recording(GOLDEN)
    hashed = tmp_path / "hashed.jsonl"
    start = events[0].model_copy(update={"pack_hash": "c" * 64})
    hashed.write_bytes(b"".join(encode(e) + b"\n" for e in [start, *events[1:]]))
    out = tmp_path / "run.eval"
    assert main(["export", str(hashed), "--format", "inspect", "-o", str(out)]) == 0
    metadata = read_eval_log(str(out)).eval.metadata
    assert metadata is not None and metadata["pack_hash"] == "c" * 64


def test_export_refuses_to_overwrite_and_names_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.eval"
    out.write_text("keep me")
    assert main(["export", str(GOLDEN), "-o", str(out)]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and out.read_text() == "keep me"


def _cut(tmp_path: Path, *, reason: str | None) -> Path:
    """The golden recording cut after its fourth episode; ended with ``reason`` or not at all."""
    from channel.codec import encode
    from channel.events import EpisodeEnded, SessionEnded

    events = load_recording(GOLDEN)
    ends = [i for i, e in enumerate(events) if isinstance(e, EpisodeEnded)]
    head = events[: ends[3] + 3]
    if reason is not None:
        head.append(SessionEnded(session=head[0].session, seq=head[-1].seq + 1, ts=head[-1].ts, reason=reason))
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(encode(e) + b"\n" for e in head))
    return path


@pytest.mark.parametrize(
    ("reason", "status", "line"), [(None, "error", "PARTIAL"), ("cancelled", "cancelled", "CANCELLED")]
)
def test_an_unfinished_run_is_not_exported_as_a_success(
    reason: str | None, status: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai.log import read_eval_log

    out = tmp_path / "cut.eval"
    assert main(["export", str(_cut(tmp_path, reason=reason)), "-o", str(out)]) == 0
    assert capsys.readouterr().err.startswith(f"scopewatch: {line}: ")
    log = read_eval_log(str(out))
    assert log.status == status
    assert (log.error is not None and log.error.message.startswith("PARTIAL")) == (reason is None)


def test_the_harm_score_says_it_is_harms_per_episode(tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log

    out = tmp_path / "run.eval"
    assert main(["export", str(GOLDEN), "-o", str(out)]) == 0
    results = read_eval_log(str(out)).results
    assert results is not None
    harm = next(s for s in results.scores if s.name == "harm")
    assert harm.metadata is not None and harm.metadata["description"].startswith("harms per episode")


def test_each_sample_has_the_overeager_verdict_as_a_score(tmp_path: Path) -> None:
    """Metrics review 4, finding 5: the verdict the module docstring promises is a score of each sample,
    its mean the share of episodes with an overeager agent, ``agent_run_rate`` report's overeager rate."""
    from inspect_ai.log import read_eval_log

    out = tmp_path / "run.eval"
    assert main(["export", str(GOLDEN), "-o", str(out)]) == 0
    log = read_eval_log(str(out))
    metrics = score(load_recording(GOLDEN))
    assert metrics.overeager.overeager  # the golden run has overeager agent runs
    assert log.samples is not None and log.results is not None
    for sample in log.samples:
        assert sample.scores is not None and sample.metadata is not None
        verdicts = sample.metadata["verdicts"]
        assert sample.scores["overeager"].value == int(any(v["overeager"] for v in verdicts))
    fired = {(v.episode, v.agent) for v in metrics.verdicts if v.overeager and v.variant != "warmup"}
    shown = {(int(str(s.id)[2:].split("-")[0]), v["agent"]) for s in log.samples for v in s.metadata["verdicts"]
             if v["overeager"]}  # fmt: skip
    assert shown == fired
    overeager = next(s for s in log.results.scores if s.name == "overeager")
    assert overeager.metrics["agent_run_rate"].value == metrics.overeager.overeager_rate
    episodes = {v.episode for v in metrics.verdicts if v.overeager and v.variant != "warmup"}
    assert overeager.metrics["mean"].value == pytest.approx(len(episodes) / len(log.samples))


def test_a_log_with_no_scored_sample_has_no_mean(tmp_path: Path) -> None:
    """A mean over no sample is no number (``report --json`` gives null), not 0."""
    from inspect_ai.log import read_eval_log

    from channel.codec import encode
    from channel.events import EpisodeEnded

    events = load_recording(GOLDEN)
    head = events[: [type(e) for e in events].index(EpisodeEnded)]
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(encode(e) + b"\n" for e in head))
    out = tmp_path / "run.eval"
    assert main(["export", str(cut), "-o", str(out)]) == 0
    results = read_eval_log(str(out)).results
    assert results is not None and results.scores and all(not s.metrics for s in results.scores)
    assert results.metadata is not None and results.metadata["summary"]["favor_rate"] is None
