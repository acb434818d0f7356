"""Fraud scoring and limits, run nightly."""
