"""Human labels for the favor judge, and how well the rule judge and the LLM judge agree with them
(seed 000 C.6: each judge against human reference labels; seed 003 §5.2 draws 50 stratified runs).

A label file (CSV with a header, or JSONL) holds one row per (recording, trajectory, episode,
question): ``question`` is one of :data:`LABELS`: the LLM judge's three
(:data:`~engine.scoring.judge_answers.QUESTIONS`: ``execution``, ``favor_type``, ``direct_request``)
or ``overeager`` (seed 003's verdict of an audit run: yes / no, answered by the rule verdict only), and
``label`` one of its answers. ``recording`` is a
path relative to the label file's folder. Rows with an empty label (a sample not filled in yet) are
skipped and counted.

- :func:`read_labels` reads and checks a file (one error naming the file, line and field);
- :func:`import_labels` checks each row against its recording (the episode is there and finished)
  and merges the rows into a store (a later row for the same item replaces the earlier one);
- :func:`draw_sample` draws a stratified sample of finished episodes (strata: the rule judge's
  execution type x favor type, each stratum at least once) and returns the rows to fill in; an episode with a
  crashed test run or a model that never answered (:func:`engine.scoring.scored.left_out`) is never drawn nor
  accepted: the rule judge's label says nothing of the agents there;
- :func:`agreement` scores each judge against the human labels: accuracy, Cohen's kappa, and per
  label precision / recall / F1 (the human label is the truth).
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator

from channel.errors import ScopewatchError
from channel.recorder import RecordingError, load_recording
from engine.llm.client import Completion
from engine.scoring.judge import EpisodeLabel, judge
from engine.scoring.judge_answers import QUESTIONS
from engine.scoring.llm_judge import JudgeLabel, cohen_kappa, judge_episode, split_episodes
from engine.scoring.scored import left_out
from engine.scoring.unsettled import UnsettledMeter
from engine.scoring.verdicts import verdicts

LABELS: dict[str, tuple[str, ...]] = {**QUESTIONS, "overeager": ("yes", "no")}
"""The questions a person answers: the LLM judge's three, and whether an audit run is overeager (seed
003 §3 and appendix I: a trap's harmful action was realised), which the rule verdict answers (§5.2)."""

FIELDS = ("recording", "trajectory", "episode", "question", "label", "annotator", "note")
"""The columns of a label file, in the order ``draw_sample`` writes them."""


class LabelError(ScopewatchError):
    """A label file or its recordings cannot be read, or a row does not fit its recording."""


class HumanLabel(BaseModel):
    """One person's answer to one judge question about one episode of a recording."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    recording: str
    trajectory: int
    episode: int
    question: str
    label: str
    annotator: str = ""
    note: str = ""

    @field_validator("question")
    @classmethod
    def _question(cls, value: str) -> str:
        if value not in LABELS:
            raise ValueError(f"{value!r} is not one of {', '.join(LABELS)}")
        return value

    @field_validator("label")
    @classmethod
    def _label(cls, value: str, info: ValidationInfo) -> str:
        question = info.data.get("question")
        if value and question in LABELS and value not in LABELS[question]:
            raise ValueError(f"{value!r} is not an answer to {question} ({', '.join(LABELS[question])})")
        return value

    @property
    def key(self) -> tuple[str, int, int, str]:
        return (self.recording, self.trajectory, self.episode, self.question)


@dataclass
class LabelFile:
    """The labelled rows of a file, where its recordings are, and how many rows were left empty."""

    path: Path
    rows: list[HumanLabel]
    empty: int = 0

    @property
    def base(self) -> Path:
        """The folder the rows' recording paths are relative to (a folder of label files: itself)."""
        return self.path if self.path.is_dir() else self.path.parent

    def recording_path(self, row: HumanLabel) -> Path:
        return (self.base / row.recording).resolve()


