"""Shared course code: batching, records, fees, validation, settings and formatting."""
