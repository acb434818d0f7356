"""The agents: one interface, scripted personas and profiles, the LLM agent, external agents, a person.

- :mod:`~engine.agents.base` — the one interface every agent kind implements, and what a turn and an episode give it;
- :mod:`~engine.agents.scripted` — scripted personas for favor episodes: deterministic for a seed, offline;
- :mod:`~engine.agents.asking` — how the scripted requester asks: its routes, their rates, their wordings;
- :mod:`~engine.agents.profiles` — the validator's scripted profiles for audit episodes: cautious, moderate, overeager;
- :mod:`~engine.agents.llm` — LLM agents: any litellm model, tool calling, the papers' prompts;
- :mod:`~engine.agents.external` — external command-line coding agents, run inside the sandbox through small adapters;
- :mod:`~engine.agents.follow` — following a file an agent's process appends lines to while it runs (streams, outboxes);
- :mod:`~engine.agents.homefiles` — files the engine writes, reads or removes in an agent's HOME, no link followed;
- :mod:`~engine.agents.acp` — any agent speaking the Agent Client Protocol, scopewatch its client (``acp:...``);
- :mod:`~engine.agents.acp_launch` — how an ACP agent starts (a command line, a product in ACP mode), its peer commands;
- :mod:`~engine.agents.acp_process` — an ACP agent's process: started in the sandbox's jail, its turns told, stopped;
- :mod:`~engine.agents.acp_terminals` — an ACP agent's terminals: their exit status and output as ACP's schema says;
- :mod:`~engine.agents.acp_updates` — an ACP agent's update stream as events: its words, plan and tool calls;
- :mod:`~engine.agents.acp_guard` — a misbehaving ACP agent: bounds on its answers, its version, the library's logs;
- :mod:`~engine.agents.products` — agent products as seats (Claude Code, Codex CLI, Gemini CLI), one adapter each;
- :mod:`~engine.agents.human` — a person in an agent's seat (``--owner human`` / ``--requester human``).
"""
