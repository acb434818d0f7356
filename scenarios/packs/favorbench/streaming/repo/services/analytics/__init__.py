"""Listening statistics for labels."""
