"""Shared fleet code: batching, records, costs, validation, settings and formatting."""
