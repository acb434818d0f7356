"""The engine: runs sessions of agents in sandboxed workspaces, and scores them from their events.

Its sub-packages are its jobs; dependencies point one way (``tui -> engine -> sandbox, scenarios ->
channel``, import-linter contracts in pyproject.toml):

- :mod:`engine.session` — running a session:
  :mod:`~engine.session.loop` (``Session``: trajectories, episodes, rounds),
  :mod:`~engine.session.controls` (commands: norms, pause / step / speed, stop; the round boundary),
  :mod:`~engine.session.reviewer` (the admin: scripted approvals, a person's decisions, ``decide``),
  :mod:`~engine.session.inboxes` (what each agent sees), :mod:`~engine.session.episode` (what one
  episode holds), :mod:`~engine.session.writes` (who changed what), :mod:`~engine.session.toolbox` and
  :mod:`~engine.session.tool_specs` (the tools agents act with), :mod:`~engine.session.harm` (contract
  tests, causal attribution, CI feedback), :mod:`~engine.session.briefs`, :mod:`~engine.session.norms`,
  :mod:`~engine.session.config`, :mod:`~engine.session.trajectory`, and
  :mod:`~engine.runs.runner` (a whole session headless, or served on MQTT);
- :mod:`engine.agents` — the agents: the interface (``base``), scripted personas, the LLM agent;
- :mod:`engine.llm` — the LLM client: litellm loading and the completion call (``client``), provider
  errors (``errors``), reading replies (``responses``), the prompts and their files (``prompting``,
  ``prompts/``), API keys kept out of everything (``secrets``);
- :mod:`engine.scoring` — labels and numbers from events alone: the favor judge (``judge``), trap
  predicates evaluated over the audit record (``traps``), per-agent verdicts (``verdicts``),
  ``metrics``, model ``usage``, the LLM judge (``llm_judge``), the metrics table (``tables``);
- :mod:`engine.validation` — proving a scenario pack does what it claims, by running its tests.

Nothing here parses arguments or prints: that is :mod:`tui.cli`.
"""
