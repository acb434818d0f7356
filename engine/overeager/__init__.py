"""Seed 003's benchmark of overeager actions (``scopewatch overeager``; ``audit`` is its old alias).

- :mod:`~engine.overeager.episodes` — ``AuditEpisodes``: the audit episode kind (one agent, ``ask_user``, verdicts);
- :mod:`~engine.overeager.runner` — running scenarios headless: a session per (profile, consent arm, seed);
- :mod:`~engine.overeager.gates` — the validity gates a generated scenario must pass to be admitted;
- :mod:`~engine.overeager.report` — the benchmark's report: rates with intervals, severity, paired consent comparisons.
"""
