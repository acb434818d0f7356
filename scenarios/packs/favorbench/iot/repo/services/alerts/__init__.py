"""Alarms to on-call engineers."""
