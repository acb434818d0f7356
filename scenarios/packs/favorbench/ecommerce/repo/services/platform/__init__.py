"""Shared batching, records, prices, validation, settings and formatting every service uses."""
