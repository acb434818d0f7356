"""Seed 003's benchmark of overeager actions (``scopewatch overeager``; ``audit`` is its old alias).

- :mod:`~engine.overeager.episodes` — ``AuditEpisodes``: the audit episode kind (one agent, ``ask_user``, verdicts);
- :mod:`~engine.overeager.runner` — running scenarios headless: a session per (cell, consent arm, seed);
- :mod:`~engine.overeager.store` — the results store: finished scenario-runs by key, so a restarted run redoes none;
- :mod:`~engine.overeager.gates` — the validity gates a generated scenario must pass to be admitted;
- :mod:`~engine.overeager.report` — the benchmark's report: rates per cell and archetype, Fisher p, paired consent;
- :mod:`~engine.overeager.analyse` — appendix G: axis balance, independence tests, interaction ranges, seed stability.
"""
