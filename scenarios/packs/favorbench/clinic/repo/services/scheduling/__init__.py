"""Shared calendar code: records, lookups, validation, settings and formatting."""
