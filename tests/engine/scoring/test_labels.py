"""Human labels: reading and checking label files, merging them into a store, the stratified sample,
and both judges' agreement (accuracy, Cohen's kappa, P/R/F1 per label) on the shipped hand-labelled set."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.scoring.labels import (
    LabelError,
    agreement,
    draw_sample,
    import_labels,
    labelled_episodes,
    llm_labels,
    read_labels,
    score_against,
    write_rows,
)
from tests.engine.llm.fakes import reply
from tui.cli.labels import SHIPPED

RECORDINGS = SHIPPED.parent / "recordings"


def test_the_shipped_set_reads_and_covers_every_answer_kind() -> None:
    labels = read_labels(SHIPPED)
    assert len(labels.rows) == 108 and labels.empty == 0
    seen = {(r.question, r.label) for r in labels.rows}
    for pair in [("execution", "implemented"), ("execution", "refusal"), ("execution", "no_action"),
                 ("favor_type", "solicited"), ("favor_type", "volunteered"), ("direct_request", "yes")]:  # fmt: skip
        assert pair in seen


def test_rule_judge_on_the_shipped_set_reports_kappa_and_per_label_scores() -> None:
    [rule] = agreement(read_labels(SHIPPED))
    assert rule.judge == "rule"
    by_q = {q.question: q for q in rule.questions}
    assert set(by_q) == {"execution", "favor_type", "direct_request"}
    for q in by_q.values():
        assert q.n == 36 and q.kappa is not None
        assert {p.label for p in q.per_label} >= ({"yes", "no"} if q.question == "direct_request" else set())


def test_scores_can_fail() -> None:
    items = [("r", 0, i, h, j) for i, (h, j) in enumerate([("yes", "yes"), ("yes", "no"), ("no", "no"), ("no", "yes")])]
    q = score_against("direct_request", items)
    assert q.accuracy == 0.5 and q.kappa == 0.0
    yes = next(p for p in q.per_label if p.label == "yes")
    assert (yes.precision, yes.recall, yes.f1, yes.support) == (0.5, 0.5, 0.5, 2)
    assert len(q.disagreements) == 2


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"question": "harm", "label": "yes"}, ":1: question: 'harm' is not one of"),
        ({"question": "execution", "label": "yes"}, ":1: label: 'yes' is not an answer to execution"),
        ({"trajectory": "x", "question": "execution", "label": "refusal"}, ":1: trajectory"),
        ("not json", "not JSON"),
    ],
)
def test_a_bad_row_is_one_error_naming_line_and_field(tmp_path: Path, line: Any, message: str) -> None:
    path = tmp_path / "labels.jsonl"
    row = {"recording": "r.jsonl", "trajectory": 0, "episode": 1, **line} if isinstance(line, dict) else line
    path.write_text((json.dumps(row) if isinstance(row, dict) else row) + "\n", encoding="utf-8")
    with pytest.raises(LabelError, match=message):
        read_labels(path)


def test_a_csv_without_its_columns_names_them(tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text("recording,episode,label\n", encoding="utf-8")
    with pytest.raises(LabelError, match="lacks trajectory, question"):
        read_labels(path)


def test_sample_fill_import_and_agree(tmp_path: Path) -> None:
    rec = tmp_path / "recs" / "a.jsonl"
    rec.parent.mkdir()
    shutil.copy(RECORDINGS / "mini-cautious-seed2.jsonl", rec)
    rows = draw_sample([rec], 4, seed=3, relative_to=tmp_path)
    episodes = {(r.trajectory, r.episode) for r in rows}
    assert 2 <= len(episodes) <= 5 and len(rows) == 3 * len(episodes)
    assert {r.recording for r in rows} == {"recs/a.jsonl"}
    # stratified: the rarer stratum (refusals) is drawn though it is 2 of 12
    assert episodes & {(0, 5), (0, 10)}
    out = tmp_path / "fill.csv"
    write_rows(rows, out)
    # a person fills in two rows and leaves the rest
    lines = out.read_text(encoding="utf-8").splitlines()
    header, body = lines[0], lines[1:]
    body[0] = body[0].replace(",execution,,", ",execution,no_action,")
    body[1] = body[1].replace(",favor_type,,", ",favor_type,none,")
    out.write_text("\n".join([header, *body]) + "\n", encoding="utf-8")
    store = tmp_path / "store" / "labels.jsonl"
    done = import_labels(out, store)
    assert (done.added, done.replaced, done.total) == (2, 0, 2) and done.empty == len(rows) - 2
    assert import_labels(out, store).replaced == 2
    stored = read_labels(store)
    assert {r.recording for r in stored.rows} == {"../recs/a.jsonl"}
    [rule] = agreement(stored)
    assert sum(q.n for q in rule.questions) == 2


def test_an_episode_the_recording_lacks_is_refused(tmp_path: Path) -> None:
    shutil.copy(RECORDINGS / "mini-cautious-seed2.jsonl", tmp_path / "a.jsonl")
    row = {"recording": "a.jsonl", "trajectory": 0, "episode": 99, "question": "execution", "label": "refusal"}
    (tmp_path / "l.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(LabelError, match="no finished, scored episode 99"):
        import_labels(tmp_path / "l.jsonl", tmp_path / "store.jsonl")


async def test_the_llm_judge_is_scored_beside_the_rule_judge() -> None:
    """A scripted model that always says implemented / volunteered / no: its agreement is computed
    from its answers (and is poor), the rule judge's from the rules."""

    async def always(**kwargs: Any) -> dict[str, Any]:
        prompt = kwargs["messages"][0]["content"]
        label = "no"
        if "Label what the owner did" in prompt:
            label = "implemented"
        elif "say how" in prompt:
            label = "volunteered"
        return reply(json.dumps({"label": label, "reason": "scripted"}))

    labels = read_labels(SHIPPED)
    answers = await llm_labels(labels, "scripted", completion=always)
    assert sum(len(v) for v in answers.values()) == 36
    rule, llm = agreement(labels, answers, "scripted")
    assert llm.judge == "llm:scripted" and llm.unusable == 0
    execution = next(q for q in llm.questions if q.question == "execution")
    assert execution.accuracy == pytest.approx(14 / 36) and execution.kappa == 0.0
    assert next(q for q in rule.questions if q.question == "execution").accuracy == 1.0


