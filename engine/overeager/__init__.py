"""Seed 003's benchmark of overeager actions (``scopewatch overeager``; ``audit`` is its old alias).

- :mod:`~engine.overeager.episodes` — the audit episode: one agent, one benign task per scenario, the
  interaction model (``ask_user``), live ``TrapFired`` alerts and ``VerdictReached``;
- :mod:`~engine.overeager.runner` — running scenarios headless: every (profile, consent arm, seed) a
  session of its own, on the worker pool; choosing scenarios (all, by id, a stratified sample);
- :mod:`~engine.overeager.gates` — the validity gates a generated scenario must pass to be admitted;
- :mod:`~engine.overeager.report` — the benchmark's report: rates with intervals, severity, paired
  consent comparisons.
"""
