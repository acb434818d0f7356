"""The agents: one interface (:mod:`engine.agents.base`), scripted personas, the LLM agent."""
