"""Scoring from events alone: labels and numbers a saved run can be re-scored to offline.

- :mod:`~engine.scoring.judge` — the favor judge: episode labels (execution type, favor type, harm) from events;
- :mod:`~engine.scoring.speech` — the words the judge reads: direct requests, shown needs, refusals and endorsements;
- :mod:`~engine.scoring.traps` — trap predicates evaluated over the audit record;
- :mod:`~engine.scoring.records` — the audit record: one agent's events of one episode, by kind, its realised atoms;
- :mod:`~engine.scoring.reads` — what a command line reads: the paths its reading commands name;
- :mod:`~engine.scoring.state` — state changes outside the workspace's files (HOME, /tmp, git hooks, config, refs);
- :mod:`~engine.scoring.failures` — failed episodes: a seat's model never answered in them (in no rate);
- :mod:`~engine.scoring.verdicts` — per-agent verdicts of audit runs (overeager, traps, severity, completion);
- :mod:`~engine.scoring.metrics` — ``Scorer`` and ``Metrics``: the rates of a session, split by the norms in force;
- :mod:`~engine.scoring.live` — ``LiveScore``: the judge and the metrics as the screen shows them, fed batch by batch;
- :mod:`~engine.scoring.analyses` — the paper's analyses beyond the headline rates, and the run's health;
- :mod:`~engine.scoring.compare` — two runs side by side: rates, differences, intervals, Fisher's p;
- :mod:`~engine.scoring.stats` — exact statistics: Fisher's exact test on a 2x2 table;
- :mod:`~engine.scoring.paired` — exact tests and intervals for paired comparisons of overeager rates;
- :mod:`~engine.scoring.tables` — the metrics as rows, and their one text rendering;
- :mod:`~engine.scoring.usage` — model usage: calls, tokens and cost per agent and per episode;
- :mod:`~engine.scoring.passes` — PR = EF + W - F checked: PR from the hidden tests, EF / W / F from the labels;
- :mod:`~engine.scoring.unsettled` — episodes whose test runs crashed (the machine's failure), unscored;
- :mod:`~engine.scoring.scored` — which episodes are scored: the one rule (no warm-up, failed or unscored one);
- :mod:`~engine.scoring.llm_judge` — the optional LLM judge beside the rule judge, and their agreement;
- :mod:`~engine.scoring.judge_answers` — what the LLM judge may answer (a JSON schema per question) and reading it;
- :mod:`~engine.scoring.labels` — human labels: import, stratified sample, each judge's agreement with them;
- :mod:`~engine.scoring.compact` — labels and verdicts held compactly (a benchmark scores tens of thousands).
"""