def _raw_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LabelError(f"{path}: cannot read: {exc.strerror}") from None
    if path.suffix.lower() == ".csv":
        reader = csv.DictReader(io.StringIO(text))
        header = reader.fieldnames or []
        missing = [f for f in ("recording", "trajectory", "episode", "question", "label") if f not in header]
        if missing:
            has = ", ".join(header) or "none"
            raise LabelError(
                f"{path}: the CSV header lacks {', '.join(missing)} (its columns: {has}; expected: {', '.join(FIELDS)})"
            )
        return [(n + 2, {k: v for k, v in row.items() if k and v is not None}) for n, row in enumerate(reader)]
    rows = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LabelError(f"{path}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise LabelError(f"{path}:{n}: a row is a JSON object")
        rows.append((n, data))
    return rows


def read_labels(path: str | Path) -> LabelFile:
    """The rows of a CSV or JSONL label file, checked; rows with an empty label are counted, not kept.
    A folder: the rows of each ``*.csv`` and ``*.jsonl`` file in it (recordings relative to it)."""
    path = Path(path)
    out = LabelFile(path, [])
    if path.is_dir():
        for file in sorted([*path.glob("*.jsonl"), *path.glob("*.csv")]):
            one = read_labels(file)
            out.rows += one.rows
            out.empty += one.empty
        return out
    for n, data in _raw_rows(path):
        try:
            row = HumanLabel.model_validate({k: (v.strip() if isinstance(v, str) else v) for k, v in data.items()})
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "row"
            raise LabelError(f"{path}:{n}: {where}: {err['msg'].removeprefix('Value error, ')}") from None
        if row.label:
            out.rows.append(row)
        else:
            out.empty += 1
    return out


@dataclass
class _Recording:
    events: list[Any]
    labels: dict[tuple[int, int], EpisodeLabel]
    overeager: dict[tuple[int, int], bool]
    """Per finished audit episode: whether any active agent's verdict is overeager."""

    def answer(self, row: HumanLabel) -> str | None:
        """The rule judge's answer to ``row``'s question (None: the episode is not scored)."""
        key = (row.trajectory, row.episode)
        if row.question == "overeager":
            return None if key not in self.overeager else ("yes" if self.overeager[key] else "no")
        lab = self.labels.get(key)
        return None if lab is None else rule_answer(row.question, lab)


def _load(path: Path, cache: dict[Path, _Recording]) -> _Recording:
    if path not in cache:
        try:
            events = list(load_recording(path))
        except RecordingError as exc:
            raise LabelError(str(exc)) from None
        except OSError as exc:
            raise LabelError(f"{path}: cannot read the recording: {exc.strerror}") from None
        overeager: dict[tuple[int, int], bool] = {}
        for v in verdicts(events):
            key = (v.trajectory, v.episode)
            overeager[key] = overeager.get(key, False) or v.overeager
        judged = judge(events)
        crashed = UnsettledMeter()
        for event in events:
            crashed.feed(event)
        out = left_out(judged, crashed.unscored.values())  # no rate counts them: the rule judge's label is no fact
        labels = {(lab.trajectory, lab.episode): lab for lab in judged if (lab.trajectory, lab.episode) not in out}
        cache[path] = _Recording(events, labels, overeager)
    return cache[path]


@dataclass(frozen=True)
class Imported:
    """What :func:`import_labels` did."""

    added: int
    replaced: int
    empty: int
    total: int


def import_labels(source: str | Path, store: str | Path) -> Imported:
    """Check ``source``'s rows against their recordings and merge them into ``store`` (JSONL, made
    when missing); recording paths are rewritten relative to the store's folder."""
    labels = read_labels(source)
    store = Path(store)
    old = read_labels(store).rows if store.exists() else []
    merged = {row.key: row for row in old}
    cache: dict[Path, _Recording] = {}
    added = replaced = 0
    for row in labels.rows:
        path = labels.recording_path(row)
        if _load(path, cache).answer(row) is None:
            raise LabelError(
                f"{labels.path}: {row.recording} has no finished, scored episode {row.episode} "
                f"in trajectory {row.trajectory}"
            )
        moved = row.model_copy(update={"recording": os.path.relpath(path, store.resolve().parent)})
        replaced += moved.key in merged
        added += moved.key not in merged
        merged[moved.key] = moved
    store.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r.model_dump(), ensure_ascii=False) for r in sorted(merged.values(), key=lambda r: r.key)]
    store.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return Imported(added, replaced, labels.empty, len(merged))


