"""Scoring from events alone: the favor judge, trap predicates and verdicts, metrics, the LLM judge."""
