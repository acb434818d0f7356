"""Shared device code: batching, records, lookups, validation, settings and formatting."""
