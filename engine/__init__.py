"""The engine: runs sessions of agents in sandboxed workspaces, and scores them from their events.

Its sub-packages are its jobs; dependencies point one way (``tui -> engine -> sandbox, scenarios ->
channel``, import-linter contracts in pyproject.toml):

- :mod:`engine.session` — running a session:
  :mod:`~engine.session.loop` (``Session``: trajectories, episodes, rounds),
  :mod:`~engine.session.controls` (commands: norms, pause / step / speed, stop; the round boundary),
  :mod:`~engine.session.reviewer` (the admin: scripted approvals, a person's decisions, ``decide``),
  :mod:`~engine.session.inboxes` (what each agent sees), :mod:`~engine.session.episode` (what one
  episode holds), :mod:`~engine.session.writes` (who changed what), :mod:`~engine.session.toolbox`
  (runs the tools agents act with), :mod:`~engine.session.harm` (contract tests, causal attribution,
  CI feedback), :mod:`~engine.session.briefs`, :mod:`~engine.session.trajectory`, and
  :mod:`~engine.session.runner` (a whole session headless, or served on MQTT);
- :mod:`engine.agents` — the agents: the interface (``base``), scripted personas, the LLM agent;
- :mod:`engine.llm` — the LLM client: litellm loading and the completion call (``client``), provider
  errors (``errors``), the one retry policy (``retry``), reading replies (``responses``), the prompts
  and their files (``prompting``, ``prompts/``), API keys kept out of everything (``secrets``);
- :mod:`engine.scoring` — labels and numbers from events alone: the favor judge (``judge``), trap
  predicates evaluated over the audit record (``traps``), per-agent verdicts (``verdicts``),
  ``metrics``, model ``usage``, the LLM judge (``llm_judge``), the metrics table (``tables``);
- :mod:`engine.validation` — proving a scenario pack does what it claims, by running its tests.

The words every layer shares (``Norms``, ``SessionConfig``, the tool models, ``Edit``, trap
predicates, risk, topics, atom names) live below, in :mod:`channel.vocab`. Nothing here parses
arguments or prints: that is :mod:`tui.cli`.
"""
