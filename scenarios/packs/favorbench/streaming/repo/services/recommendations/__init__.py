"""The nightly recommendation jobs."""
