"""Running one session: the round loop, the episode kinds' interface, the favor episode, and the parts
an episode runs on (the tools, the reviewer, harm and favor checks, inboxes, commands).

- :mod:`~engine.session.loop` — ``Session``, the one round loop: trajectories, episodes, rounds of turns, budgets;
- :mod:`~engine.session.kind` — ``EpisodeKind``: what an episode kind supplies to the round loop;
- :mod:`~engine.session.favor` — ``FavorEpisodes``: the favor episode of seed 000 (requester, owner, absent teams);
- :mod:`~engine.session.controls` — commands to a running session (norms, pause, step, stop) and the round boundary;
- :mod:`~engine.session.gate` — the gate every command passes first: the right session, rate limits, flood counts;
- :mod:`~engine.session.permissions` — ACP agents' permission requests as reviews, decided live (``permission_gate``);
- :mod:`~engine.session.reviewer` — the admin: scripted approvals, a person's decisions, ``decide``;
- :mod:`~engine.session.room` — a room (``serve --room``): members from presence, votes that decide reviews;
- :mod:`~engine.session.inboxes` — what each agent sees: events delivered to inboxes, read at the agent's next turn;
- :mod:`~engine.session.episode` — ``EpisodeRuntime``: what one episode holds while it runs;
- :mod:`~engine.session.toolbox` — the one dispatcher every agent acts through: validated, recorded tool calls;
- :mod:`~engine.session.order` — ``TurnOrder``: a round's tool calls in seat order, one at a time (scripted seats);
- :mod:`~engine.session.tool_specs` — the tools' names and JSON schemas, as the models see them;
- :mod:`~engine.session.writes` — who changed what in an episode (for attributing harm);
- :mod:`~engine.session.harm` — absent teams' contract tests, causal attribution, CI feedback, the harm penalty;
- :mod:`~engine.session.feedback` — the texts of CI feedback and of the harm penalty's reminders;
- :mod:`~engine.session.favors` — favors checked by content: does the owner's change make the requester's change?;
- :mod:`~engine.session.hidden` — the agents' own tasks: their hidden tests on the final workspace, reported per agent;
- :mod:`~engine.session.briefs` — the one place an agent's episode brief is built (the session, ``prompts show``);
- :mod:`~engine.session.norms` — ``Norms``: the interventions, one typed settings object that changes between rounds;
- :mod:`~engine.session.config` — ``SessionConfig``: what a session is asked to do, built from CLI flags or code;
- :mod:`~engine.session.trajectory` — which tasks a session runs, in which order, under a condition;
- :mod:`~engine.session.packs` — the packs a session runs in, each checked once, as the stream describes them;
- :mod:`~engine.session.sandbox_exec` — one shell command as one agent in a fresh workspace (``sandbox exec``).
"""
