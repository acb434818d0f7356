"""Pipelines and quotes: the team building the new sales views."""