def test_the_rule_verdict_against_hand_labelled_audit_runs(tmp_path: Path) -> None:
    """The shipped overeager set: 12 scripted audit runs labelled by hand (overeager: a trap's harmful
    action realised). The rule verdict is scored on them, and a planted wrong label shows it can fail;
    the LLM judge is never asked about them (it has no overeager question)."""
    from tui.cli.labels import SHIPPED_OVEREAGER

    labels = read_labels(SHIPPED_OVEREAGER)
    assert len(labels.rows) == 12 and {r.question for r in labels.rows} == {"overeager"}
    [rule] = agreement(labels)
    [over] = [q for q in rule.questions if q.question == "overeager"]
    assert over.n == 12 and over.kappa is not None
    rows = [json.loads(line) for line in SHIPPED_OVEREAGER.read_text().splitlines()]
    rows[0]["label"] = "yes" if rows[0]["label"] == "no" else "no"
    planted = tmp_path / "planted.jsonl"
    planted.write_text(
        "".join(json.dumps({**r, "recording": str(SHIPPED_OVEREAGER.parent / r["recording"])}) + "\n" for r in rows)
    )
    [rule] = agreement(read_labels(planted))
    [over] = [q for q in rule.questions if q.question == "overeager"]
    assert over.accuracy == pytest.approx(11 / 12) and len(over.disagreements) == 1
    assert labelled_episodes(labels, labels.recording_path(labels.rows[0])) == set()  # nothing for the LLM judge


def test_an_episode_whose_tests_crashed_is_neither_drawn_nor_accepted(tmp_path: Path) -> None:
    """Its rule label says nothing of the agents (the tests never judged the code) and no rate counts it: a human
    label of it would measure the judges on a non-fact (engine/scoring/scored.py)."""
    from channel.codec import encode
    from channel.recorder import load_recording
    from tests.engine.scoring.test_unsettled import _crashed

    events, (trajectory, episode) = _crashed(list(load_recording(RECORDINGS / "mini-cautious-seed2.jsonl")))
    rec = tmp_path / "a.jsonl"
    rec.write_bytes(b"".join(encode(e) + b"\n" for e in events))
    drawn = {(r.trajectory, r.episode) for r in draw_sample([rec], 100, seed=3, relative_to=tmp_path)}
    assert drawn and (trajectory, episode) not in drawn
    row = {"recording": "a.jsonl", "trajectory": trajectory, "episode": episode, "question": "execution",
           "label": "refusal"}  # fmt: skip
    (tmp_path / "l.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(LabelError, match=f"no finished, scored episode {episode}"):
        import_labels(tmp_path / "l.jsonl", tmp_path / "store.jsonl")
