"""Feeds to airlines and hotels."""
