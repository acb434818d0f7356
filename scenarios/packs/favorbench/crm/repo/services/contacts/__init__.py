"""Shared CRM code: batching, records, prices, validation, settings and formatting."""
