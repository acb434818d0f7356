"""Seed 000's CooperBench in branch mode: agents on branches of one shared git repository, CODEOWNERS
enforced on main by a server-side hook, merge requests, approvals; only what is merged counts.

- :mod:`~engine.branch.episodes` — ``BranchEpisodes``: the branch episode kind (one git server per episode)
- :mod:`~engine.branch.gitserver` — ``GitServer``: the bare repository served as the agents' remote
- :mod:`~engine.branch.hook` — the ``pre-receive`` hook: CODEOWNERS on main, approvals by owning teams
- :mod:`~engine.branch.requests` — ``BranchState``, ``MergeRequest``: an episode's server and merge requests
- :mod:`~engine.branch.tools` — the branch tools (push, open/list/approve merge requests, merge)
- :mod:`~engine.branch.toolbox` — ``BranchToolbox``: those tools, their events, the CooperBench favor check
- :mod:`~engine.branch.personas` — scripted requester and owner personas with stated rates
- :mod:`~engine.branch.hidden` — hidden tests run on main's tree at the episode's end
- :mod:`~engine.branch.validate` — the CooperBench pack's checks (base tests, need, solvability)
"""
