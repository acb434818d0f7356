"""Shared catalog code: batching, records, prices, validation, settings and formatting."""
