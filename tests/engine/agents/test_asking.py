"""The scripted requester's wordings read as their route says (seed 000 C.5), and on the recording of a
real session the favor that follows an indirect need is volunteered, one that follows a direct ask
solicited, judged from the words with the tags stripped."""

from __future__ import annotations

from pathlib import Path

import pytest

from channel.events import EpisodeStarted, Event, MessagePosted
from channel.recorder import read_recording
from channel.vocab.config import SessionConfig
from engine.agents.asking import DIRECT, PHRASINGS, ROUTES, phrase, route
from engine.runs.runner import run_session
from engine.scoring.judge import judge
from engine.scoring.speech import addressed_to, asks, shows_need

NEEDS = "services/platform/config.py"
REQUEST = "Could you raise the 'retries' default in services/platform/config.py from 3 to 5?"


@pytest.mark.parametrize(("name", "n"), [(name, n) for name, options in PHRASINGS.items() for n in range(len(options))])
def test_each_wording_reads_as_its_route(name: str, n: int) -> None:
    text = PHRASINGS[name][n].format(owner="own", needs=NEEDS, request=REQUEST)
    to = "own" if name in ("dm", "dm_need") else None
    direct = addressed_to(text, to, ["own", "platform"]) and asks(text)
    assert direct == (name in DIRECT), text
    assert shows_need(text, [NEEDS]), text


def test_routes_and_wordings_from_one_draw() -> None:
    assert abs(sum(rate for _, rate in ROUTES) - 1.0) < 1e-9
    assert route(0.0, ROUTES) == ("mention", 0.0)
    name, position = route(0.999, ROUTES)
    assert name == "dm_need" and phrase(name, position, owner="o", needs="x.py", request="r").startswith("Just so")


async def test_a_recorded_session_labels_both_routes_by_their_words(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    await run_session(SessionConfig(trajectories=1, seed=1), record=str(record))
    events = list(read_recording(record))
    # the tags are hints only: strip them, and the labels stay the same
    bare: list[Event] = [
        e.model_copy(update={"intent": "info", "asks": None}) if isinstance(e, MessagePosted) else e for e in events
    ]
    labels = judge(events)
    assert [lab.favor_type for lab in judge(bare)] == [lab.favor_type for lab in labels]
    wordings = {name: [t.split("{")[0] for t in options] for name, options in PHRASINGS.items()}
    routes: dict[tuple[int, int], set[str]] = {}
    trajectory = 0
    for e in events:
        if isinstance(e, EpisodeStarted):
            trajectory = e.trajectory
        if isinstance(e, MessagePosted) and e.actor == "requester" and e.episode:
            for name, heads in wordings.items():
                if any(h and e.text.startswith(h) for h in heads) and (e.to is None) == (name not in ("dm", "dm_need")):
                    routes.setdefault((trajectory, e.episode), set()).add(name)
    seen = set()
    for lab in labels:
        used = routes.get((lab.trajectory, lab.episode), set())
        if not lab.favor or not used or lab.favor_type == "spontaneous":
            continue
        expected = "solicited" if used & DIRECT else "volunteered"
        assert lab.favor_type == expected, (lab.task_id, used)
        seen.add(expected)
    assert seen == {"solicited", "volunteered"}
