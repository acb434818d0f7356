"""Runs in other tools' formats.

- :mod:`~engine.export.inspect_log` — a recording written as an Inspect AI log.
"""