def draw_sample(recordings: Sequence[str | Path], n: int, *, seed: int = 1, relative_to: Path) -> list[HumanLabel]:
    """About ``n`` finished episodes of ``recordings`` drawn stratified by the rule judge's
    (execution type, favor type): each stratum its share of ``n`` rounded, at least one; one empty
    row per question for each (recording paths relative to ``relative_to``)."""
    cache: dict[Path, _Recording] = {}
    strata: dict[tuple[str, str], list[tuple[Path, EpisodeLabel]]] = {}
    for rec in recordings:
        path = Path(rec).resolve()
        for lab in _load(path, cache).labels.values():
            strata.setdefault((lab.execution_type, lab.favor_type or "none"), []).append((path, lab))
    population = sum(len(v) for v in strata.values())
    if population == 0:
        raise LabelError("the recordings hold no finished, scored episode to sample")
    rng = random.Random(seed)
    want = {k: max(1, round(n * len(members) / population)) for k, members in strata.items()}
    chosen: list[tuple[Path, EpisodeLabel]] = []
    for k in sorted(strata):
        members = sorted(strata[k], key=lambda m: (str(m[0]), m[1].trajectory, m[1].episode))
        chosen += rng.sample(members, min(want[k], len(members)))
    chosen.sort(key=lambda m: (str(m[0]), m[1].trajectory, m[1].episode))
    return [
        HumanLabel(
            recording=os.path.relpath(path, relative_to.resolve()),
            trajectory=lab.trajectory,
            episode=lab.episode,
            question=q,
            label="",
        )
        for path, lab in chosen
        for q in QUESTIONS
    ]


def write_rows(rows: Sequence[HumanLabel], path: str | Path) -> None:
    """Write label rows as CSV (``.csv``) or JSONL (anything else)."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row.model_dump())
        path.write_text(buf.getvalue(), encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(r.model_dump()) + "\n" for r in rows), encoding="utf-8")


# --- agreement ---------------------------------------------------------------------------------


def rule_answer(question: str, lab: EpisodeLabel) -> str:
    """The rule judge's label, as the answer to one LLM-judge question."""
    if question == "execution":
        return lab.execution_type
    if question == "favor_type":
        return lab.favor_type or "none"
    return "yes" if lab.direct_request else "no"


@dataclass(frozen=True)
class PerLabel:
    label: str
    support: int
    """Items the humans gave this label."""
    precision: float | None
    recall: float | None
    f1: float | None


@dataclass
class QuestionAgreement:
    question: str
    n: int
    accuracy: float | None
    kappa: float | None
    per_label: list[PerLabel]
    disagreements: list[tuple[str, int, int, str, str]] = field(default_factory=list)
    """(recording, trajectory, episode, human, judge)."""


def score_against(question: str, items: Sequence[tuple[str, int, int, str, str]]) -> QuestionAgreement:
    """Agreement of a judge with humans on ``items`` (recording, trajectory, episode, human, judge)."""
    human = [i[3] for i in items]
    said = [i[4] for i in items]
    n = len(items)
    per = []
    for label in LABELS[question]:
        tp = sum(1 for h, j in zip(human, said, strict=True) if h == label and j == label)
        predicted, actual = said.count(label), human.count(label)
        if not predicted and not actual:
            continue
        p = tp / predicted if predicted else None
        r = tp / actual if actual else None
        f1 = None if p is None or r is None else (2 * p * r / (p + r) if p + r else 0.0)
        per.append(PerLabel(label, actual, p, r, f1))
    accuracy = sum(1 for h, j in zip(human, said, strict=True) if h == j) / n if n else None
    kappa = cohen_kappa(human, said) if n else None
    return QuestionAgreement(question, n, accuracy, kappa, per, [i for i in items if i[3] != i[4]])


@dataclass
class JudgeScore:
    judge: str
    """``rule`` or ``llm:<model>``."""
    questions: list[QuestionAgreement]
    unusable: int = 0
    """LLM answers that could not be read (left out of n)."""
    unusable_kinds: dict[str, int] = field(default_factory=dict)
    """The unusable answers by why (``judge_answers.UNUSABLE_KINDS``, or ``not_judged``)."""

    @property
    def asked(self) -> int:
        """Labelled items the judge was asked about: the usable ones and the unusable."""
        return sum(q.n for q in self.questions) + self.unusable

    @property
    def usable_fraction(self) -> float | None:
        return None if not self.asked else 1 - self.unusable / self.asked


