"""The LLM client: litellm (imported lazily, here only), provider errors, replies, prompts, secrets."""
