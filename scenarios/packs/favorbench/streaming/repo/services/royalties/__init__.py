"""Payments to labels and artists."""