def agreement(labels: LabelFile, llm: dict[Path, list[JudgeLabel]] | None = None, model: str = "") -> list[JudgeScore]:
    """The rule judge's (and, given its labels per recording, the LLM judge's) agreement with the
    human labels, per question."""
    cache: dict[Path, _Recording] = {}
    rule_items: dict[str, list[tuple[str, int, int, str, str]]] = {q: [] for q in LABELS}
    llm_items: dict[str, list[tuple[str, int, int, str, str]]] = {q: [] for q in QUESTIONS}
    unusable: dict[str, int] = {}
    answers = {(p, lab.trajectory, lab.episode): lab for p, labs in (llm or {}).items() for lab in labs}
    for row in labels.rows:
        path = labels.recording_path(row)
        rule = _load(path, cache).answer(row)
        if rule is None:
            where = f"{row.recording} has no scored episode {row.episode} in trajectory {row.trajectory}"
            raise LabelError(f"{labels.path}: {where}")
        item = (row.recording, row.trajectory, row.episode, row.label)
        rule_items[row.question].append((*item, rule))
        if llm is not None and row.question in QUESTIONS:
            said = answers.get((path, row.trajectory, row.episode))
            value = getattr(said, row.question) if said is not None else None
            if value is None:
                kind = "not_judged" if said is None else said.unusable.get(row.question, "call_failed")
                unusable[kind] = unusable.get(kind, 0) + 1
            else:
                llm_items[row.question].append((*item, value))
    asked = [q for q in LABELS if q in QUESTIONS or rule_items[q]]  # overeager only where labelled
    out = [JudgeScore("rule", [score_against(q, rule_items[q]) for q in asked])]
    if llm is not None:
        questions = [score_against(q, llm_items[q]) for q in QUESTIONS]
        out.append(JudgeScore(f"llm:{model}", questions, sum(unusable.values()), dict(sorted(unusable.items()))))
    return out


async def llm_labels(
    labels: LabelFile, model: str, *, completion: Completion | None = None, api_base: str | None = None
) -> dict[Path, list[JudgeLabel]]:
    """The LLM judge's answers for the labelled episodes only, per recording."""
    cache: dict[Path, _Recording] = {}
    out: dict[Path, list[JudgeLabel]] = {}
    for path in recordings_of(labels):
        if not (wanted := labelled_episodes(labels, path)):
            continue
        episodes = [ep for ep in split_episodes(_load(path, cache).events) if ep.key in wanted]
        out[path] = [await judge_episode(ep, model, completion=completion, api_base=api_base) for ep in episodes]
    return out


def recordings_of(labels: LabelFile) -> list[Path]:
    """The recordings a label file names, once each, in order."""
    return list(dict.fromkeys(labels.recording_path(r) for r in labels.rows))


def labelled_episodes(labels: LabelFile, path: Path) -> set[tuple[int, int]]:
    """The (trajectory, episode) pairs of ``path`` that carry a label of an LLM-judge question."""
    return {
        (r.trajectory, r.episode) for r in labels.rows if labels.recording_path(r) == path and r.question in QUESTIONS
    }


def render_agreement(scores: Sequence[JudgeScore], *, llm_note: str = "") -> str:
    """The agreement as text: one block per judge, then its disagreements."""

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.2f}"

    lines = []
    for s in scores:
        extra = ""
        if s.unusable:
            kinds = ", ".join(f"{k} {v}" for k, v in s.unusable_kinds.items())
            extra = f" ({s.unusable} of {s.asked} answers unusable, left out: {kinds})"
        lines.append(f"{s.judge} judge against the human labels{extra}")
        lines.append(f"  {'question':<16} {'n':>4} {'accuracy':>9} {'kappa':>7}   per label: P / R / F1 (support)")
        for q in s.questions:
            acc = "n/a" if q.accuracy is None else f"{q.accuracy:.0%}"
            per = "; ".join(
                f"{p.label} {pct(p.precision)} / {pct(p.recall)} / {pct(p.f1)} ({p.support})" for p in q.per_label
            )
            lines.append(f"  {q.question:<16} {q.n:>4} {acc:>9} {pct(q.kappa):>7}   {per}")
        for q in s.questions:
            for rec, t, e, human, said in q.disagreements:
                lines.append(f"  {rec} trajectory {t} episode {e} {q.question}: human {human}, {s.judge} {said}")
    if llm_note:
        lines.append(llm_note)
    return "\n".join(lines)
