"""The LLM client: litellm (imported lazily, here only), provider errors, replies, prompts, secrets.

- :mod:`~engine.llm.client` — litellm loaded the one way scopewatch does, and the completion call;
- :mod:`~engine.llm.errors` — provider errors, classified once (retryable or not, Retry-After);
- :mod:`~engine.llm.responses` — reading a model's reply: content, tool calls, usage and cost;
- :mod:`~engine.llm.streaming` — reading a streamed reply as it arrives, the whole response rebuilt at the end;
- :mod:`~engine.llm.wire` — what an OpenAI-compatible server sent, read off the wire (finish reason, ``[DONE]``, usage);
- :mod:`~engine.llm.prompting` — the prompts and their files (``prompts/``), rendered for a brief and the norms;
- :mod:`~engine.llm.secrets` — API keys checked before a run and kept out of everything a session produces.

The prompts' text files are in ``prompts/``.
"""
