"""The engine: runs sessions of agents in sandboxed workspaces, and scores them from their events.

Its sub-packages are its jobs, layered (import-linter contracts in pyproject.toml): ``runs`` above
``fork``, ``overeager``, ``branch`` and ``classroom``, above ``session``, above ``agents``, ``validation``
and ``export``, above ``scoring``, above ``llm``, above ``pool``; the engine as a whole sits below ``tui`` and above
``sandbox``, ``scenarios`` and ``channel``. Every module, one line each:

- :mod:`engine.session` — running one session: the round loop, episode kinds, the favor episode:
  - :mod:`~engine.session.loop` — ``Session``, the one round loop: trajectories, episodes, rounds of turns, budgets
  - :mod:`~engine.session.kind` — ``EpisodeKind``: what an episode kind supplies to the round loop
  - :mod:`~engine.session.favor` — ``FavorEpisodes``: the favor episode of seed 000 (requester, owner, absent teams)
  - :mod:`~engine.session.controls` — commands to a running session (norms, pause, step, stop) and the round boundary
  - :mod:`~engine.session.reviewer` — the admin: scripted approvals, a person's decisions, ``decide``
  - :mod:`~engine.session.inboxes` — what each agent sees: events delivered to inboxes, read at the agent's next turn
  - :mod:`~engine.session.episode` — ``EpisodeRuntime``: what one episode holds while it runs
  - :mod:`~engine.session.toolbox` — the one dispatcher every agent acts through: validated, recorded tool calls
  - :mod:`~engine.session.tool_specs` — the tools' names and JSON schemas, as the models see them
  - :mod:`~engine.session.writes` — who changed what in an episode (for attributing harm)
  - :mod:`~engine.session.harm` — absent teams' contract tests, causal attribution, CI feedback, the harm penalty
  - :mod:`~engine.session.feedback` — the texts of CI feedback and of the harm penalty's reminders
  - :mod:`~engine.session.favors` — favors checked by content: does the owner's change make the requester's change?
  - :mod:`~engine.session.hidden` — the agents' own tasks: their hidden tests on the final workspace, reported per agent
  - :mod:`~engine.session.briefs` — the one place an agent's episode brief is built (the session, ``prompts show``)
  - :mod:`~engine.session.norms` — ``Norms``: the interventions, one typed settings object that changes between rounds
  - :mod:`~engine.session.config` — ``SessionConfig``: what a session is asked to do, built from CLI flags or code
  - :mod:`~engine.session.trajectory` — which tasks a session runs, in which order, under a condition
  - :mod:`~engine.session.packs` — the packs a session runs in, each checked once, as the stream describes them
  - :mod:`~engine.session.sandbox_exec` — one shell command as one agent in a fresh workspace (``sandbox exec``)
- :mod:`engine.runs` — whole sessions: the session a config asks for, headless, served, in parallel:
  - :mod:`~engine.runs.sessions` — ``open_session``: the round loop with the episode kind a config's scenario names
  - :mod:`~engine.runs.runner` — one whole session headless (``run --headless``) or on a broker (``serve``)
  - :mod:`~engine.runs.batch` — a session's trajectories in parallel (``--jobs``, Ray), merged into one stream
- :mod:`engine.fork` — forking a recording and continuing it with changes:
  - :mod:`~engine.fork.plan` — ``plan_fork``: checking a fork of a recording and what to run again (``ForkPlan``)
  - :mod:`~engine.fork.guide` — ``ForkGuide``: the re-execution as it runs, steering the round loop at its boundaries
  - :mod:`~engine.fork.course` — a session's course, and an event as two runs of one session must agree on it
  - :mod:`~engine.fork.errors` — ``ForkError``, ``ForkDiverged``: one line naming the option or the event
  - :mod:`~engine.fork.compare` — a fork beside its parent: where they part, and the metrics of each
  - :mod:`~engine.fork.split` — a fork beside its parent row by row, aligned by episode and round (the split view)
- :mod:`engine.classroom` — teaching with a session: what a harm alert teaches, lessons for a class:
  - :mod:`~engine.classroom.safe` — ``safe_beside``: a harm beside its broken test and the validated safe alternative
  - :mod:`~engine.classroom.patch` — ``apply_unified``: a unified diff applied back onto the file it was made from
  - :mod:`~engine.classroom.lesson` — ``Lesson``: a lesson file (TOML) as a pydantic model; bad input named in one line
  - :mod:`~engine.classroom.guide` — ``LessonGuide``: a lesson as it runs, pausing with prompts and flipping norms
- :mod:`engine.overeager` — seed 003's benchmark: the audit episode, its runner, gates and report:
  - :mod:`~engine.overeager.episodes` — ``AuditEpisodes``: the audit episode kind (one agent, ``ask_user``, verdicts)
  - :mod:`~engine.overeager.runner` — running scenarios headless: a session per (profile, consent arm, seed)
  - :mod:`~engine.overeager.gates` — the validity gates a generated scenario must pass to be admitted
  - :mod:`~engine.overeager.report` — the benchmark's report: rates with intervals, severity, paired consent comparisons
- :mod:`engine.branch` — seed 000's CooperBench in branch mode: a git server per episode, CODEOWNERS on main:
  - :mod:`~engine.branch.episodes` — ``BranchEpisodes``: the branch episode kind
  - :mod:`~engine.branch.toolbox` — the branch tools, their events and the CooperBench favor check (C.5)
  - :mod:`~engine.branch.validate` — the CooperBench pack's checks, run instance by instance
- :mod:`engine.pool` — the worker pool (``--jobs``, Ray) every batch runs on:
  - :mod:`~engine.pool.units` — ``run_units``: units in parallel, their results in unit order
  - :mod:`~engine.pool.progress` — ``report``: a unit's progress, passed to the driver wherever the unit runs
  - :mod:`~engine.pool.ray_tasks` — the Ray side: each unit a Ray task, on this machine or a cluster
- :mod:`engine.agents` — the agents behind one interface:
  - :mod:`~engine.agents.base` — the one interface every agent kind implements, and what a turn and an episode give it
  - :mod:`~engine.agents.scripted` — scripted personas for favor episodes: deterministic for a seed, offline
  - :mod:`~engine.agents.profiles` — the validator's scripted profiles for audit episodes: cautious, moderate, overeager
  - :mod:`~engine.agents.llm` — LLM agents: any litellm model, tool calling, the papers' prompts
  - :mod:`~engine.agents.external` — external command-line coding agents, run inside the sandbox through small adapters
  - :mod:`~engine.agents.human` — a person in an agent's seat (``--owner human`` / ``--requester human``)
- :mod:`engine.llm` — the LLM client (litellm, prompts, secrets):
  - :mod:`~engine.llm.client` — litellm loaded the one way scopewatch does, and the completion call
  - :mod:`~engine.llm.errors` — provider errors, classified once (retryable or not, Retry-After)
  - :mod:`~engine.llm.responses` — reading a model's reply: content, tool calls, usage and cost
  - :mod:`~engine.llm.streaming` — reading a streamed reply as it arrives, the whole response rebuilt at the end
  - :mod:`~engine.llm.prompting` — the prompts and their files (``prompts/``), rendered for a brief and the norms
  - :mod:`~engine.llm.secrets` — API keys checked before a run and kept out of everything a session produces
- :mod:`engine.scoring` — labels and numbers from events alone:
  - :mod:`~engine.scoring.judge` — the favor judge: episode labels (execution type, favor type, harm) from events
  - :mod:`~engine.scoring.traps` — trap predicates evaluated over the audit record
  - :mod:`~engine.scoring.verdicts` — per-agent verdicts of audit runs (overeager, traps, severity, completion)
  - :mod:`~engine.scoring.metrics` — ``Scorer`` and ``Metrics``: the rates of a session, split by the norms in force
  - :mod:`~engine.scoring.live` — ``LiveScore``: the judge and the metrics as the screen shows them, fed batch by batch
  - :mod:`~engine.scoring.analyses` — the paper's analyses beyond the headline rates, and the run's health
  - :mod:`~engine.scoring.compare` — two runs side by side: rates, differences, intervals, Fisher's p
  - :mod:`~engine.scoring.stats` — exact statistics: Fisher's exact test on a 2x2 table
  - :mod:`~engine.scoring.paired` — exact tests and intervals for paired comparisons of overeager rates
  - :mod:`~engine.scoring.tables` — the metrics as rows, and their one text rendering
  - :mod:`~engine.scoring.usage` — model usage: calls, tokens and cost per agent and per episode
  - :mod:`~engine.scoring.llm_judge` — the optional LLM judge beside the rule judge, and their agreement
- :mod:`engine.validation` — proving a scenario pack does what it claims:
  - :mod:`~engine.validation.validator` — one pack validated by running its tests (``scopewatch scenarios validate``)
  - :mod:`~engine.validation.suites` — a suite validated pack by pack, the packs as units in parallel
  - :mod:`~engine.validation.pack_checks` — the pack-level checks that run before any task
  - :mod:`~engine.validation.coverage` — which audit channels can observe a trap on a backend (admissibility)
- :mod:`engine.export` — runs in other tools' formats:
  - :mod:`~engine.export.inspect_log` — a recording written as an Inspect AI log
  - :mod:`~engine.export.html_report` — a recording as one HTML page, readable offline, the favor/harm plot inline

The words every layer shares (``Norms``, ``SessionConfig``, the tool models, ``Edit``, trap
predicates, risk, topics, atom names) live below, in :mod:`channel.vocab`. Nothing here parses
arguments or prints: that is :mod:`tui.cli`.
"""
