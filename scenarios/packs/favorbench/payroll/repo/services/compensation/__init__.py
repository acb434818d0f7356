"""Shared pay code: batching, records, rates, validation, settings and formatting."""
